// The wait-state panel (wait_panel.hpp).
#include "wait_panel.hpp"

#include "tree_model.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace idb::gui {

WaitPanel::WaitPanel(QWidget *parent)
    : QWidget(parent), title_(new QLabel(this)), table_(new QTableWidget(this)) {
  title_->setWordWrap(true);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(title_);
  layout->addWidget(table_, 1);
  setTable({});
}

void WaitPanel::setTable(const WaitTable &t) {
  title_->setText(t.title.empty() ? tr("Wait states: choose a node in the tree")
                                  : QString::fromStdString(t.title));
  // Short headers, so that the eight columns of a summary run fit beside the histogram.
  QStringList headers = {tr("pattern"), tr("wait"), tr("count"), tr("% node")};
  if (t.spread) headers << tr("ranks") << tr("min") << tr("max") << tr("max rank");
  table_->clear();
  table_->setColumnCount(int(headers.size()));
  table_->setHorizontalHeaderLabels(headers);
  table_->setRowCount(int(t.rows.size()));
  for (int r = 0; r < int(t.rows.size()); ++r) {
    const WaitRow &w = t.rows[std::size_t(r)];
    QStringList cells = {QString::fromStdString(w.pattern), formatValue(w.seconds, Format::seconds),
                         formatValue(double(w.instances), Format::integer),
                         formatValue(100 * w.share, Format::percent)};
    if (t.spread && w.ranks > 0)
      cells << formatValue(w.ranks, Format::integer) << formatValue(w.min, Format::seconds)
            << formatValue(w.max, Format::seconds) << QString::number(w.rank_max);
    for (int c = 0; c < int(cells.size()); ++c) {
      auto *item = new QTableWidgetItem(cells[c]);
      if (c > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      table_->setItem(r, c, item);
    }
  }
  table_->resizeColumnsToContents();
}

QString WaitPanel::title() const {
  return title_->text();
}

int WaitPanel::rowCount() const {
  return table_->rowCount();
}

QString WaitPanel::cell(int row, int column) const {
  const QTableWidgetItem *item = table_->item(row, column);
  return item ? item->text() : QString();
}

} // namespace idb::gui

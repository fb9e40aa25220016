// The flat profile view (flat_view.hpp).
#include "flat_view.hpp"

#include "runs_view.hpp"
#include "tree_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace idb::gui {

FlatView::FlatView(QWidget *parent)
    : QWidget(parent), tree_(new QComboBox(this)), view_(makeTableView(&table_, this)) {
  auto *bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Tree:")));
  bar->addWidget(tree_, 1);
  auto *note = new QLabel(
      tr("Each probe's own time (its exclusive time without the probes' cost) and inclusive "
         "time over every call path that reached it, the most own time first; a recursive "
         "probe's inclusive time counts once. A probe with untimed activations is timed by its "
         "samples, and its callers' own time is without them; \"at most\" (capped): its "
         "samples said more than its parent's time leaves, and its times are that bound. "
         "Percentages: of the tree's corrected time."),
      this);
  note->setWordWrap(true);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 4, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(note);
  layout->addWidget(view_, 1);
  view_->horizontalHeader()->setStretchLastSection(false);
  connect(tree_, &QComboBox::activated, this,
          [this](int i) { showTree(tree_->itemData(i).toInt()); });
  connect(view_, &QTableView::clicked, this, [this](const QModelIndex &index) {
    emit probeClicked(index.siblingAtColumn(kFlatProbeIdColumn).data(kValueRole).toLongLong());
  });
}

void FlatView::setRun(RunDataPtr run) {
  run_ = std::move(run);
  listTrees(tree_, *run_);
  showTree(-1);
}

void FlatView::showTree(int index) {
  if (!run_) return;
  const profile::Cfh *cfh = chosen_tree(*run_, index);
  FlatTable flat = cfh ? flat_table(run_->profile, *cfh) : FlatTable{};
  table_.setTable(std::move(flat.table), std::move(flat.formats));
  view_->horizontalHeader()->setSortIndicator(-1, Qt::DescendingOrder); // as flat_rows orders
  if (table_.columnCount() > kFlatProbeIdColumn) {
    view_->setColumnHidden(kFlatProbeIdColumn, true);
    view_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch); // the labels
  }
  tree_->setCurrentIndex(tree_->findData(index));
}

bool FlatView::chooseProbe(const QString &prefix) {
  for (int row = 0; row < table_.rowCount(); ++row) {
    const QModelIndex label = table_.index(row, 0);
    if (label.data().toString().startsWith(prefix)) {
      view_->setCurrentIndex(label);
      view_->scrollTo(label);
      return true;
    }
  }
  return false;
}

} // namespace idb::gui

// The runs view (runs_view.hpp).
#include "runs_view.hpp"

#include "diff_tree.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace idb::gui {

QTableView *makeTableView(QAbstractItemModel *model, QWidget *parent) {
  auto *view = new QTableView(parent);
  view->setModel(model);
  view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder); // rows as they came
  view->setSortingEnabled(true);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setSelectionMode(QAbstractItemView::SingleSelection);
  view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view->setAlternatingRowColors(true);
  view->setTextElideMode(Qt::ElideMiddle); // a label's end (its source location) stays
  view->horizontalHeader()->setStretchLastSection(true);
  view->verticalHeader()->setDefaultSectionSize(22);
  return view;
}

namespace {

QWidget *titled(const QString &title, QWidget *content) {
  auto *box = new QWidget;
  auto *layout = new QVBoxLayout(box);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(new QLabel(QStringLiteral("<b>%1</b>").arg(title)));
  layout->addWidget(content);
  return box;
}

} // namespace

RunsView::RunsView(QWidget *parent)
    : QWidget(parent), runs_view_(makeTableView(&runs_, this)),
      attributes_view_(makeTableView(&attributes_, this)) {
  auto *split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(titled(tr("Runs"), runs_view_));
  split->addWidget(titled(tr("Attributes of the chosen run"), attributes_view_));
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(split);
  connect(runs_view_, &QTableView::clicked, this, [this](const QModelIndex &index) {
    const int label = runs_.column("label");
    if (label >= 0) emit runChosen(index.siblingAtColumn(label).data().toString());
  });
  runs_view_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(runs_view_, &QTableView::customContextMenuRequested, this, [this](const QPoint &at) {
    const QModelIndex index = runs_view_->indexAt(at);
    const int column = runs_.column("label");
    if (!index.isValid() || column < 0) return;
    const QString label = index.siblingAtColumn(column).data().toString();
    QMenu menu(this);
    menu.addAction(tr("Diff against the run shown"), this,
                   [this, label] { emit diffRequested(label); });
    std::vector<std::string> all;
    for (const QString &l : labels())
      all.push_back(l.toStdString());
    const QString group = QString::fromStdString(repeat_group_of(all, label.toStdString()));
    const QString baseline = QString::fromStdString(repeat_group_of(all, shown_.toStdString()));
    if (!group.isEmpty() && !baseline.isEmpty() && group != baseline)
      menu.addAction(
          tr("Diff its repeats (%1) against those of the run shown (%2)").arg(group, baseline),
          this, [this, group, baseline] { emit groupDiffRequested(group, baseline); });
    menu.exec(runs_view_->viewport()->mapToGlobal(at));
  });
}

void RunsView::setRuns(store::QueryResult runs) {
  runs_.setTable(std::move(runs));
  runs_view_->resizeColumnsToContents();
}

void RunsView::setAttributes(store::QueryResult attributes) {
  attributes_.setTable(std::move(attributes));
  attributes_view_->resizeColumnsToContents();
}

QStringList RunsView::labels() const {
  QStringList out;
  const int column = runs_.column("label");
  for (int row = 0; column >= 0 && row < runs_.rowCount(); ++row)
    out << runs_.index(row, column).data().toString();
  return out;
}

bool RunsView::chooseRun(const QString &label) {
  const int column = runs_.column("label");
  for (int r = 0; column >= 0 && r < runs_.rowCount(); ++r) {
    QModelIndex index = runs_.index(r, column);
    if (index.data().toString() != label) continue;
    runs_view_->selectRow(r);
    emit runChosen(label);
    return true;
  }
  return false;
}

} // namespace idb::gui

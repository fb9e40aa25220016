// The CFH tree view (tree_view.hpp).
#include "tree_view.hpp"

#include "cfh_tree.hpp"
#include "histogram_data.hpp"

#include "idb/analysis/trees.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

#include <vector>

namespace idb::gui {

CfhTreeView::CfhTreeView(QWidget *parent)
    : QWidget(parent), cfh_(new QComboBox(this)), tree_(new QTreeView(this)),
      histogram_(new HistogramPanel(this)), waits_(new WaitPanel(this)) {
  setUpTreeView(tree_, &model_);
  tree_->setAlternatingRowColors(true);
  // Twelve number columns beside the labels: narrow enough that all of them fit a window
  // of 1280 pixels, wide enough for six significant digits.
  tree_->header()->setDefaultSectionSize(84);
  auto *hot = new QPushButton(tr("Expand hot path"), this);
  auto *bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("CFH:")));
  bar->addWidget(cfh_, 1);
  bar->addWidget(hot);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 4, 0, 0);
  layout->addLayout(bar);
  auto *split = new QSplitter(Qt::Vertical, this);
  split->addWidget(tree_);
  auto *below = new QSplitter(Qt::Horizontal, split);
  below->addWidget(histogram_);
  below->addWidget(waits_);
  below->setStretchFactor(0, 3);
  below->setStretchFactor(1, 2);
  below->setSizes({775, 485}); // the histogram's axis labels; the summary's eight columns
  split->addWidget(below);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  layout->addWidget(split, 1);
  connect(hot, &QPushButton::clicked, this, &CfhTreeView::expandHotPath);
  connect(cfh_, &QComboBox::activated, this, [this](int i) { showCfh(cfh_->itemData(i).toInt()); });
  connect(tree_, &QTreeView::clicked, this,
          [this](const QModelIndex &i) { emit probeClicked(i.data(kKeyRole).toLongLong()); });
  connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex &current) { showNode(current); });
}

void CfhTreeView::showNode(const QModelIndex &index) {
  const TreeRow *row = model_.rowAt(index);
  if (!shown_ || !row || row->source >= shown_->nodes.size()) {
    histogram_->setHistogram({});
    waits_->setTable({});
    return;
  }
  histogram_->setHistogram(histogram_chart(row->label, shown_->nodes[row->source]));
  waits_->setTable(wait_table(row->label, shown_->nodes[row->source]));
}

void CfhTreeView::setRun(RunDataPtr run) {
  shown_ = nullptr; // it points into the run given before
  run_ = std::move(run);
  // The trees `idb report` has: the run as a whole (data -1, -2, ...), then each CFH.
  listTrees(cfh_, *run_);
  showCfh(-1);
}

void CfhTreeView::showCfh(int index) {
  if (!run_) return;
  const profile::Profile &p = run_->profile;
  shown_ = chosen_tree(*run_, index);
  model_.setTree(shown_ ? cfh_tree(p, *shown_) : TreeData{});
  histogram_->setHistogram({});
  waits_->setTable({});
  cfh_->setCurrentIndex(cfh_->findData(index));
  expandHotPath();
}

bool CfhTreeView::chooseNode(const QString &prefix) {
  return chooseByLabel(tree_, prefix);
}

std::string CfhTreeView::currentTitle() const {
  return cfh_->currentText().toStdString();
}

void CfhTreeView::expandHotPath() {
  expandAndSelect(tree_, model_.hotPath());
}

void setUpTreeView(QTreeView *view, QAbstractItemModel *model) {
  view->setModel(model);
  view->setSortingEnabled(true);
  view->setUniformRowHeights(true);
  view->setTextElideMode(Qt::ElideMiddle);
  view->header()->setSortIndicator(-1, Qt::DescendingOrder);
}

void listTrees(QComboBox *box, const RunData &run) {
  box->clear();
  for (const TreeChoice &choice : tree_choices(run))
    box->addItem(QString::fromStdString(choice.title), choice.index);
}

void expandAndSelect(QTreeView *view, const QModelIndexList &path) {
  for (const QModelIndex &i : path)
    view->expand(i);
  if (!path.isEmpty()) {
    view->setCurrentIndex(path.back());
    view->scrollTo(path.back());
  }
  view->resizeColumnToContents(0);
}

bool chooseByLabel(QTreeView *view, const QString &prefix) {
  const QAbstractItemModel &model = *view->model();
  std::vector<QModelIndex> stack; // depth first, iteratively (a CFH may be deep)
  for (int r = model.rowCount() - 1; r >= 0; --r)
    stack.push_back(model.index(r, 0));
  while (!stack.empty()) {
    const QModelIndex at = stack.back();
    stack.pop_back();
    if (at.data().toString().startsWith(prefix)) {
      for (QModelIndex up = at.parent(); up.isValid(); up = up.parent())
        view->expand(up);
      view->setCurrentIndex(at);
      view->scrollTo(at);
      return true;
    }
    for (int r = model.rowCount(at) - 1; r >= 0; --r)
      stack.push_back(model.index(r, 0, at));
  }
  return false;
}

} // namespace idb::gui

// The trees of a run, the ones `idb report` has: the run as a whole (the threads merged
// by probe path, each named CFH over its instances), or one CFH (rank, thread, instance);
// sortable by any column, and expandable along the hot path in one action. Below the
// tree, the duration histogram and the wait states of the node chosen in it; nodes that
// waited in communication are tinted by the share of their time they waited.
#pragma once

#include "histogram_panel.hpp"
#include "store_worker.hpp"
#include "tree_model.hpp"
#include "wait_panel.hpp"

#include <QWidget>

#include <string>

class QComboBox;
class QTreeView;

namespace idb::gui {

class CfhTreeView : public QWidget {
  Q_OBJECT
public:
  explicit CfhTreeView(QWidget *parent = nullptr);

  void setRun(RunDataPtr run);
  // Shows CFH `index` of the run's profile; -1 - i: tree i of the run as a whole
  // (RunData::whole), -1 its first.
  void showCfh(int index);
  // The title of the tree shown.
  std::string currentTitle() const;
  // Expands and selects the path of largest inclusive time from the root down.
  void expandHotPath();
  // Chooses the first node, depth first, whose label starts with `prefix` (expanding its
  // parents); false when there is none.
  bool chooseNode(const QString &prefix);

  TreeModel &model() { return model_; }
  QTreeView *treeView() const { return tree_; }
  HistogramPanel *histogramPanel() const { return histogram_; }
  WaitPanel *waitPanel() const { return waits_; }

signals:
  void probeClicked(qint64 probe);

private:
  void showNode(const QModelIndex &index);

  RunDataPtr run_;
  const profile::Cfh *shown_ = nullptr; // the tree's CFH, in run_
  TreeModel model_;
  QComboBox *cfh_;
  QTreeView *tree_;
  HistogramPanel *histogram_;
  WaitPanel *waits_;
};

// A tree view over `model` as every tree of the GUI shows one: sortable within each parent
// (the rows as given until a header is clicked), rows of one height (large trees stay
// fast), labels elided in the middle (their end, the source location, stays).
void setUpTreeView(QTreeView *view, QAbstractItemModel *model);
// Lists the trees `run` offers (tree_choices) in `box`, each with its index as data.
void listTrees(QComboBox *box, const RunData &run);

// Expands `path` (indexes of the view's model, from the top down) and selects its last
// row; the first column then fits its labels.
void expandAndSelect(QTreeView *view, const QModelIndexList &path);
// Chooses the first row of the view's model, depth first, whose label starts with
// `prefix` (expanding its parents); false when there is none.
bool chooseByLabel(QTreeView *view, const QString &prefix);

} // namespace idb::gui

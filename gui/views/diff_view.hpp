// The diff of two runs: the run shown (the baseline) against another chosen here or from
// the Runs tab, as one tree of both runs' nodes matched by label path, with the
// baseline's and the other run's corrected inclusive time, difference, ratio and counts;
// red where the other run is slower, blue where it is faster; sortable within each
// parent, the path of largest change expanded.
#pragma once

#include "diff_tree.hpp"
#include "store_worker.hpp"
#include "tree_model.hpp"

#include <QWidget>

class QComboBox;
class QLabel;
class QTreeView;

namespace idb::gui {

class DiffView : public QWidget {
  Q_OBJECT
public:
  explicit DiffView(QWidget *parent = nullptr);

  // The labels the other run is chosen from.
  void setRuns(const QStringList &labels);
  void setBaseline(RunDataPtr run);
  void setOther(RunDataPtr run);
  // Chooses `label` as the other run (emits otherChosen); false when it is not listed.
  bool chooseOther(const QString &label);
  // Expands and selects the path of largest change from the root down.
  void expandLargestChange();

  const RunDiff &diff() const { return diff_; }
  TreeModel &model() { return model_; }
  QTreeView *treeView() const { return tree_; }
  QString caption() const;

signals:
  void otherChosen(const QString &label);
  void probeClicked(qint64 probe);

private:
  void refresh();

  RunDataPtr baseline_, other_;
  RunDiff diff_;
  TreeModel model_;
  QLabel *baseline_label_;
  QComboBox *others_;
  QLabel *caption_;
  QTreeView *tree_;
};

} // namespace idb::gui

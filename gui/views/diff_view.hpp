// The diff: a baseline (the run shown, unless another run or a group of runs is chosen
// here) against another run or group, chosen here or from the Runs tab, as one tree of
// both sides' nodes matched by label path, with the baseline's and the other side's
// corrected inclusive time (means over a group), difference, ratio and counts, and over
// groups the spreads and Welch's p; red where the other side is slower, blue where it is
// faster (over two groups, only where the change is significant); sortable within each
// parent, the path of largest change expanded.
#pragma once

#include "diff_tree.hpp"
#include "tree_model.hpp"

#include <QWidget>

class QComboBox;
class QLabel;
class QTreeView;

namespace idb::gui {

class DiffView : public QWidget {
  Q_OBJECT
public:
  static constexpr int kBaseline = 0, kOther = 1; // the sides

  explicit DiffView(QWidget *parent = nullptr);

  // The labels each side is chosen from, of a database just opened (both sides are
  // chosen afresh); the groups of repeated runs among them (repeat_groups) are offered
  // after them, and any label pattern may be typed.
  void setRuns(const QStringList &labels);
  // The run shown: the baseline, unless another was chosen here.
  void setShownRun(RunDataPtr run);
  // A side's runs, read.
  void setSide(int side, DiffSide runs);
  // Chooses `name` for a side: a listed run's label, or a label pattern matching one or
  // more of them (emits sideChosen); false when it names none. Choosing the run shown as
  // the baseline makes it follow the run shown again.
  bool chooseSide(int side, const QString &name);
  bool chooseOther(const QString &name) { return chooseSide(kOther, name); }
  // Expands and selects the path of largest change from the root down.
  void expandLargestChange();

  const RunDiff &diff() const { return diff_; }
  TreeModel &model() { return model_; }
  QTreeView *treeView() const { return tree_; }
  QString caption() const;

signals:
  void sideChosen(int side, const QString &name);
  // Both sides are read and the diff of them shown.
  void diffReady();
  void probeClicked(qint64 probe);

private:
  void refresh();

  QStringList labels_;
  RunDataPtr shown_;
  bool baseline_is_shown_ = true; // the baseline follows the run shown
  DiffSide sides_[2];
  RunDiff diff_;
  TreeModel model_;
  QComboBox *choosers_[2];
  QLabel *caption_;
  QTreeView *tree_;
};

} // namespace idb::gui

// The linked run view, in the manner of Cube's three panes: the metrics (left: what is
// measured, with the run's total of each), the tree of the run valued by the metric chosen
// (middle: each node's share tinted, the hot path in bold), and the ranks (right: the
// chosen node's value on every rank as sorted bars, with the least, mean and most).
// Choosing a metric revalues the tree and the bars; choosing a node shows its ranks;
// clicking a rank's bar shows that rank's own tree (the same node chosen in it), and
// "All ranks" the run as a whole again.
#pragma once

#include "run_view_data.hpp"
#include "store_worker.hpp"
#include "tree_model.hpp"

#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QTreeView;
class QTreeWidget;

namespace idb::gui {

// One horizontal bar per rank, largest first, each labelled with its rank and value.
class RankBars : public QWidget {
  Q_OBJECT
public:
  static constexpr int kRowHeight = 18;

  explicit RankBars(QWidget *parent = nullptr);
  void setSpread(RankSpreadView spread, bool seconds);
  const RankSpreadView &spread() const { return spread_; }
  // The rank whose bar is drawn brighter; nullopt for none.
  void setChosen(std::optional<int> rank);
  // The rank whose row holds `point`, or nullopt.
  std::optional<int> rankAt(QPointF point) const;
  // The text drawn for row `i` (rank and value).
  QString rowText(std::size_t i) const;
  QSize sizeHint() const override;

signals:
  void rankClicked(int rank);

protected:
  void paintEvent(QPaintEvent *event) override;
  void mousePressEvent(QMouseEvent *event) override;

private:
  RankSpreadView spread_;
  bool seconds_ = true;
  std::optional<int> chosen_;
};

class RunView : public QWidget {
  Q_OBJECT
public:
  explicit RunView(QWidget *parent = nullptr);

  void setRun(RunDataPtr run);
  void setMetric(NodeMetric metric);
  NodeMetric chosenMetric() const { return metric_; }
  // Shows `rank`'s own tree, or the run as a whole for nullopt; the node chosen stays
  // chosen where the rank has it.
  void showRank(std::optional<int> rank);
  std::optional<int> shownRank() const { return rank_; }
  // Chooses the first node, depth first, whose label starts with `prefix`; false when
  // there is none.
  bool chooseNode(const QString &prefix);
  // The probe path of the node chosen; empty when none.
  const std::vector<std::int32_t> &chosenPath() const { return path_; }

  TreeModel &model() { return model_; }
  QTreeView *treeView() const { return tree_; }
  QTreeWidget *metricList() const { return metrics_; }
  RankBars *rankBars() const { return bars_; }
  QString treeTitle() const;
  QString rankSummary() const;

signals:
  void probeClicked(qint64 probe);

private:
  void showTree();
  void showNode(const QModelIndex &index);
  void updateMetricTotals();
  bool selectPath(const std::vector<std::int32_t> &path);

  RunDataPtr run_;
  std::vector<RankTree> ranks_;
  const profile::Cfh *shown_ = nullptr;
  NodeMetric metric_ = NodeMetric::corrected;
  std::optional<int> rank_;
  std::vector<std::int32_t> path_;
  TreeModel model_;
  QTreeWidget *metrics_;
  QLabel *tree_title_;
  QPushButton *all_ranks_;
  QTreeView *tree_;
  QLabel *rank_title_, *rank_summary_;
  RankBars *bars_;
};

} // namespace idb::gui

// The duration histogram of the node chosen in the tree: its buckets as bars over a
// logarithmic duration axis, with the node's p50, p90 and p99 marked, or a line saying
// why the node has none.
#pragma once

#include "histogram_data.hpp"

#include <QWidget>

class QChartView;
class QCheckBox;

namespace idb::gui {

class HistogramPanel : public QWidget {
  Q_OBJECT
public:
  explicit HistogramPanel(QWidget *parent = nullptr);

  void setHistogram(const HistogramChart &chart);
  // A logarithmic count axis (off at first), where the tail's few activations show.
  void setLogCount(bool log);
  // Series drawn: 0 without bars; else the bars and one marker per quantile.
  int seriesCount() const;
  QChartView *chartView() const { return view_; }

private:
  void redraw();

  HistogramChart shown_;
  QChartView *view_;
  QCheckBox *log_;
};

} // namespace idb::gui

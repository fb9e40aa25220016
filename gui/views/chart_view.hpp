// The run's chart: the probe legend with check boxes beside a chart of the checked probes,
// with the metric (Y), the chart type, one rank or all, and linear or log scale chosen
// above it. Clicking a probe in the legend or the chart asks for its rows.
#pragma once

#include "chart_panel.hpp"
#include "legend_model.hpp"
#include "store_worker.hpp"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QListView;

namespace idb::gui {

class ChartView : public QWidget {
  Q_OBJECT
public:
  explicit ChartView(QWidget *parent = nullptr);

  // Shows `run`, its largest probes checked.
  void setRun(RunDataPtr run);

  // The controls, as a user sets them (tests and --screenshot use them too).
  void setMetric(Metric metric);
  void setKind(ChartKind kind);
  void setRank(std::optional<int> rank); // nullopt: every rank, a series each
  void setLogScale(bool log);

  LegendModel &legend() { return legend_; }
  ChartDataModel &data() { return data_; }
  ChartPanel *panel() const { return panel_; }

signals:
  void probeClicked(qint64 probe);

private:
  QWidget *makeControls();
  void redraw();

  RunDataPtr run_;
  LegendModel legend_;
  ChartDataModel data_;
  QListView *legend_view_;
  QComboBox *metric_, *kind_, *rank_;
  QCheckBox *log_;
  ChartPanel *panel_;
};

} // namespace idb::gui

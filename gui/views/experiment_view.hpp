// The experiment view: an .edf's runs, read once, shown as COALESCE (box plots per probe,
// all ranks merged or one rank, outliers, and the pooled numbers in the table) or COMPARE
// (per probe each entry's value, one series per rank, with differences, ratios to the
// first entry and the significance verdict in the table). Mode, value, rank and probe are
// chosen above the chart, and a log axis, or COALESCE's boxes each over its median; the
// analysis is edf's, the view only draws its results.
#pragma once

#include "chart_panel.hpp"
#include "store_worker.hpp"
#include "table_model.hpp"

#include "idb/edf_analysis.hpp"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QTableView;

namespace idb::gui {

class ExperimentView : public QWidget {
  Q_OBJECT
public:
  explicit ExperimentView(QWidget *parent = nullptr);

  void setExperiment(ExperimentPtr experiment);
  void setMode(edf::Mode mode);
  void setMetric(Metric metric);
  void setRank(std::optional<int> rank); // nullopt: every rank
  // COMPARE's probe (by id); the box plots show every probe.
  void setProbe(std::int32_t probe);
  // COALESCE's boxes each divided by its median (on at first when the medians are more
  // than 100 times apart).
  void setRelative(bool relative);
  bool relative() const;

  edf::Mode mode() const;
  TableModel &table() { return table_; }
  ChartPanel *panel() const { return panel_; }
  const edf::CompareResult &compareResult() const { return compare_; }
  const edf::CoalesceResult &coalesceResult() const { return coalesce_; }

private:
  QWidget *makeControls();
  edf::AnalysisOptions options() const;
  std::vector<std::optional<Format>> experimentFormats(const store::QueryResult &rows) const;
  void analyse();
  void draw();

  ExperimentPtr experiment_;
  edf::CoalesceResult coalesce_;
  edf::CompareResult compare_;
  TableModel table_;
  QLabel *title_;
  QComboBox *mode_, *metric_, *rank_, *probe_;
  QCheckBox *log_, *relative_;
  ChartPanel *panel_;
  QTableView *table_view_ = nullptr;
};

} // namespace idb::gui

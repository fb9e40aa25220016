// What a chart plots, as a value: categories along X (probes, or the rows of a query)
// and one series of Y values per rank (or per numeric column), computed from a
// RunSummary or a query result; and ChartDataModel, the same numbers as a table model for
// the chart view, CSV export and tests. Views draw a ChartData and compute nothing.
#pragma once

#include "roles.hpp"
#include "run_data.hpp"

#include <QAbstractTableModel>

#include <optional>
#include <string>
#include <vector>

namespace idb::gui {

struct ChartSeries {
  std::string name;
  std::vector<double> values; // one per category; NaN where there is none (a quantile
                              // without histograms)
};

struct ChartData {
  std::string title;
  std::string y_title;
  bool seconds = false; // the values are seconds: the axis shows them in one unit
  std::vector<std::string> categories;
  std::vector<std::int64_t> keys; // per category: the probe id (or the row's number)
  std::vector<ChartSeries> series;
};

struct ChartRequest {
  std::vector<std::int32_t> probes; // in this order along X; unknown ids are skipped
  Metric metric = Metric::total;
  std::optional<int> rank; // one rank (one series); nullopt: every rank, a series each
};

// The checked probes' `metric` per rank. A rank the run does not have gives no series.
ChartData chart_data(const RunSummary &summary, const ChartRequest &request);

// A query result as a chart: the first non-numeric column names the categories (else the
// row number), every numeric column that measures is a series (not one that identifies:
// rank, thread, node, probe, line, depth, iteration, pid, or a name ending in "id");
// at most `max_rows` rows. Seconds when every series' name ends in "_s" or "seconds".
// Whether a result column names a thing rather than measures it: rank, thread, node,
// probe, line, depth, iteration, pid, nprocs, threads, id and names ending in _id.
bool identifies(std::string name);

ChartData chart_from_table(const store::QueryResult &table, std::size_t max_rows = 200);

// A linear axis people read: from `lo` (0 when every value is at least 0) to a round
// number at least 5% above `hi`, in 4 to 8 steps of 1, 2 or 5 times a power of ten.
struct NiceAxis {
  double min = 0, max = 1;
  int ticks = 6; // tick marks, both ends included
};
NiceAxis nice_axis(double lo, double hi);

// Category labels for an axis: each at most `max` characters, a longer one losing its
// middle ("for loop in po…[smvp.c:199]": the source location at its end stays), and
// made distinct where eliding made two equal (an axis drops repeated categories).
std::vector<std::string> axis_labels(const std::vector<std::string> &categories,
                                     std::size_t max = 28);

// Rows: categories; columns: series. kValueRole gives the number, kKeyRole the key.
class ChartDataModel : public QAbstractTableModel {
  Q_OBJECT
public:
  explicit ChartDataModel(QObject *parent = nullptr);
  void setChartData(ChartData data);
  const ChartData &chartData() const { return data_; }

  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

private:
  ChartData data_;
};

} // namespace idb::gui

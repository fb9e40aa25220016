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
// row number), every numeric column is a series; at most `max_rows` rows.
ChartData chart_from_table(const store::QueryResult &table, std::size_t max_rows = 200);

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

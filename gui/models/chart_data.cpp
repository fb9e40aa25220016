// Chart data from a run summary or a query result, and its table model (chart_data.hpp).
#include "chart_data.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace idb::gui {

ChartData chart_data(const RunSummary &summary, const ChartRequest &request) {
  ChartData chart;
  chart.y_title = std::string(analysis::metric_title(request.metric));
  std::vector<const ProbeSummary *> probes;
  for (std::int32_t id : request.probes)
    if (const ProbeSummary *p = summary.probe(id)) probes.push_back(p);
  for (const ProbeSummary *p : probes) {
    chart.categories.push_back(p->label);
    chart.keys.push_back(p->id);
  }
  for (std::size_t r = 0; r < summary.ranks.size(); ++r) {
    if (request.rank && *request.rank != summary.ranks[r]) continue;
    ChartSeries &s = chart.series.emplace_back();
    s.name = rank_name(summary.ranks[r]);
    for (const ProbeSummary *p : probes)
      s.values.push_back(analysis::value(p->per_rank[r], request.metric));
  }
  chart.title =
      chart.y_title + (request.rank ? ", " + rank_name(*request.rank) : std::string(" per rank"));
  return chart;
}

ChartData chart_from_table(const store::QueryResult &table, std::size_t max_rows) {
  ChartData chart;
  chart.title = "query result";
  std::optional<std::size_t> label;
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    if (c < table.numeric.size() && table.numeric[c]) {
      chart.series.push_back({table.columns[c], {}});
    } else if (!label) {
      label = c;
    }
  }
  const std::size_t rows = std::min(max_rows, table.rows.size());
  for (std::size_t r = 0; r < rows; ++r) {
    const auto &row = table.rows[r];
    auto cell = [&](std::size_t c) { return c < row.size() ? row[c] : store::Cell(); };
    chart.categories.push_back(label && cell(*label) ? *cell(*label) : std::to_string(r + 1));
    chart.keys.push_back(std::int64_t(r));
    std::size_t s = 0;
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      if (c >= table.numeric.size() || !table.numeric[c]) continue;
      store::Cell v = cell(c);
      chart.series[s++].values.push_back(v ? std::strtod(v->c_str(), nullptr) : 0.0);
    }
  }
  return chart;
}

ChartDataModel::ChartDataModel(QObject *parent) : QAbstractTableModel(parent) {}

void ChartDataModel::setChartData(ChartData data) {
  beginResetModel();
  data_ = std::move(data);
  for (ChartSeries &s : data_.series)
    s.values.resize(data_.categories.size());
  data_.keys.resize(data_.categories.size());
  endResetModel();
}

int ChartDataModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : int(data_.categories.size());
}

int ChartDataModel::columnCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : int(data_.series.size());
}

QVariant ChartDataModel::data(const QModelIndex &index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const double v = data_.series[std::size_t(index.column())].values[std::size_t(index.row())];
  switch (role) {
  case Qt::DisplayRole:
    return std::isnan(v) ? QString() : QString::number(v, 'g', 9);
  case kValueRole:
    return v;
  case kKeyRole:
    return QVariant::fromValue(qint64(data_.keys[std::size_t(index.row())]));
  case Qt::TextAlignmentRole:
    return int(Qt::AlignRight | Qt::AlignVCenter);
  default:
    return {};
  }
}

QVariant ChartDataModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole || section < 0) return {};
  if (orientation == Qt::Horizontal)
    return std::size_t(section) < data_.series.size()
               ? QVariant(QString::fromStdString(data_.series[std::size_t(section)].name))
               : QVariant();
  return std::size_t(section) < data_.categories.size()
             ? QVariant(QString::fromStdString(data_.categories[std::size_t(section)]))
             : QVariant();
}

} // namespace idb::gui

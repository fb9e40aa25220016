// Chart data from a run summary or a query result, and its table model (chart_data.hpp).
#include "chart_data.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace idb::gui {

ChartData chart_data(const RunSummary &summary, const ChartRequest &request) {
  ChartData chart;
  chart.y_title = std::string(analysis::metric_title(request.metric));
  chart.seconds = analysis::metric_unit(request.metric) == "seconds";
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

bool identifies(std::string name) {
  for (char &c : name)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  static const char *const names[] = {"rank",  "thread",    "node", "probe",  "probe_id", "line",
                                      "depth", "iteration", "pid",  "nprocs", "threads"};
  for (const char *n : names)
    if (name == n) return true;
  return name == "id" || (name.size() > 2 && name.compare(name.size() - 2, 2, "id") == 0 &&
                          (name[name.size() - 3] == '_' || name[name.size() - 3] == ' '));
}

namespace {

bool ends_with(const std::string &s, const std::string &end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

} // namespace

ChartData chart_from_table(const store::QueryResult &table, std::size_t max_rows) {
  ChartData chart;
  chart.title = "query result";
  std::optional<std::size_t> label;
  std::vector<std::size_t> measures;
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    if (c < table.numeric.size() && table.numeric[c]) {
      if (identifies(table.columns[c])) continue;
      measures.push_back(c);
      chart.series.push_back({table.columns[c], {}});
    } else if (!label) {
      label = c;
    }
  }
  chart.seconds = !chart.series.empty();
  for (const ChartSeries &s : chart.series)
    chart.seconds = chart.seconds && (ends_with(s.name, "_s") || ends_with(s.name, "seconds"));
  const std::size_t rows = std::min(max_rows, table.rows.size());
  for (std::size_t r = 0; r < rows; ++r) {
    const auto &row = table.rows[r];
    auto cell = [&](std::size_t c) { return c < row.size() ? row[c] : store::Cell(); };
    chart.categories.push_back(label && cell(*label) ? *cell(*label) : std::to_string(r + 1));
    chart.keys.push_back(std::int64_t(r));
    for (std::size_t s = 0; s < measures.size(); ++s) {
      store::Cell v = cell(measures[s]);
      chart.series[s].values.push_back(v ? std::strtod(v->c_str(), nullptr) : 0.0);
    }
  }
  return chart;
}

NiceAxis nice_axis(double lo, double hi) {
  NiceAxis axis;
  if (!std::isfinite(lo) || !std::isfinite(hi)) return axis;
  lo = std::min(lo, 0.0); // bars start at 0; negative values widen it
  hi = std::max(hi, 0.0);
  const double span = (hi - lo) * 1.05;
  if (!(span > 0)) return axis; // {0, 1}: nothing to show
  // The smallest step of 1, 2 or 5 × 10^k that covers the span in at most 7 intervals.
  const double raw = span / 7;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  double step = power * 10;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw) {
      step = m * power;
      break;
    }
  axis.min = lo < 0 ? -std::ceil(-lo / step - 1e-9) * step : 0.0;
  axis.max = std::ceil((lo + span) / step - 1e-9) * step;
  if (axis.max < hi * 1.05 - 1e-12 * step) axis.max += step;
  axis.ticks = int(std::lround((axis.max - axis.min) / step)) + 1;
  return axis;
}

std::vector<std::string> axis_labels(const std::vector<std::string> &categories, std::size_t max) {
  std::vector<std::string> out, bases; // bases: before the spaces that keep them apart
  out.reserve(categories.size());
  const std::string ellipsis = "\u2026";
  for (const std::string &c : categories) {
    if (c.size() <= max || max < 3) {
      out.push_back(c);
    } else {
      // Keep the end (the location) a little longer than the start.
      const std::size_t keep = max - 1, tail = keep / 2 + 1, head = keep - tail;
      std::size_t start = c.size() - tail;
      while (start < c.size() && (static_cast<unsigned char>(c[start]) & 0xC0) == 0x80)
        ++start; // never cut a UTF-8 character
      std::size_t end = head;
      while (end > 0 && (static_cast<unsigned char>(c[end]) & 0xC0) == 0x80)
        --end;
      out.push_back(c.substr(0, end) + ellipsis + c.substr(start));
    }
    // Equal to one before it: a zero-width space per repeat keeps it apart.
    const std::size_t repeats = std::size_t(std::count(bases.begin(), bases.end(), out.back()));
    bases.push_back(out.back());
    for (std::size_t k = 0; k < repeats; ++k)
      out.back() += "\u200b";
  }
  return out;
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

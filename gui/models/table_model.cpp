// The table model (table_model.hpp).
#include "table_model.hpp"

#include "chart_data.hpp"

#include <algorithm>
#include <cstdlib>

namespace idb::gui {

namespace {

double as_number(const store::Cell &cell) {
  return cell ? std::strtod(cell->c_str(), nullptr) : 0.0;
}

} // namespace

TableModel::TableModel(QObject *parent) : QAbstractTableModel(parent) {}

void TableModel::setTable(store::QueryResult table, std::vector<std::optional<Format>> formats) {
  beginResetModel();
  table_ = std::move(table);
  const std::size_t columns = table_.columns.size();
  table_.numeric.resize(columns, false);
  for (auto &row : table_.rows)
    row.resize(columns);
  formats_ = std::move(formats);
  formats_.resize(columns);
  units_.assign(columns, {});
  std::vector<double> values;
  for (std::size_t c = 0; c < columns; ++c) {
    if (!formats_[c] || !table_.numeric[c]) {
      formats_[c].reset(); // only numbers are formatted
      continue;
    }
    values.clear();
    for (const auto &row : table_.rows)
      if (row[c]) values.push_back(as_number(row[c]));
    units_[c] = time_unit(values);
  }
  endResetModel();
}

int TableModel::column(const std::string &name) const {
  auto it = std::find(table_.columns.begin(), table_.columns.end(), name);
  return it == table_.columns.end() ? -1 : int(it - table_.columns.begin());
}

int TableModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : int(table_.rows.size());
}

int TableModel::columnCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : int(table_.columns.size());
}

QVariant TableModel::data(const QModelIndex &index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const store::Cell &cell = table_.rows[std::size_t(index.row())][std::size_t(index.column())];
  const bool numeric = table_.numeric[std::size_t(index.column())];
  const std::optional<Format> &format = formats_[std::size_t(index.column())];
  switch (role) {
  case Qt::DisplayRole:
    if (!cell) return QString();
    if (!format) return QString::fromStdString(*cell);
    if (*format == Format::seconds || *format == Format::seconds_or_blank)
      return format_time(as_number(cell), units_[std::size_t(index.column())]);
    return formatValue(as_number(cell), *format);
  case Qt::ToolTipRole:
  case kExportRole:
    return cell ? QString::fromStdString(*cell) : QString();
  case kValueRole:
    if (!cell) return {};
    return numeric ? QVariant(as_number(cell)) : QVariant(QString::fromStdString(*cell));
  case Qt::TextAlignmentRole:
    return numeric ? int(Qt::AlignRight | Qt::AlignVCenter) : int(Qt::AlignLeft | Qt::AlignVCenter);
  default:
    return {};
  }
}

QVariant TableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole && role != kExportRole) return {};
  if (orientation == Qt::Vertical) return role == kExportRole ? QVariant() : QVariant(section + 1);
  if (section < 0 || std::size_t(section) >= table_.columns.size()) return {};
  const auto c = std::size_t(section);
  QString title = QString::fromStdString(table_.columns[c]);
  const std::optional<Format> &format = formats_[c];
  if (role == Qt::DisplayRole && format &&
      (*format == Format::seconds || *format == Format::seconds_or_blank) &&
      !units_[c].name.isEmpty())
    title += QLatin1Char(' ') + units_[c].name;
  return title;
}

void TableModel::sort(int column, Qt::SortOrder order) {
  if (column < 0 || column >= columnCount()) return;
  const auto c = std::size_t(column);
  const bool numeric = table_.numeric[c];
  const auto &rows = table_.rows;
  auto less = [&](std::size_t a, std::size_t b) {
    const store::Cell &x = rows[a][c], &y = rows[b][c];
    if (!x || !y) return !x && y; // NULL first
    return numeric ? as_number(x) < as_number(y) : *x < *y;
  };
  std::vector<std::size_t> order_of(rows.size()); // new place → old place
  for (std::size_t i = 0; i < order_of.size(); ++i)
    order_of[i] = i;
  if (order == Qt::AscendingOrder)
    std::stable_sort(order_of.begin(), order_of.end(), less);
  else
    std::stable_sort(order_of.begin(), order_of.end(),
                     [&](std::size_t a, std::size_t b) { return less(b, a); });
  emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
  std::vector<std::vector<store::Cell>> sorted;
  std::vector<int> place(rows.size()); // old place → new place
  sorted.reserve(rows.size());
  for (std::size_t i = 0; i < order_of.size(); ++i) {
    sorted.push_back(std::move(table_.rows[order_of[i]]));
    place[order_of[i]] = int(i);
  }
  table_.rows = std::move(sorted);
  const QModelIndexList before = persistentIndexList();
  QModelIndexList after;
  for (const QModelIndex &i : before)
    after.push_back(index(place[std::size_t(i.row())], i.column()));
  changePersistentIndexList(before, after);
  emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

std::vector<std::optional<Format>> result_formats(const store::QueryResult &table) {
  std::vector<std::optional<Format>> formats(table.columns.size());
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    if (c >= table.numeric.size() || !table.numeric[c] || identifies(table.columns[c])) continue;
    bool whole = true;
    for (const auto &row : table.rows)
      if (c < row.size() && row[c] && row[c]->find_first_of(".eEnN") != std::string::npos)
        whole = false; // a real as the engine wrote it (1.5, 2e-05, inf, nan)
    formats[c] = whole ? Format::integer : Format::significant;
  }
  return formats;
}

} // namespace idb::gui

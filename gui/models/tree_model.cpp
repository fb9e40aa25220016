// The generic tree model (tree_model.hpp). Every index carries its row's index in
// TreeData::rows as internal id; children_ lists each row's children in display order,
// so sorting only permutes those lists.
#include "tree_model.hpp"

#include "idb/analysis/diff.hpp"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <algorithm>
#include <cmath>
#include <limits>

namespace idb::gui {

TreeModel::TreeModel(QObject *parent) : QAbstractItemModel(parent), children_(1) {}

void TreeModel::setTree(TreeData tree) {
  beginResetModel();
  tree_ = std::move(tree);
  const std::size_t n = tree_.rows.size();
  children_.assign(n + 1, {});
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t p = tree_.rows[i].parent;
    if (p >= i) p = kTreeTop; // kTreeTop, or a parent that does not precede the row
    tree_.rows[i].parent = p;
    tree_.rows[i].values.resize(tree_.columns.size());
    children_[p == kTreeTop ? n : p].push_back(std::uint32_t(i));
  }
  units_.assign(tree_.columns.size(), {});
  std::vector<double> column(n);
  for (std::size_t c = 0; c < tree_.columns.size(); ++c) {
    for (std::size_t i = 0; i < n; ++i)
      column[i] = tree_.rows[i].values[c];
    units_[c] = time_unit(column);
  }
  updatePositions();
  endResetModel();
}

void TreeModel::updatePositions() {
  position_.assign(tree_.rows.size(), 0);
  for (const auto &list : children_)
    for (std::size_t i = 0; i < list.size(); ++i)
      position_[list[i]] = int(i);
}

const TreeRow *TreeModel::rowAt(const QModelIndex &index) const {
  std::uint32_t item = itemOf(index);
  return item < tree_.rows.size() ? &tree_.rows[item] : nullptr;
}

std::uint32_t TreeModel::itemOf(const QModelIndex &index) const {
  return index.isValid() ? std::uint32_t(index.internalId()) : std::uint32_t(tree_.rows.size());
}

QModelIndex TreeModel::indexOfItem(std::uint32_t item, int column) const {
  return createIndex(position_[item], column, quintptr(item));
}

QModelIndex TreeModel::index(int row, int column, const QModelIndex &parent) const {
  if (row < 0 || column < 0 || column >= columnCount()) return {};
  if (parent.isValid() && parent.column() != 0) return {};
  const auto &list = children_[itemOf(parent)];
  if (std::size_t(row) >= list.size()) return {};
  return createIndex(row, column, quintptr(list[std::size_t(row)]));
}

QModelIndex TreeModel::parent(const QModelIndex &child) const {
  if (!child.isValid()) return {};
  std::uint32_t p = tree_.rows[itemOf(child)].parent;
  return p == kTreeTop ? QModelIndex() : indexOfItem(p, 0);
}

int TreeModel::rowCount(const QModelIndex &parent) const {
  if (parent.isValid() && parent.column() != 0) return 0;
  if (children_.empty()) return 0;
  return int(children_[itemOf(parent)].size());
}

int TreeModel::columnCount(const QModelIndex &) const {
  return int(tree_.columns.size()) + 1;
}

QVariant TreeModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid()) return {};
  const TreeRow &row = tree_.rows[itemOf(index)];
  const int c = index.column();
  if (role == kKeyRole) return QVariant::fromValue(qint64(row.key));
  if (role == Qt::BackgroundRole) {
    if (!(row.tint != 0) || std::isnan(row.tint)) return {};
    // Over the view's own colours, from faint (a little) to strong (all).
    QColor colour(QRgb(row.tint > 0 ? tree_.tint_rgb : tree_.negative_tint_rgb));
    colour.setAlpha(40 + int(150 * std::min(std::fabs(row.tint), 1.0)));
    return QBrush(colour);
  }
  if (role == Qt::FontRole) {
    if (!row.emphasis) return {};
    QFont bold;
    bold.setBold(true);
    return bold;
  }
  if (role == Qt::ToolTipRole && !row.note.empty())
    return QString::fromStdString(row.label + "\n" + row.note);
  if (c == 0) {
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
      return QString::fromStdString(row.label);
    return {};
  }
  const double v = row.values[std::size_t(c - 1)];
  switch (role) {
  case Qt::DisplayRole: {
    const Format format = tree_.columns[std::size_t(c - 1)].format;
    if (format != Format::seconds && format != Format::seconds_or_blank)
      return formatValue(v, format);
    return format_time(v, units_[std::size_t(c - 1)]);
  }
  case kValueRole:
    return v;
  case Qt::TextAlignmentRole:
    return int(Qt::AlignRight | Qt::AlignVCenter);
  default:
    return {};
  }
}

QVariant TreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  if (section == 0) return QString::fromStdString(tree_.label_title);
  if (section < 0 || section >= columnCount()) return {};
  const TreeColumn &column = tree_.columns[std::size_t(section - 1)];
  QString title = QString::fromStdString(column.title);
  const QString &unit = units_[std::size_t(section - 1)].name;
  if ((column.format == Format::seconds || column.format == Format::seconds_or_blank) &&
      !unit.isEmpty())
    title += QLatin1Char(' ') + unit;
  return title;
}

void TreeModel::sortChildren(int column, Qt::SortOrder order) {
  auto key = [&](std::uint32_t item) { // a blank (NaN) value sorts below every number
    double v = column == 0 ? 0.0 : tree_.rows[item].values[std::size_t(column - 1)];
    return std::isnan(v) ? -std::numeric_limits<double>::infinity() : v;
  };
  auto less = [&](std::uint32_t a, std::uint32_t b) {
    if (column == 0) return tree_.rows[a].label < tree_.rows[b].label;
    return key(a) < key(b);
  };
  for (auto &list : children_) {
    if (order == Qt::AscendingOrder)
      std::stable_sort(list.begin(), list.end(), less);
    else
      std::stable_sort(list.begin(), list.end(),
                       [&](std::uint32_t a, std::uint32_t b) { return less(b, a); });
  }
}

void TreeModel::sort(int column, Qt::SortOrder order) {
  if (column < 0 || column >= columnCount()) return;
  emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
  const QModelIndexList before = persistentIndexList();
  sortChildren(column, order);
  updatePositions();
  QModelIndexList after;
  after.reserve(before.size());
  for (const QModelIndex &i : before)
    after.push_back(indexOfItem(itemOf(i), i.column()));
  changePersistentIndexList(before, after);
  emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

QModelIndexList TreeModel::hotPath() const {
  QModelIndexList path;
  for (std::uint32_t row : tree_.hot_path)
    if (row < tree_.rows.size()) path.push_back(indexOfItem(row, 0));
  return path;
}

QString formatValue(double value, Format format) {
  if (std::isnan(value)) return {};
  switch (format) {
  case Format::integer:
    return format_count(value);
  case Format::integer_or_blank:
    return value == 0 ? QString() : format_count(value);
  case Format::seconds:
  case Format::seconds_or_blank: {
    TimeUnit unit = time_unit({value});
    return format_time(value, unit) + QLatin1Char(' ') + unit.name;
  }
  case Format::percent:
    return QString::number(value, 'f', 1);
  case Format::ratio:
    return QString::fromStdString(analysis::ratio_text(value)) + QChar(0x00D7);
  case Format::probability:
    return QString::number(value, 'g', 2);
  case Format::significant:
    return std::fabs(value) >= 1000 ? format_count(std::round(value))
                                    : QString::number(value, 'g', 4);
  }
  return {};
}

} // namespace idb::gui

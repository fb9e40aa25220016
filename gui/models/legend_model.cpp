// The probe legend (legend_model.hpp).
#include "legend_model.hpp"

namespace idb::gui {

namespace {

// "solve()" and, over several ranks, "wall time max/mean 1.33 over 2 ranks, most on rank 1".
QString tip(const ProbeSummary &p) {
  QString label = QString::fromStdString(p.label);
  const analysis::Imbalance &b = p.imbalance;
  if (b.ranks < 2 || !b.ratio) return label;
  return QStringLiteral("%1\nwall time max/mean %2 over %3 ranks, most on rank %4")
      .arg(label)
      .arg(*b.ratio, 0, 'f', 2)
      .arg(b.ranks)
      .arg(b.rank_of_max);
}

} // namespace

LegendModel::LegendModel(QObject *parent) : QAbstractListModel(parent) {}

void LegendModel::setProbes(const RunSummary &summary, std::size_t checked_first) {
  beginResetModel();
  entries_.clear();
  for (const ProbeSummary &p : summary.probes)
    entries_.push_back(
        {p.id, QString::fromStdString(p.label), tip(p), entries_.size() < checked_first});
  endResetModel();
  emit checkedChanged();
}

std::vector<std::int32_t> LegendModel::checkedProbes() const {
  std::vector<std::int32_t> ids;
  for (const Entry &e : entries_)
    if (e.checked) ids.push_back(e.id);
  return ids;
}

void LegendModel::setChecked(std::int32_t probe, bool checked) {
  for (std::size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].id == probe)
      setData(index(int(i)), checked ? Qt::Checked : Qt::Unchecked, Qt::CheckStateRole);
}

int LegendModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : int(entries_.size());
}

QVariant LegendModel::data(const QModelIndex &index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const Entry &e = entries_[std::size_t(index.row())];
  switch (role) {
  case Qt::DisplayRole:
    return e.label;
  case Qt::ToolTipRole:
    return e.tip;
  case Qt::CheckStateRole:
    return e.checked ? Qt::Checked : Qt::Unchecked;
  case kKeyRole:
    return QVariant::fromValue(qint64(e.id));
  default:
    return {};
  }
}

bool LegendModel::setData(const QModelIndex &index, const QVariant &value, int role) {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid) || role != Qt::CheckStateRole)
    return false;
  const bool checked = value.toInt() == Qt::Checked;
  Entry &e = entries_[std::size_t(index.row())];
  if (e.checked == checked) return true;
  e.checked = checked;
  emit dataChanged(index, index, {Qt::CheckStateRole});
  emit checkedChanged();
  return true;
}

Qt::ItemFlags LegendModel::flags(const QModelIndex &index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable;
}

} // namespace idb::gui

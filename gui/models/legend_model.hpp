// The probe legend of the run view: the run's probes (largest total first) with a check
// box each; the checked ones are what the chart shows.
#pragma once

#include "roles.hpp"
#include "run_data.hpp"

#include <QAbstractListModel>

#include <set>

namespace idb::gui {

class LegendModel : public QAbstractListModel {
  Q_OBJECT
public:
  explicit LegendModel(QObject *parent = nullptr);

  // The probes of `summary`, the first `checked_first` of them checked.
  void setProbes(const RunSummary &summary, std::size_t checked_first);
  // The checked probe ids in legend order.
  std::vector<std::int32_t> checkedProbes() const;
  void setChecked(std::int32_t probe, bool checked);

  int rowCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
  bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
  Qt::ItemFlags flags(const QModelIndex &index) const override;

signals:
  void checkedChanged();

private:
  struct Entry {
    std::int32_t id;
    QString label;
    QString tip; // the label, and the imbalance over the ranks where there are several
    bool checked;
  };
  std::vector<Entry> entries_;
};

} // namespace idb::gui

// The table model of every grid in the GUI (runs, attributes, a probe's rows, SQL
// results): a store::QueryResult shown as is, sortable per column (numbers as numbers,
// NULL first), with the raw cell under kValueRole.
#pragma once

#include "tree_model.hpp"

#include "idb/store.hpp"

#include <QAbstractTableModel>

namespace idb::gui {

class TableModel : public QAbstractTableModel {
  Q_OBJECT
public:
  explicit TableModel(QObject *parent = nullptr);

  // Replaces the whole table (a model reset).
  void setTable(store::QueryResult table);
  const store::QueryResult &table() const { return table_; }
  // The column called `name`, or -1.
  int column(const std::string &name) const;

  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;
  void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
  store::QueryResult table_;
};

} // namespace idb::gui

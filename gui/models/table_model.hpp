// The table model of every grid in the GUI (runs, attributes, a probe's rows, SQL
// results): a store::QueryResult shown as is, or with some columns in a Format (a seconds
// column in one unit named in its header, counts with thousands separators), sortable
// per column (numbers as numbers, NULL first), with the raw cell under kValueRole, in the
// tooltip and under kExportRole, so exports keep every digit.
#pragma once

#include "tree_model.hpp"

#include "idb/store.hpp"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace idb::gui {

class TableModel : public QAbstractTableModel {
  Q_OBJECT
public:
  explicit TableModel(QObject *parent = nullptr);

  // Replaces the whole table (a model reset). `formats`, when given, has one entry per
  // column: how a numeric column reads (nullopt: as it is).
  void setTable(store::QueryResult table, std::vector<std::optional<Format>> formats = {});
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
  std::vector<std::optional<Format>> formats_; // per column
  std::vector<TimeUnit> units_;                // per column: a seconds column's unit
};

// How an SQL result reads as people read numbers (the SQL console): a numeric column that
// measures (not identifies(): ids, ranks, lines stay as stored) in Format::integer when
// every value is whole, else in Format::significant; text as it is. The exact values stay
// in tooltips and exports.
std::vector<std::optional<Format>> result_formats(const store::QueryResult &table);

} // namespace idb::gui

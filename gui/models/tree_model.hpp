// The one generic tree model of the GUI: any tree given as a TreeData value (rows whose
// parents precede them, a label and numeric columns, a tint and a note per row) shown
// through QAbstractItemModel,
// sortable per column within each parent, with the rows of its hot path for a view to
// expand. The CFH tree is one TreeData (cfh_tree.hpp); so can others be.
#pragma once

#include "number_format.hpp"
#include "roles.hpp"

#include <QAbstractItemModel>

#include <cstdint>
#include <string>
#include <vector>

namespace idb::gui {

// How a column's values read (number_format.hpp): integers with thousands separators;
// seconds in the column's unit (s, ms, µs, ns, named in its header after the title); a
// percentage with one decimal; a ratio at three significant digits with "×"; a p-value
// (probability) to two significant digits; a number of no known unit (significant) to
// four, whole from 1,000 on, with thousands separators. "_or_blank": 0 (integers) shows as
// nothing; NaN shows as nothing in every format (what was not measured).
enum class Format {
  integer,
  integer_or_blank,
  seconds,
  seconds_or_blank,
  percent,
  ratio,
  probability,
  significant
};

struct TreeColumn {
  std::string title; // a seconds column's header adds its unit: "inclusive ms"
  Format format = Format::seconds;
};

struct TreeRow {
  std::uint32_t parent = 0; // index into TreeData::rows; kTreeTop for a top-level row
  std::string label;
  std::vector<double> values; // one per TreeData::columns
  std::int64_t key = 0;       // what the row stands for (the CFH tree: the probe id)
  std::uint32_t source = 0;   // where it comes from (the CFH tree: the node's index)
  // How strongly the row is tinted, 0 (not) to 1 (the CFH tree: the share of the node's
  // time spent waiting in communication; the diff: slower), or down to -1 in the other
  // colour (the diff: faster), and what its tooltip adds to the label.
  double tint = 0;
  std::string note;
  bool emphasis = false; // shown in bold (the run view: the hot path)
};

inline constexpr std::uint32_t kTreeTop = 0xFFFFFFFFu;

struct TreeData {
  std::string label_title; // header of the first (label) column
  std::vector<TreeColumn> columns;
  std::vector<TreeRow> rows; // parents precede children
  // The rows a view expands to show what matters, from the top down (the CFH tree: the
  // hot path of analysis::hot_path); indices into rows.
  std::vector<std::uint32_t> hot_path;
  // The tint colours (0xRRGGBB) of positive and negative TreeRow::tint.
  std::uint32_t tint_rgb = 0xFF7800, negative_tint_rgb = 0x2870FF;
};

class TreeModel : public QAbstractItemModel {
  Q_OBJECT
public:
  explicit TreeModel(QObject *parent = nullptr);

  // Replaces the whole tree (a model reset). Rows with a parent index out of range or not
  // before them are shown at the top level.
  void setTree(TreeData tree);
  const TreeData &tree() const { return tree_; }

  // The indexes of the tree's hot_path rows (those in range), in its order.
  QModelIndexList hotPath() const;
  // The row of TreeData::rows that `index` shows; nullptr for an invalid index.
  const TreeRow *rowAt(const QModelIndex &index) const;

  QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
  QModelIndex parent(const QModelIndex &child) const override;
  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;
  void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
  std::uint32_t itemOf(const QModelIndex &index) const;
  QModelIndex indexOfItem(std::uint32_t item, int column) const;
  void sortChildren(int column, Qt::SortOrder order);
  void updatePositions();

  TreeData tree_;
  std::vector<TimeUnit> units_;                      // per column: the unit of a seconds column
  std::vector<std::vector<std::uint32_t>> children_; // per row; the last entry: top level
  std::vector<int> position_;                        // per row: its place among siblings
};

// A number as a cell outside a column of its kind shows it: integers with thousands
// separators, seconds in their own unit with it ("12.35 ms"), percentages with one
// decimal; blank as the format says.
QString formatValue(double value, Format format);

} // namespace idb::gui

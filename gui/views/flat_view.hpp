// The flat profile of a tree the run offers (the trees of the tree view): its probes by
// their own time over every call path, as `idb report --flat` lists them (flat_data.hpp),
// sortable by any column. Clicking a probe shows its rows and source.
#pragma once

#include "flat_data.hpp"
#include "store_worker.hpp"
#include "table_model.hpp"

#include <QWidget>

class QComboBox;
class QTableView;

namespace idb::gui {

class FlatView : public QWidget {
  Q_OBJECT
public:
  explicit FlatView(QWidget *parent = nullptr);

  void setRun(RunDataPtr run);
  // Shows the tree of choice `index` (RunData's tree_choices: -1 - i for tree i of the run
  // as a whole, i for CFH i).
  void showTree(int index);
  // Selects the first probe whose label starts with `prefix`; false when there is none.
  bool chooseProbe(const QString &prefix);

  TableModel &table() { return table_; }
  QTableView *tableView() const { return view_; }

signals:
  void probeClicked(qint64 probe);

private:
  RunDataPtr run_;
  TableModel table_;
  QComboBox *tree_;
  QTableView *view_;
};

} // namespace idb::gui

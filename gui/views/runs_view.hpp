// The runs of the database and the attributes of the chosen one, side by side. Choosing
// a run asks for it; its context menu sets it, or the group of repeated runs it is one of,
// against the run shown or its group (the Diff tab). The view itself holds only the
// tables it is given.
#pragma once

#include "table_model.hpp"

#include <QWidget>

class QTableView;

namespace idb::gui {

class RunsView : public QWidget {
  Q_OBJECT
public:
  explicit RunsView(QWidget *parent = nullptr);

  void setRuns(store::QueryResult runs);
  void setAttributes(store::QueryResult attributes);
  // Selects the run with this label and emits runChosen; false (and nothing else) when no
  // run has it.
  bool chooseRun(const QString &label);
  // The label of the run shown, whose repeats the context menu can set against another
  // run's.
  void setShownRun(const QString &label) { shown_ = label; }
  QStringList labels() const;

  TableModel &runs() { return runs_; }
  TableModel &attributes() { return attributes_; }
  QTableView *runsTable() const { return runs_view_; }
  QTableView *attributesTable() const { return attributes_view_; }

signals:
  void runChosen(const QString &label);
  // The run's context menu: "Diff against the run shown".
  void diffRequested(const QString &label);
  // The run's context menu, where it and the run shown are each one of a group of repeated
  // runs (repeat_groups): those groups as label patterns, the run shown's the baseline.
  void groupDiffRequested(const QString &group, const QString &baseline);

private:
  TableModel runs_, attributes_;
  QString shown_;
  QTableView *runs_view_, *attributes_view_;
};

// A read-only, sortable table view over `model`, as every grid of the GUI shows one.
QTableView *makeTableView(QAbstractItemModel *model, QWidget *parent);

} // namespace idb::gui

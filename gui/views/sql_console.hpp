// The SQL console: a statement typed or taken from the canned queries (queries/), its
// parameters as "key=value; ...", the result as a table that can be charted. Running
// asks the worker; the console only shows what comes back.
#pragma once

#include "chart_panel.hpp"
#include "store_worker.hpp"
#include "table_model.hpp"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QStackedWidget;
class QTableView;

namespace idb::gui {

class SqlConsole : public QWidget {
  Q_OBJECT
public:
  explicit SqlConsole(QWidget *parent = nullptr);

  // The run whose label and top probe fill in a canned query's parameters.
  void setRun(RunDataPtr run);
  // Puts the canned query `name` in the editor with its parameters; false when unknown.
  bool chooseCanned(const QString &name);
  void setSql(const QString &sql, const QString &params = {});
  // Runs what the editor holds: emits runRequested, or error() for bad parameters.
  void run();
  void showResult(store::QueryResult result);
  // Shows the result as a chart (true) or as the table (false).
  void showChart(bool chart);

  TableModel &result() { return result_; }
  ChartPanel *chartPanel() const { return chart_; }
  QTableView *tableView() const { return table_; }

signals:
  void runRequested(const QString &sql, const idb::store::KeyValues &params);
  void error(const QString &message);

private:
  QWidget *makeBar();

  RunDataPtr run_;
  TableModel result_;
  QComboBox *canned_;
  QLineEdit *params_;
  QPlainTextEdit *editor_;
  QStackedWidget *stack_;
  QTableView *table_;
  ChartPanel *chart_;
};

} // namespace idb::gui

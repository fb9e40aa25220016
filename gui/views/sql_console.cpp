// The SQL console (sql_console.hpp).
#include "sql_console.hpp"

#include "console_params.hpp"
#include "idb/queries.hpp"
#include "runs_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace idb::gui {

SqlConsole::SqlConsole(QWidget *parent)
    : QWidget(parent), canned_(new QComboBox(this)), params_(new QLineEdit(this)),
      editor_(new QPlainTextEdit(this)), stack_(new QStackedWidget(this)),
      table_(makeTableView(&result_, this)), chart_(new ChartPanel(this)) {
  editor_->setFont(QFont(QStringLiteral("monospace")));
  editor_->setPlaceholderText(tr("SELECT label, program, nprocs FROM runs"));
  params_->setPlaceholderText(tr("parameters: run=LABEL; limit=20"));
  stack_->addWidget(table_);
  stack_->addWidget(chart_);
  auto *split = new QSplitter(Qt::Vertical, this);
  split->addWidget(editor_);
  split->addWidget(stack_);
  split->setSizes({160, 500});
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 4, 0, 0);
  layout->addWidget(makeBar());
  layout->addWidget(params_);
  layout->addWidget(split, 1);
}

QWidget *SqlConsole::makeBar() {
  canned_->addItem(tr("(canned queries)"), QString());
  for (const queries::CannedQuery &q : queries::canned_queries()) {
    canned_->addItem(QString::fromStdString(q.name), QString::fromStdString(q.name));
    canned_->setItemData(canned_->count() - 1, QString::fromStdString(q.answers), Qt::ToolTipRole);
  }
  auto *run = new QPushButton(tr("Run"), this);
  auto *table = new QPushButton(tr("Table"), this);
  auto *chart = new QPushButton(tr("Chart"), this);
  auto *bar = new QWidget;
  auto *row = new QHBoxLayout(bar);
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(new QLabel(tr("Query:")));
  row->addWidget(canned_, 1);
  row->addWidget(run);
  row->addWidget(table);
  row->addWidget(chart);
  connect(canned_, &QComboBox::activated, this,
          [this](int i) { chooseCanned(canned_->itemData(i).toString()); });
  connect(run, &QPushButton::clicked, this, &SqlConsole::run);
  connect(table, &QPushButton::clicked, this, [this] { showChart(false); });
  connect(chart, &QPushButton::clicked, this, [this] { showChart(true); });
  return bar;
}

void SqlConsole::setRun(RunDataPtr run) {
  run_ = std::move(run);
  if (canned_->currentIndex() > 0) chooseCanned(canned_->currentData().toString());
}

bool SqlConsole::chooseCanned(const QString &name) {
  const queries::CannedQuery *q = queries::find_canned_query(name.toStdString());
  if (!q) return false;
  canned_->setCurrentIndex(canned_->findData(name));
  setSql(QString::fromStdString(q->sql), QString::fromStdString(params_text(default_params(
                                             parameter_names(q->parameters), run_.get()))));
  return true;
}

void SqlConsole::setSql(const QString &sql, const QString &params) {
  editor_->setPlainText(sql);
  params_->setText(params);
}

void SqlConsole::run() {
  std::string problem;
  auto params = parse_params(params_->text().toStdString(), problem);
  if (!params) {
    emit error(QString::fromStdString(problem));
    return;
  }
  // A canned query as it stands takes its parameters of the types it declares.
  const queries::CannedQuery *q =
      canned_->currentIndex() > 0
          ? queries::find_canned_query(canned_->currentData().toString().toStdString())
          : nullptr;
  if (q && editor_->toPlainText().toStdString() == q->sql) {
    if (std::string wrong = queries::parameter_problem(*q, *params); !wrong.empty()) {
      emit error(QString::fromStdString(wrong));
      return;
    }
  }
  emit runRequested(editor_->toPlainText(), *params);
}

void SqlConsole::showResult(store::QueryResult result) {
  std::vector<std::optional<Format>> formats = result_formats(result);
  result_.setTable(std::move(result), std::move(formats));
  table_->resizeColumnsToContents();
  chart_->setChart(chart_from_table(result_.table()), ChartKind::bar, false);
}

void SqlConsole::showChart(bool chart) {
  stack_->setCurrentWidget(chart ? chart_ : static_cast<QWidget *>(table_));
}

} // namespace idb::gui

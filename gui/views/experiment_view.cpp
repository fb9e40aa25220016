// The experiment view (experiment_view.hpp).
#include "experiment_view.hpp"

#include "runs_view.hpp"

#include "idb/edf_table.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace idb::gui {

ExperimentView::ExperimentView(QWidget *parent)
    : QWidget(parent), title_(new QLabel(tr("Open an experiment (.edf) from the File menu."))),
      mode_(new QComboBox(this)), metric_(new QComboBox(this)), rank_(new QComboBox(this)),
      probe_(new QComboBox(this)), log_(new QCheckBox(tr("log"), this)),
      relative_(new QCheckBox(tr("\u00f7 median"), this)), panel_(new ChartPanel(this)) {
  title_->setWordWrap(true);
  auto *split = new QSplitter(Qt::Vertical, this);
  split->addWidget(panel_);
  table_view_ = makeTableView(&table_, this);
  split->addWidget(table_view_);
  split->setSizes({520, 240});
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 4, 0, 0);
  layout->addWidget(title_);
  layout->addWidget(makeControls());
  layout->addWidget(split, 1);
  connect(panel_, &ChartPanel::categoryClicked, this, [this](qint64 key) {
    if (mode() == edf::Mode::coalesce) setProbe(std::int32_t(key));
  });
}

QWidget *ExperimentView::makeControls() {
  mode_->addItem(QStringLiteral("COALESCE"), int(edf::Mode::coalesce));
  mode_->addItem(QStringLiteral("COMPARE"), int(edf::Mode::compare));
  for (Metric m : kAllMetrics)
    metric_->addItem(QString::fromStdString(std::string(analysis::metric_title(m))), int(m));
  auto *bar = new QWidget;
  auto *row = new QHBoxLayout(bar);
  row->setContentsMargins(4, 0, 4, 0);
  for (auto [label, box] : {std::pair{tr("mode:"), mode_}, std::pair{tr("value:"), metric_},
                            std::pair{tr("ranks:"), rank_}, std::pair{tr("probe:"), probe_}}) {
    row->addWidget(new QLabel(label));
    row->addWidget(box);
  }
  probe_->setMinimumContentsLength(24);
  row->addWidget(log_);
  relative_->setToolTip(tr("Each probe's box divided by its median: the spread of boxes of "
                           "very different size, side by side"));
  row->addWidget(relative_);
  row->addStretch(1);
  for (QComboBox *box : {mode_, metric_, rank_})
    connect(box, &QComboBox::currentIndexChanged, this, &ExperimentView::analyse);
  connect(probe_, &QComboBox::currentIndexChanged, this, &ExperimentView::draw);
  connect(log_, &QCheckBox::toggled, this, &ExperimentView::draw);
  connect(relative_, &QCheckBox::toggled, this, &ExperimentView::draw);
  return bar;
}

void ExperimentView::setExperiment(ExperimentPtr experiment) {
  experiment_.reset(); // one analysis below, not one per control set
  const edf::Experiment &e = experiment->experiment;
  title_->setText(tr("<b>%1</b> — %2, [DBLIST] entries: %3")
                      .arg(QString::fromStdString(e.title.empty() ? experiment->path : e.title))
                      .arg(QString::fromStdString(experiment->path))
                      .arg(experiment->entries.size()));
  mode_->setCurrentIndex(mode_->findData(int(e.mode)));
  if (e.value) metric_->setCurrentIndex(metric_->findData(int(*e.value)));
  rank_->clear();
  rank_->addItem(tr("all"), QVariant());
  for (int r : experiment->ranks)
    rank_->addItem(tr("rank %1").arg(r), r);
  if (e.rank && !e.rank->all) rank_->setCurrentIndex(std::max(0, rank_->findData(e.rank->rank)));
  experiment_ = std::move(experiment);
  {
    // Boxes of very different size start each over its median.
    const QSignalBlocker quiet(relative_);
    relative_->setChecked(
        medians_far_apart(coalesce_boxes(edf::coalesce(experiment_->entries, options()))));
  }
  analyse();
}

edf::AnalysisOptions ExperimentView::options() const {
  edf::AnalysisOptions o;
  o.value = analysis::Metric(metric_->currentData().toInt());
  if (QVariant r = rank_->currentData(); r.isValid()) o.rank = {false, r.toInt()};
  return o;
}

void ExperimentView::analyse() {
  if (!experiment_) return;
  const edf::AnalysisOptions o = options();
  coalesce_ = edf::coalesce(experiment_->entries, o);
  compare_ = edf::compare(experiment_->entries, o);
  const QVariant keep = probe_->currentData();
  const QSignalBlocker block(probe_);
  probe_->clear();
  for (const edf::CoalesceRow &row : coalesce_.rows)
    if (probe_->findData(row.probe) < 0)
      probe_->addItem(QString::fromStdString(row.name), row.probe);
  const int at = probe_->findData(keep.isValid() ? keep : QVariant(largest_probe(compare_)));
  probe_->setCurrentIndex(std::max(0, at));
  draw();
}

void ExperimentView::draw() {
  if (!experiment_) return;
  const bool coalesce = mode() == edf::Mode::coalesce;
  probe_->setEnabled(!coalesce);
  relative_->setEnabled(coalesce);
  if (coalesce) {
    store::QueryResult rows = edf::coalesce_rows(coalesce_, false);
    auto formats = experimentFormats(rows);
    table_.setTable(std::move(rows), std::move(formats));
    BoxPlotData boxes = coalesce_boxes(coalesce_);
    panel_->setBoxes(relative_->isChecked() ? relative_boxes(std::move(boxes)) : boxes,
                     log_->isChecked());
  } else {
    store::QueryResult rows = edf::compare_rows(compare_, false);
    auto formats = experimentFormats(rows);
    table_.setTable(std::move(rows), std::move(formats));
    panel_->setChart(compare_chart(compare_, std::int32_t(probe_->currentData().toInt())),
                     ChartKind::bar, log_->isChecked());
  }
  table_view_->resizeColumnsToContents();
}

std::vector<std::optional<Format>>
ExperimentView::experimentFormats(const store::QueryResult &rows) const {
  // The value's columns in one time unit each (when it is a time); ratios with "×";
  // counts with separators; ids, ranks, t, degrees of freedom and p as they are.
  const bool seconds =
      analysis::metric_unit(analysis::Metric(metric_->currentData().toInt())) == "seconds";
  std::vector<std::optional<Format>> formats(rows.columns.size());
  for (std::size_t c = 0; c < rows.columns.size(); ++c) {
    const std::string &name = rows.columns[c];
    if (name == "ratio") formats[c] = Format::ratio;
    if (name == "pooled_count" || name == "runs") formats[c] = Format::integer;
    static const char *const values[] = {
        "min",           "q1",         "median",     "q3",         "max",        "lower_whisker",
        "upper_whisker", "mean",       "sdev",       "value",      "diff",       "pooled_mean",
        "pooled_sdev",   "pooled_min", "pooled_max", "pooled_p50", "pooled_p90", "pooled_p99"};
    for (const char *v : values)
      if (seconds && name == v) formats[c] = Format::seconds_or_blank;
  }
  return formats;
}

edf::Mode ExperimentView::mode() const {
  return edf::Mode(mode_->currentData().toInt());
}

void ExperimentView::setMode(edf::Mode mode) {
  mode_->setCurrentIndex(mode_->findData(int(mode)));
}

void ExperimentView::setMetric(Metric metric) {
  metric_->setCurrentIndex(metric_->findData(int(metric)));
}

void ExperimentView::setRank(std::optional<int> rank) {
  rank_->setCurrentIndex(rank ? std::max(0, rank_->findData(*rank)) : 0);
}

void ExperimentView::setRelative(bool relative) {
  relative_->setChecked(relative);
}

bool ExperimentView::relative() const {
  return relative_->isChecked();
}

void ExperimentView::setProbe(std::int32_t probe) {
  const int at = probe_->findData(probe);
  if (at >= 0) probe_->setCurrentIndex(at);
}

} // namespace idb::gui

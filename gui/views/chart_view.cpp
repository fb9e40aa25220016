// The run's chart view (chart_view.hpp).
#include "chart_view.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace idb::gui {

namespace {

constexpr std::size_t kFirstChecked = 5; // probes checked when a run opens

} // namespace

ChartView::ChartView(QWidget *parent)
    : QWidget(parent), legend_view_(new QListView(this)), metric_(new QComboBox(this)),
      kind_(new QComboBox(this)), rank_(new QComboBox(this)), log_(new QCheckBox(tr("log"), this)),
      panel_(new ChartPanel(this)) {
  legend_view_->setModel(&legend_);
  auto *right = new QWidget;
  auto *column = new QVBoxLayout(right);
  column->setContentsMargins(0, 0, 0, 0);
  column->addWidget(makeControls());
  column->addWidget(panel_, 1);
  auto *split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(legend_view_);
  split->addWidget(right);
  split->setStretchFactor(1, 3);
  split->setSizes({260, 900});
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(split);
  connect(&legend_, &LegendModel::checkedChanged, this, &ChartView::redraw);
  connect(legend_view_, &QListView::clicked, this,
          [this](const QModelIndex &i) { emit probeClicked(i.data(kKeyRole).toLongLong()); });
  connect(panel_, &ChartPanel::categoryClicked, this, &ChartView::probeClicked);
}

QWidget *ChartView::makeControls() {
  for (Metric m : kAllMetrics)
    metric_->addItem(QString::fromStdString(std::string(analysis::metric_title(m))), int(m));
  kind_->addItem(tr("bar"), int(ChartKind::bar));
  kind_->addItem(tr("line"), int(ChartKind::line));
  kind_->addItem(tr("scatter"), int(ChartKind::scatter));
  auto *bar = new QWidget;
  auto *row = new QHBoxLayout(bar);
  row->setContentsMargins(4, 4, 4, 0);
  row->addWidget(new QLabel(tr("Y:")));
  row->addWidget(metric_);
  row->addWidget(new QLabel(tr("chart:")));
  row->addWidget(kind_);
  row->addWidget(new QLabel(tr("ranks:")));
  row->addWidget(rank_);
  row->addWidget(log_);
  row->addStretch(1);
  for (QComboBox *box : {metric_, kind_, rank_})
    connect(box, &QComboBox::currentIndexChanged, this, &ChartView::redraw);
  connect(log_, &QCheckBox::toggled, this, &ChartView::redraw);
  return bar;
}

void ChartView::setRun(RunDataPtr run) {
  // The same run again (the whole of it after a first look) keeps the user's choices.
  const bool same = run_ && run_->label == run->label;
  const std::vector<std::int32_t> checked = legend_.checkedProbes();
  const QVariant rank = rank_->currentData();
  run_.reset(); // redraw() waits until the controls are set: one chart, not one per change
  rank_->clear();
  rank_->addItem(tr("all (a series each)"), QVariant());
  for (int r : run->summary.ranks)
    rank_->addItem(QString::fromStdString(rank_name(r)), r);
  legend_.setProbes(run->summary, same ? 0 : kFirstChecked);
  if (same) {
    for (std::int32_t id : checked)
      legend_.setChecked(id, true);
    rank_->setCurrentIndex(std::max(0, rank_->findData(rank)));
  }
  run_ = std::move(run);
  redraw();
}

void ChartView::redraw() {
  if (!run_) return;
  ChartRequest request;
  request.probes = legend_.checkedProbes();
  request.metric = Metric(metric_->currentData().toInt());
  if (QVariant r = rank_->currentData(); r.isValid()) request.rank = r.toInt();
  data_.setChartData(chart_data(run_->summary, request));
  panel_->setChart(data_.chartData(), ChartKind(kind_->currentData().toInt()), log_->isChecked());
}

void ChartView::setMetric(Metric metric) {
  metric_->setCurrentIndex(metric_->findData(int(metric)));
}

void ChartView::setKind(ChartKind kind) {
  kind_->setCurrentIndex(kind_->findData(int(kind)));
}

void ChartView::setRank(std::optional<int> rank) {
  rank_->setCurrentIndex(rank ? rank_->findData(*rank) : 0);
}

void ChartView::setLogScale(bool log) {
  log_->setChecked(log);
}

} // namespace idb::gui

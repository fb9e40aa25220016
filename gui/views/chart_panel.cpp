// The chart panel (chart_panel.hpp). On a log axis a value of 0 or less has no place:
// points leave it out, bars draw it at the axis floor, so no bar lies about its height.
// A value that is not there (NaN: a quantile without histograms) has no point and no bar.
#include "chart_panel.hpp"

#include "export.hpp"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace idb::gui {

namespace {

constexpr int kMaxLegendSeries = 16; // beyond this a legend hides the chart
constexpr int kMaxLabel = 28;

QString shortLabel(const std::string &text) {
  QString s = QString::fromStdString(text);
  return s.size() > kMaxLabel ? s.left(kMaxLabel - 1) + QChar(0x2026) : s;
}

QAbstractAxis *yAxis(const ChartData &shown, bool log_scale) {
  if (!log_scale) {
    auto *axis = new QValueAxis;
    axis->setTitleText(QString::fromStdString(shown.y_title));
    axis->setLabelFormat(QStringLiteral("%.3g"));
    return axis;
  }
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (const ChartSeries &s : shown.series)
    for (double v : s.values)
      if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
  auto *axis = new QLogValueAxis;
  axis->setTitleText(QString::fromStdString(shown.y_title) + QStringLiteral(" (log)"));
  axis->setLabelFormat(QStringLiteral("%.3g"));
  if (hi > 0) axis->setRange(lo / 2, hi * 2);
  return axis;
}

} // namespace

ChartPanel::ChartPanel(QWidget *parent) : QWidget(parent), view_(new QChartView(this)) {
  view_->setRenderHint(QPainter::Antialiasing);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(view_);
  setChart({}, ChartKind::bar, false);
}

void ChartPanel::setChart(const ChartData &shown, ChartKind kind, bool log_scale) {
  auto *chart = new QChart;
  chart->setTitle(QString::fromStdString(shown.title));
  keys_ = shown.keys;
  if (kind == ChartKind::bar)
    addBars(chart, shown, log_scale);
  else
    addPoints(chart, shown, kind, log_scale);
  install(chart, shown.series.size());
}

void ChartPanel::install(QChart *chart, std::size_t series) {
  chart->legend()->setVisible(series > 0 && series <= kMaxLegendSeries);
  chart->legend()->setAlignment(Qt::AlignRight);
  QChart *old = view_->chart();
  view_->setChart(chart);
  delete old; // the view gives up the old chart without deleting it
}

void ChartPanel::setBoxes(const BoxPlotData &boxes, bool log_scale) {
  auto *chart = new QChart;
  chart->setTitle(QString::fromStdString(boxes.title));
  keys_ = boxes.keys;
  ChartData range; // the axis spans every number drawn
  range.y_title = boxes.y_title;
  auto *series = new QBoxPlotSeries;
  series->setName(tr("runs"));
  auto *outliers = new QScatterSeries;
  outliers->setName(tr("outliers"));
  outliers->setMarkerSize(7);
  auto *x = new QBarCategoryAxis;
  for (std::size_t i = 0; i < boxes.boxes.size(); ++i) {
    const edf::Box &b = boxes.boxes[i];
    series->append(new QBoxSet(b.lower_whisker, b.q1, b.median, b.q3, b.upper_whisker,
                               shortLabel(boxes.categories[i])));
    x->append(shortLabel(boxes.categories[i]));
    range.series.push_back({"", {b.min, b.max}});
    for (double v : boxes.outliers[i])
      if (!log_scale || v > 0) outliers->append(double(i), v);
  }
  QAbstractAxis *y = yAxis(range, log_scale);
  chart->addSeries(series);
  chart->addSeries(outliers);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (QAbstractSeries *s :
       {static_cast<QAbstractSeries *>(series), static_cast<QAbstractSeries *>(outliers)}) {
    s->attachAxis(x);
    s->attachAxis(y);
  }
  connect(series, &QBoxPlotSeries::clicked, this,
          [this](QBoxSet *set) { clicked(set->property("index").toInt()); });
  for (int i = 0; i < int(series->count()); ++i)
    series->boxSets()[i]->setProperty("index", i);
  install(chart, 2);
}

int ChartPanel::seriesCount() const {
  int n = 0;
  for (QAbstractSeries *s : view_->chart()->series()) {
    if (auto *bars = qobject_cast<QBarSeries *>(s))
      n += int(bars->count());
    else
      ++n;
  }
  return n;
}

void ChartPanel::addBars(QChart *chart, const ChartData &shown, bool log_scale) {
  auto *series = new QBarSeries;
  QAbstractAxis *y = yAxis(shown, log_scale);
  const double floor = log_scale ? static_cast<QLogValueAxis *>(y)->min() : 0.0;
  for (const ChartSeries &s : shown.series) {
    auto *set = new QBarSet(QString::fromStdString(s.name));
    for (double v : s.values)
      *set << (std::isnan(v) ? floor : log_scale && v <= 0 ? floor : v);
    series->append(set);
  }
  chart->addSeries(series);
  auto *x = new QBarCategoryAxis;
  for (const std::string &c : shown.categories)
    x->append(shortLabel(c));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  series->attachAxis(x);
  series->attachAxis(y);
  connect(series, &QBarSeries::clicked, this, [this](int index, QBarSet *) { clicked(index); });
}

void ChartPanel::addPoints(QChart *chart, const ChartData &shown, ChartKind kind, bool log_scale) {
  auto *x = new QCategoryAxis;
  x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
  for (std::size_t i = 0; i < shown.categories.size(); ++i)
    x->append(shortLabel(shown.categories[i]), double(i) + 0.5);
  x->setRange(-0.5, std::max(0.5, double(shown.categories.size()) - 0.5));
  QAbstractAxis *y = yAxis(shown, log_scale);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (const ChartSeries &s : shown.series) {
    QXYSeries *series = kind == ChartKind::line ? static_cast<QXYSeries *>(new QLineSeries)
                                                : static_cast<QXYSeries *>(new QScatterSeries);
    if (auto *points = qobject_cast<QScatterSeries *>(series)) points->setMarkerSize(8);
    series->setName(QString::fromStdString(s.name));
    for (std::size_t i = 0; i < s.values.size(); ++i)
      if (!std::isnan(s.values[i]) && (!log_scale || s.values[i] > 0))
        series->append(double(i), s.values[i]);
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
    connect(series, &QXYSeries::clicked, this,
            [this](const QPointF &p) { clicked(int(std::lround(p.x()))); });
  }
}

void ChartPanel::clicked(int category) {
  if (category >= 0 && std::size_t(category) < keys_.size())
    emit categoryClicked(keys_[std::size_t(category)]);
}

bool ChartPanel::savePng(const QString &path, QString &error) const {
  return saveWidgetPng(*view_, path, error);
}

bool ChartPanel::saveSvg(const QString &path, QString &error) const {
  return saveWidgetSvg(*view_, path, error);
}

} // namespace idb::gui

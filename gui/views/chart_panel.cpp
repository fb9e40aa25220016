// The chart panel (chart_panel.hpp). Seconds are drawn in the unit of the largest value,
// named in the axis title; a linear axis ends on a round number with headroom
// (nice_axis); category labels lose their middle when long (axis_labels), a hovered bar,
// point or box names its whole category and value, and a saved picture carries the whole
// categories. On a log axis a value of 0 or less has no place:
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
#include <QCursor>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace idb::gui {

namespace {

constexpr int kMaxLegendSeries = 16; // beyond this a legend hides the chart

QStringList labels(const std::vector<std::string> &categories) {
  QStringList out;
  for (const std::string &l : axis_labels(categories))
    out << QString::fromStdString(l);
  return out;
}

// The unit a chart's values are drawn in: a seconds chart in the unit of its largest
// value (number_format's time_unit); anything else as it is.
TimeUnit unit_of(const std::vector<double> &values, bool seconds) {
  if (!seconds) return {QString(), 1.0, 3};
  TimeUnit unit = time_unit(values);
  if (unit.name.isEmpty()) unit = {QStringLiteral("s"), 1.0, 3};
  return unit;
}

QString axis_title(const std::string &title, const TimeUnit &unit) {
  QString text = QString::fromStdString(title);
  return unit.name.isEmpty() ? text : text + QStringLiteral(" (%1)").arg(unit.name);
}

// The Y axis over `values` (already in the chart's unit): round ticks with headroom on a
// linear axis; a decade below and above on a log one.
QAbstractAxis *yAxis(const QString &title, const std::vector<double> &values, bool log_scale) {
  if (!log_scale) {
    double lo = 0, hi = 0;
    for (double v : values)
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    const NiceAxis nice = nice_axis(lo, hi);
    auto *axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setRange(nice.min, nice.max);
    axis->setTickCount(nice.ticks);
    axis->setLabelFormat(QStringLiteral("%.4g"));
    return axis;
  }
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (double v : values)
    if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
  auto *axis = new QLogValueAxis;
  axis->setTitleText(title + QStringLiteral(", log"));
  axis->setLabelFormat(QStringLiteral("%.4g"));
  if (hi > 0)
    axis->setRange(std::pow(10.0, std::floor(std::log10(lo))),
                   std::pow(10.0, std::ceil(std::log10(hi * 1.05))));
  return axis;
}

std::vector<double> all_values(const ChartData &shown) {
  std::vector<double> values;
  for (const ChartSeries &s : shown.series)
    values.insert(values.end(), s.values.begin(), s.values.end());
  return values;
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
  unit_ = unit_of(all_values(shown), shown.seconds);
  ChartData scaled = shown;
  for (ChartSeries &s : scaled.series)
    for (double &v : s.values)
      v *= unit_.per_second;
  full_ = shown.categories;
  if (kind == ChartKind::bar)
    addBars(chart, scaled, log_scale);
  else
    addPoints(chart, scaled, kind, log_scale);
  install(chart, shown.series.size());
}

void ChartPanel::install(QChart *chart, std::size_t series) {
  x_axis_ = nullptr;
  for (QAbstractAxis *axis : chart->axes(Qt::Horizontal)) {
    x_axis_ = axis;
    axis->setTruncateLabels(false); // the labels are short already; Qt's own cut is blind
    // Slanted where they would not fit side by side (about 90 characters across).
    qsizetype across = 0;
    for (const QString &label : axisLabels())
      across += label.size() + 2;
    if (across > 90) axis->setLabelsAngle(-30);
  }
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
  std::vector<double> drawn; // the axis spans every number drawn
  for (const edf::Box &b : boxes.boxes)
    drawn.insert(drawn.end(), {b.min, b.max});
  unit_ = unit_of(drawn, boxes.seconds);
  const double k = unit_.per_second;
  full_ = boxes.categories;
  const QStringList shown = labels(boxes.categories);
  auto *series = new QBoxPlotSeries;
  series->setName(tr("runs"));
  auto *outliers = new QScatterSeries;
  outliers->setName(tr("outliers"));
  outliers->setMarkerSize(7);
  auto *x = new QBarCategoryAxis;
  for (std::size_t i = 0; i < boxes.boxes.size(); ++i) {
    const edf::Box &b = boxes.boxes[i];
    series->append(new QBoxSet(k * b.lower_whisker, k * b.q1, k * b.median, k * b.q3,
                               k * b.upper_whisker, shown[qsizetype(i)]));
    x->append(shown[qsizetype(i)]);
    for (double v : boxes.outliers[i])
      if (!log_scale || v > 0) outliers->append(double(i), k * v);
  }
  for (double &v : drawn)
    v *= k;
  QAbstractAxis *y = yAxis(axis_title(boxes.y_title, unit_), drawn, log_scale);
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
  connect(series, &QBoxPlotSeries::hovered, this, [this](bool on, QBoxSet *set) {
    if (!on) return QToolTip::hideText();
    const int i = set->property("index").toInt();
    tip(i, tr("median %1").arg(valueText(set->at(QBoxSet::Median))));
  });
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
  QAbstractAxis *y = yAxis(axis_title(shown.y_title, unit_), all_values(shown), log_scale);
  const double floor = log_scale ? static_cast<QLogValueAxis *>(y)->min() : 0.0;
  for (const ChartSeries &s : shown.series) {
    auto *set = new QBarSet(QString::fromStdString(s.name));
    for (double v : s.values)
      *set << (std::isnan(v) ? floor : log_scale && v <= 0 ? floor : v);
    series->append(set);
  }
  chart->addSeries(series);
  auto *x = new QBarCategoryAxis;
  x->append(labels(shown.categories));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  series->attachAxis(x);
  series->attachAxis(y);
  connect(series, &QBarSeries::clicked, this, [this](int index, QBarSet *) { clicked(index); });
  connect(series, &QBarSeries::hovered, this, [this](bool on, int index, QBarSet *set) {
    if (!on) return QToolTip::hideText();
    tip(index, set->label() + QStringLiteral(": ") + valueText(set->at(index)));
  });
}

void ChartPanel::addPoints(QChart *chart, const ChartData &shown, ChartKind kind, bool log_scale) {
  auto *x = new QCategoryAxis;
  x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
  const QStringList shown_labels = labels(shown.categories);
  for (qsizetype i = 0; i < shown_labels.size(); ++i)
    x->append(shown_labels[i], double(i) + 0.5);
  x->setRange(-0.5, std::max(0.5, double(shown.categories.size()) - 0.5));
  QAbstractAxis *y = yAxis(axis_title(shown.y_title, unit_), all_values(shown), log_scale);
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
    connect(series, &QXYSeries::hovered, this, [this, series](const QPointF &p, bool on) {
      if (!on) return QToolTip::hideText();
      tip(int(std::lround(p.x())), series->name() + QStringLiteral(": ") + valueText(p.y()));
    });
  }
}

void ChartPanel::clicked(int category) {
  if (category >= 0 && std::size_t(category) < keys_.size())
    emit categoryClicked(keys_[std::size_t(category)]);
}

void ChartPanel::tip(int category, const QString &what) const {
  if (category < 0 || std::size_t(category) >= full_.size()) return;
  QToolTip::showText(QCursor::pos(),
                     QString::fromStdString(full_[std::size_t(category)]) + '\n' + what, view_);
}

QString ChartPanel::valueText(double value) const {
  const QString number = QString::number(value, 'g', 4);
  return unit_.name.isEmpty() ? number : number + QLatin1Char(' ') + unit_.name;
}

QString ChartPanel::yTitle() const {
  const QList<QAbstractAxis *> axes = view_->chart()->axes(Qt::Vertical);
  return axes.isEmpty() ? QString() : axes.front()->titleText();
}

QStringList ChartPanel::axisLabels() const {
  QStringList out;
  if (auto *bars = qobject_cast<QBarCategoryAxis *>(x_axis_)) out = bars->categories();
  if (auto *points = qobject_cast<QCategoryAxis *>(x_axis_)) out = points->categoriesLabels();
  return out;
}

void ChartPanel::setAxisLabels(const QStringList &text) const {
  if (auto *bars = qobject_cast<QBarCategoryAxis *>(x_axis_)) bars->setCategories(text);
  if (auto *points = qobject_cast<QCategoryAxis *>(x_axis_)) {
    const QStringList old = points->categoriesLabels();
    for (qsizetype i = 0; i < old.size() && i < text.size(); ++i)
      points->replaceLabel(old[i], text[i]);
  }
}

// A picture saved is read without the tooltips: its labels are the whole categories.
template <typename Save> bool ChartPanel::withFullLabels(Save save) const {
  const QStringList shown = axisLabels();
  QStringList full;
  std::vector<std::string> whole = full_;
  // Distinct, as an axis needs them (a label may repeat, two probes of one description).
  for (std::size_t i = 0; i < whole.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (whole[j] == whole[i]) whole[i] += "\u200b";
  for (const std::string &c : whole)
    full << QString::fromStdString(c);
  if (full.size() == shown.size()) setAxisLabels(full);
  const bool ok = save();
  if (full.size() == shown.size()) setAxisLabels(shown);
  return ok;
}

bool ChartPanel::savePng(const QString &path, QString &error) const {
  return withFullLabels([&] { return saveWidgetPng(*view_, path, error); });
}

bool ChartPanel::saveSvg(const QString &path, QString &error) const {
  return withFullLabels([&] { return saveWidgetSvg(*view_, path, error); });
}

} // namespace idb::gui

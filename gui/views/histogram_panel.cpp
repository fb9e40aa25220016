// The histogram panel (histogram_panel.hpp). Each bar is one bucket, from its lower to its
// upper bound, drawn as one area under a stepped line over log10 of the duration (so the
// axis can be labelled in time units); the quantiles are vertical lines from the axis to
// the tallest bar, named with their value in the legend.
#include "histogram_panel.hpp"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <utility>

namespace idb::gui {

HistogramPanel::HistogramPanel(QWidget *parent)
    : QWidget(parent), view_(new QChartView(this)), log_(new QCheckBox(tr("log count"), this)) {
  view_->setRenderHint(QPainter::Antialiasing);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(log_, 0, Qt::AlignRight);
  layout->addWidget(view_, 1);
  log_->setToolTip(tr("A logarithmic count axis, where the tail's few activations show"));
  connect(log_, &QCheckBox::toggled, this, &HistogramPanel::redraw);
  redraw();
}

void HistogramPanel::setHistogram(const HistogramChart &shown) {
  shown_ = shown;
  redraw();
}

void HistogramPanel::redraw() {
  const HistogramChart &shown = shown_;
  const bool log_count = log_->isChecked();
  auto *chart = new QChart;
  chart->setTitle(
      QString::fromStdString(shown.title.empty() ? "Select a node of the tree" : shown.title));
  chart->legend()->setAlignment(Qt::AlignRight);
  chart->legend()->setVisible(!shown.bars.empty());
  if (!shown.bars.empty()) {
    // X is log10 of the duration on a linear axis, labelled in time units at 1, 2, 5 of
    // each decade (only the decades when the range spans more than four).
    const double lo = std::log10(shown.bars.front().lower) - 0.05,
                 hi = std::log10(shown.bars.back().upper) + 0.05;
    auto *x = new QCategoryAxis;
    x->setTitleText(tr("activation duration (log)"));
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    x->setRange(lo, hi);
    // A label wider than its interval stays whole ("10 µs", never "10 …"): they are short.
    x->setTruncateLabels(false);
    const bool decades = hi - lo > 4;
    for (double decade = std::floor(lo); decade <= hi; ++decade)
      for (double step : {1.0, 2.0, 5.0}) {
        if (decades && step != 1.0) continue;
        const double at = decade + std::log10(step);
        if (at >= lo && at <= hi)
          x->append(QString::fromStdString(duration_text(std::pow(10.0, at), true)), at);
      }
    std::uint64_t tallest = 0;
    for (const HistogramBar &b : shown.bars)
      tallest = std::max(tallest, b.count);
    // On a log count axis the bars stand on 0.5, below the 1 of the smallest bucket.
    const double floor = log_count ? 0.5 : 0.0;
    QAbstractAxis *y = nullptr;
    if (log_count) {
      auto *axis = new QLogValueAxis;
      axis->setLabelFormat(QStringLiteral("%.0f"));
      axis->setRange(floor, double(tallest) * 2);
      axis->setTitleText(tr("activations (log)"));
      y = axis;
    } else {
      auto *axis = new QValueAxis;
      axis->setLabelFormat(QStringLiteral("%.0f"));
      axis->setRange(0, double(tallest) * 1.1);
      axis->applyNiceNumbers();
      axis->setTitleText(tr("activations"));
      y = axis;
    }
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    auto *top = new QLineSeries;
    auto *bottom = new QLineSeries;
    for (const HistogramBar &b : shown.bars) {
      const double from = std::log10(b.lower), to = std::log10(b.upper);
      for (auto [at, height] : {std::pair(from, floor), std::pair(from, double(b.count)),
                                std::pair(to, double(b.count)), std::pair(to, floor)}) {
        top->append(at, height);
        bottom->append(at, floor);
      }
    }
    auto *bars = new QAreaSeries(top, bottom);
    bars->setName(tr("activations per bucket"));
    bars->setColor(QColor(70, 130, 180));
    bars->setBorderColor(QColor(40, 80, 120));
    chart->addSeries(bars);
    bars->attachAxis(x);
    bars->attachAxis(y);

    const struct {
      const char *name;
      double value;
      QColor color;
      Qt::PenStyle style;
    } marks[] = {{"p50", shown.p50, QColor(46, 139, 87), Qt::SolidLine},
                 {"p90", shown.p90, QColor(218, 165, 32), Qt::DashLine},
                 {"p99", shown.p99, QColor(178, 34, 34), Qt::DashDotLine}};
    for (const auto &m : marks) {
      if (!(m.value > 0)) continue;
      auto *line = new QLineSeries;
      line->setName(
          QStringLiteral("%1 %2").arg(m.name, QString::fromStdString(duration_text(m.value))));
      line->append(std::log10(m.value), std::max(floor, 0.0));
      line->append(std::log10(m.value), double(tallest));
      QPen pen(m.color);
      pen.setWidth(2);
      pen.setStyle(m.style);
      line->setPen(pen);
      chart->addSeries(line);
      line->attachAxis(x);
      line->attachAxis(y);
    }
  }
  QChart *old = view_->chart();
  view_->setChart(chart);
  delete old; // the view gives up the old chart without deleting it
}

void HistogramPanel::setLogCount(bool log) {
  log_->setChecked(log);
}

int HistogramPanel::seriesCount() const {
  return int(view_->chart()->series().size());
}

} // namespace idb::gui

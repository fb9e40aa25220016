// The Iterations view (dynamics_view.hpp).
#include "dynamics_view.hpp"

#include "histogram_data.hpp"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPainter>
#include <QSplitter>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace idb::gui {

namespace {

// A light-to-dark scale: pale yellow through orange to dark red.
QColor heat_colour(double share) {
  const QColor stops[] = {QColor(255, 255, 204), QColor(254, 178, 76), QColor(240, 59, 32),
                          QColor(128, 0, 38)};
  double at = std::clamp(share, 0.0, 1.0) * 3;
  int i = std::min(int(at), 2);
  double f = at - i;
  auto mix = [f](int a, int b) { return int(std::lround(a + (b - a) * f)); };
  return QColor(mix(stops[i].red(), stops[i + 1].red()),
                mix(stops[i].green(), stops[i + 1].green()),
                mix(stops[i].blue(), stops[i + 1].blue()));
}

QString seconds_text(double seconds) {
  return QString::fromStdString(duration_text(seconds));
}

} // namespace

HeatMapWidget::HeatMapWidget(QWidget *parent) : QWidget(parent) {
  setMinimumHeight(120);
}

void HeatMapWidget::setMap(HeatMap map) {
  map_ = std::move(map);
  update();
}

void HeatMapWidget::paintEvent(QPaintEvent *) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().base());
  if (map_.rows.empty() || map_.iterations == 0) return;
  const QFontMetrics metrics = painter.fontMetrics();
  int names = 0;
  for (const std::string &row : map_.rows)
    names = std::max(names, metrics.horizontalAdvance(QString::fromStdString(row)));
  const int left = names + 12, right = 110, top = 8, bottom = metrics.height() * 2 + 10;
  const QRect cells(left, top, std::max(1, width() - left - right),
                    std::max(1, height() - top - bottom));
  // One pixel per cell, scaled to the area: each column the highest iteration it covers,
  // so that a spike never falls between two columns.
  const int columns = int(std::min<std::size_t>(map_.iterations, std::size_t(cells.width())));
  QImage image(columns, int(map_.rows.size()), QImage::Format_RGB32);
  for (int r = 0; r < image.height(); ++r)
    for (int c = 0; c < columns; ++c) {
      std::size_t from = std::size_t(c) * map_.iterations / std::size_t(columns);
      std::size_t to = std::size_t(c + 1) * map_.iterations / std::size_t(columns);
      const std::vector<double> &row = map_.seconds[std::size_t(r)];
      double v = *std::max_element(row.begin() + std::ptrdiff_t(from),
                                   row.begin() + std::ptrdiff_t(std::max(to, from + 1)));
      image.setPixelColor(c, r, heat_colour(heat_share(v, map_.low, map_.high)));
    }
  painter.drawImage(cells, image);
  painter.setPen(palette().color(QPalette::Text));
  const double row_height = double(cells.height()) / double(map_.rows.size());
  for (std::size_t r = 0; r < map_.rows.size(); ++r) {
    QRect label(0, int(top + double(r) * row_height), left - 6, int(std::ceil(row_height)));
    painter.drawText(label, Qt::AlignRight | Qt::AlignVCenter,
                     QString::fromStdString(map_.rows[r]));
  }
  // The iterations below: the first, the middle, the last.
  const int axis = cells.bottom() + 4;
  for (std::size_t it : {std::size_t(0), map_.iterations / 2, map_.iterations - 1}) {
    // The middle of the iteration's share of the cells.
    int x = cells.left() +
            int(std::lround((double(it) + 0.5) * cells.width() / double(map_.iterations)));
    painter.drawLine(x, cells.bottom() + 1, x, axis);
    painter.drawText(QRect(x - 40, axis, 80, metrics.height()), Qt::AlignHCenter,
                     QString::number(it));
  }
  painter.drawText(QRect(cells.left(), axis + metrics.height(), cells.width(), metrics.height()),
                   Qt::AlignHCenter, tr("iteration"));
  // The scale on the right: the most at the top, the least at the bottom.
  const QRect scale(cells.right() + 12, top, 14, cells.height());
  for (int y = 0; y < scale.height(); ++y)
    painter.fillRect(scale.left(), scale.top() + y, scale.width(), 1,
                     heat_colour(1.0 - double(y) / std::max(1, scale.height() - 1)));
  painter.drawText(QRect(scale.right() + 4, scale.top(), right, metrics.height()), Qt::AlignLeft,
                   (map_.most > map_.high ? QStringLiteral("≥ ") : QString()) +
                       seconds_text(map_.high));
  painter.drawText(
      QRect(scale.right() + 4, scale.bottom() - metrics.height(), right, metrics.height()),
      Qt::AlignLeft, seconds_text(map_.low));
}

DynamicsView::DynamicsView(QWidget *parent)
    : QWidget(parent), summary_(new QLabel(this)), probe_(new QComboBox(this)),
      line_(new QChartView(this)), heat_(new HeatMapWidget(this)) {
  summary_->setWordWrap(true);
  probe_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  line_->setRenderHint(QPainter::Antialiasing);
  auto *bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Probe:"), this));
  bar->addWidget(probe_);
  bar->addStretch(1);
  auto *split = new QSplitter(Qt::Vertical, this);
  split->addWidget(line_);
  split->addWidget(heat_);
  split->setSizes({420, 260});
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(summary_);
  layout->addLayout(bar);
  layout->addWidget(split, 1);
  connect(probe_, &QComboBox::currentIndexChanged, this, &DynamicsView::showProbe);
  setRun(nullptr);
}

void DynamicsView::setRun(RunDataPtr run) {
  run_ = std::move(run);
  const analysis::RunDynamics empty;
  const analysis::RunDynamics &d = run_ ? run_->dynamics : empty;
  summary_->setText(run_ ? QString::fromStdString(dynamics_summary(d)) : tr("No run shown."));
  QSignalBlocker block(probe_);
  probe_->clear();
  for (std::int32_t probe : d.probes)
    probe_->addItem(QString::fromStdString(d.labels.at(probe)), probe);
  probe_->setEnabled(d.probe != 0);
  showProbe(probe_->count() ? 0 : -1);
}

bool DynamicsView::chooseProbe(const QString &prefix) {
  for (int i = 0; i < probe_->count(); ++i)
    if (probe_->itemText(i).startsWith(prefix)) {
      probe_->setCurrentIndex(i);
      showProbe(i);
      return true;
    }
  return false;
}

void DynamicsView::showProbe(int index) {
  auto *chart = new QChart;
  chart->legend()->setAlignment(Qt::AlignRight);
  const analysis::RunDynamics empty;
  const analysis::RunDynamics &d = run_ ? run_->dynamics : empty;
  if (index < 0 || d.probe == 0) {
    chart->setTitle(tr("No iterations"));
    chart->legend()->hide();
    line_->setChart(chart);
    heat_->setMap({});
    return;
  }
  const std::int32_t probe = probe_->itemData(index).toInt();
  IterationLine line = iteration_line(d, probe);
  chart->setTitle(
      tr("%1: seconds per iteration over the ranks").arg(QString::fromStdString(line.title)));
  // The unit of the axis: the largest value's.
  double unit = line.high >= 1 ? 1 : line.high >= 1e-3 ? 1e-3 : 1e-6;
  QString unit_name = unit == 1 ? tr("s") : unit == 1e-3 ? tr("ms") : tr("µs");
  auto *least = new QLineSeries, *most = new QLineSeries, *mean = new QLineSeries;
  least->setName(tr("least rank"));
  most->setName(tr("most rank"));
  mean->setName(tr("mean"));
  for (std::size_t i = 0; i < line.mean.size(); ++i) {
    least->append(double(i), line.min[i] / unit);
    most->append(double(i), line.max[i] / unit);
    mean->append(double(i), line.mean[i] / unit);
  }
  auto *band = new QAreaSeries(most, least);
  band->setName(tr("least to most"));
  band->setColor(QColor(198, 219, 239));
  band->setBorderColor(QColor(198, 219, 239));
  chart->addSeries(band);
  least->setColor(QColor(107, 174, 214));
  most->setColor(QColor(33, 113, 181));
  mean->setColor(QColor(203, 24, 29));
  for (QLineSeries *s : {least, most, mean})
    chart->addSeries(s);
  auto *x = new QValueAxis;
  x->setTitleText(tr("iteration"));
  x->setLabelFormat(QStringLiteral("%d"));
  x->setRange(0, std::max<double>(1, double(line.mean.size()) - 1));
  x->applyNiceNumbers();
  auto *y = new QValueAxis;
  y->setTitleText(unit_name);
  y->setRange(0, std::max(line.high / unit * 1.05, 1e-9));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (QAbstractSeries *s : chart->series()) {
    s->attachAxis(x);
    s->attachAxis(y);
  }
  line_->setChart(chart);
  heat_->setMap(rank_heat_map(d, probe));
}

QString DynamicsView::summary() const {
  return summary_->text();
}

int DynamicsView::probeCount() const {
  return probe_->count();
}

QString DynamicsView::probeShown() const {
  return probe_->currentText();
}

int DynamicsView::seriesCount() const {
  return line_->chart() ? int(line_->chart()->series().size()) : 0;
}

} // namespace idb::gui

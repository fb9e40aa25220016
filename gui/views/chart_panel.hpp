// Draws a ChartData with Qt Charts: bars, lines or points, a linear or log Y axis, the
// categories along X; tells which category was clicked, and saves itself as PNG or SVG.
// It computes nothing: what to draw arrives as a value.
#pragma once

#include "chart_data.hpp"
#include "experiment_data.hpp"
#include "number_format.hpp"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QChart;
class QChartView;
QT_END_NAMESPACE

namespace idb::gui {

enum class ChartKind { bar, line, scatter };

class ChartPanel : public QWidget {
  Q_OBJECT
public:
  explicit ChartPanel(QWidget *parent = nullptr);

  void setChart(const ChartData &shown, ChartKind kind, bool log_scale);
  // Box plots, whiskers at 1.5 IQR, outliers as points.
  void setBoxes(const BoxPlotData &boxes, bool log_scale);
  // How many series the chart now shows (for tests and the status line).
  int seriesCount() const;
  QChartView *chartView() const { return view_; }

  // The labels the X axis shows now.
  QStringList axisLabels() const;
  // The Y axis' title (with the unit the values are drawn in).
  QString yTitle() const;

  // Each returns false with `error` set when the file cannot be written; the picture's X
  // axis names the whole categories, not the shortened labels shown.
  bool savePng(const QString &path, QString &error) const;
  bool saveSvg(const QString &path, QString &error) const;

signals:
  // The key of the category clicked (the probe id on a run's chart).
  void categoryClicked(qint64 key);

private:
  void addBars(QChart *chart, const ChartData &shown, bool log_scale);
  void addPoints(QChart *chart, const ChartData &shown, ChartKind kind, bool log_scale);
  void clicked(int category);
  void install(QChart *chart, std::size_t series);
  void tip(int category, const QString &what) const;
  QString valueText(double value) const; // a drawn value with the unit
  void setAxisLabels(const QStringList &text) const;
  template <typename Save> bool withFullLabels(Save save) const;

  QChartView *view_;
  std::vector<std::int64_t> keys_;
  std::vector<std::string> full_; // the categories, whole
  TimeUnit unit_;                 // what the values are drawn in
  QAbstractAxis *x_axis_ = nullptr;
};

} // namespace idb::gui

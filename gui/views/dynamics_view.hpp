// The Iterations view: how the iterations of a run's dynamic probe went (docs/gui.md,
// "Iterations"). A probe of the iteration's subtree is chosen (the dynamic probe at
// first); above, its seconds per iteration as a line of the mean over the ranks inside
// the band from the least to the most rank; below, ranks × iterations as a heat map, where
// a step is a change of colour across every row, a spike a column and a drifting rank a
// row that darkens. A run without a dynamic probe shows how to get one.
#pragma once

#include "dynamics_data.hpp"
#include "store_worker.hpp"

#include <QWidget>

class QChartView;
class QComboBox;
class QLabel;

namespace idb::gui {

// Ranks × iterations as coloured cells, the rank names on the left, the iterations below
// and the scale on the right.
class HeatMapWidget : public QWidget {
  Q_OBJECT
public:
  explicit HeatMapWidget(QWidget *parent = nullptr);
  void setMap(HeatMap map);
  const HeatMap &map() const { return map_; }

protected:
  void paintEvent(QPaintEvent *event) override;

private:
  HeatMap map_;
};

class DynamicsView : public QWidget {
  Q_OBJECT
public:
  explicit DynamicsView(QWidget *parent = nullptr);

  void setRun(RunDataPtr run);
  // Chooses the first probe whose label starts with `prefix`; false when there is none.
  bool chooseProbe(const QString &prefix);

  QString summary() const;
  int probeCount() const;
  QString probeShown() const;
  // Series of the line chart: none without dynamics; else the band, the least, the mean
  // and the most.
  int seriesCount() const;
  const HeatMapWidget &heatMap() const { return *heat_; }

private:
  void showProbe(int index);

  RunDataPtr run_;
  QLabel *summary_;
  QComboBox *probe_;
  QChartView *line_;
  HeatMapWidget *heat_;
};

} // namespace idb::gui

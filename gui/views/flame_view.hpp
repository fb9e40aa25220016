// The flame graph of a run, drawn as an icicle: the run as a whole by default (the threads
// merged by probe path, as `idb report --aggregate` merges them), or any tree the run has.
// Each frame is as wide as its node's noise-corrected inclusive time and is labelled by
// its probe, elided in the middle when it does not fit; its tooltip has the node's
// statistics. Clicking a frame zooms into it (its ancestors stay across the top) and shows
// its probe's rows; clicking the root or Reset zoom shows all. The search field
// highlights the frames whose label contains its text and says what share of the time
// they cover.
#pragma once

#include "flame_data.hpp"
#include "store_worker.hpp"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QScrollArea;

namespace idb::gui {

// The drawing itself: fixed-height rows, the zoomed frame across the whole width.
class FlameCanvas : public QWidget {
  Q_OBJECT
public:
  static constexpr int kRowHeight = 20;

  explicit FlameCanvas(QWidget *parent = nullptr);

  void setGraph(FlameGraph graph);
  const FlameGraph &graph() const { return graph_; }
  // Zooms so that `frame` spans the width; the root (frame 0) shows everything.
  void zoomTo(std::uint32_t frame);
  std::uint32_t zoomed() const { return zoom_; }
  void setMatches(FlameMatches matches);
  const FlameMatches &matches() const { return matches_; }

  // Where `frame` is drawn, in the canvas' coordinates; empty when it is not drawn
  // (outside the zoomed range, or narrower than half a pixel).
  QRectF frameRect(std::uint32_t frame) const;
  // The frame drawn at `point`, or kFlameTop.
  std::uint32_t frameAt(QPointF point) const;
  // The text drawn inside `frame`: its label; where that does not fit, the label without
  // its source location, elided in the middle to fit; empty when the frame is too narrow
  // for three characters.
  QString frameText(std::uint32_t frame) const;

  QSize sizeHint() const override;

signals:
  void frameClicked(std::uint32_t frame);

protected:
  void paintEvent(QPaintEvent *event) override;
  void mousePressEvent(QMouseEvent *event) override;
  bool event(QEvent *event) override;

private:
  FlameGraph graph_;
  FlameMatches matches_;
  std::uint32_t zoom_ = 0;
};

class FlameView : public QWidget {
  Q_OBJECT
public:
  explicit FlameView(QWidget *parent = nullptr);

  void setRun(RunDataPtr run);
  // Shows tree `index` of the run (as tree_choices numbers them; -1: the run as a whole).
  void showTree(int index);
  // Zooms into the first frame, depth first, whose label starts with `prefix`; false
  // when there is none.
  bool chooseFrame(const QString &prefix);
  void search(const QString &text);

  FlameCanvas *canvas() const { return canvas_; }
  // The CFH shown (in the run), for the folded-stacks export; nullptr when none.
  const profile::Cfh *shownTree() const { return shown_; }
  // The line above the graph: what the width means, what the zoom shows, or what the
  // search found.
  QString matchText() const;

signals:
  void probeClicked(qint64 probe);

private:
  void updateMatches();

  RunDataPtr run_;
  const profile::Cfh *shown_ = nullptr;
  QComboBox *tree_;
  QLineEdit *search_;
  QLabel *found_;
  FlameCanvas *canvas_;
  QScrollArea *scroll_;
};

} // namespace idb::gui

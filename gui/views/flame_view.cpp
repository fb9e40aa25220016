// The flame graph view (flame_view.hpp).
#include "flame_view.hpp"

#include "tree_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace idb::gui {

namespace {

// A warm colour of its own for each label, the same in every run (FNV-1a of the text):
// reds through yellows, as flame graphs are drawn.
QColor frame_colour(const std::string &label) {
  std::uint32_t h = 2166136261u;
  for (unsigned char c : label)
    h = (h ^ c) * 16777619u;
  const int hue = int(h % 50);                     // 0 (red) to 49 (orange-yellow)
  const int saturation = 110 + int((h >> 8) % 80); // of 255
  return QColor::fromHsv(hue, saturation, 245);
}

const QColor kMatchColour(196, 84, 220);
const QColor kTextColour(20, 20, 20);

} // namespace

FlameCanvas::FlameCanvas(QWidget *parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Minimum);
  setBackgroundRole(QPalette::Base);
  setAutoFillBackground(true);
}

void FlameCanvas::setGraph(FlameGraph graph) {
  graph_ = std::move(graph);
  matches_ = {};
  zoom_ = 0;
  setMinimumHeight(int(graph_.depth) * kRowHeight + 1);
  updateGeometry();
  update();
}

void FlameCanvas::zoomTo(std::uint32_t frame) {
  zoom_ = frame < graph_.frames.size() ? frame : 0;
  update();
}

void FlameCanvas::setMatches(FlameMatches matches) {
  matches_ = std::move(matches);
  update();
}

QSize FlameCanvas::sizeHint() const {
  return {800, std::max(200, int(graph_.depth) * kRowHeight + 1)};
}

QRectF FlameCanvas::frameRect(std::uint32_t frame) const {
  if (frame >= graph_.frames.size() || zoom_ >= graph_.frames.size()) return {};
  const FlameFrame &f = graph_.frames[frame];
  const FlameFrame &z = graph_.frames[zoom_];
  const double y = double(f.depth) * kRowHeight;
  // The zoomed frame's ancestors span the width above it.
  if (f.depth < z.depth) {
    std::uint32_t up = zoom_;
    while (up != kFlameTop && graph_.frames[up].depth > f.depth)
      up = graph_.frames[up].parent;
    return up == frame ? QRectF(0, y, width(), kRowHeight) : QRectF();
  }
  // The zoomed frame and what lies below it; anything else is outside the range.
  std::uint32_t up = frame;
  while (up != kFlameTop && graph_.frames[up].depth > z.depth)
    up = graph_.frames[up].parent;
  if (up != zoom_) return {};
  if (!(z.width > 0)) return frame == zoom_ ? QRectF(0, y, width(), kRowHeight) : QRectF();
  const double scale = width() / z.width;
  const QRectF r((f.start - z.start) * scale, y, f.width * scale, kRowHeight);
  return r.width() >= 0.5 ? r : QRectF();
}

std::uint32_t FlameCanvas::frameAt(QPointF point) const {
  const auto depth = std::uint32_t(std::max(0.0, point.y()) / kRowHeight);
  for (std::uint32_t i = 0; i < graph_.frames.size(); ++i)
    if (graph_.frames[i].depth == depth && frameRect(i).contains(point)) return i;
  return kFlameTop;
}

QString FlameCanvas::frameText(std::uint32_t frame) const {
  const QRectF r = frameRect(frame);
  const int room = int(r.width()) - 6;
  if (room < 18) return {};
  const QFontMetrics metrics = fontMetrics();
  QString text = QString::fromStdString(graph_.frames[frame].label);
  if (metrics.horizontalAdvance(text) <= room) return text;
  // What does not fit loses its source location first ("solve(...) [app.c:12]"), then
  // its "(...)", then its middle.
  if (text.endsWith(QLatin1Char(']'))) {
    const qsizetype open = text.lastIndexOf(QStringLiteral(" ["));
    if (open > 0) text.truncate(open);
  }
  if (text.endsWith(QStringLiteral("(...)")) && metrics.horizontalAdvance(text) > room)
    text.chop(5);
  text = metrics.elidedText(text, Qt::ElideMiddle, room);
  // An ellipsis with less than three characters beside it says nothing.
  return text.size() < 4 ? QString() : text;
}

void FlameCanvas::paintEvent(QPaintEvent * /*event*/) {
  QPainter p(this);
  const bool searching = !matches_.matched.empty() && matches_.count > 0;
  for (std::uint32_t i = 0; i < graph_.frames.size(); ++i) {
    const QRectF r = frameRect(i);
    if (r.isEmpty()) continue;
    QColor fill = frame_colour(graph_.frames[i].label);
    if (searching) fill = matches_.matched[i] ? kMatchColour : QColor(226, 226, 226);
    // A one-pixel gap to the right and below keeps neighbours apart.
    const QRectF box = r.adjusted(0, 0, r.width() >= 2 ? -1 : 0, -1);
    p.fillRect(box, fill);
    const QString text = frameText(i);
    if (text.isEmpty()) continue;
    p.setPen(kTextColour);
    p.drawText(box.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
  }
  if (graph_.frames.empty()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter, tr("No tree to draw."));
  }
}

void FlameCanvas::mousePressEvent(QMouseEvent *event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  const std::uint32_t frame = frameAt(event->position());
  if (frame != kFlameTop) emit frameClicked(frame);
}

bool FlameCanvas::event(QEvent *event) {
  if (event->type() == QEvent::ToolTip) {
    auto *help = static_cast<QHelpEvent *>(event);
    const std::uint32_t frame = frameAt(help->pos());
    if (frame == kFlameTop)
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), flame_tooltip(graph_, frame), this);
    return true;
  }
  return QWidget::event(event);
}

FlameView::FlameView(QWidget *parent)
    : QWidget(parent), tree_(new QComboBox(this)), search_(new QLineEdit(this)),
      found_(new QLabel(this)), canvas_(new FlameCanvas), scroll_(new QScrollArea(this)) {
  search_->setPlaceholderText(tr("Search probes…"));
  search_->setClearButtonEnabled(true);
  auto *reset = new QPushButton(tr("Reset zoom"), this);
  auto *bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Tree:")));
  bar->addWidget(tree_, 2);
  bar->addWidget(search_, 1);
  bar->addWidget(reset);
  scroll_->setWidget(canvas_);
  scroll_->setWidgetResizable(true);
  scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 4, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(found_);
  layout->addWidget(scroll_, 1);
  updateMatches();
  connect(tree_, &QComboBox::activated, this,
          [this](int i) { showTree(tree_->itemData(i).toInt()); });
  connect(search_, &QLineEdit::textChanged, this, [this] { updateMatches(); });
  connect(reset, &QPushButton::clicked, this, [this] {
    canvas_->zoomTo(0);
    updateMatches();
  });
  connect(canvas_, &FlameCanvas::frameClicked, this, [this](std::uint32_t frame) {
    canvas_->zoomTo(frame);
    updateMatches();
    emit probeClicked(canvas_->graph().frames[frame].probe);
  });
}

void FlameView::setRun(RunDataPtr run) {
  shown_ = nullptr; // it points into the run given before
  run_ = std::move(run);
  listTrees(tree_, *run_);
  showTree(-1);
}

void FlameView::showTree(int index) {
  if (!run_) return;
  std::string title;
  shown_ = chosen_tree(*run_, index, &title);
  canvas_->setGraph(shown_ ? flame_graph(run_->profile, *shown_, title) : FlameGraph{});
  tree_->setCurrentIndex(tree_->findData(index));
  updateMatches();
}

bool FlameView::chooseFrame(const QString &prefix) {
  const auto &frames = canvas_->graph().frames;
  for (std::uint32_t i = 0; i < frames.size(); ++i)
    if (QString::fromStdString(frames[i].label).startsWith(prefix)) {
      canvas_->zoomTo(i);
      updateMatches();
      return true;
    }
  return false;
}

void FlameView::search(const QString &text) {
  search_->setText(text); // updates the matches
}

QString FlameView::matchText() const {
  return found_->text();
}

void FlameView::updateMatches() {
  const QString text = search_->text();
  canvas_->setMatches(flame_search(canvas_->graph(), text.toStdString()));
  const FlameMatches &m = canvas_->matches();
  const std::uint32_t zoomed = canvas_->zoomed();
  const auto &frames = canvas_->graph().frames;
  if (text.isEmpty() && zoomed != 0 && zoomed < frames.size())
    found_->setText(
        tr("Zoomed into %1: %2% of the time. Click the root or Reset zoom to see "
           "all.")
            .arg(QString::fromStdString(frames[zoomed].label),
                 QString::number(frames[0].width > 0 ? 100 * frames[zoomed].width / frames[0].width
                                                     : 0.0,
                                 'f', 1)));
  else if (text.isEmpty())
    found_->setText(tr("Width: noise-corrected inclusive time. Click a frame to zoom into it "
                       "and see its rows; hover for its statistics."));
  else if (m.count == 0)
    found_->setText(tr("No probe matches '%1'.").arg(text));
  else
    found_->setText(tr("%n frame(s) match '%1': %2% of the time.", nullptr, int(m.count))
                        .arg(text, QString::number(100 * m.share, 'f', 1)));
}

} // namespace idb::gui

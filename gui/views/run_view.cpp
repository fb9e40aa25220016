// The linked run view (run_view.hpp).
#include "run_view.hpp"

#include "tree_view.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTreeView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace idb::gui {

namespace {

constexpr int kRankLabelWidth = 64;
constexpr int kValueWidth = 84;

QString value_text(double value, bool seconds) {
  return formatValue(value, seconds ? Format::seconds : Format::integer);
}

QWidget *pane(const QString &title, QWidget *content, QLayout *extra = nullptr) {
  auto *box = new QWidget;
  auto *layout = new QVBoxLayout(box);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(new QLabel(QStringLiteral("<b>%1</b>").arg(title)));
  if (extra) layout->addLayout(extra);
  layout->addWidget(content, 1);
  return box;
}

} // namespace

RankBars::RankBars(QWidget *parent) : QWidget(parent) {
  setBackgroundRole(QPalette::Base);
  setAutoFillBackground(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Minimum);
}

void RankBars::setSpread(RankSpreadView spread, bool seconds) {
  spread_ = std::move(spread);
  seconds_ = seconds;
  setMinimumHeight(int(spread_.values.size()) * kRowHeight + 4);
  updateGeometry();
  update();
}

void RankBars::setChosen(std::optional<int> rank) {
  chosen_ = rank;
  update();
}

QSize RankBars::sizeHint() const {
  return {320, std::max(120, int(spread_.values.size()) * kRowHeight + 4)};
}

std::optional<int> RankBars::rankAt(QPointF point) const {
  const auto row = std::size_t(std::max(0.0, point.y() - 2) / kRowHeight);
  if (point.y() < 2 || row >= spread_.values.size()) return std::nullopt;
  return spread_.values[row].rank;
}

QString RankBars::rowText(std::size_t i) const {
  if (i >= spread_.values.size()) return {};
  return QStringLiteral("%1  %2").arg(QString::fromStdString(rank_name(spread_.values[i].rank)),
                                      value_text(spread_.values[i].value, seconds_));
}

void RankBars::paintEvent(QPaintEvent * /*event*/) {
  QPainter p(this);
  if (spread_.values.empty()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect().adjusted(6, 6, -6, -6), Qt::AlignTop | Qt::AlignLeft | Qt::TextWordWrap,
               tr("Choose a node in the tree to see it on every rank."));
    return;
  }
  const double span = width() - kRankLabelWidth - kValueWidth - 8;
  const double largest = spread_.max > 0 ? spread_.max : 1;
  for (std::size_t i = 0; i < spread_.values.size(); ++i) {
    const RankValue &v = spread_.values[i];
    const double y = 2 + double(i) * kRowHeight;
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRectF(4, y, kRankLabelWidth - 8, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
               QString::fromStdString(rank_name(v.rank)));
    const double w = std::max(1.0, span * std::max(0.0, v.value) / largest);
    const bool chosen = chosen_ && *chosen_ == v.rank;
    p.fillRect(QRectF(kRankLabelWidth, y + 3, w, kRowHeight - 6),
               chosen ? QColor(0xE8, 0x7D, 0x1E) : QColor(0x3A, 0x78, 0xC2));
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRectF(width() - kValueWidth - 2, y, kValueWidth, kRowHeight),
               Qt::AlignVCenter | Qt::AlignRight, value_text(v.value, seconds_));
  }
  // The mean, as a dashed line across the bars.
  const double x = kRankLabelWidth + span * std::max(0.0, spread_.mean) / largest;
  p.setPen(QPen(palette().color(QPalette::Text), 1, Qt::DashLine));
  p.drawLine(QPointF(x, 0), QPointF(x, 2 + double(spread_.values.size()) * kRowHeight));
}

void RankBars::mousePressEvent(QMouseEvent *event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  if (std::optional<int> rank = rankAt(event->position())) emit rankClicked(*rank);
}

RunView::RunView(QWidget *parent)
    : QWidget(parent), metrics_(new QTreeWidget(this)), tree_title_(new QLabel(this)),
      all_ranks_(new QPushButton(tr("All ranks"), this)), tree_(new QTreeView(this)),
      rank_title_(new QLabel(this)), rank_summary_(new QLabel(this)), bars_(new RankBars) {
  metrics_->setColumnCount(2);
  metrics_->setHeaderLabels({tr("metric"), tr("total")});
  metrics_->setRootIsDecorated(false);
  metrics_->header()->setStretchLastSection(false);
  metrics_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  metrics_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  for (const NodeMetricInfo &m : node_metrics()) {
    auto *item = new QTreeWidgetItem(metrics_, {QString::fromStdString(m.name), QString()});
    item->setData(0, Qt::UserRole, int(m.metric));
    item->setToolTip(0, QString::fromStdString(m.description));
    item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
  }
  setUpTreeView(tree_, &model_);
  tree_->header()->setStretchLastSection(false);
  tree_->header()->setMinimumSectionSize(60);
  tree_title_->setWordWrap(true);
  rank_title_->setWordWrap(true);
  rank_summary_->setWordWrap(true);
  auto *scroll = new QScrollArea(this);
  scroll->setWidget(bars_);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto *tree_bar = new QHBoxLayout;
  tree_bar->addWidget(tree_title_, 1);
  tree_bar->addWidget(all_ranks_);
  auto *rank_head = new QVBoxLayout;
  rank_head->addWidget(rank_title_);
  rank_head->addWidget(rank_summary_);
  auto *split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(pane(tr("Metric"), metrics_));
  split->addWidget(pane(tr("Call tree"), tree_, tree_bar));
  split->addWidget(pane(tr("Ranks"), scroll, rank_head));
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 4);
  split->setStretchFactor(2, 2);
  split->setSizes({200, 700, 360});
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 4, 0, 0);
  layout->addWidget(split, 1);
  all_ranks_->setEnabled(false);
  connect(metrics_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
    if (item) setMetric(NodeMetric(item->data(0, Qt::UserRole).toInt()));
  });
  connect(all_ranks_, &QPushButton::clicked, this, [this] { showRank(std::nullopt); });
  connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex &current) { showNode(current); });
  connect(tree_, &QTreeView::clicked, this,
          [this](const QModelIndex &i) { emit probeClicked(i.data(kKeyRole).toLongLong()); });
  connect(bars_, &RankBars::rankClicked, this, [this](int rank) {
    showRank(rank_ && *rank_ == rank ? std::nullopt : std::optional<int>(rank));
  });
}

void RunView::setRun(RunDataPtr run) {
  run_ = std::move(run);
  ranks_ = rank_trees(run_->profile);
  rank_.reset();
  path_.clear();
  {
    const QSignalBlocker quiet(metrics_); // the metric stays; only its row is marked
    for (int i = 0; i < metrics_->topLevelItemCount(); ++i)
      if (metrics_->topLevelItem(i)->data(0, Qt::UserRole).toInt() == int(metric_))
        metrics_->setCurrentItem(metrics_->topLevelItem(i));
  }
  showTree();
}

void RunView::setMetric(NodeMetric metric) {
  metric_ = metric;
  for (int i = 0; i < metrics_->topLevelItemCount(); ++i) {
    QTreeWidgetItem *item = metrics_->topLevelItem(i);
    if (item->data(0, Qt::UserRole).toInt() == int(metric) && metrics_->currentItem() != item)
      metrics_->setCurrentItem(item); // comes back here through currentItemChanged
  }
  showTree();
}

void RunView::showRank(std::optional<int> rank) {
  rank_ = rank;
  showTree();
}

void RunView::showTree() {
  shown_ = nullptr;
  QString title;
  if (run_ && rank_) {
    for (const RankTree &t : ranks_)
      if (t.rank == *rank_) shown_ = &t.cfh;
    title = tr("%1, its threads merged by probe path (click its bar again or All ranks for the "
               "run as a whole)")
                .arg(QString::fromStdString(rank_name(*rank_)));
  } else if (run_ && !run_->whole.empty()) {
    shown_ = &run_->whole.front().cfh;
    title = tr("The run as a whole: %1").arg(QString::fromStdString(run_->whole.front().title));
  }
  tree_title_->setText(shown_ ? title : tr("No tree to show."));
  all_ranks_->setEnabled(rank_.has_value());
  const std::vector<std::int32_t> wanted = path_;
  model_.setTree(shown_ ? metric_tree(run_->profile, *shown_, metric_) : TreeData{});
  updateMetricTotals();
  bars_->setChosen(rank_);
  if (wanted.empty() || !selectPath(wanted)) expandAndSelect(tree_, model_.hotPath());
  // The numbers keep their room; the labels take the rest.
  tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  tree_->setColumnWidth(1, 150); // "corrected exclusive ms"
  tree_->setColumnWidth(2, 80);
  tree_->setColumnWidth(3, 90);
  showNode(tree_->currentIndex());
}

bool RunView::selectPath(const std::vector<std::int32_t> &path) {
  QModelIndex at;
  for (std::size_t step = 0; step < path.size(); ++step) {
    QModelIndex found;
    for (int r = 0; r < model_.rowCount(at) && !found.isValid(); ++r) {
      const QModelIndex child = model_.index(r, 0, at);
      if (child.data(kKeyRole).toLongLong() == path[step]) found = child;
    }
    if (!found.isValid()) return false;
    if (at.isValid()) tree_->expand(at);
    at = found;
  }
  if (!at.isValid()) return false;
  tree_->setCurrentIndex(at);
  tree_->scrollTo(at);
  return true;
}

void RunView::showNode(const QModelIndex &index) {
  const TreeRow *row = model_.rowAt(index);
  const NodeMetricInfo &info = metric_info(metric_);
  if (!shown_ || !row || row->source >= shown_->nodes.size()) {
    bars_->setSpread({}, info.seconds);
    rank_title_->clear();
    rank_summary_->clear();
    return;
  }
  path_ = probe_path(*shown_, row->source);
  RankSpreadView spread = rank_spread(ranks_, path_, metric_);
  const QString name = QString::fromStdString(info.name);
  rank_title_->setText(tr("%1: %2 on each rank").arg(QString::fromStdString(row->label), name));
  if (spread.values.empty()) {
    rank_summary_->setText(tr("No rank has a value of %1 for it.").arg(name));
  } else {
    QString text =
        tr("least %1 (%2) · mean %3 · most %4 (%5)")
            .arg(value_text(spread.min, info.seconds),
                 QString::fromStdString(rank_name(spread.min_rank)),
                 value_text(spread.mean, info.seconds), value_text(spread.max, info.seconds),
                 QString::fromStdString(rank_name(spread.max_rank)));
    if (spread.mean > 0) text += tr(" · most/mean %1").arg(spread.max / spread.mean, 0, 'f', 2);
    text += tr(" · %1 of %2 ranks").arg(spread.values.size()).arg(spread.ranks);
    rank_summary_->setText(text);
  }
  bars_->setSpread(std::move(spread), info.seconds);
}

void RunView::updateMetricTotals() {
  for (int i = 0; i < metrics_->topLevelItemCount(); ++i) {
    QTreeWidgetItem *item = metrics_->topLevelItem(i);
    const auto metric = NodeMetric(item->data(0, Qt::UserRole).toInt());
    item->setText(1, shown_ ? value_text(metric_total(*shown_, metric), metric_info(metric).seconds)
                            : QString());
  }
}

bool RunView::chooseNode(const QString &prefix) {
  return chooseByLabel(tree_, prefix);
}

QString RunView::treeTitle() const {
  return tree_title_->text();
}

QString RunView::rankSummary() const {
  return rank_summary_->text();
}

} // namespace idb::gui

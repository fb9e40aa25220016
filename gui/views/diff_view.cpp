// The diff of two runs or two groups of runs (diff_view.hpp).
#include "diff_view.hpp"

#include "tree_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace idb::gui {

DiffView::DiffView(QWidget *parent)
    : QWidget(parent), choosers_{new QComboBox(this), new QComboBox(this)},
      caption_(new QLabel(this)), tree_(new QTreeView(this)) {
  setUpTreeView(tree_, &model_);
  tree_->setAlternatingRowColors(true);
  tree_->header()->setDefaultSectionSize(110);
  caption_->setWordWrap(true);
  auto *expand = new QPushButton(tr("Expand largest change"), this);
  auto *bar = new QHBoxLayout;
  const QString tips[2] = {
      tr("The baseline: the run shown, another run, or a label pattern (such as pic-pow-*) "
         "naming a group of repeated runs"),
      tr("What is set against the baseline: a run, or a label pattern (such as pic-mul-*) "
         "naming a group of repeated runs")};
  for (int side : {kBaseline, kOther}) {
    QComboBox *chooser = choosers_[side];
    chooser->setEditable(true);
    chooser->setInsertPolicy(QComboBox::NoInsert);
    chooser->setMinimumContentsLength(18);
    chooser->setToolTip(tips[side]);
    bar->addWidget(new QLabel(side == kBaseline ? tr("Baseline:") : tr("against:")));
    bar->addWidget(chooser, 1);
    if (side == kBaseline) bar->addSpacing(12);
    connect(chooser, &QComboBox::activated, this,
            [this, side](int i) { chooseSide(side, choosers_[side]->itemText(i)); });
    connect(chooser->lineEdit(), &QLineEdit::returnPressed, this,
            [this, side] { chooseSide(side, choosers_[side]->currentText()); });
  }
  bar->addWidget(expand);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 4, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(caption_);
  layout->addWidget(tree_, 1);
  refresh();
  connect(expand, &QPushButton::clicked, this, &DiffView::expandLargestChange);
  connect(tree_, &QTreeView::clicked, this,
          [this](const QModelIndex &i) { emit probeClicked(i.data(kKeyRole).toLongLong()); });
}

void DiffView::setRuns(const QStringList &labels) {
  labels_ = labels;
  std::vector<std::string> names;
  for (const QString &label : labels)
    names.push_back(label.toStdString());
  QStringList items = labels;
  for (const std::string &group : repeat_groups(names))
    items.push_back(QString::fromStdString(group));
  // A database opened (again): both sides are chosen afresh, the baseline is the run shown.
  baseline_is_shown_ = true;
  for (int side : {kBaseline, kOther}) {
    sides_[side] = {};
    choosers_[side]->clear();
    choosers_[side]->addItems(items);
    choosers_[side]->setEditText({});
  }
  refresh();
}

void DiffView::setShownRun(RunDataPtr run) {
  shown_ = std::move(run);
  if (baseline_is_shown_ && shown_) {
    sides_[kBaseline] = {shown_->label, {shown_}};
    choosers_[kBaseline]->setEditText(QString::fromStdString(shown_->label));
  }
  refresh();
}

void DiffView::setSide(int side, DiffSide runs) {
  if (side != kBaseline && side != kOther) return;
  if (runs.name != sides_[side].name) return; // an answer to an earlier choice
  sides_[side] = std::move(runs);
  refresh();
}

bool DiffView::chooseSide(int side, const QString &name) {
  if (side != kBaseline && side != kOther) return false;
  std::vector<std::string> labels;
  for (const QString &label : labels_)
    labels.push_back(label.toStdString());
  if (analysis::diff_side_labels(labels, name.toStdString()).empty()) {
    caption_->setText(tr("No run is labelled '%1', and no label matches it as a pattern.")
                          .arg(name.toHtmlEscaped()));
    return false;
  }
  choosers_[side]->setEditText(name);
  if (side == kBaseline) {
    baseline_is_shown_ = shown_ && name.toStdString() == shown_->label;
    if (baseline_is_shown_) {
      sides_[kBaseline] = {shown_->label, {shown_}};
      refresh();
      return true;
    }
  }
  sides_[side] = {name.toStdString(), {}}; // until its runs are read
  refresh();
  emit sideChosen(side, name);
  return true;
}

QString DiffView::caption() const {
  return caption_->text();
}

void DiffView::refresh() {
  auto ready = [](const DiffSide &s) {
    return !s.runs.empty() && std::all_of(s.runs.begin(), s.runs.end(),
                                          [](const RunDataPtr &r) { return r->complete; });
  };
  if (!ready(sides_[kBaseline]) || !ready(sides_[kOther])) {
    diff_ = {};
    model_.setTree({});
    const DiffSide &waiting = !ready(sides_[kBaseline]) ? sides_[kBaseline] : sides_[kOther];
    caption_->setText(
        sides_[kOther].name.empty()
            ? tr("Choose a run, or a label pattern naming a group of repeated runs, to set "
                 "against the baseline: here, or with a right click in the Runs tab.")
        : waiting.name.empty() ? tr("Choose a baseline.")
                               : tr("Reading %1…").arg(QString::fromStdString(waiting.name)));
    return;
  }
  diff_ = diff_runs(sides_[kBaseline], sides_[kOther]);
  model_.setTree(diff_tree(diff_));
  auto named = [](const std::string &name, std::size_t runs) {
    QString text = QStringLiteral("<b>%1</b>").arg(QString::fromStdString(name).toHtmlEscaped());
    return runs > 1 ? tr("%1 (%2 runs)").arg(text).arg(runs) : text;
  };
  const QString sides =
      tr("%1 against %2")
          .arg(named(diff_.baseline, diff_.baseline_runs), named(diff_.other, diff_.other_runs));
  const QString other = QString::fromStdString(diff_.other).toHtmlEscaped();
  const QString colours = tr("<span style='background:#f5b7ad'>red</span>: slower in %1, "
                             "<span style='background:#b3cdf4'>blue</span>: faster (the "
                             "stronger, the larger the ratio; changes under 0.5% of the run")
                              .arg(other);
  QString text;
  if (diff_.rows.empty())
    text = tr("%1: a run of a side has no thread CFH to compare.").arg(sides);
  else if (diff_.tested())
    text = tr("%1: %2. Corrected inclusive time, means over each side's runs, nodes matched by "
              "their probes' labels; p: Welch's t-test of the means. %3 and changes with p of "
              "%4 or more left plain).")
               .arg(sides, QString::fromStdString(diff_.title).toHtmlEscaped(), colours)
               .arg(analysis::kDiffAlpha);
  else
    text = tr("%1: %2. Corrected inclusive time%3, nodes matched by their probes' labels; %4 "
              "left plain).")
               .arg(sides, QString::fromStdString(diff_.title).toHtmlEscaped(),
                    diff_.groups() ? tr(", means over a group's runs (no test: one side is a "
                                        "single run)")
                                   : QString(),
                    colours);
  caption_->setText(text);
  expandLargestChange();
  emit diffReady();
}

void DiffView::expandLargestChange() {
  expandAndSelect(tree_, model_.hotPath());
}

} // namespace idb::gui

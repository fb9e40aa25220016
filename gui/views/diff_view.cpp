// The diff of two runs (diff_view.hpp).
#include "diff_view.hpp"

#include "tree_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace idb::gui {

DiffView::DiffView(QWidget *parent)
    : QWidget(parent), baseline_label_(new QLabel(this)), others_(new QComboBox(this)),
      caption_(new QLabel(this)), tree_(new QTreeView(this)) {
  setUpTreeView(tree_, &model_);
  tree_->setAlternatingRowColors(true);
  tree_->header()->setDefaultSectionSize(110);
  caption_->setWordWrap(true);
  auto *expand = new QPushButton(tr("Expand largest change"), this);
  auto *bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Baseline:")));
  bar->addWidget(baseline_label_);
  bar->addSpacing(12);
  bar->addWidget(new QLabel(tr("against:")));
  bar->addWidget(others_, 1);
  bar->addWidget(expand);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 4, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(caption_);
  layout->addWidget(tree_, 1);
  refresh();
  connect(expand, &QPushButton::clicked, this, &DiffView::expandLargestChange);
  connect(others_, &QComboBox::activated, this,
          [this](int i) { emit otherChosen(others_->itemText(i)); });
  connect(tree_, &QTreeView::clicked, this,
          [this](const QModelIndex &i) { emit probeClicked(i.data(kKeyRole).toLongLong()); });
}

void DiffView::setRuns(const QStringList &labels) {
  const QString chosen = others_->currentText();
  others_->clear();
  others_->addItems(labels);
  others_->setCurrentIndex(others_->findText(chosen)); // -1: none chosen yet
}

void DiffView::setBaseline(RunDataPtr run) {
  baseline_ = std::move(run);
  refresh();
}

void DiffView::setOther(RunDataPtr run) {
  others_->setCurrentIndex(others_->findText(QString::fromStdString(run->label)));
  other_ = std::move(run);
  refresh();
}

bool DiffView::chooseOther(const QString &label) {
  const int i = others_->findText(label);
  if (i < 0) return false;
  others_->setCurrentIndex(i);
  emit otherChosen(label);
  return true;
}

QString DiffView::caption() const {
  return caption_->text();
}

void DiffView::refresh() {
  baseline_label_->setText(
      baseline_ ? QStringLiteral("<b>%1</b>").arg(QString::fromStdString(baseline_->label))
                : tr("(no run shown)"));
  if (!baseline_ || !other_ || !baseline_->complete) {
    diff_ = {};
    model_.setTree({});
    caption_->setText(tr("Choose a run to set against the run shown, here or with a right "
                         "click in the Runs tab."));
    return;
  }
  diff_ = diff_runs(*baseline_, *other_);
  model_.setTree(diff_tree(diff_));
  const QString other = QString::fromStdString(other_->label);
  caption_->setText(
      diff_.rows.empty()
          ? tr("%1 or %2 has no thread CFH to compare.")
                .arg(QString::fromStdString(baseline_->label), other)
          : tr("%1. Corrected inclusive time, nodes matched by their probes' labels; "
               "<span style='background:#f5b7ad'>red</span>: slower in %2, "
               "<span style='background:#b3cdf4'>blue</span>: faster (the stronger, the "
               "larger the ratio; changes under 0.5% of the run left plain).")
                .arg(QString::fromStdString(diff_.title), other));
  expandLargestChange();
}

void DiffView::expandLargestChange() {
  expandAndSelect(tree_, model_.hotPath());
}

} // namespace idb::gui

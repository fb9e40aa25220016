// A probe's source (source_view.hpp).
#include "source_view.hpp"

#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QTextBlock>
#include <QTimer>
#include <QVBoxLayout>

namespace idb::gui {

namespace {

const char *kRootKey = "source/root";

// `text` with each line numbered, right-aligned to the widest number.
QString numbered(const QString &text) {
  const QStringList lines = text.split(QLatin1Char('\n'));
  const auto width = int(QString::number(lines.size()).size());
  QString out;
  out.reserve(text.size() + lines.size() * (width + 3));
  for (qsizetype i = 0; i < lines.size(); ++i) {
    QString line = lines[i];
    if (line.endsWith(QLatin1Char('\r'))) line.chop(1);
    out += QStringLiteral("%1  %2").arg(i + 1, width).arg(line);
    if (i + 1 < lines.size()) out += QLatin1Char('\n');
  }
  return out;
}

} // namespace

SourceView::SourceView(QSettings &settings, QWidget *parent)
    : QWidget(parent), settings_(settings), title_(new QLabel(this)), root_label_(new QLabel(this)),
      message_(new QLabel(this)), text_(new QPlainTextEdit(this)) {
  text_->setReadOnly(true);
  text_->setLineWrapMode(QPlainTextEdit::NoWrap);
  text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto *choose = new QPushButton(tr("Source root…"), this);
  auto *bar = new QHBoxLayout;
  bar->addWidget(title_, 1);
  bar->addWidget(root_label_);
  bar->addWidget(choose);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 4, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(message_);
  layout->addWidget(text_, 1);
  connect(choose, &QPushButton::clicked, this, [this] {
    const QString dir =
        QFileDialog::getExistingDirectory(this, tr("Where the sources are"), sourceRoot());
    if (!dir.isEmpty()) setSourceRoot(dir);
  });
  refresh();
}

QString SourceView::sourceRoot() const {
  return settings_.value(QLatin1String(kRootKey)).toString();
}

void SourceView::setSourceRoot(const QString &root) {
  settings_.setValue(QLatin1String(kRootKey), root);
  refresh();
}

void SourceView::showProbe(const profile::Probe *probe, const std::string &cwd) {
  probe_ = probe ? std::optional<profile::Probe>(*probe) : std::nullopt;
  cwd_ = cwd;
  refresh();
}

QString SourceView::message() const {
  return message_->text();
}

void SourceView::refresh() {
  const QString root = sourceRoot();
  root_label_->setText(root.isEmpty() ? tr("no source root") : tr("root: %1").arg(root));
  marked_ = 0;
  lookup_ = {};
  text_->clear();
  text_->setExtraSelections({});
  if (!probe_) {
    title_->setText(tr("Click a node in a tree, the flame graph or the diff to see its source."));
    message_->clear();
    return;
  }
  const QString label = QString::fromStdString(probe_->description);
  if (probe_->file.empty()) {
    title_->setText(label);
    message_->setText(tr("This probe has no source location (the program's root, or a profile "
                         "that did not record one)."));
    return;
  }
  title_->setText(
      QStringLiteral("<b>%1</b>  %2:%3")
          .arg(label.toHtmlEscaped(), QString::fromStdString(probe_->file).toHtmlEscaped())
          .arg(probe_->line));
  lookup_ = find_source(probe_->file, cwd_, root.toStdString());
  if (lookup_.found.empty()) {
    QStringList tried;
    for (const std::string &t : lookup_.tried)
      tried << QString::fromStdString(t);
    message_->setText(tr("Source not found. Looked at: %1. %2")
                          .arg(tried.join(QStringLiteral(", ")),
                               root.isEmpty() ? tr("Choose a source root where the sources are.")
                                              : tr("Choose another source root.")));
    return;
  }
  std::string error;
  const std::string source = read_source(lookup_.found, error);
  if (!error.empty()) {
    message_->setText(QString::fromStdString(error));
    return;
  }
  message_->setText(lookup_.found == probe_->file
                        ? QString()
                        : tr("Found at %1.").arg(QString::fromStdString(lookup_.found)));
  text_->setPlainText(numbered(QString::fromStdString(source)));
  const QTextBlock block = text_->document()->findBlockByNumber(probe_->line - 1);
  if (!block.isValid()) {
    message_->setText(tr("%1 has %2 lines; the probe's line %3 is not among them (the file "
                         "changed since the run?)")
                          .arg(QString::fromStdString(lookup_.found))
                          .arg(text_->document()->blockCount())
                          .arg(probe_->line));
    return;
  }
  marked_ = probe_->line;
  QTextEdit::ExtraSelection mark;
  mark.format.setBackground(QColor(255, 228, 140));
  mark.format.setProperty(QTextFormat::FullWidthSelection, true);
  mark.cursor = QTextCursor(block);
  text_->setExtraSelections({mark});
  text_->setTextCursor(QTextCursor(block));
  text_->centerCursor();
  // Once laid out (a view shown for the first time has no height yet), centred again.
  QTimer::singleShot(0, text_, [text = text_] { text->centerCursor(); });
}

} // namespace idb::gui

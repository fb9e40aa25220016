// A probe's source: its file opened at its line, the line marked and scrolled to, numbered
// lines in a fixed font. The file is looked up where the run recorded it, else under a
// source root the user sets once (kept in the settings); when it cannot be found the view
// says every path it tried.
#pragma once

#include "source_lookup.hpp"

#include "idb/profile.hpp"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QSettings;

namespace idb::gui {

class SourceView : public QWidget {
  Q_OBJECT
public:
  explicit SourceView(QSettings &settings, QWidget *parent = nullptr);

  // Shows the source of `probe` (nullptr: none), `cwd` the run's working directory.
  void showProbe(const profile::Probe *probe, const std::string &cwd);
  // Sets the source root (kept in the settings) and looks the shown probe up again.
  void setSourceRoot(const QString &root);
  QString sourceRoot() const;

  QString foundPath() const { return QString::fromStdString(lookup_.found); }
  // The line marked (1-based), 0 when none is.
  int markedLine() const { return marked_; }
  // What the view says above the text: the file and line, or why there is none.
  QString message() const;
  QPlainTextEdit *text() const { return text_; }

private:
  void refresh();

  QSettings &settings_;
  std::optional<profile::Probe> probe_;
  std::string cwd_;
  SourceLookup lookup_;
  int marked_ = 0;
  QLabel *title_, *root_label_, *message_;
  QPlainTextEdit *text_;
};

} // namespace idb::gui

// The connect dialog: a SQLite file (typed, picked, or one of the recent files) or a
// PostgreSQL server (host, port, database, user, password). It yields a URL for the
// worker; the password goes into that URL only and is never saved.
#pragma once

#include <QDialog>

class QComboBox;
class QLineEdit;
class QSettings;
class QSpinBox;
class QTabWidget;

namespace idb::gui {

class ConnectDialog : public QDialog {
  Q_OBJECT
public:
  explicit ConnectDialog(QSettings &settings, QWidget *parent = nullptr);

  // The URL to open, from the tab shown. Remembers the server fields, without the
  // password, in the settings.
  QString url();

private:
  QWidget *makeFileTab();
  QWidget *makeServerTab();

  QSettings &settings_;
  QTabWidget *tabs_;
  QComboBox *file_;
  QLineEdit *host_, *database_, *user_, *password_;
  QSpinBox *port_;
};

} // namespace idb::gui

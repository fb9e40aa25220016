// The connect dialog (connect_dialog.hpp).
#include "connect_dialog.hpp"

#include "connection.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

namespace idb::gui {

ConnectDialog::ConnectDialog(QSettings &settings, QWidget *parent)
    : QDialog(parent), settings_(settings), tabs_(new QTabWidget(this)) {
  setWindowTitle(tr("Connect to an IDB database"));
  tabs_->addTab(makeFileTab(), tr("SQLite file"));
  tabs_->addTab(makeServerTab(), tr("PostgreSQL server"));
  auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto *layout = new QVBoxLayout(this);
  layout->addWidget(tabs_);
  layout->addWidget(buttons);
  resize(560, 240);
}

QWidget *ConnectDialog::makeFileTab() {
  auto *tab = new QWidget;
  file_ = new QComboBox(tab);
  file_->setEditable(true);
  file_->addItems(recentFiles(settings_));
  file_->setToolTip(tr("an IDB database file; the list holds the recent ones"));
  auto *browse = new QPushButton(tr("Browse…"), tab);
  connect(browse, &QPushButton::clicked, this, [this] {
    QString path =
        QFileDialog::getOpenFileName(this, tr("IDB database"), file_->currentText(),
                                     tr("SQLite databases (*.db *.sqlite);;All files (*)"));
    if (!path.isEmpty()) file_->setCurrentText(path);
  });
  auto *row = new QHBoxLayout(tab);
  row->addWidget(file_, 1);
  row->addWidget(browse);
  return tab;
}

QWidget *ConnectDialog::makeServerTab() {
  const ServerFields saved = savedServer(settings_);
  auto *tab = new QWidget;
  host_ = new QLineEdit(saved.host, tab);
  port_ = new QSpinBox(tab);
  port_->setRange(1, 65535);
  port_->setValue(saved.port);
  database_ = new QLineEdit(saved.database, tab);
  user_ = new QLineEdit(saved.user, tab);
  password_ = new QLineEdit(tab);
  password_->setEchoMode(QLineEdit::Password);
  password_->setPlaceholderText(tr("empty: PGPASSWORD or ~/.pgpass"));
  auto *form = new QFormLayout(tab);
  form->addRow(tr("Host"), host_);
  form->addRow(tr("Port"), port_);
  form->addRow(tr("Database"), database_);
  form->addRow(tr("User"), user_);
  form->addRow(tr("Password (never saved)"), password_);
  return tab;
}

QString ConnectDialog::url() {
  if (tabs_->currentIndex() == 0) {
    return file_->currentText().trimmed(); // remembered once it opens (MainWindow)
  }
  ServerFields f{host_->text().trimmed(), port_->value(), database_->text().trimmed(),
                 user_->text().trimmed(), password_->text()};
  saveServer(settings_, f);
  return postgresUrl(f);
}

} // namespace idb::gui

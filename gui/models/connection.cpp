// Connection URLs and remembered settings (connection.hpp).
#include "connection.hpp"

#include <QUrl>

namespace idb::gui {

namespace {

const QString kRecent = QStringLiteral("connect/recent_files");
const QString kHost = QStringLiteral("connect/host");
const QString kPort = QStringLiteral("connect/port");
const QString kDatabase = QStringLiteral("connect/database");
const QString kUser = QStringLiteral("connect/user");

QString encoded(const QString &text) {
  return QString::fromLatin1(QUrl::toPercentEncoding(text));
}

} // namespace

QString postgresUrl(const ServerFields &f) {
  QString credentials;
  if (!f.user.isEmpty()) {
    credentials = encoded(f.user);
    if (!f.password.isEmpty()) credentials += QLatin1Char(':') + encoded(f.password);
    credentials += QLatin1Char('@');
  }
  return QStringLiteral("postgresql://%1%2:%3/%4")
      .arg(credentials, f.host, QString::number(f.port), encoded(f.database));
}

QStringList recentFiles(const QSettings &settings) {
  return settings.value(kRecent).toStringList();
}

void addRecentFile(QSettings &settings, const QString &path) {
  QStringList list = recentFiles(settings);
  list.removeAll(path);
  list.prepend(path);
  while (list.size() > kMaxRecent)
    list.removeLast();
  settings.setValue(kRecent, list);
}

ServerFields savedServer(const QSettings &settings) {
  ServerFields f;
  f.host = settings.value(kHost, f.host).toString();
  f.port = settings.value(kPort, f.port).toInt();
  f.database = settings.value(kDatabase, f.database).toString();
  f.user = settings.value(kUser, f.user).toString();
  return f;
}

void saveServer(QSettings &settings, const ServerFields &fields) {
  settings.setValue(kHost, fields.host);
  settings.setValue(kPort, fields.port);
  settings.setValue(kDatabase, fields.database);
  settings.setValue(kUser, fields.user);
}

} // namespace idb::gui

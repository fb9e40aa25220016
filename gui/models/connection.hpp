// What the connect dialog turns its fields into, and what it remembers between sessions:
// a database URL for store::open, and the recent SQLite files and PostgreSQL fields kept in
// QSettings. The password is part of the URL handed to the worker and never of anything
// saved (DESIGN §6).
#pragma once

#include <QSettings>
#include <QString>
#include <QStringList>

namespace idb::gui {

struct ServerFields {
  QString host = QStringLiteral("localhost");
  int port = 5432;
  QString database = QStringLiteral("idb");
  QString user;
  QString password; // never saved
};

// postgresql://user:password@host:port/database, user and password percent-encoded; an
// empty user or password is left out (libpq then uses PGUSER/PGPASSWORD or ~/.pgpass).
QString postgresUrl(const ServerFields &fields);

// Recent SQLite files, newest first, at most kMaxRecent, each once.
inline constexpr int kMaxRecent = 8;
QStringList recentFiles(const QSettings &settings);
void addRecentFile(QSettings &settings, const QString &path);

// The server fields last connected with, without a password; and saving them (the
// password is dropped).
ServerFields savedServer(const QSettings &settings);
void saveServer(QSettings &settings, const ServerFields &fields);

} // namespace idb::gui

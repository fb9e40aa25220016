// The connect dialog's URL and what it remembers: recent files, and the server fields
// without the password.
#include "connection.hpp"

#include "files.hpp"

#include <gtest/gtest.h>

using namespace idb;

TEST(Connection, BuildsPostgresUrls) {
  gui::ServerFields f;
  f.host = "db.example";
  f.port = 5433;
  f.database = "idb";
  EXPECT_EQ(gui::postgresUrl(f).toStdString(), "postgresql://db.example:5433/idb");
  f.user = "ana";
  f.password = "p@ss:/word";
  EXPECT_EQ(gui::postgresUrl(f).toStdString(),
            "postgresql://ana:p%40ss%3A%2Fword@db.example:5433/idb");
}

TEST(Connection, NeverSavesThePassword) {
  test::TempDir dir;
  const QString ini = QString::fromStdString(dir.file("settings.ini"));
  {
    QSettings settings(ini, QSettings::IniFormat);
    gui::ServerFields f;
    f.user = "ana";
    f.password = "hunter2";
    gui::saveServer(settings, f);
  }
  EXPECT_EQ(test::read_file(ini.toStdString()).find("hunter2"), std::string::npos);
  QSettings settings(ini, QSettings::IniFormat);
  gui::ServerFields back = gui::savedServer(settings);
  EXPECT_EQ(back.user, "ana");
  EXPECT_TRUE(back.password.isEmpty());
}

TEST(Connection, KeepsRecentFilesNewestFirstOnce) {
  test::TempDir dir;
  QSettings settings(QString::fromStdString(dir.file("settings.ini")), QSettings::IniFormat);
  for (int i = 0; i < 10; ++i)
    gui::addRecentFile(settings, QStringLiteral("/data/run%1.db").arg(i));
  gui::addRecentFile(settings, "/data/run5.db");
  QStringList recent = gui::recentFiles(settings);
  ASSERT_EQ(recent.size(), gui::kMaxRecent);
  EXPECT_EQ(recent.front(), "/data/run5.db");
  EXPECT_EQ(recent.count("/data/run5.db"), 1);
  EXPECT_EQ(recent[1], "/data/run9.db");
}

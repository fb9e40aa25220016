// GoogleTest's main for the GUI tests, with the QApplication every widget and queued
// signal needs, on the offscreen platform unless the caller chose another.
#include <QApplication>

#include <gtest/gtest.h>

#include <cstdlib>

int main(int argc, char **argv) {
  ::setenv("QT_QPA_PLATFORM", "offscreen", 0);
  QApplication app(argc, argv);
  QApplication::setOrganizationName("idb-gui-tests"); // keeps QSettings away from the user's
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

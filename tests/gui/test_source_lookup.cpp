// Finding a probe's source file (source_lookup.hpp) in a temporary tree: where the run
// recorded it, relative to the run's directory, under a source root by the recorded
// path's tails, and every candidate named when none is there; reading refuses what is not
// a source file.
#include "source_lookup.hpp"

#include "files.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace idb;

TEST(SourceLookup, FindsTheFileWhereRecordedOrUnderTheSourceRoot) {
  test::TempDir dir;
  const std::string build = dir.file("build/proj/src");
  const std::string checkout = dir.file("checkout");
  std::filesystem::create_directories(build);
  std::filesystem::create_directories(checkout + "/proj/src");
  std::ofstream(build + "/app.c") << "int main(void) { return 0; }\n";
  std::ofstream(checkout + "/proj/src/app.c") << "int main(void) { return 1; }\n";
  // As recorded, absolute.
  gui::SourceLookup l = gui::find_source(build + "/app.c", "", "");
  EXPECT_EQ(l.found, build + "/app.c");
  // Relative to the run's directory.
  l = gui::find_source("src/app.c", dir.file("build/proj"), "");
  EXPECT_EQ(l.found, build + "/app.c");
  // Moved: the recorded path is gone; under the root, its longest tail that exists.
  std::filesystem::remove(build + "/app.c");
  l = gui::find_source(build + "/app.c", "", checkout);
  EXPECT_EQ(l.found, checkout + "/proj/src/app.c");
  EXPECT_EQ(l.tried.front(), build + "/app.c");
  EXPECT_GT(l.tried.size(), 2u) << "longer tails first";
  // Nowhere: every candidate named, the file name alone under the root last.
  l = gui::find_source("/nowhere/else/lib.c", "", checkout);
  EXPECT_EQ(l.found, "");
  ASSERT_EQ(l.tried.size(), 4u);
  EXPECT_EQ(l.tried[0], "/nowhere/else/lib.c");
  EXPECT_EQ(l.tried[1], checkout + "/nowhere/else/lib.c");
  EXPECT_EQ(l.tried[3], checkout + "/lib.c");
  EXPECT_TRUE(gui::find_source("", "", checkout).tried.empty());
  // A folder is not a source file.
  EXPECT_EQ(gui::find_source(checkout, "", "").found, "");
}

TEST(SourceLookup, ReadsTextAndRefusesWhatIsNotASourceFile) {
  test::TempDir dir;
  std::ofstream(dir.file("a.c")) << "line 1\nline 2\n";
  std::string error;
  EXPECT_EQ(gui::read_source(dir.file("a.c"), error), "line 1\nline 2\n");
  EXPECT_EQ(error, "");
  std::ofstream(dir.file("b.o"), std::ios::binary) << std::string("ELF\0\0\1", 6);
  EXPECT_EQ(gui::read_source(dir.file("b.o"), error), "");
  EXPECT_NE(error.find("not a text file"), std::string::npos) << error;
  error.clear();
  EXPECT_EQ(gui::read_source(dir.file("a.c"), error, 4), "");
  EXPECT_NE(error.find("more than"), std::string::npos) << error;
  error.clear();
  EXPECT_EQ(gui::read_source(dir.file("gone.c"), error), "");
  EXPECT_NE(error.find("cannot read"), std::string::npos) << error;
}

// files::write_output_file: a regular file is replaced whole through a temporary file, and
// what is not a regular file (a FIFO here; /dev/null alike, which a test must not risk) is
// written in place and stays what it was.
#include "files.hpp"
#include "idb/output_file.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using idb::files::write_output_file;
using idb::test::read_file;
using idb::test::TempDir;

TEST(OutputFile, ReplacesARegularFileWholeAndLeavesNoTemporaryFile) {
  TempDir dir;
  std::string path = dir.file("out.txt");
  std::ofstream(path) << "an older and longer text\n";
  EXPECT_EQ("", write_output_file(path, "new\n"));
  EXPECT_EQ("new\n", read_file(path));
  int entries = 0;
  for ([[maybe_unused]] const auto &e : std::filesystem::directory_iterator(dir.path()))
    ++entries;
  EXPECT_EQ(1, entries);
}

TEST(OutputFile, AFifoIsWrittenInPlaceAndStaysAFifo) {
  TempDir dir;
  std::string path = dir.file("pipe");
  ASSERT_EQ(0, ::mkfifo(path.c_str(), 0600)) << std::strerror(errno);
  // Held open for reading and writing, the FIFO neither blocks the writer's open nor ends.
  int fd = ::open(path.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  EXPECT_EQ("", write_output_file(path, "through the pipe\n"));
  char buffer[64] = {};
  ssize_t got = ::read(fd, buffer, sizeof buffer - 1);
  ::close(fd);
  EXPECT_EQ("through the pipe\n", std::string(buffer, got > 0 ? std::size_t(got) : 0));
  struct stat st {};
  ASSERT_EQ(0, ::stat(path.c_str(), &st));
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
}

TEST(OutputFile, AMissingFolderOrAFolderIsAnErrorNamingThePath) {
  TempDir dir;
  std::string missing = dir.file("no/such/out.txt");
  EXPECT_EQ("cannot write " + missing + ": No such file or directory",
            write_output_file(missing, "x"));
  std::string folder = dir.file("folder");
  std::filesystem::create_directory(folder);
  std::string error = write_output_file(folder, "x");
  EXPECT_EQ(0u, error.rfind("cannot write " + folder + ": ", 0)) << error;
  EXPECT_TRUE(std::filesystem::is_directory(folder));
}

} // namespace

// Reading a real profile back (the generator's, see profile_generator.cpp): run metadata,
// the probe table, every CFH and its tree as text; and inputs that are not profiles at all,
// side by side with the valid one.
#include "idb/profile.hpp"
#include "idb/profile_format.h"
#include "idb/tree.hpp"
#include "support.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <random>
#include <sstream>
#include <unistd.h>

namespace idb::test {
namespace {

using profile::Profile;
using profile::ReadResult;

class GeneratedProfile : public ::testing::Test {
protected:
  void SetUp() override {
    write_file(path(), generated_profile());
    ReadResult r = profile::read_profile(path());
    ASSERT_TRUE(r.profile) << r.error;
    EXPECT_EQ("", r.error);
    p = std::move(*r.profile);
  }
  std::string path() const { return dir.file("good.idbprof"); }

  TempDir dir;
  Profile p;
};

TEST_F(GeneratedProfile, ReadsTheRunMetadata) {
  EXPECT_EQ(1, p.version_major);
  EXPECT_EQ(IDB_PROFILE_VERSION_MINOR, p.version_minor);
  EXPECT_EQ("profile_gen", p.get("program"));
  std::vector<std::string> argv = generator_argv();
  EXPECT_EQ(argv, p.argv);
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  EXPECT_EQ(host, p.get("host"));
  EXPECT_TRUE(p.get("timer") == "tsc" || p.get("timer") == "monotonic") << p.get("timer");
  EXPECT_GT(p.number("timer_hz"), 0.0);
  EXPECT_EQ("3", p.get("threads")); // main and two workers
  std::map<std::string, std::string> attributes = {{"case", "roundtrip"}, {"mesh", "64x64"}};
  EXPECT_EQ(attributes, p.attributes);
  EXPECT_EQ("roundtrip", p.get("attr.case"));
  EXPECT_EQ("fallback", p.get("no such key", "fallback"));
  EXPECT_EQ(-1.0, p.number("program", -1.0)); // not a number
}

std::string probe_table(const Profile &p) {
  std::ostringstream out;
  for (const profile::Probe &probe : p.probes)
    out << probe.id << ' ' << probe.kind << ' ' << probe.description << " [" << probe.file << ':'
        << probe.line << ' ' << probe.function << "]\n";
  return out.str();
}

TEST_F(GeneratedProfile, ReadsTheProbeTableInRegistrationOrder) {
  // 0 is the program (idb_init); 10 was registered with its location before first use.
  EXPECT_EQ("0 1 profile_gen [:0 ]\n"
            "10 1 compute [kernels.c:42 compute]\n"
            "1 1 main [profile_generator.cpp:100 main]\n"
            "2 1 setup [:0 ]\n"
            "3 2 iterate [:0 ]\n"
            "4 2 step [:0 ]\n"
            "11 4 exchange [:0 ]\n"
            "20 1 solve [solver.c:7 solve]\n"
            "21 3 residual [:0 ]\n"
            "22 1 pending [:0 ]\n"
            "30 1 worker [profile_generator.cpp:60 worker]\n",
            probe_table(p));
  ASSERT_NE(nullptr, p.probe(21));
  EXPECT_EQ("residual", p.probe(21)->description);
  EXPECT_EQ(nullptr, p.probe(23)); // stopped but never started
}

TEST_F(GeneratedProfile, ReadsEveryCfhInCreationOrder) {
  ASSERT_EQ(4u, p.cfhs.size());
  const char *names[] = {"thread 0", "solver[0]", "thread 1", "thread 2"};
  const int threads[] = {0, 0, 1, 2};
  for (std::size_t i = 0; i < p.cfhs.size(); ++i) {
    const profile::Cfh &c = p.cfhs[i];
    SCOPED_TRACE(c.name);
    EXPECT_EQ(names[i], c.name);
    EXPECT_EQ(threads[i], c.thread);
    EXPECT_EQ(i == 1, c.named);
    EXPECT_EQ(p.number("rank", -1), c.rank);
    EXPECT_EQ(0u, c.overflow);
    EXPECT_EQ(0u, c.depth_overflow);
    EXPECT_EQ(i == 1 ? 1u : 0u, c.mismatches);
    EXPECT_EQ(i == 1 ? 1u : 0u, c.unclosed);
    ASSERT_FALSE(c.nodes.empty());
    EXPECT_EQ(profile::kNoParent, c.nodes[0].parent);
    EXPECT_EQ(0, c.nodes[0].probe);
    EXPECT_EQ(1u, c.nodes[0].stats.count);
  }
}

TEST_F(GeneratedProfile, ReadsTheTreeOfEachCfh) {
  ASSERT_EQ(4u, p.cfhs.size());
  EXPECT_EQ("main 1\n"
            "main;setup 1\n"
            "main;iterate 1\n"
            "main;iterate;step 3\n"
            "main;iterate;step;compute 3\n"
            "main;iterate;step;exchange 6\n",
            profile::paths_text(p, p.cfhs[0]));
  EXPECT_EQ("solve 1\n"
            "solve;residual 2\n"
            "pending 1\n",
            profile::paths_text(p, p.cfhs[1]));
  for (std::size_t i : {2u, 3u})
    EXPECT_EQ("worker 1\n"
              "worker;compute 4\n",
              profile::paths_text(p, p.cfhs[i]));
}

TEST_F(GeneratedProfile, ReadsTheSameFromBytesAsFromTheFile) {
  ReadResult r = profile::parse_profile(generated_profile());
  ASSERT_TRUE(r.profile) << r.error;
  EXPECT_EQ(describe(p), describe(*r.profile));
}

// A launcher may give the rank without the rank count (PMIX_RANK alone): the runtime makes
// the count cover the rank, so the profile keeps the rule the reader enforces.
TEST(ReadProfile, ARankWithoutARankCountStillReads) {
  TempDir dir;
  std::string out = dir.file("x.idbprof");
  RunResult r = run(generator_argv(), {"IDB_OUT=" + out, "PMIX_RANK=3"});
  ASSERT_EQ(0, r.status) << r.err;
  // Several ranks and one name: each rank writes a file of its own (docs/configuration.md).
  profile::ReadResult read = profile::read_profile(out + ".rank3.idbprof");
  ASSERT_TRUE(read.profile) << read.error;
  EXPECT_EQ("3", read.profile->get("rank"));
  EXPECT_EQ("4", read.profile->get("nprocs"));
  for (const profile::Cfh &cfh : read.profile->cfhs)
    EXPECT_EQ(3, cfh.rank);
}

TEST(ReadProfile, RefusesAnEmptyFile) {
  TempDir dir;
  write_file(dir.file("empty.idbprof"), "");
  ReadResult r = profile::read_profile(dir.file("empty.idbprof"));
  EXPECT_FALSE(r.profile);
  EXPECT_EQ(dir.file("empty.idbprof") + ": truncated file header at byte 0", r.error);
}

TEST(ReadProfile, RefusesRandomBytes) {
  std::mt19937 random(12345);
  std::string bytes(4096, '\0');
  for (char &b : bytes)
    b = char(random() & 0xFF);
  ReadResult r = profile::parse_profile(bytes);
  EXPECT_FALSE(r.profile);
  EXPECT_NE(std::string::npos, r.error.find("not an IDB profile")) << r.error;
}

TEST(ReadProfile, RefusesATextFile) {
  TempDir dir;
  write_file(dir.file("notes.txt"), "program jacobi\nhost node01\nthreads 2\n");
  ReadResult r = profile::read_profile(dir.file("notes.txt"));
  EXPECT_FALSE(r.profile);
  EXPECT_EQ(dir.file("notes.txt") + ": not an IDB profile (bad magic) at byte 0", r.error);
}

TEST(ReadProfile, RefusesAMissingFileNamingThePath) {
  TempDir dir;
  std::string path = dir.file("missing.idbprof");
  ReadResult r = profile::read_profile(path);
  EXPECT_FALSE(r.profile);
  EXPECT_EQ("cannot open " + path + ": No such file or directory", r.error);
}

TEST(ReadProfile, RefusesAFolderNamingThePath) {
  TempDir dir;
  ReadResult r = profile::read_profile(dir.path());
  EXPECT_FALSE(r.profile);
  EXPECT_EQ("cannot open " + dir.path() + ": a folder, not a file", r.error);
}

// A FIFO without a writer would block a plain read forever, and a device would be read
// without end: both are refused at once, before reading.
TEST(ReadProfile, RefusesAFifoAndADeviceAtOnce) {
  TempDir dir;
  std::string fifo = dir.file("profile.fifo");
  ASSERT_EQ(0, mkfifo(fifo.c_str(), 0600));
  ReadResult r = profile::read_profile(fifo);
  EXPECT_FALSE(r.profile);
  EXPECT_EQ("cannot open " + fifo + ": a FIFO, not a regular file", r.error);
  r = profile::read_profile("/dev/zero");
  EXPECT_FALSE(r.profile);
  EXPECT_EQ("cannot open /dev/zero: a character device, not a regular file", r.error);
}

TEST(ParseProfile, AcceptsTheRealMagicAndRefusesABadOne) {
  const std::string &good = generated_profile();
  ReadResult ok = profile::parse_profile(good);
  EXPECT_TRUE(ok.profile) << ok.error;
  std::string bad = good;
  bad.replace(0, 8, "IDBPROF2");
  ReadResult r = profile::parse_profile(bad);
  EXPECT_FALSE(r.profile);
  EXPECT_EQ("not an IDB profile (bad magic) at byte 0", r.error);
}

} // namespace
} // namespace idb::test

// Configuration by environment (docs/configuration.md): IDB_ENABLE=0 turns every probe
// into a no-op and writes nothing; IDB_OUT's placeholders and a trailing '/' for a
// directory; each bad value gives one warning line on stderr and its default, each good
// one is taken as given.
#include "child.hpp"

#include "idb/probe.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

using idb::test::Child;
using idb::test::Env;
using idb::test::run_child;

// Files the child left in its directory besides its stdout and stderr, recursively.
std::vector<std::string> written_files(const Child &child) {
  std::vector<std::string> files;
  for (const auto &entry : std::filesystem::recursive_directory_iterator(child.dir.path())) {
    std::string name = std::filesystem::relative(entry.path(), child.dir.path()).string();
    if (entry.is_regular_file() && name != "stdout.txt" && name != "stderr.txt")
      files.push_back(name);
  }
  return files;
}

std::string host_name() {
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  return host;
}

void some_probes() {
  idb_start(IDB_PROC, 1, "main");
  idb_start_at(IDB_LOOP, 2, "loop", "a.c", 3, "main");
  idb_stop(2);
  idb_stop(1);
}

TEST(Config, DisabledProbesDoNothingAndWriteNothing) {
  for (const char *off : {"0", "off", "no"}) {
    SCOPED_TRACE(std::string("IDB_ENABLE=") + off);
    Child child = run_child(
        [] {
          some_probes();
          idb_stop(77); // would be a mismatch
          idb_cfh_t *object = idb_cfh_create("object");
          idb_cfh_start(object, IDB_PROC, 3, "method");
          idb_cfh_stop(object, 3);
          idb::Cfh solver("solver");
          {
            IDB_SCOPE(IDB_PROC, 4, "proc");
            IDB_CFH_SCOPE(solver, IDB_CALL, 5, "call");
          }
          std::printf("enabled %d thread %s object %s solver '%s' dump %d\n", idb_enabled(),
                      idb_thread_cfh() ? "yes" : "null", object ? "yes" : "null", solver.name(),
                      idb_cfh_dump(idb_thread_cfh(), stdout));
          idb_cfh_destroy(object);
        },
        Env{{"IDB_ENABLE", off}});
    ASSERT_TRUE(child.ok()) << child.describe();
    EXPECT_EQ("enabled 0 thread null object null solver '' dump -1\n", child.out);
    EXPECT_EQ("", child.err);
    EXPECT_TRUE(written_files(child).empty()) << written_files(child).front();
  }
}

// The scope macros test idb_probes_off inline; it is 0 before the first probe, set once
// the runtime starts switched off or finalizes, and left 0 while probes record.
TEST(Config, ProbesOffFlagFollowsTheRuntime) {
  for (const char *enable : {"0", "1"}) {
    Child child = run_child(
        [] {
          std::printf("before %d", idb_probes_off);
          { IDB_SCOPE(IDB_PROC, 1, "first"); }
          std::printf(" running %d", idb_probes_off);
          idb_finalize();
          std::printf(" finalized %d\n", idb_probes_off);
          { IDB_SCOPE(IDB_PROC, 2, "after finalize"); }
        },
        Env{{"IDB_ENABLE", enable}});
    ASSERT_TRUE(child.ok()) << child.describe();
    EXPECT_EQ(std::string("before 0 running ") + (*enable == '0' ? "1" : "0") + " finalized 1\n",
              child.out);
    if (*enable == '1') {
      auto r = child.read();
      ASSERT_TRUE(r.profile) << r.error;
      EXPECT_EQ("first 1\n", idb::test::tree_of(*r.profile, "thread 0"));
    }
  }
}

TEST(Config, EnabledUnlessSaidOtherwise) {
  for (const char *on : {"1", "on", "yes"}) {
    Child child = run_child(
        [] {
          some_probes();
          std::printf("enabled %d\n", idb_enabled());
        },
        Env{{"IDB_ENABLE", on}});
    ASSERT_TRUE(child.ok()) << child.describe();
    EXPECT_EQ("enabled 1\n", child.out) << on;
    EXPECT_TRUE(child.read().profile) << on << ": " << child.read().error;
  }
}

TEST(Config, OutputPatternExpandsEveryPlaceholder) {
  Child child = run_child(
      [] {
        idb_init("pattern");
        some_probes();
      },
      Env{{"IDB_OUT", "{dir}/run-%n-%p-%r-%h-%%-%t-%x-%"}});
  ASSERT_TRUE(child.ok()) << child.describe();
  auto files = written_files(child);
  ASSERT_EQ(1u, files.size());
  auto result = idb::profile::read_profile(child.dir.file(files[0]));
  ASSERT_TRUE(result.profile) << result.error;
  const auto &profile = *result.profile;
  std::string start = std::to_string(long(profile.number("start_unix")));
  EXPECT_EQ("run-pattern-" + std::to_string(child.pid) + "-" + profile.get("rank") + "-" +
                host_name() + "-%-" + start + "-%x-%",
            files[0]);
  EXPECT_EQ("pattern", profile.get("program"));
}

// IDB_OUT=/dev/null is a common way to throw the profile away; written by a rename, as
// root, it would replace the machine's /dev/null with a file. A FIFO stands for it here:
// the profile goes through it, and it stays a FIFO.
TEST(Config, OutputThatIsNotARegularFileIsWrittenInPlace) {
  idb::test::TempDir fifo_dir;
  std::string fifo = fifo_dir.file("profile.fifo");
  ASSERT_EQ(0, ::mkfifo(fifo.c_str(), 0600));
  int fd = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK); // a reader: the child's open goes on
  ASSERT_GE(fd, 0);
  Child child = run_child([] { some_probes(); }, Env{{"IDB_OUT", fifo}});
  std::string bytes;
  char buffer[4096];
  for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) > 0;)
    bytes.append(buffer, std::size_t(got));
  ::close(fd);
  ASSERT_TRUE(child.ok()) << child.describe();
  struct stat st {};
  ASSERT_EQ(0, ::stat(fifo.c_str(), &st));
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced";
  std::string copy = fifo_dir.file("copy.idbprof");
  std::ofstream(copy, std::ios::binary) << bytes;
  auto result = idb::profile::read_profile(copy);
  EXPECT_TRUE(result.profile) << result.error << " (" << bytes.size() << " bytes)";
}

TEST(Config, OutputEndingInSlashNamesADirectory) {
  Child child = run_child(
      [] {
        std::filesystem::create_directory(std::string(std::getenv("IDB_OUT")));
        some_probes();
      },
      Env{{"IDB_OUT", "{dir}/profiles/"}});
  ASSERT_TRUE(child.ok()) << child.describe();
  auto files = written_files(child);
  ASSERT_EQ(1u, files.size());
  auto result = idb::profile::read_profile(child.dir.file(files[0]));
  ASSERT_TRUE(result.profile) << result.error;
  EXPECT_EQ("profiles/" + result.profile->get("program") + "-" + std::to_string(child.pid) +
                ".idbprof",
            files[0]);
}

TEST(Config, UnwritablePathIsReportedOnce) {
  Child child = run_child(some_probes, Env{{"IDB_OUT", "{dir}/missing/profile.idbprof"}});
  ASSERT_TRUE(child.ok()) << child.describe();
  EXPECT_TRUE(written_files(child).empty());
  EXPECT_EQ(0, child.err.rfind("idb: error: profile not written: cannot create ", 0)) << child.err;
  EXPECT_EQ(1, std::count(child.err.begin(), child.err.end(), '\n')) << child.err;
}

struct Setting {
  const char *variable;
  const char *value;
  const char *meta_key; // where the profile shows the setting in effect
  const char *expected; // its value there
};

TEST(Config, BadValuesWarnOnceAndKeepTheDefault) {
  const Setting bad[] = {
      {"IDB_MAX_NODES", "abc", "max_nodes", "65536"},
      {"IDB_MAX_NODES", "1", "max_nodes", "65536"},
      {"IDB_MAX_NODES", "12x", "max_nodes", "65536"},
      {"IDB_MAX_NODES", "", "max_nodes", "65536"},
      {"IDB_MAX_DEPTH", "-5", "max_depth", "4096"},
      {"IDB_MAX_DEPTH", "99999999999999999999", "max_depth", "4096"},
      {"IDB_CPU", "sometimes", "cpu_policy", "auto"},
      {"IDB_CPU_THRESHOLD_US", "-1", "cpu_threshold_us", "200"},
      {"IDB_CPU_THRESHOLD_US", "fast", "cpu_threshold_us", "200"},
      {"IDB_ENABLE", "maybe", "program", "idb_probe_tests"},
      {"IDB_VERBOSE", "loud", "program", "idb_probe_tests"},
      {"IDB_THROTTLE_EARLY", "0", "throttle_early_after", "1000"},
  };
  for (const Setting &s : bad) {
    std::string setting = std::string(s.variable) + "=" + s.value;
    SCOPED_TRACE(setting);
    Child child = run_child(some_probes, Env{{s.variable, s.value}});
    ASSERT_TRUE(child.ok()) << child.describe();
    EXPECT_EQ(0, child.err.rfind("idb: ignoring " + setting + " (", 0)) << child.err;
    EXPECT_EQ(1, std::count(child.err.begin(), child.err.end(), '\n')) << child.err;
    auto result = child.read();
    ASSERT_TRUE(result.profile) << result.error;
    EXPECT_EQ(s.expected, result.profile->get(s.meta_key));
  }
}

TEST(Config, GoodValuesAreTakenQuietly) {
  const Setting good[] = {
      {"IDB_MAX_NODES", "100", "max_nodes", "100"},
      {"IDB_MAX_DEPTH", "128", "max_depth", "128"},
      {"IDB_CPU", "all", "cpu_policy", "all"},
      {"IDB_CPU", "off", "cpu_policy", "off"},
      {"IDB_CPU_THRESHOLD_US", "50", "cpu_threshold_us", "50"},
      {"IDB_TIMER", "monotonic", "timer", "monotonic"},
      {"IDB_THROTTLE_EARLY", "500", "throttle_early_after", "500"},
  };
  for (const Setting &s : good) {
    SCOPED_TRACE(std::string(s.variable) + "=" + s.value);
    Child child = run_child(some_probes, Env{{s.variable, s.value}});
    ASSERT_TRUE(child.ok()) << child.describe();
    EXPECT_EQ("", child.err);
    auto result = child.read();
    ASSERT_TRUE(result.profile) << result.error;
    EXPECT_EQ(s.expected, result.profile->get(s.meta_key));
  }
}

TEST(Config, VerboseReportsWhereTheProfileWent) {
  Child child = run_child(some_probes, Env{{"IDB_VERBOSE", "1"}});
  ASSERT_TRUE(child.ok()) << child.describe();
  EXPECT_EQ("idb: profile written to " + child.path + " (0 probes closed at exit)\n", child.err);
}

TEST(Config, CpuPolicyAllTimesEveryActivation) {
  Child child = run_child(some_probes, Env{{"IDB_CPU", "all"}});
  ASSERT_TRUE(child.ok()) << child.describe();
  auto result = child.read();
  ASSERT_TRUE(result.profile) << result.error;
  const auto *cfh = idb::test::find_cfh(*result.profile, "thread 0");
  ASSERT_TRUE(cfh);
  for (std::size_t i = 1; i < cfh->nodes.size(); ++i)
    EXPECT_EQ(cfh->nodes[i].stats.count, cfh->nodes[i].stats.cpu_count) << i;
}

} // namespace

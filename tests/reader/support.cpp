// Shared helpers of the reader tests (see support.hpp).
#include "support.hpp"

#include "crc32.h"
#include "idb/profile_format.h"

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace idb::test {

void write_file(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

namespace {

std::vector<std::string> child_environment(const std::vector<std::string> &extra) {
  std::vector<std::string> env;
  for (char **e = environ; e && *e; ++e)
    if (std::strncmp(*e, "IDB_", 4) != 0) env.emplace_back(*e);
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

std::vector<char *> pointers(std::vector<std::string> &strings) {
  std::vector<char *> p;
  p.reserve(strings.size() + 1);
  for (std::string &s : strings)
    p.push_back(s.data());
  p.push_back(nullptr);
  return p;
}

} // namespace

RunResult run(const std::vector<std::string> &argv, const std::vector<std::string> &env) {
  // Output goes to files rather than pipes: nothing to drain while the child runs.
  TempDir dir;
  std::string out = dir.file("stdout"), err = dir.file("stderr");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<std::string> args = argv, vars = child_environment(env);
  std::vector<char *> arg_p = pointers(args), env_p = pointers(vars);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0].c_str(), &actions, nullptr, arg_p.data(), env_p.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot run " + argv[0] + ": " + std::strerror(rc));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error("waitpid failed");
  RunResult r;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

// An empty argument in the middle and at the end: the NUL-separated argv must keep both.
const std::vector<std::string> kGeneratorArgs = {"alpha", "two words", "", "last", ""};
const std::vector<std::string> kGeneratorEnv = {"IDB_ATTR_case=roundtrip", "IDB_ATTR_mesh=64x64"};

std::vector<std::string> generator_argv() {
  std::vector<std::string> argv = {IDB_TEST_GENERATOR};
  argv.insert(argv.end(), kGeneratorArgs.begin(), kGeneratorArgs.end());
  return argv;
}

const std::string &generated_profile() {
  static const std::string bytes = [] {
    TempDir dir;
    std::string path = dir.file("generated.idbprof");
    std::vector<std::string> env = kGeneratorEnv;
    env.push_back("IDB_OUT=" + path);
    RunResult r = run(generator_argv(), env);
    std::string data = read_file(path);
    if (r.status != 0 || data.empty())
      throw std::runtime_error("the generator failed (status " + std::to_string(r.status) +
                               "): " + r.err);
    return data;
  }();
  return bytes;
}

std::uint32_t get_u32(const std::string &bytes, std::size_t at) {
  std::uint32_t v = 0;
  std::memcpy(&v, bytes.data() + at, 4);
  return v;
}

void put_u32(std::string &bytes, std::size_t at, std::uint32_t value) {
  std::memcpy(bytes.data() + at, &value, 4);
}

void put_u64(std::string &bytes, std::size_t at, std::uint64_t value) {
  std::memcpy(bytes.data() + at, &value, 8);
}

RawProfile split_profile(const std::string &bytes) {
  RawProfile p;
  std::memcpy(&p.major, bytes.data() + 8, 2);
  std::memcpy(&p.minor, bytes.data() + 10, 2);
  std::size_t at = IDB_PROFILE_HEADER_SIZE;
  while (at + IDB_SECTION_HEADER_SIZE <= bytes.size()) {
    RawSection s;
    s.type = get_u32(bytes, at);
    s.count = get_u32(bytes, at + 4);
    std::uint64_t length = 0;
    std::memcpy(&length, bytes.data() + at + 8, 8);
    if (s.type == IDB_SECTION_END) break;
    s.payload = bytes.substr(at + IDB_SECTION_HEADER_SIZE, length);
    p.sections.push_back(std::move(s));
    at += IDB_SECTION_HEADER_SIZE + length;
  }
  return p;
}

std::string encode_section(const RawSection &s) {
  std::string bytes(IDB_SECTION_HEADER_SIZE, '\0');
  put_u32(bytes, 0, s.type);
  put_u32(bytes, 4, s.count);
  put_u64(bytes, 8, s.payload.size());
  bytes += s.payload;
  put_u32(bytes, 16, crc32(0, bytes.data(), bytes.size()));
  return bytes;
}

void reseal_section(std::string &bytes, std::size_t at) {
  std::uint64_t length = 0;
  std::memcpy(&length, bytes.data() + at + 8, 8);
  put_u32(bytes, at + 16, 0);
  put_u32(bytes, at + 16, crc32(0, bytes.data() + at, IDB_SECTION_HEADER_SIZE + length));
}

std::size_t cfh_nodes_offset(const std::string &payload) {
  return IDB_CFH_FIXED_SIZE + 4 + get_u32(payload, IDB_CFH_FIXED_SIZE);
}

std::string encode_profile(const RawProfile &p) {
  std::string bytes(IDB_PROFILE_MAGIC, IDB_PROFILE_MAGIC_SIZE);
  bytes.append(reinterpret_cast<const char *>(&p.major), 2);
  bytes.append(reinterpret_cast<const char *>(&p.minor), 2);
  std::uint32_t crc = crc32(0, bytes.data(), bytes.size());
  bytes.append(reinterpret_cast<const char *>(&crc), 4);
  for (const RawSection &s : p.sections)
    bytes += encode_section(s);
  RawSection end{IDB_SECTION_END, std::uint32_t(p.sections.size()), std::string(8, '\0')};
  put_u64(end.payload, 0, bytes.size() + IDB_SECTION_HEADER_SIZE + 8);
  return bytes + encode_section(end);
}

namespace {

void describe_stats(std::ostream &out, const idb_stats_t &s) {
  char line[512];
  std::snprintf(line, sizeof line,
                "count %llu sum %a min %a max %a mean %a m2 %a cpu %llu %a %a %a noise %a "
                "bytes %llu %llu",
                (unsigned long long)s.count, s.sum, s.min, s.max, s.mean, s.m2,
                (unsigned long long)s.cpu_count, s.cpu_sum, s.cpu_min, s.cpu_max, s.noise,
                (unsigned long long)s.bytes_sent, (unsigned long long)s.bytes_recv);
  out << line;
}

} // namespace

std::string describe(const profile::Profile &p) {
  std::ostringstream out;
  out << "version " << p.version_major << '.' << p.version_minor << '\n';
  for (const auto &[key, value] : p.meta)
    out << "meta " << key << '=' << value << '\n';
  for (const std::string &arg : p.argv)
    out << "arg [" << arg << "]\n";
  for (const auto &[key, value] : p.attributes)
    out << "attr " << key << '=' << value << '\n';
  for (const profile::Probe &probe : p.probes)
    out << "probe " << probe.id << " kind " << probe.kind << " [" << probe.description << "] ["
        << probe.file << ':' << probe.line << "] [" << probe.function << "]\n";
  for (const profile::Cfh &c : p.cfhs) {
    out << "cfh [" << c.name << "] rank " << c.rank << " thread " << c.thread << " named "
        << c.named << " overflow " << c.overflow << " mismatches " << c.mismatches << " unclosed "
        << c.unclosed << " deep " << c.depth_overflow << '\n';
    for (const profile::Node &n : c.nodes) {
      out << "  node parent " << n.parent << " probe " << n.probe << ' ';
      describe_stats(out, n.stats);
      out << '\n';
    }
  }
  return out.str();
}

bool same_stats(const idb_stats_t &a, const idb_stats_t &b) {
#define IDB_SAME_FIELD(field, type, unit, merge, group, column)                                    \
  if (std::bit_cast<std::uint64_t>(a.field) != std::bit_cast<std::uint64_t>(b.field)) return false;
  IDB_STATS_FIELDS(IDB_SAME_FIELD)
#undef IDB_SAME_FIELD
  return true;
}

} // namespace idb::test

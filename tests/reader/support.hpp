// Shared helpers of the reader tests: running a program with a chosen environment and
// capturing its output, a temporary folder, the real profile of the generator program
// (written once per test process), re-encoding profiles section by section with correct
// checksums, and a canonical text form of a parsed Profile for comparing two of them.
#pragma once

#include "files.hpp"
#include "idb/profile.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace idb::test {

struct RunResult {
  int status = -1; // exit code; -1 when the program did not exit normally
  std::string out, err;
};

// Runs argv[0] (a path) with argv, the environment of this process minus every IDB_*
// variable plus `env` ("NAME=value"), and waits for it.
RunResult run(const std::vector<std::string> &argv, const std::vector<std::string> &env = {});

void write_file(const std::string &path, const std::string &bytes);

// The arguments the generator is run with (after its path) and its attributes.
extern const std::vector<std::string> kGeneratorArgs;
extern const std::vector<std::string> kGeneratorEnv;

// The path of the generator program, then kGeneratorArgs.
std::vector<std::string> generator_argv();

// The bytes of a real profile written by the generator, produced on first use and kept for
// the rest of the test process. Throws std::runtime_error, which fails the calling test,
// with the generator's stderr when it cannot be made.
const std::string &generated_profile();

// Whether two statistics records are the same bit for bit, field by field.
bool same_stats(const idb_stats_t &a, const idb_stats_t &b);

// A profile taken apart: the header's version and every section before END.
struct RawSection {
  std::uint32_t type = 0, count = 0;
  std::string payload;
};

struct RawProfile {
  std::uint16_t major = 0, minor = 0;
  std::vector<RawSection> sections;
};

// Splits a well-formed profile; checksums are not checked (the reader's job).
RawProfile split_profile(const std::string &bytes);
// Encodes `p` with correct checksums and an END section that matches.
std::string encode_profile(const RawProfile &p);
std::string encode_section(const RawSection &s);
// Recomputes the checksum of the section whose header starts at `at`.
void reseal_section(std::string &bytes, std::size_t at);
// Where the node records of a CFH section's payload begin (after the fixed part and name).
std::size_t cfh_nodes_offset(const std::string &payload);

// Little-endian access to bytes at an offset.
std::uint32_t get_u32(const std::string &bytes, std::size_t at);
void put_u32(std::string &bytes, std::size_t at, std::uint32_t value);
void put_u64(std::string &bytes, std::size_t at, std::uint64_t value);

// Every field of a Profile, one per line, doubles exactly (hex), for comparing profiles.
std::string describe(const profile::Profile &p);

} // namespace idb::test

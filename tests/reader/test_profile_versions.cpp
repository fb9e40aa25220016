// Format versions: a newer major version is refused; what a newer minor version may add
// (unknown section types, longer node records) is skipped, and the file reads the same as
// the version 1.0 file it extends. The files are the generator's profile re-encoded with
// correct checksums (support.hpp), so only the version rules decide.
#include "idb/profile.hpp"
#include "idb/profile_format.h"
#include "support.hpp"

#include <gtest/gtest.h>

namespace idb::test {
namespace {

using profile::ReadResult;
using namespace std::string_literals;

// The generator's profile as read, with its minor version set to `minor` for comparisons.
std::string expected_description(int minor) {
  ReadResult r = profile::parse_profile(generated_profile());
  if (!r.profile) return "unreadable: " + r.error;
  r.profile->version_minor = minor;
  return describe(*r.profile);
}

TEST(RawProfile, EncodesTheGeneratorsProfileBackToTheSameBytes) {
  const std::string &good = generated_profile();
  EXPECT_EQ(good, encode_profile(split_profile(good)));
}

TEST(ParseProfile, RefusesAnotherMajorVersionNamingIt) {
  RawProfile p = split_profile(generated_profile());
  ReadResult same = profile::parse_profile(encode_profile(p));
  EXPECT_TRUE(same.profile) << same.error;
  p.minor = 0; // the message names both numbers
  p.major = 2;
  ReadResult newer = profile::parse_profile(encode_profile(p));
  EXPECT_FALSE(newer.profile);
  EXPECT_EQ("profile format version 2.0 is not supported (this reader reads 1.x) at byte 8",
            newer.error);
  p.major = 0;
  ReadResult older = profile::parse_profile(encode_profile(p));
  EXPECT_FALSE(older.profile);
  EXPECT_NE(std::string::npos, older.error.find("version 0.0 is not supported")) << older.error;
}

TEST(ParseProfile, SkipsSectionsOfANewerMinorVersion) {
  RawProfile p = split_profile(generated_profile());
  p.minor = IDB_PROFILE_VERSION_MINOR + 1;
  RawSection unknown{0x4E455721u, 3, "three items of a future kind\0\x01\x02"s};
  p.sections.insert(p.sections.begin() + 2, unknown); // between PROBES and the CFHs
  p.sections.push_back(unknown);                      // just before END
  p.sections.push_back(RawSection{IDB_SECTION_END - 1, 0, ""});
  ReadResult r = profile::parse_profile(encode_profile(p));
  ASSERT_TRUE(r.profile) << r.error;
  EXPECT_EQ(IDB_PROFILE_VERSION_MINOR + 1, r.profile->version_minor);
  EXPECT_EQ(expected_description(IDB_PROFILE_VERSION_MINOR + 1), describe(*r.profile));
}

// Each node record of every CFH lengthened by `extra` bytes, as a newer minor version might.
RawProfile with_longer_records(std::uint32_t extra) {
  RawProfile p = split_profile(generated_profile());
  p.minor = IDB_PROFILE_VERSION_MINOR + 1;
  for (RawSection &s : p.sections) {
    if (s.type != IDB_SECTION_CFH) continue;
    std::size_t nodes = cfh_nodes_offset(s.payload);
    std::string longer = s.payload.substr(0, nodes);
    put_u32(longer, 12, IDB_NODE_RECORD_SIZE + extra);
    for (std::uint32_t i = 0; i < s.count; ++i) {
      longer +=
          s.payload.substr(nodes + std::size_t(i) * IDB_NODE_RECORD_SIZE, IDB_NODE_RECORD_SIZE);
      longer += std::string(extra, '\xAB');
    }
    s.payload = longer;
  }
  return p;
}

TEST(ParseProfile, ReadsNodeRecordsLongerThanVersion1_0) {
  for (std::uint32_t extra : {8u, 13u, 200u}) {
    ReadResult r = profile::parse_profile(encode_profile(with_longer_records(extra)));
    ASSERT_TRUE(r.profile) << extra << " extra bytes: " << r.error;
    EXPECT_EQ(expected_description(IDB_PROFILE_VERSION_MINOR + 1), describe(*r.profile))
        << extra << " extra bytes";
  }
}

// Each node record cut to the 112 bytes of versions 1.0 and 1.1 (no `throttled`).
RawProfile with_version_1_1_records() {
  RawProfile p = split_profile(generated_profile());
  p.minor = 1;
  for (RawSection &s : p.sections) {
    if (s.type != IDB_SECTION_CFH) continue;
    std::size_t nodes = cfh_nodes_offset(s.payload);
    std::string shorter = s.payload.substr(0, nodes);
    put_u32(shorter, 12, IDB_NODE_RECORD_SIZE_1_0);
    for (std::uint32_t i = 0; i < s.count; ++i)
      shorter +=
          s.payload.substr(nodes + std::size_t(i) * IDB_NODE_RECORD_SIZE, IDB_NODE_RECORD_SIZE_1_0);
    s.payload = shorter;
  }
  return p;
}

TEST(ParseProfile, ReadsTheShorterRecordsOfVersion1_1WithTheNewerFieldsZero) {
  ReadResult r = profile::parse_profile(encode_profile(with_version_1_1_records()));
  ASSERT_TRUE(r.profile) << r.error;
  ReadResult now = profile::parse_profile(generated_profile());
  ASSERT_TRUE(now.profile) << now.error;
  ASSERT_EQ(now.profile->cfhs.size(), r.profile->cfhs.size());
  for (std::size_t c = 0; c < now.profile->cfhs.size(); ++c) {
    ASSERT_EQ(now.profile->cfhs[c].nodes.size(), r.profile->cfhs[c].nodes.size());
    for (std::size_t i = 0; i < now.profile->cfhs[c].nodes.size(); ++i) {
      idb_stats_t expected = now.profile->cfhs[c].nodes[i].stats;
      expected.throttled = 0;
      EXPECT_TRUE(same_stats(expected, r.profile->cfhs[c].nodes[i].stats))
          << "CFH " << c << " node " << i;
    }
  }
}

TEST(ParseProfile, RefusesLongerRecordsWhoseCountDoesNotFit) {
  RawProfile p = with_longer_records(8);
  p.sections[2].payload.resize(p.sections[2].payload.size() - 1);
  ReadResult r = profile::parse_profile(encode_profile(p));
  EXPECT_FALSE(r.profile);
  EXPECT_NE(std::string::npos, r.error.find("CFH section holds")) << r.error;
}

} // namespace
} // namespace idb::test

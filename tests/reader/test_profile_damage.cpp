// Damaged profiles: every proper prefix of a real profile, every single-bit flip, bytes
// after the end, and files whose checksums are all correct but whose content contradicts
// itself (a wrong END count or length, counts a section cannot hold, bad node parents).
// Each is refused whole with a message; the undamaged file beside them is accepted.
#include "idb/profile.hpp"
#include "idb/profile_format.h"
#include "support.hpp"

#include <gtest/gtest.h>

#include <cstring>

namespace idb::test {
namespace {

using profile::ReadResult;

// "" when `bytes` is refused with a message containing `expected`, else what went wrong.
std::string refusal_problem(std::string_view bytes, const std::string &expected) {
  ReadResult r = profile::parse_profile(bytes);
  if (r.profile) return "accepted";
  if (r.error.empty()) return "refused without a message";
  if (r.error.find(expected) == std::string::npos) return "refused with \"" + r.error + "\"";
  return "";
}

TEST(ParseProfile, AcceptsTheWholeFileAndRefusesEveryProperPrefix) {
  const std::string &good = generated_profile();
  ReadResult whole = profile::parse_profile(good);
  EXPECT_TRUE(whole.profile) << whole.error;
  std::string problems;
  std::size_t count = 0;
  for (std::size_t n = 0; n < good.size(); ++n) {
    std::string problem = refusal_problem(std::string_view(good).substr(0, n), "truncated");
    if (!problem.empty() && ++count <= 10)
      problems += "prefix of " + std::to_string(n) + " bytes: " + problem + '\n';
  }
  EXPECT_EQ("", problems) << count << " prefixes not refused as truncated";
}

TEST(ParseProfile, SaysWhereATruncatedFileEnds) {
  std::string_view good = generated_profile();
  auto error = [&](std::size_t n) { return profile::parse_profile(good.substr(0, n)).error; };
  EXPECT_EQ("truncated file header at byte 0", error(0));
  EXPECT_EQ("truncated file header at byte 0", error(15));
  EXPECT_EQ("truncated section header at byte 16", error(16));
  std::uint64_t meta_length = 0;
  std::memcpy(&meta_length, good.data() + 24, 8);
  EXPECT_EQ("truncated section (type 1, " + std::to_string(meta_length) +
                " bytes announced) at byte 16",
            error(40));
  std::size_t end = good.size() - IDB_SECTION_HEADER_SIZE - 8;
  EXPECT_EQ("truncated section header at byte " + std::to_string(end), error(end));
  EXPECT_EQ("truncated section (type " + std::to_string(IDB_SECTION_END) +
                ", 8 bytes announced) at byte " + std::to_string(end),
            error(good.size() - 1));
}

TEST(ParseProfile, RefusesEverySingleBitFlip) {
  std::string bytes = generated_profile();
  std::string problems;
  std::size_t count = 0;
  for (std::size_t at = 0; at < bytes.size(); ++at)
    for (int bit = 0; bit < 8; ++bit) {
      bytes[at] = char(bytes[at] ^ (1 << bit));
      std::string problem = refusal_problem(bytes, "");
      bytes[at] = char(bytes[at] ^ (1 << bit));
      if (!problem.empty() && ++count <= 10)
        problems +=
            "byte " + std::to_string(at) + " bit " + std::to_string(bit) + ": " + problem + '\n';
    }
  EXPECT_EQ("", problems) << count << " flips not refused";
  ReadResult r = profile::parse_profile(bytes);
  EXPECT_TRUE(r.profile) << "every flip undone: " << r.error;
}

TEST(ParseProfile, NamesTheDamagedPartOfAFlippedFile) {
  std::string bytes = generated_profile();
  auto flipped = [&](std::size_t at) {
    std::string copy = bytes;
    copy[at] = char(copy[at] ^ 0x01);
    return profile::parse_profile(copy).error;
  };
  EXPECT_EQ("not an IDB profile (bad magic) at byte 0", flipped(0));
  EXPECT_EQ("checksum mismatch in file header at byte 12", flipped(8));
  EXPECT_EQ("checksum mismatch in section of type 1 at byte 16", flipped(16 + 24 + 10));
  std::size_t end = bytes.size() - IDB_SECTION_HEADER_SIZE - 8;
  EXPECT_EQ("checksum mismatch in section of type " + std::to_string(IDB_SECTION_END) +
                " at byte " + std::to_string(end),
            flipped(bytes.size() - 1));
}

TEST(ParseProfile, RefusesBytesAfterTheEndSection) {
  const std::string &good = generated_profile();
  std::size_t end = good.size() - IDB_SECTION_HEADER_SIZE - 8;
  for (const std::string &tail : {std::string(1, '\0'), std::string("garbage\n"),
                                  good.substr(end)}) { // a second, well-formed END
    ReadResult r = profile::parse_profile(good + tail);
    EXPECT_FALSE(r.profile) << tail.size() << " bytes appended";
    EXPECT_NE(std::string::npos, r.error.find("end section does not match the file")) << r.error;
  }
}

TEST(ParseProfile, RefusesAnEndSectionThatMiscountsTheFile) {
  const std::string &good = generated_profile();
  std::size_t end = good.size() - IDB_SECTION_HEADER_SIZE - 8;
  std::uint32_t sections = get_u32(good, end + 4);
  EXPECT_EQ(6u, sections); // META, PROBES, four CFHs
  for (std::uint32_t wrong : {sections - 1, sections + 1, 0u}) {
    std::string bytes = good;
    put_u32(bytes, end + 4, wrong);
    reseal_section(bytes, end);
    ReadResult r = profile::parse_profile(bytes);
    EXPECT_FALSE(r.profile) << "END count " << wrong;
    EXPECT_EQ("end section does not match the file (6 sections, " + std::to_string(good.size()) +
                  " bytes)",
              r.error);
  }
  for (std::uint64_t wrong : {good.size() - 1, good.size() + 1, std::size_t(0)}) {
    std::string bytes = good;
    put_u64(bytes, end + IDB_SECTION_HEADER_SIZE, wrong);
    reseal_section(bytes, end);
    ReadResult r = profile::parse_profile(bytes);
    EXPECT_FALSE(r.profile) << "END length " << wrong;
    EXPECT_NE(std::string::npos, r.error.find("end section does not match")) << r.error;
  }
}

// The generator's profile taken apart, for damage that keeps every checksum correct.
RawProfile raw() {
  return split_profile(generated_profile());
}

std::string refused(const RawProfile &p) {
  ReadResult r = profile::parse_profile(encode_profile(p));
  return r.profile ? "accepted" : r.error;
}

TEST(ParseProfile, RefusesCountsTheSectionCannotHold) {
  RawProfile p = raw();
  ASSERT_EQ(IDB_SECTION_META, p.sections[0].type);
  ASSERT_EQ(IDB_SECTION_PROBES, p.sections[1].type);
  EXPECT_EQ("accepted", refused(p));
  RawProfile more = p;
  more.sections[1].count = 0xFFFFFFFFu; // must not reserve room for four billion probes
  EXPECT_NE(std::string::npos, refused(more).find("truncated probe")) << refused(more);
  more = p;
  more.sections[0].count += 1;
  EXPECT_NE(std::string::npos, refused(more).find("truncated metadata key")) << refused(more);
  RawProfile fewer = p;
  fewer.sections[1].count -= 1;
  EXPECT_NE(std::string::npos, refused(fewer).find("unexpected bytes in section"))
      << refused(fewer);
  RawProfile nodes = p;
  nodes.sections[2].count += 1;
  EXPECT_NE(std::string::npos, refused(nodes).find("CFH section holds")) << refused(nodes);
}

TEST(ParseProfile, RefusesAProfileWithoutMetadata) {
  RawProfile p = raw();
  p.sections.erase(p.sections.begin());
  EXPECT_EQ("profile has no metadata section", refused(p));
}

TEST(ParseProfile, RefusesANonZeroReservedField) {
  std::string bytes = generated_profile();
  put_u32(bytes, 16 + 20, 1); // META's reserved word
  reseal_section(bytes, 16);
  ReadResult r = profile::parse_profile(bytes);
  EXPECT_FALSE(r.profile);
  EXPECT_EQ("checksum mismatch in section of type 1 at byte 16", r.error);
}

// The generator's profile with node `node` of its first CFH changed by `edit`.
template <class Edit> std::string with_node(std::uint32_t node, Edit edit) {
  RawProfile p = raw();
  std::string &payload = p.sections[2].payload;
  edit(payload, cfh_nodes_offset(payload) + std::size_t(node) * IDB_NODE_RECORD_SIZE);
  return refused(p);
}

TEST(ParseProfile, RefusesNodesWhoseParentDoesNotPrecedeThem) {
  auto parent = [](std::uint32_t value) {
    return [value](std::string &payload, std::size_t at) { put_u32(payload, at, value); };
  };
  // Node 3 is main;iterate: its parent is node 1, and node 2 (main;setup) would do as well.
  EXPECT_EQ("accepted", with_node(3, parent(2)));
  EXPECT_NE(std::string::npos, with_node(3, parent(3)).find("node 3 has an invalid parent"));
  EXPECT_NE(std::string::npos, with_node(3, parent(4)).find("node 3 has an invalid parent"));
  EXPECT_NE(std::string::npos,
            with_node(3, parent(profile::kNoParent)).find("node 3 has an invalid parent"));
  EXPECT_NE(std::string::npos, with_node(0, parent(0)).find("node 0 has an invalid parent"));
}

TEST(ParseProfile, RefusesACfhWithoutNodesOrWithShortRecords) {
  RawProfile p = raw();
  RawProfile empty = p;
  std::string &payload = empty.sections[2].payload;
  payload.resize(cfh_nodes_offset(payload));
  empty.sections[2].count = 0;
  EXPECT_NE(std::string::npos, refused(empty).find("CFH without a root node")) << refused(empty);
  RawProfile short_records = p;
  put_u32(short_records.sections[2].payload, 12, IDB_NODE_RECORD_SIZE_1_0 - 8);
  EXPECT_NE(std::string::npos, refused(short_records).find("node record size 104 too small"))
      << refused(short_records);
}

TEST(ParseProfile, RefusesASummarySectionWithoutItsSummaryCfh) {
  RawProfile p = split_profile(generated_profile());
  std::size_t first_cfh = 0;
  while (p.sections[first_cfh].type != IDB_SECTION_CFH)
    ++first_cfh;
  std::string payload(8, '\0');
  payload[0] = char(IDB_SUMMARY_RECORD_SIZE);
  p.sections.insert(p.sections.begin() + long(first_cfh) + 1,
                    RawSection{IDB_SECTION_SUMMARY, 0, payload});
  ReadResult r = profile::parse_profile(encode_profile(p));
  EXPECT_FALSE(r.profile);
  EXPECT_NE(r.error.find("summary section without its summary CFH before it"), std::string::npos)
      << r.error;
}

} // namespace
} // namespace idb::test

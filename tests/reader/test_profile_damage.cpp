// Damaged profiles: every proper prefix of a real profile, every single-bit flip, bytes
// after the end, and files whose checksums are all correct but whose content contradicts
// itself (a wrong END count or length, counts a section cannot hold, bad node parents,
// sections out of order, values the format forbids).
// Each is refused whole with a message; the undamaged file beside them is accepted.
#include "idb/histogram.h"
#include "idb/profile.hpp"
#include "idb/profile_format.h"
#include "idb/wait_states.h"
#include "support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

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
  EXPECT_EQ(10u, sections); // META, PROBES, four CFHs with their HIST sections
  for (std::uint32_t wrong : {sections - 1, sections + 1, 0u}) {
    std::string bytes = good;
    put_u32(bytes, end + 4, wrong);
    reseal_section(bytes, end);
    ReadResult r = profile::parse_profile(bytes);
    EXPECT_FALSE(r.profile) << "END count " << wrong;
    EXPECT_EQ("end section does not match the file (10 sections, " + std::to_string(good.size()) +
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
  EXPECT_EQ("PROBES section before the META section at byte 16", refused(p));
  RawProfile only_end = p;
  only_end.sections.clear();
  EXPECT_EQ("profile has no metadata section", refused(only_end));
}

TEST(ParseProfile, RefusesANonZeroReservedField) {
  std::string bytes = generated_profile();
  put_u32(bytes, 16 + 20, 1); // META's reserved word
  reseal_section(bytes, 16);
  ReadResult r = profile::parse_profile(bytes);
  EXPECT_FALSE(r.profile);
  EXPECT_EQ("non-zero reserved field in the header of a section of type 1 at byte 36", r.error);
}

// The generator's profile with node `node` of its first CFH changed by `edit`.
template <class Edit> std::string with_node(std::uint32_t node, Edit edit) {
  RawProfile p = raw();
  std::string &payload = p.sections[2].payload;
  edit(payload, cfh_nodes_offset(payload) + std::size_t(node) * IDB_NODE_RECORD_SIZE);
  return refused(p);
}

// The rules of docs/profile-format.md beyond the checksums: a file whose checksums are all
// right but whose content the format forbids is refused whole, naming what and where.

// A META payload holding `pairs` in order.
std::string meta_payload(const std::vector<std::pair<std::string, std::string>> &pairs) {
  std::string payload;
  for (const auto &[key, value] : pairs)
    for (const std::string *text : {&key, &value}) {
      std::string length(4, '\0');
      put_u32(length, 0, std::uint32_t(text->size()));
      payload += length + *text;
    }
  return payload;
}

// The generator's profile with its META pairs edited by `edit`.
template <class Edit> std::string with_meta(Edit edit) {
  RawProfile p = raw();
  profile::Profile parsed = *profile::parse_profile(generated_profile()).profile;
  std::vector<std::pair<std::string, std::string>> pairs(parsed.meta.begin(), parsed.meta.end());
  edit(pairs);
  p.sections[0].payload = meta_payload(pairs);
  p.sections[0].count = std::uint32_t(pairs.size());
  return refused(p);
}

TEST(ParseProfile, RefusesSectionsMissingTwiceOrOutOfOrder) {
  RawProfile p = raw();
  ASSERT_EQ(IDB_SECTION_CFH, p.sections[2].type);
  RawProfile twice = p;
  twice.sections.insert(twice.sections.begin() + 1, p.sections[0]);
  EXPECT_EQ(0u, refused(twice).find("a second META section at byte ")) << refused(twice);
  twice = p;
  twice.sections.insert(twice.sections.begin() + 2, p.sections[1]);
  EXPECT_EQ(0u, refused(twice).find("a second PROBES section at byte ")) << refused(twice);
  RawProfile late = p;
  std::swap(late.sections[1], late.sections[2]);
  EXPECT_EQ(0u, refused(late).find("CFH section before the PROBES section at byte "))
      << refused(late);
  RawProfile no_probes = p;
  no_probes.sections.erase(no_probes.sections.begin() + 1);
  EXPECT_EQ(0u, refused(no_probes).find("CFH section before the PROBES section"))
      << refused(no_probes);
  // A run in which no probe fired has no CFH: the runtime writes it so, and it reads.
  RawProfile no_cfh = p;
  no_cfh.sections.resize(2);
  EXPECT_EQ("accepted", refused(no_cfh));
  no_cfh.sections.resize(1);
  EXPECT_EQ("profile has no PROBES section", refused(no_cfh));
  RawProfile summary_first = p;
  summary_first.sections.insert(summary_first.sections.begin() + 1,
                                RawSection{IDB_SECTION_SUMMARY, 0, std::string(8, '\0')});
  EXPECT_EQ(0u, refused(summary_first).find("SUMMARY section before the PROBES section"))
      << refused(summary_first);
}

TEST(ParseProfile, RefusesMetadataTheFormatForbids) {
  auto set = [](const std::string &key, const std::string &value) {
    return [key, value](std::vector<std::pair<std::string, std::string>> &pairs) {
      for (auto &pair : pairs)
        if (pair.first == key) pair.second = value;
    };
  };
  EXPECT_EQ("accepted", with_meta(set("nprocs", "1")));
  EXPECT_EQ(0u, with_meta(set("nprocs", "abc")).find("META nprocs 'abc' is not a rank count"))
      << with_meta(set("nprocs", "abc"));
  EXPECT_EQ(0u, with_meta(set("nprocs", "0")).find("META nprocs '0' is not a rank count"));
  EXPECT_EQ(0u, with_meta(set("rank", "1")).find("META rank 1 is not below nprocs 1 at byte "))
      << with_meta(set("rank", "1"));
  EXPECT_EQ(0u, with_meta(set("rank", "-1")).find("META rank '-1' is not a rank"));
  EXPECT_EQ(0u, with_meta(set("timer_hz", "inf")).find("META timer_hz 'inf' is not a finite"));
  EXPECT_EQ(0u, with_meta(set("start_unix", "nan")).find("META start_unix 'nan' is not"));
  EXPECT_EQ(0u, with_meta(set("threads", "2x")).find("META threads '2x' is not a whole number"));
  std::string early = with_meta(set("throttle_early_below_s", "-1e-7"));
  EXPECT_EQ(0u, early.find("META throttle_early_below_s '-1e-7' is not a finite number")) << early;
  std::string twice = with_meta([](std::vector<std::pair<std::string, std::string>> &pairs) {
    pairs.push_back({"program", "again"});
  });
  EXPECT_EQ(0u, twice.find("META key 'program' given twice at byte ")) << twice;
}

TEST(ParseProfile, RefusesAProbeTableTheFormatForbids) {
  RawProfile p = raw();
  RawProfile kind = p;
  put_u32(kind.sections[1].payload, 4, 9);
  EXPECT_EQ(0u, refused(kind).find("probe 0 has an unknown kind 9 at byte ")) << refused(kind);
  RawProfile twice = p;
  std::string &probes = twice.sections[1].payload;
  std::size_t second = 12; // past the first probe's three numbers, then its three strings
  for (int k = 0; k < 3; ++k)
    second += 4 + get_u32(probes, second);
  put_u32(probes, second, get_u32(probes, 0));
  EXPECT_NE(std::string::npos, refused(twice).find("appears twice in the probe table"))
      << refused(twice);
}

TEST(ParseProfile, RefusesNodesAndCfhsTheFormatForbids) {
  auto u32 = [](std::size_t field, std::uint32_t value) {
    return [=](std::string &payload, std::size_t at) { put_u32(payload, at + field, value); };
  };
  auto u64 = [](std::size_t field, std::uint64_t value) {
    return [=](std::string &payload, std::size_t at) { put_u64(payload, at + field, value); };
  };
  auto f64 = [](std::size_t field, double value) {
    return [=](std::string &payload, std::size_t at) {
      std::memcpy(payload.data() + at + field, &value, 8);
    };
  };
  EXPECT_EQ(0u, with_node(3, u32(4, 777))
                    .find("node 3 (probe 777) names a probe not in the probe table at byte "))
      << with_node(3, u32(4, 777));
  EXPECT_NE(std::string::npos, with_node(3, f64(16, -1)).find(": total -1 is not a finite value"))
      << with_node(3, f64(16, -1));
  EXPECT_NE(std::string::npos,
            with_node(2, f64(32, HUGE_VAL)).find(": max inf is not a finite value"));
  EXPECT_NE(std::string::npos, with_node(1, f64(88, NAN)).find(": noise nan is not a finite"));
  EXPECT_NE(std::string::npos,
            with_node(1, u64(96, ~std::uint64_t(0)))
                .find(": bytes_sent 18446744073709551615 is more than a database column holds"))
      << with_node(1, u64(96, ~std::uint64_t(0)));
  // Format 1.7's samples: among the throttled activations (112), a time of their own (128).
  EXPECT_NE(std::string::npos,
            with_node(3, u64(120, 5)).find(": sampled 5 is more than its 0 throttled activations"))
      << with_node(3, u64(120, 5));
  EXPECT_NE(std::string::npos,
            with_node(3, f64(128, -1)).find(": sampled_total -1 is not a finite value"))
      << with_node(3, f64(128, -1));
  RawProfile p = raw();
  put_u32(p.sections[2].payload, 0, 1); // rank 1 of a one-rank run
  EXPECT_EQ(0u, refused(p).find("CFH of rank 1 in a run of 1 ranks at byte ")) << refused(p);
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

// The HIST section of the generator's first CFH, rebuilt with `change` applied to its
// histograms (node, level, buckets): each one a (node, level, [(bucket, count)]) entry.
struct HistEntry {
  std::uint32_t node = 0, level = 0;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> buckets;
};

std::vector<HistEntry> hist_entries(const std::string &payload) {
  std::vector<HistEntry> out;
  for (std::size_t at = IDB_HIST_FIXED_SIZE; at < payload.size();) {
    HistEntry e;
    e.node = get_u32(payload, at);
    e.level = get_u32(payload, at + 4);
    std::uint32_t n = get_u32(payload, at + 8);
    at += 12;
    for (std::uint32_t k = 0; k < n; ++k, at += IDB_HIST_PAIR_SIZE) {
      std::uint64_t count = 0;
      std::memcpy(&count, payload.data() + at + 4, 8);
      e.buckets.emplace_back(get_u32(payload, at), count);
    }
    out.push_back(e);
  }
  return out;
}

std::string hist_payload(const std::vector<HistEntry> &entries, std::uint32_t scheme = 4) {
  std::string p(IDB_HIST_FIXED_SIZE, '\0');
  put_u32(p, 0, scheme);
  put_u32(p, 4, IDB_HIST_UNIT_NS);
  for (const HistEntry &e : entries) {
    std::size_t at = p.size();
    p.resize(at + 12 + e.buckets.size() * IDB_HIST_PAIR_SIZE);
    put_u32(p, at, e.node);
    put_u32(p, at + 4, e.level);
    put_u32(p, at + 8, std::uint32_t(e.buckets.size()));
    at += 12;
    for (const auto &[bucket, count] : e.buckets) {
      put_u32(p, at, bucket);
      put_u64(p, at + 4, count);
      at += IDB_HIST_PAIR_SIZE;
    }
  }
  return p;
}

TEST(ParseProfile, RefusesHistogramsTheFormatForbids) {
  RawProfile p = raw();
  ASSERT_EQ(IDB_SECTION_CFH, p.sections[2].type);
  ASSERT_EQ(IDB_SECTION_HIST, p.sections[3].type);
  std::vector<HistEntry> good = hist_entries(p.sections[3].payload);
  ASSERT_FALSE(good.empty());
  ASSERT_EQ(p.sections[3].count, good.size());
  auto with = [&](const std::vector<HistEntry> &entries, std::uint32_t scheme = 4) {
    RawProfile q = p;
    q.sections[3].payload = hist_payload(entries, scheme);
    q.sections[3].count = std::uint32_t(entries.size());
    return refused(q);
  };
  EXPECT_EQ("accepted", with(good));
  // One activation more in a bucket than the node has: refused, naming both counts.
  std::vector<HistEntry> more = good;
  more[0].buckets[0].second += 1;
  std::string why = with(more);
  EXPECT_NE(std::string::npos, why.find("histogram of node " + std::to_string(more[0].node)))
      << why;
  EXPECT_NE(std::string::npos, why.find("activations, but the node has")) << why;
  // Coarser is fine when the counts still add up: every bucket joined into level 2's.
  std::vector<HistEntry> coarse = good;
  for (HistEntry &e : coarse) {
    std::vector<std::pair<std::uint32_t, std::uint64_t>> joined;
    for (const auto &[bucket, count] : e.buckets)
      if (!joined.empty() && joined.back().first == bucket >> 2)
        joined.back().second += count;
      else
        joined.emplace_back(bucket >> 2, count);
    e.buckets = joined;
    e.level = 2;
  }
  EXPECT_EQ("accepted", with(coarse));
  std::vector<HistEntry> bad = good;
  bad[0].level = 3;
  EXPECT_NE(std::string::npos, with(bad).find("has level 3 (at most 2)")) << with(bad);
  bad = good;
  bad[0].buckets[0].first = IDB_HIST_BUCKETS;
  EXPECT_NE(std::string::npos, with(bad).find("is past the last of its level")) << with(bad);
  bad = good;
  bad[0].buckets.push_back(bad[0].buckets[0]);
  EXPECT_NE(std::string::npos, with(bad).find("out of order")) << with(bad);
  bad = good;
  bad[0].buckets[0].second = 0;
  EXPECT_NE(std::string::npos, with(bad).find("has count 0")) << with(bad);
  bad = good;
  bad[0].node = 9999;
  EXPECT_NE(std::string::npos, with(bad).find("which its CFH does not have")) << with(bad);
  if (good.size() > 1) {
    bad = good;
    std::swap(bad[0], bad[1]);
    EXPECT_NE(std::string::npos, with(bad).find("out of node order")) << with(bad);
  }
  EXPECT_NE(std::string::npos, with(good, 5).find("bucket scheme 5")) << with(good, 5);
  // A HIST section twice for one CFH, or before any CFH.
  RawProfile twice = p;
  twice.sections.insert(twice.sections.begin() + 4, p.sections[3]);
  EXPECT_NE(std::string::npos, refused(twice).find("a second HIST section")) << refused(twice);
  RawProfile early = p;
  early.sections.insert(early.sections.begin() + 2, p.sections[3]);
  EXPECT_NE(std::string::npos, refused(early).find("HIST section without a CFH before it"))
      << refused(early);
}

// A WAIT section after the first CFH (and its HIST section): (node, pattern, seconds,
// instances) items, refused where the format forbids them, read back where it allows.
struct WaitEntry {
  std::uint32_t node = 0, pattern = 0;
  double seconds = 0;
  std::uint64_t instances = 0;
};

RawSection wait_section(const std::vector<WaitEntry> &entries) {
  std::string p;
  for (const WaitEntry &e : entries) {
    std::size_t at = p.size();
    p.resize(at + IDB_WAIT_ITEM_SIZE);
    put_u32(p, at, e.node);
    put_u32(p, at + 4, e.pattern);
    std::memcpy(p.data() + at + 8, &e.seconds, 8);
    put_u64(p, at + 16, e.instances);
  }
  return RawSection{IDB_SECTION_WAIT, std::uint32_t(entries.size()), p};
}

TEST(ParseProfile, RefusesWaitStatesTheFormatForbids) {
  RawProfile p = raw();
  ASSERT_EQ(IDB_SECTION_CFH, p.sections[2].type);
  ASSERT_EQ(IDB_SECTION_HIST, p.sections[3].type);
  auto with = [&](const std::vector<WaitEntry> &entries) {
    RawProfile q = p;
    q.sections.insert(q.sections.begin() + 4, wait_section(entries));
    return q;
  };
  // The root took well over a nanosecond, once.
  const WaitEntry good{0, IDB_WAIT_late_sender, 1e-9, 1};
  ReadResult r = profile::parse_profile(encode_profile(with({good})));
  ASSERT_TRUE(r.profile) << r.error;
  ASSERT_EQ(1u, r.profile->cfhs[0].nodes[0].waits.size());
  EXPECT_EQ((profile::Wait{IDB_WAIT_late_sender, 1e-9, 1, 0, {}}),
            r.profile->cfhs[0].nodes[0].waits[0]);
  auto why = [&](WaitEntry e) { return refused(with({e})); };
  WaitEntry bad = good;
  bad.pattern = IDB_WAIT_PATTERN_COUNT;
  EXPECT_NE(std::string::npos, why(bad).find("has pattern 6 (at most 5)")) << why(bad);
  bad = good;
  bad.node = 9999;
  EXPECT_NE(std::string::npos, why(bad).find("which its CFH does not have")) << why(bad);
  for (double seconds : {-1.0, std::nan(""), 1e9}) {
    bad = good;
    bad.seconds = seconds;
    EXPECT_NE(std::string::npos, why(bad).find("but the node took")) << why(bad);
  }
  for (std::uint64_t instances : {std::uint64_t(0), std::uint64_t(2)}) {
    bad = good;
    bad.instances = instances;
    EXPECT_NE(std::string::npos, why(bad).find("activations")) << why(bad);
  }
  EXPECT_NE(std::string::npos, refused(with({good, good})).find("out of (node, pattern) order"))
      << refused(with({good, good}));
  RawProfile twice = with({good});
  twice.sections.insert(twice.sections.begin() + 5, wait_section({good}));
  EXPECT_NE(std::string::npos, refused(twice).find("a second WAIT section")) << refused(twice);
  RawProfile early = p;
  early.sections.insert(early.sections.begin() + 2, wait_section({good}));
  EXPECT_NE(std::string::npos, refused(early).find("WAIT section without a CFH before it"))
      << refused(early);
}

// A WAIT_SPREAD section after a summary CFH's WAIT section: one item per wait, in its order.
RawSection wait_spread_section(std::uint32_t items, std::uint32_t node, std::uint32_t pattern,
                               std::uint32_t ranks, double min, double max, double mean,
                               std::int32_t rank_max = 0) {
  std::string p;
  for (std::uint32_t k = 0; k < items; ++k) {
    std::size_t at = p.size();
    p.resize(at + IDB_WAIT_SPREAD_ITEM_SIZE);
    put_u32(p, at, node);
    put_u32(p, at + 4, pattern);
    put_u32(p, at + 8, ranks);
    double m2 = 0;
    for (double v : {min, max, mean, m2}) {
      std::memcpy(p.data() + at + 16, &v, 8);
      at += 8;
    }
    put_u32(p, at + 16, 0);                       // the rank of min
    put_u32(p, at + 20, std::uint32_t(rank_max)); // and of max
  }
  return RawSection{IDB_SECTION_WAIT_SPREAD, items, p};
}

TEST(ParseProfile, ReadsTheSpreadOfASummaryCfhsWaitsAndRefusesWhatDoesNotMatch) {
  RawProfile p = raw();
  ASSERT_EQ(IDB_SECTION_CFH, p.sections[2].type);
  const WaitEntry good{0, IDB_WAIT_late_sender, 1e-9, 1};
  p.sections.insert(p.sections.begin() + 4, wait_section({good}));
  auto with = [&](const RawSection &spread, bool summary = true) {
    RawProfile q = p;
    if (summary) { // the first CFH as the summary mode writes one: rank -1, the flag
      std::string &cfh = q.sections[2].payload;
      put_u32(cfh, 0, 0xFFFFFFFFu);
      std::uint32_t flags = 0;
      std::memcpy(&flags, cfh.data() + 8, 4);
      put_u32(cfh, 8, flags | IDB_CFH_FLAG_SUMMARY);
    }
    q.sections.insert(q.sections.begin() + 5, spread);
    return q;
  };
  // One rank of the run's reached the root and waited all of it.
  ReadResult r = profile::parse_profile(
      encode_profile(with(wait_spread_section(1, 0, IDB_WAIT_late_sender, 1, 1e-9, 1e-9, 1e-9))));
  ASSERT_TRUE(r.profile) << r.error;
  const profile::Wait &w = r.profile->cfhs[0].nodes[0].waits.at(0);
  EXPECT_EQ(1u, w.ranks);
  EXPECT_EQ(1e-9, w.spread.max);
  auto why = [&](const RawSection &spread, bool summary = true) {
    return refused(with(spread, summary));
  };
  std::string e = why(wait_spread_section(1, 0, 0, 1, 1e-9, 1e-9, 1e-9), false);
  EXPECT_NE(std::string::npos, e.find("without a summary CFH")) << e;
  e = why(wait_spread_section(2, 0, 0, 1, 1e-9, 1e-9, 1e-9));
  EXPECT_NE(std::string::npos, e.find("has 2 items for 1 waits")) << e;
  e = why(wait_spread_section(1, 0, IDB_WAIT_wait_nxn, 1, 1e-9, 1e-9, 1e-9));
  EXPECT_NE(std::string::npos, e.find("not the WAIT section's")) << e;
  e = why(wait_spread_section(1, 0, 0, 0, 1e-9, 1e-9, 1e-9));
  EXPECT_NE(std::string::npos, e.find("counts 0 ranks")) << e;
  e = why(wait_spread_section(1, 0, 0, 1, 1e-9, 1e-9, 5e-9)); // the mean is not seconds / ranks
  EXPECT_NE(std::string::npos, e.find("is not a spread")) << e;
  e = why(wait_spread_section(1, 0, 0, 1, 2e-9, 1e-9, 1e-9)); // min above max
  EXPECT_NE(std::string::npos, e.find("is not a spread")) << e;
  e = why(wait_spread_section(1, 0, 0, 1, 1e-9, 1e-9, 1e-9, 1)); // no rank 1 in a run of 1
  EXPECT_NE(std::string::npos, e.find("names rank 1 of 1")) << e;
  e = why(wait_spread_section(1, 0, 0, 1, 1e-9, 2e-9, 1e-9)); // one rank waited past the sum
  EXPECT_NE(std::string::npos, e.find("is not a spread")) << e;
}

// A DYN section after the first CFH: the root as the dynamic node of its one iteration,
// refused where the format forbids it.
struct DynEntryRaw {
  std::uint32_t node = 0, members = 1, clusters = 1, runs = 1;
  std::uint64_t iterations = 1;
  std::uint32_t member0 = 0;
  std::uint64_t cluster_iterations = 1;
  double visits = 1, seconds = 1e-9;
  std::uint32_t run_length = 1, run_cluster = 0;
  std::uint32_t count = 1; // the section header's item count
};

RawSection dyn_section(const DynEntryRaw &e) {
  std::string p(IDB_DYN_FIXED_SIZE, '\0');
  put_u32(p, 0, e.node);
  put_u32(p, 4, e.members);
  put_u32(p, 8, e.clusters);
  put_u32(p, 12, e.runs);
  put_u64(p, 16, e.iterations);
  std::size_t at = p.size();
  p.resize(at + 4 + 8 + 16 + IDB_DYN_RUN_SIZE);
  put_u32(p, at, e.member0);
  put_u64(p, at + 4, e.cluster_iterations);
  std::memcpy(p.data() + at + 12, &e.visits, 8);
  std::memcpy(p.data() + at + 20, &e.seconds, 8);
  put_u32(p, at + 28, e.run_length);
  put_u32(p, at + 32, e.run_cluster);
  return RawSection{IDB_SECTION_DYN, e.count, p};
}

TEST(ParseProfile, ReadsADynamicNodesClustersAndRefusesWhatTheFormatForbids) {
  RawProfile p = raw();
  ASSERT_EQ(IDB_SECTION_CFH, p.sections[2].type);
  auto with = [&](const DynEntryRaw &e) {
    RawProfile q = p;
    q.sections.insert(q.sections.begin() + 4, dyn_section(e));
    return q;
  };
  ReadResult r = profile::parse_profile(encode_profile(with({})));
  ASSERT_TRUE(r.profile) << r.error;
  ASSERT_EQ(1u, r.profile->cfhs[0].dynamics.size());
  const profile::Dynamics &d = r.profile->cfhs[0].dynamics[0];
  EXPECT_EQ(1u, d.iterations);
  EXPECT_EQ(std::vector<double>{1e-9}, d.series(0));
  EXPECT_EQ(std::vector<std::uint32_t>{0}, d.cluster_of_iterations());
  auto why = [&](DynEntryRaw e) { return refused(with(e)); };
  DynEntryRaw bad;
  bad.node = 9999;
  EXPECT_NE(std::string::npos, why(bad).find("which its CFH does not have")) << why(bad);
  bad = {};
  bad.iterations = 2; // the root ran once
  EXPECT_NE(std::string::npos, why(bad).find("but the node has 1 activations")) << why(bad);
  bad = {};
  bad.member0 = 1;
  EXPECT_NE(std::string::npos, why(bad).find("not the dynamic node")) << why(bad);
  bad = {};
  bad.count = 2;
  EXPECT_NE(std::string::npos, why(bad).find("announces 2 clusters but has 1")) << why(bad);
  bad = {};
  bad.cluster_iterations = 0;
  EXPECT_NE(std::string::npos, why(bad).find("cluster 0 has 0 iterations")) << why(bad);
  for (double seconds : {-1.0, std::nan("")}) {
    bad = {};
    bad.seconds = seconds;
    EXPECT_NE(std::string::npos, why(bad).find("member 0 has")) << why(bad);
  }
  bad = {};
  bad.visits = 5;
  EXPECT_NE(std::string::npos, why(bad).find("activations over the clusters")) << why(bad);
  bad = {};
  bad.run_cluster = 1;
  EXPECT_NE(std::string::npos, why(bad).find("run 0 of 1 iterations in cluster 1")) << why(bad);
  bad = {};
  bad.run_length = 0;
  EXPECT_NE(std::string::npos, why(bad).find("run 0 of 0 iterations")) << why(bad);
  bad = {};
  bad.runs = 0; // its run's bytes are left over
  EXPECT_NE(std::string::npos, why(bad).find("the runs cover 0 of 1")) << why(bad);
  RawProfile twice = with({});
  twice.sections.insert(twice.sections.begin() + 5, dyn_section({}));
  EXPECT_NE(std::string::npos, refused(twice).find("a second DYN section")) << refused(twice);
  RawProfile early = p;
  early.sections.insert(early.sections.begin() + 2, dyn_section({}));
  EXPECT_NE(std::string::npos, refused(early).find("DYN section without a CFH before it"))
      << refused(early);
}

} // namespace
} // namespace idb::test

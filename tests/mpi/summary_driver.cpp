// summarize: the summary merge of synthetic ranks in one process.
#include "summary_driver.hpp"

#include "summary_core.h"

#include <cstdlib>
#include <vector>

namespace idb::test {

namespace {

using idb::mpi::ByteBuffer;
using idb::mpi::LocalCfh;
using idb::mpi::Reader;
using idb::mpi::SummaryRecord;

// One rank's sections, parsed in place (the bytes must outlive it).
struct Parsed {
  LocalCfh *cfhs = nullptr;
  int count = -1;
  explicit Parsed(const RankSections &s) {
    count = idb::mpi::parse_cfh_sections(reinterpret_cast<const unsigned char *>(s.bytes.data()),
                                         s.bytes.size(), s.count, &cfhs);
  }
  ~Parsed() { std::free(cfhs); }
  Parsed(const Parsed &) = delete;
  Parsed &operator=(const Parsed &) = delete;
};

// Rank 0's union after every rank's structure went through the byte form and merged.
bool build_union(int ranks, const RankSource &source, idb::mpi::Union &u) {
  for (int r = 0; r < ranks; ++r) {
    Parsed p(source(r));
    if (p.count < 0) return false;
    if (r == 0) {
      idb::mpi::union_add_local(u, p.cfhs, p.count);
      continue;
    }
    idb::mpi::Union theirs;
    idb::mpi::union_add_local(theirs, p.cfhs, p.count);
    ByteBuffer message;
    idb::mpi::union_put(theirs, message);
    Reader in{message.data, message.data + message.size};
    if (!idb::mpi::union_merge(u, in)) return false;
  }
  return !u.failed;
}

} // namespace

SummaryOutput summarize(int ranks, const RankSource &source) {
  SummaryOutput out;
  idb::mpi::Union u;
  if (!build_union(ranks, source, u)) return {{}, 0, 0, "malformed rank data"};
  std::uint64_t total = u.total_nodes();
  std::vector<SummaryRecord> all(total), one(total);
  idb::mpi::HistSet hists;
  if (!hists.init(total)) return {{}, 0, 0, "out of memory"};
  for (int r = 0; r < ranks; ++r) {
    Parsed p(source(r));
    SummaryRecord *target = r == 0 ? all.data() : one.data();
    if (p.count < 0 || !idb::mpi::records_of_rank(u, p.cfhs, p.count, r, target))
      return {{}, 0, 0, "rank " + std::to_string(r) + " has a node outside the union"};
    if (r > 0)
      for (std::uint64_t i = 0; i < total; ++i)
        idb::mpi::summary_merge(all[i], one[i]);
    // Each rank's histograms reach rank 0 in their byte form, as up the MPI tree.
    idb::mpi::HistSet own;
    if (!own.init(total) || !idb::mpi::hists_of_rank(u, p.cfhs, p.count, own))
      return {{}, 0, 0, "rank " + std::to_string(r) + " has malformed histograms"};
    ByteBuffer message;
    idb::mpi::hist_put(own, message);
    Reader in{message.data, message.data + message.size};
    if (!idb::mpi::hist_take(hists, in)) return {{}, 0, 0, "histogram message malformed"};
  }
  std::vector<std::uint64_t> counters(4 * std::size_t(u.count), 0);
  ByteBuffer sections;
  out.count =
      idb::mpi::put_summary_sections(u, all.data(), counters.data(), &hists, nullptr, 0, sections);
  out.sections.assign(reinterpret_cast<const char *>(sections.data), sections.size);
  out.record_bytes = total * sizeof(SummaryRecord);
  return out;
}

} // namespace idb::test

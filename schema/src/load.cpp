// Loading a profile as one run: one transaction, the run-level rows first, then per CFH
// its instance row and its nodes, statistics and derived times (exclusive, descendant
// noise: node_derived) through three reused prepared statements.
// Any failure (a taken label, bad content, a throwing progress callback, an engine error)
// unwinds through the Transaction, which rolls the whole run back.
#include "postgres.hpp"
#include "run_row.hpp"

#include "idb/probe.h"
#include "idb/tree.hpp"

namespace idb::store {

namespace {

using detail::Connection;
using detail::Statement;

const char *kind_name(const profile::Probe &probe) {
  switch (probe.kind) {
  case IDB_PROC:
    return "PROC";
  case IDB_LOOP:
    return "LOOP";
  case IDB_CALL:
    return "CALL";
  case IDB_COMM:
    return "COMM";
  default:
    throw Error("probe " + std::to_string(probe.id) + " has an unknown kind " +
                std::to_string(probe.kind));
  }
}

void insert_probes(Connection &c, std::int64_t run_id, const profile::Profile &p) {
  Statement s(c, "INSERT INTO probe_sites (run_id, probe_id, kind, description, file, line, "
                 "function) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  for (const profile::Probe &probe : p.probes) {
    s.bind(1, run_id).bind(2, std::int64_t(probe.id)).bind(3, std::string_view(kind_name(probe)));
    s.bind(4, std::string_view(probe.description));
    if (probe.file.empty())
      s.bind_null(5).bind_null(6);
    else
      s.bind(5, std::string_view(probe.file)).bind(6, std::int64_t(probe.line));
    if (probe.function.empty())
      s.bind_null(7);
    else
      s.bind(7, std::string_view(probe.function));
    s.run();
  }
}

// The reused statements of the node loop, prepared once per load.
struct NodeStatements {
  explicit NodeStatements(Connection &c)
      : cfh(c, "INSERT INTO cfh_instances (run_id, rank, thread, name, named, overflow, "
               "mismatches, unclosed, depth_overflow) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"),
        node(c, "INSERT INTO nodes (cfh_id, node, parent, probe_id, depth) "
                "VALUES (?1, ?2, ?3, ?4, ?5)"),
        stats(c, "INSERT INTO node_stats (cfh_id, node, count, total, min, max, mean, m2, "
                 "cpu_count, cpu_total, cpu_min, cpu_max, noise, bytes_sent, bytes_recv) "
                 "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)"),
        derived(c, "INSERT INTO node_derived (cfh_id, node, exclusive, descendant_noise) "
                   "VALUES (?1, ?2, ?3, ?4)") {}
  Statement cfh, node, stats, derived;
};

std::int64_t insert_cfh(Connection &c, Statement &s, std::int64_t run_id, const profile::Cfh &h) {
  s.bind(1, run_id).bind(2, std::int64_t(h.rank)).bind(3, std::int64_t(h.thread));
  s.bind(4, std::string_view(h.name)).bind(5, std::int64_t(h.named ? 1 : 0));
  s.bind(6, std::int64_t(h.overflow)).bind(7, std::int64_t(h.mismatches));
  s.bind(8, std::int64_t(h.unclosed)).bind(9, std::int64_t(h.depth_overflow));
  s.run();
  return c.last_insert_id();
}

void insert_stats(Statement &s, std::int64_t cfh_id, std::int64_t node, const idb_stats_t &st) {
  s.bind(1, cfh_id).bind(2, node).bind(3, std::int64_t(st.count)).bind(4, st.sum);
  s.bind(5, st.min).bind(6, st.max).bind(7, st.mean).bind(8, st.m2);
  s.bind(9, std::int64_t(st.cpu_count)).bind(10, st.cpu_sum).bind(11, st.cpu_min);
  s.bind(12, st.cpu_max).bind(13, st.noise).bind(14, std::int64_t(st.bytes_sent));
  s.bind(15, std::int64_t(st.bytes_recv));
  s.run();
}

// Depth of every node from the parent links; refuses a parent that does not precede its
// child (the reader guarantees it for files; a Profile built in memory may not).
std::vector<std::int64_t> depths(const profile::Cfh &h, std::size_t index) {
  std::vector<std::int64_t> depth(h.nodes.size(), 0);
  for (std::size_t i = 0; i < h.nodes.size(); ++i) {
    std::uint32_t parent = h.nodes[i].parent;
    if (parent == profile::kNoParent) continue;
    if (parent >= i)
      throw Error("CFH " + std::to_string(index) + " node " + std::to_string(i) + ": parent " +
                  std::to_string(parent) + " does not precede it");
    depth[i] = depth[parent] + 1;
  }
  return depth;
}

class Progress {
public:
  Progress(const LoadOptions &options, std::size_t total) : options_(options), total_(total) {}
  // Reports every 16k nodes and at the end.
  void advance() {
    if (++done_ % 16384 == 0 || done_ == total_) report();
  }
  void report() const {
    if (options_.progress) options_.progress(done_, total_);
  }

private:
  const LoadOptions &options_;
  std::size_t total_, done_ = 0;
};

void insert_cfhs(Connection &c, std::int64_t run_id, const profile::Profile &p,
                 Progress &progress) {
  NodeStatements s(c);
  for (std::size_t index = 0; index < p.cfhs.size(); ++index) {
    const profile::Cfh &h = p.cfhs[index];
    std::vector<std::int64_t> depth = depths(h, index);
    std::vector<profile::NodeTimes> times = profile::node_times(h);
    std::int64_t cfh_id = insert_cfh(c, s.cfh, run_id, h);
    for (std::size_t i = 0; i < h.nodes.size(); ++i) {
      const profile::Node &n = h.nodes[i];
      s.node.bind(1, cfh_id).bind(2, std::int64_t(i));
      if (n.parent == profile::kNoParent)
        s.node.bind_null(3);
      else
        s.node.bind(3, std::int64_t(n.parent));
      s.node.bind(4, std::int64_t(n.probe)).bind(5, depth[i]).run();
      insert_stats(s.stats, cfh_id, std::int64_t(i), n.stats);
      s.derived.bind(1, cfh_id).bind(2, std::int64_t(i)).bind(3, times[i].exclusive);
      s.derived.bind(4, times[i].descendant_noise).run();
      progress.advance();
    }
  }
}

// A large page cache keeps the index B-trees in memory for the whole load; a cache size
// the caller chose on this connection (not SQLite's default) is left alone.
void raise_cache(Connection &c) {
  Statement size(c, "PRAGMA cache_size");
  if (size.step() && size.integer(0) == -2000)
    c.exec("PRAGMA cache_size = -131072", "cannot set the cache size");
}

} // namespace

LoadResult load(Database &db, const profile::Profile &profile, const LoadOptions &options) {
  if (auto *pg = detail::as_postgres(db)) return detail::postgres_load(*pg, profile, options);
  Connection &c = detail::sqlite_connection(db);
  LoadResult result;
  result.label = options.label.empty() ? default_label(profile) : options.label;
  for (const profile::Cfh &h : profile.cfhs)
    result.nodes += h.nodes.size();
  result.cfhs = profile.cfhs.size();
  raise_cache(c);
  detail::Transaction transaction(c);
  result.run_id = detail::insert_run(c, profile, result.label);
  detail::insert_run_facts(c, result.run_id, profile, options.attributes);
  insert_probes(c, result.run_id, profile);
  Progress progress(options, result.nodes);
  progress.report();
  insert_cfhs(c, result.run_id, profile, progress);
  transaction.commit();
  return result;
}

} // namespace idb::store

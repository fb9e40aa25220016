// A stored run read back into the reader's structs (read_run): five queries over
// the base tables, filtered by the run's label (and the rank), read as typed rows straight
// into Profile, Cfh and Node values. Portable SQL, the same on both engines.
#include "idb/store.hpp"

#include <algorithm>
#include <unordered_map>

#include <vector>

namespace idb::store {

namespace {

int kind_of(const std::string &name) {
  if (name == "PROC") return 1;
  if (name == "LOOP") return 2;
  if (name == "CALL") return 3;
  if (name == "COMM") return 4;
  return 0;
}

std::uint64_t unsigned_of(const Row &row, std::size_t column) {
  return std::uint64_t(row.integer(column));
}

std::int32_t int_of(const Row &row, std::size_t column) {
  return std::int32_t(row.integer(column));
}

// The condition and parameters selecting the run's CFHs (alias h), optionally one rank.
struct Filter {
  std::string where;
  KeyValues params;
};

Filter cfh_filter(const std::string &label, std::optional<int> rank) {
  Filter f{" WHERE r.label = :label", {{"label", label}}};
  if (rank) {
    f.where += " AND h.rank = CAST(:rank AS INTEGER)";
    f.params.emplace_back("rank", std::to_string(*rank));
  }
  return f;
}

void read_meta(Database &db, const std::string &label, profile::Profile &p) {
  query_rows(db,
             "SELECT m.key, m.value FROM runs r JOIN run_meta m "
             "ON m.run_id = r.run_id WHERE r.label = :label",
             {{"label", label}}, [&](const Row &row) { p.meta[row.text(0)] = row.text(1); });
}

void read_probes(Database &db, const std::string &label, profile::Profile &p) {
  query_rows(db,
             "SELECT p.probe_id, p.kind, p.description, p.file, p.line, p.function FROM runs r "
             "JOIN probe_sites p ON p.run_id = r.run_id WHERE r.label = :label ORDER BY p.probe_id",
             {{"label", label}}, [&](const Row &row) {
               p.probes.push_back({int_of(row, 0), kind_of(row.text(1)), row.text(2), row.text(3),
                                   int_of(row, 4), row.text(5)});
             });
}

// The CFHs without nodes, and the cfh_id of each.
std::vector<std::int64_t> read_cfhs(Database &db, const Filter &f, profile::Profile &p) {
  std::vector<std::int64_t> ids;
  query_rows(db,
             "SELECT h.cfh_id, h.rank, h.thread, h.name, h.named, h.overflow, h.mismatches, "
             "h.unclosed, h.depth_overflow, h.summary FROM runs r "
             "JOIN cfh_instances h ON h.run_id = r.run_id" +
                 f.where + " ORDER BY h.cfh_id",
             f.params, [&](const Row &row) {
               profile::Cfh &h = p.cfhs.emplace_back();
               h.rank = int_of(row, 1);
               h.thread = int_of(row, 2);
               h.name = row.text(3);
               h.named = row.integer(4) != 0;
               h.overflow = unsigned_of(row, 5);
               h.mismatches = unsigned_of(row, 6);
               h.unclosed = unsigned_of(row, 7);
               h.depth_overflow = unsigned_of(row, 8);
               h.summary = row.integer(9) != 0;
               ids.push_back(row.integer(0));
             });
  return ids;
}

profile::Node node_of(const Row &row) {
  profile::Node n;
  n.parent = row.is_null(1) ? profile::kNoParent : std::uint32_t(row.integer(1));
  n.probe = int_of(row, 2);
  n.stats = read_stats(row, 3);
  std::size_t level = 3 + stats_column_names().size();
  if (!row.is_null(level)) n.hist.level = std::uint32_t(row.integer(level));
  return n;
}

// Every selected CFH's nodes in one statement, in CFH and node order, typed: no text in
// between.
void read_nodes(Database &db, const Filter &f, const std::vector<std::int64_t> &ids,
                profile::Profile &p) {
  std::unordered_map<std::int64_t, std::size_t> index_of;
  for (std::size_t i = 0; i < ids.size(); ++i)
    index_of.emplace(ids[i], i);
  std::int64_t last = -1;
  profile::Cfh *cfh = nullptr;
  // Ordered as SQLite's plan walks the tables (the (run_id, rank, thread) index of
  // cfh_instances, then each CFH's nodes by key), so it sorts nothing.
  query_rows(db,
             "SELECT n.cfh_id, n.parent, n.probe_id, " + stats_columns("s") +
                 ", s.hist_level FROM runs r JOIN cfh_instances h ON h.run_id = r.run_id "
                 "JOIN nodes n ON n.cfh_id = h.cfh_id "
                 "JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node" +
                 f.where + " ORDER BY h.rank, h.thread, h.cfh_id, n.node",
             f.params, [&](const Row &row) {
               if (row.integer(0) != last) {
                 last = row.integer(0);
                 auto it = index_of.find(last);
                 if (it == index_of.end()) throw Error("a node of an unknown CFH " + row.text(0));
                 cfh = &p.cfhs[it->second];
               }
               cfh->nodes.push_back(node_of(row));
             });
}

// The spreads of the summary CFHs, one row per node and quantity.
void read_spreads(Database &db, const Filter &f, const std::vector<std::int64_t> &ids,
                  profile::Profile &p) {
  for (profile::Cfh &h : p.cfhs)
    if (h.summary) h.spread.assign(h.nodes.size(), {});
  std::size_t index = 0;
  query_rows(db,
             "SELECT d.cfh_id, d.node, d.quantity, d.ranks, d.min, d.max, d.mean, d.m2, "
             "d.rank_min, d.rank_max FROM runs r JOIN cfh_instances h ON h.run_id = r.run_id "
             "JOIN node_spread d ON d.cfh_id = h.cfh_id" +
                 f.where + " ORDER BY d.cfh_id, d.node",
             f.params, [&](const Row &row) {
               while (index < ids.size() && ids[index] != row.integer(0))
                 ++index;
               auto node = std::size_t(row.integer(1));
               if (index == ids.size() || node >= p.cfhs[index].spread.size())
                 throw Error("a spread of an unknown node " + row.text(1));
               profile::NodeSpread &n = p.cfhs[index].spread[node];
               std::string quantity = row.text(2);
               profile::RankSpread *q = quantity == "total"   ? &n.total
                                        : quantity == "count" ? &n.count
                                        : quantity == "cpu"   ? &n.cpu
                                        : quantity == "sent"  ? &n.sent
                                                              : &n.received;
               n.ranks = std::uint32_t(row.integer(3));
               *q = {row.real(4), row.real(5),    row.real(6),
                     row.real(7), int_of(row, 8), int_of(row, 9)};
             });
}

// The histograms, one row per non-empty bucket, in CFH, node and bucket order.
void read_hists(Database &db, const Filter &f, const std::vector<std::int64_t> &ids,
                profile::Profile &p) {
  std::size_t index = 0;
  query_rows(db,
             "SELECT b.cfh_id, b.node, b.bucket, b.count FROM runs r "
             "JOIN cfh_instances h ON h.run_id = r.run_id "
             "JOIN node_hist b ON b.cfh_id = h.cfh_id" +
                 f.where + " ORDER BY b.cfh_id, b.node, b.bucket",
             f.params, [&](const Row &row) {
               while (index < ids.size() && ids[index] != row.integer(0))
                 ++index;
               auto node = std::size_t(row.integer(1));
               if (index == ids.size() || node >= p.cfhs[index].nodes.size())
                 throw Error("a histogram bucket of an unknown node " + row.text(1));
               p.cfhs[index].nodes[node].hist.buckets.push_back(
                   {std::uint32_t(row.integer(2)), std::uint64_t(row.integer(3))});
             });
}

// The wait states, one row per node and pattern, in CFH, node and pattern order.
void read_waits(Database &db, const Filter &f, const std::vector<std::int64_t> &ids,
                profile::Profile &p) {
  std::size_t index = 0;
  query_rows(
      db,
      "SELECT w.cfh_id, w.node, w.pattern, w.seconds, w.instances, w.ranks, w.min, "
      "w.max, w.mean, w.m2, w.rank_min, w.rank_max FROM runs r "
      "JOIN cfh_instances h ON h.run_id = r.run_id "
      "JOIN node_wait w ON w.cfh_id = h.cfh_id" +
          f.where + " ORDER BY w.cfh_id, w.node, w.pattern",
      f.params, [&](const Row &row) {
        while (index < ids.size() && ids[index] != row.integer(0))
          ++index;
        auto node = std::size_t(row.integer(1));
        if (index == ids.size() || node >= p.cfhs[index].nodes.size())
          throw Error("a wait state of an unknown node " + row.text(1));
        profile::Wait w{
            std::uint32_t(row.integer(2)), row.real(3), std::uint64_t(row.integer(4)), 0, {}};
        if (!row.is_null(5)) {
          w.ranks = std::uint32_t(row.integer(5));
          w.spread = {row.real(6),
                      row.real(7),
                      row.real(8),
                      row.real(9),
                      std::int32_t(row.integer(10)),
                      std::int32_t(row.integer(11))};
        }
        p.cfhs[index].nodes[node].waits.push_back(w);
      });
}

// The dynamic nodes' series (format 1.6): their clusters, the member nodes' sums and the
// runs, each table in CFH, series and cluster (or first iteration) order.
void read_dynamics(Database &db, const Filter &f, const std::vector<std::int64_t> &ids,
                   profile::Profile &p) {
  auto cfh_of = [&](std::int64_t id) -> profile::Cfh & {
    auto at = std::lower_bound(ids.begin(), ids.end(), id);
    if (at == ids.end() || *at != id) throw Error("dynamics of an unknown CFH");
    return p.cfhs[std::size_t(at - ids.begin())];
  };
  auto series_of = [&](std::int64_t cfh, std::int64_t node) -> profile::Dynamics & {
    for (profile::Dynamics &d : cfh_of(cfh).dynamics)
      if (d.node == std::uint32_t(node)) return d;
    throw Error("dynamics of an unknown series");
  };
  const std::string from = " FROM runs r JOIN cfh_instances h ON h.run_id = r.run_id ";
  query_rows(db,
             "SELECT d.cfh_id, d.node, d.iterations, d.dropped, d.untracked, d.mixed" + from +
                 "JOIN dyn_series d ON d.cfh_id = h.cfh_id" + f.where +
                 " ORDER BY d.cfh_id, d.node",
             f.params, [&](const Row &row) {
               profile::Dynamics d;
               d.node = std::uint32_t(row.integer(1));
               d.iterations = std::uint64_t(row.integer(2));
               d.dropped = std::uint64_t(row.integer(3));
               d.untracked = std::uint64_t(row.integer(4));
               d.mixed = std::uint64_t(row.integer(5));
               d.members.push_back(d.node);
               cfh_of(row.integer(0)).dynamics.push_back(std::move(d));
             });
  query_rows(db,
             "SELECT c.cfh_id, c.series, c.cluster, c.iterations" + from +
                 "JOIN dyn_clusters c ON c.cfh_id = h.cfh_id" + f.where +
                 " ORDER BY c.cfh_id, c.series, c.cluster",
             f.params, [&](const Row &row) {
               profile::Dynamics &d = series_of(row.integer(0), row.integer(1));
               if (row.integer(2) != std::int64_t(d.clusters.size()))
                 throw Error("a gap in the clusters of a dynamic node");
               d.clusters.push_back({std::uint64_t(row.integer(3)), {}, {}});
             });
  // Members in node order, the dynamic node first (it precedes its subtree).
  query_rows(db,
             "SELECT n.cfh_id, n.series, n.cluster, n.node, n.visits, n.seconds" + from +
                 "JOIN dyn_cluster_nodes n ON n.cfh_id = h.cfh_id" + f.where +
                 " ORDER BY n.cfh_id, n.series, n.cluster, n.node",
             f.params, [&](const Row &row) {
               profile::Dynamics &d = series_of(row.integer(0), row.integer(1));
               auto k = std::size_t(row.integer(2));
               if (k >= d.clusters.size()) throw Error("sums of an unknown cluster");
               auto node = std::uint32_t(row.integer(3));
               if (k == 0 && node != d.node) d.members.push_back(node);
               d.clusters[k].visits.push_back(row.real(4));
               d.clusters[k].seconds.push_back(row.real(5));
             });
  query_rows(db,
             "SELECT u.cfh_id, u.series, u.length, u.cluster" + from +
                 "JOIN dyn_runs u ON u.cfh_id = h.cfh_id" + f.where +
                 " ORDER BY u.cfh_id, u.series, u.first",
             f.params, [&](const Row &row) {
               series_of(row.integer(0), row.integer(1))
                   .runs.push_back({std::uint64_t(row.integer(2)), std::uint32_t(row.integer(3))});
             });
}

} // namespace

profile::Profile read_run(Database &db, const std::string &label, std::optional<int> rank) {
  bool found = false;
  query_rows(db, "SELECT run_id FROM runs WHERE label = :label", {{"label", label}},
             [&](const Row &) { found = true; });
  if (!found) throw Error("no run labelled '" + label + "' in " + db.location());
  profile::Profile p;
  p.version_major = 1;
  read_meta(db, label, p);
  read_probes(db, label, p);
  Filter filter = cfh_filter(label, rank);
  std::vector<std::int64_t> ids = read_cfhs(db, filter, p);
  read_nodes(db, filter, ids, p);
  read_spreads(db, filter, ids, p);
  read_hists(db, filter, ids, p);
  read_waits(db, filter, ids, p);
  read_dynamics(db, filter, ids, p);
  return p;
}

} // namespace idb::store

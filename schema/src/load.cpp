// Loading a profile as one run, the same way on both engines: one session (transaction);
// the run-level rows (run_row.cpp); per CFH its instance row; then every node's tree row
// and, in a second pass, its statistics with the derived exclusive time and descendant
// noise (two passes because PostgreSQL copies one table at a time). Any failure (a taken
// label, bad content, a throwing progress callback, an engine error) unwinds through the
// session, which rolls the whole run back.
#include "load_session.hpp"
#include "run_row.hpp"

#include "idb/tree.hpp"

namespace idb::store {

namespace {

using detail::LoadSession;
using detail::TableRows;

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
  // Reports every 16k rows and at the end.
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

void write_cfhs(LoadSession &s, std::int64_t run_id, const profile::Profile &p,
                const std::vector<std::int64_t> &keys) {
  auto rows =
      s.rows("cfh_instances", {"cfh_id", "run_id", "rank", "thread", "name", "named", "summary",
                               "overflow", "mismatches", "unclosed", "depth_overflow"});
  for (std::size_t i = 0; i < p.cfhs.size(); ++i) {
    const profile::Cfh &h = p.cfhs[i];
    rows->integer(keys[i]).integer(run_id).integer(h.rank).integer(h.thread).text(h.name);
    rows->integer(h.named ? 1 : 0).integer(h.summary ? 1 : 0).integer(std::int64_t(h.overflow));
    rows->integer(std::int64_t(h.mismatches)).integer(std::int64_t(h.unclosed));
    rows->integer(std::int64_t(h.depth_overflow)).end_row();
  }
  rows->finish();
}

void write_nodes(LoadSession &s, const profile::Profile &p, const std::vector<std::int64_t> &keys,
                 Progress &progress) {
  auto rows = s.rows("nodes", {"cfh_id", "node", "parent", "probe_id", "depth"});
  for (std::size_t index = 0; index < p.cfhs.size(); ++index) {
    const profile::Cfh &h = p.cfhs[index];
    std::vector<std::int64_t> depth = depths(h, index);
    for (std::size_t i = 0; i < h.nodes.size(); ++i) {
      const profile::Node &n = h.nodes[i];
      rows->integer(keys[index]).integer(std::int64_t(i));
      if (n.parent == profile::kNoParent)
        rows->null();
      else
        rows->integer(n.parent);
      rows->integer(n.probe).integer(depth[i]).end_row();
      progress.advance();
    }
  }
  rows->finish();
}

void write_field(TableRows &rows, std::uint64_t value) {
  rows.integer(std::int64_t(value));
}
void write_field(TableRows &rows, double value) {
  rows.real(value);
}

void write_stats(TableRows &rows, std::int64_t key, std::int64_t node, const idb_stats_t &st,
                 const profile::NodeTimes &times) {
  rows.integer(key).integer(node);
#define IDB_WRITE_FIELD(field, type, unit, merge, group, column) write_field(rows, st.field);
  IDB_STATS_FIELDS(IDB_WRITE_FIELD)
#undef IDB_WRITE_FIELD
  rows.real(times.exclusive).real(times.descendant_noise);
}

void write_all_stats(LoadSession &s, const profile::Profile &p,
                     const std::vector<std::int64_t> &keys, Progress &progress) {
  detail::Columns columns{"cfh_id", "node"};
  for (std::string_view column : stats_column_names())
    columns.push_back(column);
  columns.insert(columns.end(), {"exclusive", "descendant_noise", "hist_level"});
  auto rows = s.rows("node_stats", columns);
  for (std::size_t index = 0; index < p.cfhs.size(); ++index) {
    const profile::Cfh &h = p.cfhs[index];
    std::vector<profile::NodeTimes> times = profile::node_times(h);
    for (std::size_t i = 0; i < h.nodes.size(); ++i) {
      const profile::Node &n = h.nodes[i];
      write_stats(*rows, keys[index], std::int64_t(i), n.stats, times[i]);
      if (n.hist.empty())
        rows->null();
      else
        rows->integer(n.hist.level);
      rows->end_row();
      progress.advance();
    }
  }
  rows->finish();
}

// Format 1.3: one row per non-empty bucket of each node's histogram.
void write_hists(LoadSession &s, const profile::Profile &p, const std::vector<std::int64_t> &keys) {
  auto rows = s.rows("node_hist", {"cfh_id", "node", "bucket", "count"});
  for (std::size_t index = 0; index < p.cfhs.size(); ++index) {
    const profile::Cfh &h = p.cfhs[index];
    for (std::size_t i = 0; i < h.nodes.size(); ++i)
      for (const profile::HistBucket &b : h.nodes[i].hist.buckets) {
        rows->integer(keys[index]).integer(std::int64_t(i)).integer(b.index);
        rows->integer(std::int64_t(b.count)).end_row();
      }
  }
  rows->finish();
}

// Format 1.4: one row per node and wait-state pattern with time; format 1.5, on a
// summary CFH's rows, the spread over the ranks.
void write_waits(LoadSession &s, const profile::Profile &p, const std::vector<std::int64_t> &keys) {
  auto rows = s.rows("node_wait", {"cfh_id", "node", "pattern", "seconds", "instances", "ranks",
                                   "min", "max", "mean", "m2", "rank_min", "rank_max"});
  for (std::size_t index = 0; index < p.cfhs.size(); ++index) {
    const profile::Cfh &h = p.cfhs[index];
    for (std::size_t i = 0; i < h.nodes.size(); ++i)
      for (const profile::Wait &w : h.nodes[i].waits) {
        rows->integer(keys[index]).integer(std::int64_t(i)).integer(w.pattern);
        rows->real(w.seconds).integer(std::int64_t(w.instances));
        if (w.ranks == 0) {
          for (int k = 0; k < 7; ++k)
            rows->null();
        } else {
          const profile::RankSpread &d = w.spread;
          rows->integer(w.ranks).real(d.min).real(d.max).real(d.mean).real(d.m2);
          rows->integer(d.rank_min).integer(d.rank_max);
        }
        rows->end_row();
      }
  }
  rows->finish();
}

// Format 1.6: each dynamic node's series, its clusters with their member nodes' sums, and
// the runs of its iteration-to-cluster map (with each run's first iteration). One table
// at a time (a session has one TableRows open at once).
void write_dynamics(LoadSession &s, const profile::Profile &p,
                    const std::vector<std::int64_t> &keys) {
  auto each = [&](auto &&write) {
    for (std::size_t index = 0; index < p.cfhs.size(); ++index)
      for (const profile::Dynamics &d : p.cfhs[index].dynamics)
        write(keys[index], d);
  };
  auto rows = s.rows("dyn_series",
                     {"cfh_id", "node", "iterations", "clusters", "dropped", "untracked", "mixed"});
  each([&](std::int64_t cfh, const profile::Dynamics &d) {
    rows->integer(cfh).integer(d.node).integer(std::int64_t(d.iterations));
    rows->integer(std::int64_t(d.clusters.size())).integer(std::int64_t(d.dropped));
    rows->integer(std::int64_t(d.untracked)).integer(std::int64_t(d.mixed)).end_row();
  });
  rows->finish();
  rows = s.rows("dyn_clusters", {"cfh_id", "series", "cluster", "iterations"});
  each([&](std::int64_t cfh, const profile::Dynamics &d) {
    for (std::size_t k = 0; k < d.clusters.size(); ++k) {
      rows->integer(cfh).integer(d.node).integer(std::int64_t(k));
      rows->integer(std::int64_t(d.clusters[k].iterations)).end_row();
    }
  });
  rows->finish();
  rows = s.rows("dyn_cluster_nodes", {"cfh_id", "series", "cluster", "node", "visits", "seconds"});
  each([&](std::int64_t cfh, const profile::Dynamics &d) {
    for (std::size_t k = 0; k < d.clusters.size(); ++k)
      for (std::size_t m = 0; m < d.members.size(); ++m) {
        rows->integer(cfh).integer(d.node).integer(std::int64_t(k)).integer(d.members[m]);
        rows->real(d.clusters[k].visits[m]).real(d.clusters[k].seconds[m]).end_row();
      }
  });
  rows->finish();
  rows = s.rows("dyn_runs", {"cfh_id", "series", "first", "length", "cluster"});
  each([&](std::int64_t cfh, const profile::Dynamics &d) {
    std::int64_t first = 0;
    for (const profile::DynRun &r : d.runs) {
      rows->integer(cfh).integer(d.node).integer(first).integer(std::int64_t(r.length));
      rows->integer(r.cluster).end_row();
      first += std::int64_t(r.length);
    }
  });
  rows->finish();
}

// Summary mode: per node of each summary CFH, one row per quantity of its spread.
void write_spreads(LoadSession &s, const profile::Profile &p,
                   const std::vector<std::int64_t> &keys) {
  auto rows = s.rows("node_spread", {"cfh_id", "node", "quantity", "ranks", "min", "max", "mean",
                                     "m2", "rank_min", "rank_max"});
  for (std::size_t index = 0; index < p.cfhs.size(); ++index) {
    const profile::Cfh &h = p.cfhs[index];
    if (!h.summary) continue;
    if (h.spread.size() != h.nodes.size())
      throw Error("summary CFH " + std::to_string(index) + " has " +
                  std::to_string(h.spread.size()) + " spreads for " +
                  std::to_string(h.nodes.size()) + " nodes");
    for (std::size_t i = 0; i < h.nodes.size(); ++i) {
      const profile::NodeSpread &n = h.spread[i];
      const std::pair<const char *, const profile::RankSpread *> quantities[] = {
          {"total", &n.total},
          {"count", &n.count},
          {"cpu", &n.cpu},
          {"sent", &n.sent},
          {"received", &n.received}};
      for (const auto &[name, q] : quantities) {
        rows->integer(keys[index]).integer(std::int64_t(i)).text(name).integer(n.ranks);
        rows->real(q->min).real(q->max).real(q->mean).real(q->m2);
        rows->integer(q->rank_min).integer(q->rank_max).end_row();
      }
    }
  }
  rows->finish();
}

} // namespace

std::string label_problem(const std::string &label) {
  if (label.empty()) return "a label cannot be empty";
  if (label.size() > 200) return "a label is at most 200 bytes";
  if (label[0] == '-') return "a label cannot start with '-'";
  for (unsigned char c : label) // a tab only shifts a table's columns; a newline breaks it
    if ((c < 0x20 && c != '\t') || c == 0x7f)
      return "a label cannot hold a line break or another control character";
  return "";
}

LoadResult load(Database &db, const profile::Profile &profile, const LoadOptions &options) {
  if (db.read_only())
    throw ReadOnlyError("cannot load into " + db.location() + ": it is open read-only");
  LoadResult result;
  result.label = options.label.empty() ? default_label(profile) : options.label;
  if (std::string problem = label_problem(result.label); !problem.empty())
    throw Error("bad label '" + result.label + "': " + problem);
  for (const profile::Cfh &h : profile.cfhs)
    result.nodes += h.nodes.size();
  result.cfhs = profile.cfhs.size();
  std::unique_ptr<LoadSession> session = db.begin_load();
  if (session->label_taken(result.label))
    throw Error("a run labelled '" + result.label + "' is already in " + db.location() +
                ": choose another label");
  result.run_id = session->new_keys(detail::Key::run, 1).at(0);
  detail::write_run(*session, result.run_id, profile, result.label);
  detail::write_run_facts(*session, result.run_id, profile, options.attributes);
  std::vector<std::int64_t> keys = session->new_keys(detail::Key::cfh, profile.cfhs.size());
  write_cfhs(*session, result.run_id, profile, keys);
  Progress progress(options, 2 * result.nodes);
  progress.report();
  write_nodes(*session, profile, keys, progress);
  write_all_stats(*session, profile, keys, progress);
  write_spreads(*session, profile, keys);
  write_hists(*session, profile, keys);
  write_waits(*session, profile, keys);
  write_dynamics(*session, profile, keys);
  session->commit();
  return result;
}

} // namespace idb::store

namespace idb::store::detail {

std::string column_list(std::string_view table, const Columns &columns) {
  std::string text(table);
  text += " (";
  for (std::string_view column : columns) {
    if (text.back() != '(') text += ", ";
    text += column;
  }
  return text + ")";
}

} // namespace idb::store::detail

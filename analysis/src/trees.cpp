// The trees of a run and their rows (trees.hpp). Merging maps each source node onto the
// merged node of its parent's image and its own probe, created on first sight, so parents
// still precede children in the result.
#include "idb/analysis/trees.hpp"

#include "idb/analysis/exports.hpp"
#include "idb/analysis/histogram.hpp"
#include "idb/tree.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <unordered_map>

namespace idb::analysis {

namespace {

// (merged parent index, probe) as one key.
std::uint64_t child_key(std::uint32_t parent, std::int32_t probe) {
  return (std::uint64_t(parent) << 32) | std::uint32_t(probe);
}

void add_counters(profile::Cfh &into, const profile::Cfh &from) {
  into.overflow += from.overflow;
  into.mismatches += from.mismatches;
  into.unclosed += from.unclosed;
  into.depth_overflow += from.depth_overflow;
}

// A thread's CFH with its top-level subtrees placed where the rank's first thread ran the
// same probe (graft_threads); `master` gets the time placed below each of its nodes.
struct Grafted {
  profile::Cfh cfh;
  std::size_t placed = 0; // top-level subtrees moved
};

// The path of probes from the root (excluded) down to `node` (included; none for the root).
std::vector<std::int32_t> probe_path(const profile::Cfh &cfh, std::uint32_t node) {
  std::vector<std::int32_t> path;
  for (std::uint32_t i = node; i != 0; i = cfh.nodes[i].parent)
    path.push_back(cfh.nodes[i].probe);
  std::reverse(path.begin(), path.end());
  return path;
}

// `worker` with each top-level subtree whose probe the master reached at exactly one node
// hung below that node's ancestors: nodes without statistics that the merge by probe path
// lays onto the master's own. Each ancestor of such a node in `master` gains the subtree's
// time in its total, as a tree summed over threads counts it (its count and mean stay
// the master's).
Grafted graft_thread(profile::Cfh &master, const profile::Cfh &worker) {
  Grafted out;
  out.cfh = worker;
  if (worker.nodes.empty() || master.nodes.empty()) return out;
  std::unordered_map<std::int32_t, std::vector<std::uint32_t>> where;
  for (std::uint32_t i = 1; i < master.nodes.size(); ++i)
    where[master.nodes[i].probe].push_back(i);
  auto children = profile::children_of(worker);
  profile::Cfh &cfh = out.cfh;
  cfh.nodes.assign(1, worker.nodes[0]);
  cfh.spread.clear(); // both index the worker's nodes in their old order
  cfh.dynamics.clear();
  std::vector<std::uint32_t> image(worker.nodes.size(), 0);
  for (std::uint32_t top : children[0]) {
    const profile::Node &head = worker.nodes[top];
    auto found = where.find(head.probe);
    image[0] = 0; // the subtree's parent: the root, or the last step placed below
    if (found != where.end() && found->second.size() == 1) {
      std::uint32_t above = master.nodes[found->second.front()].parent;
      std::vector<std::int32_t> path = probe_path(master, above);
      if (!path.empty()) ++out.placed; // else it is at the top in both
      for (std::int32_t probe : path) {
        profile::Node step{image[0], probe, {}, {}, {}};
        idb_stats_clear(&step.stats);
        cfh.nodes.push_back(step);
        image[0] = std::uint32_t(cfh.nodes.size() - 1);
      }
      for (std::uint32_t a = above; a != 0 && head.stats.count > 0; a = master.nodes[a].parent)
        master.nodes[a].stats.sum += head.stats.sum;
    }
    // The subtree in depth-first order keeps parents before children.
    for (std::vector<std::uint32_t> stack{top}; !stack.empty();) {
      std::uint32_t i = stack.back();
      stack.pop_back();
      profile::Node node = worker.nodes[i];
      node.parent = image[node.parent];
      cfh.nodes.push_back(node);
      image[i] = std::uint32_t(cfh.nodes.size() - 1);
      for (auto it = children[i].rbegin(); it != children[i].rend(); ++it)
        stack.push_back(*it);
    }
  }
  return out;
}

// Adds below the root of `worker`, a later thread's CFH, the node that holds the time
// the thread spent outside its probes (`own`, the root's corrected exclusive time):
// one activation of that length, so that the merged node counts the threads.
void add_time_outside(profile::Cfh &worker, double own) {
  if (worker.nodes.empty() || !(own > 0)) return;
  profile::Node outside{0, profile::kWorkersOutsideProbes, {}, {}, {}};
  idb_stats_clear(&outside.stats);
  idb_stats_add(&outside.stats, own);
  worker.nodes.push_back(outside);
}

} // namespace

ThreadGrafts graft_threads(const std::vector<const profile::Cfh *> &threads) {
  ThreadGrafts out;
  // The first thread of each rank: the one with the lowest thread number.
  std::map<std::int32_t, std::size_t> master_of;
  for (std::size_t i = 0; i < threads.size(); ++i) {
    auto [it, added] = master_of.emplace(threads[i]->rank, i);
    if (!added && threads[i]->thread < threads[it->second]->thread) it->second = i;
  }
  out.cfhs.resize(threads.size());
  for (const auto &[rank, i] : master_of)
    out.cfhs[i] = *threads[i];
  for (std::size_t i = 0; i < threads.size(); ++i) {
    std::size_t m = master_of[threads[i]->rank];
    if (i == m) continue;
    Grafted g = graft_thread(out.cfhs[m], *threads[i]);
    out.cfhs[i] = std::move(g.cfh);
    add_time_outside(out.cfhs[i], corrected_exclusive(*threads[i])[0]);
    if (g.placed > 0) ++out.grafted;
  }
  return out;
}

profile::Cfh merge_cfhs(const std::vector<const profile::Cfh *> &cfhs) {
  profile::Cfh merged;
  if (cfhs.empty()) return merged;
  merged.rank = cfhs.front()->rank;
  merged.thread = cfhs.front()->thread;
  merged.named = cfhs.front()->named;
  merged.name = cfhs.front()->name;
  std::unordered_map<std::uint64_t, std::uint32_t> children;
  std::vector<std::uint32_t> image; // source node index → merged node index
  for (const profile::Cfh *cfh : cfhs) {
    add_counters(merged, *cfh);
    if (cfh->nodes.empty()) continue;
    if (merged.nodes.empty())
      merged.nodes.push_back({profile::kNoParent, cfh->nodes[0].probe, {}, {}, {}});
    image.assign(cfh->nodes.size(), 0);
    idb_stats_merge(&merged.nodes[0].stats, &cfh->nodes[0].stats);
    merge_histogram(merged.nodes[0].hist, cfh->nodes[0].hist);
    profile::merge_waits(merged.nodes[0].waits, cfh->nodes[0].waits);
    for (std::size_t i = 1; i < cfh->nodes.size(); ++i) {
      const profile::Node &node = cfh->nodes[i];
      std::uint32_t parent = image[node.parent];
      auto [it, added] =
          children.try_emplace(child_key(parent, node.probe), std::uint32_t(merged.nodes.size()));
      if (added) merged.nodes.push_back({parent, node.probe, {}, {}, {}});
      image[i] = it->second;
      idb_stats_merge(&merged.nodes[it->second].stats, &node.stats);
      merge_histogram(merged.nodes[it->second].hist, node.hist);
      profile::merge_waits(merged.nodes[it->second].waits, node.waits);
    }
  }
  for (profile::Node &node : merged.nodes)
    keep_if_complete(node.hist, node.stats);
  return merged;
}

profile::Cfh merge_cfhs(const std::vector<profile::Cfh> &cfhs) {
  std::vector<const profile::Cfh *> sources;
  sources.reserve(cfhs.size());
  for (const profile::Cfh &h : cfhs)
    sources.push_back(&h);
  return merge_cfhs(sources);
}

std::vector<Tree> aggregate_trees(const profile::Profile &run) {
  if (run.cfhs.size() == 1 && run.cfhs[0].summary) return cfh_trees(run);
  std::vector<const profile::Cfh *> threads;
  std::vector<std::pair<std::string, std::vector<const profile::Cfh *>>> named;
  for (const profile::Cfh &cfh : run.cfhs) {
    if (!cfh.named) {
      threads.push_back(&cfh);
      continue;
    }
    auto it = std::find_if(named.begin(), named.end(),
                           [&](const auto &group) { return group.first == cfh.name; });
    if (it == named.end()) it = named.insert(named.end(), {cfh.name, {}});
    it->second.push_back(&cfh);
  }
  std::vector<Tree> trees;
  auto add = [&](std::string title, const std::vector<const profile::Cfh *> &sources) {
    trees.push_back({std::move(title), merge_cfhs(sources), true});
  };
  if (!threads.empty()) {
    ThreadGrafts grafts = graft_threads(threads);
    std::string title =
        "all " + std::to_string(threads.size()) + " thread CFHs merged by probe path";
    if (grafts.grafted == 1)
      title += ", 1 worker thread's tree under its master's nodes";
    else if (grafts.grafted > 1)
      title += ", " + std::to_string(grafts.grafted) +
               " worker threads' trees under their master's nodes";
    trees.push_back({std::move(title), merge_cfhs(grafts.cfhs), true});
  }
  for (const auto &[name, sources] : named)
    add("CFH \"" + name + "\": " + std::to_string(sources.size()) +
            " instances merged by probe path",
        sources);
  return trees;
}

std::string cfh_title(const profile::Cfh &h) {
  std::string title = "CFH \"" + h.name + "\"";
  title += h.summary ? " summary of every rank" : " rank " + std::to_string(h.rank);
  return title + " thread " + std::to_string(h.thread);
}

std::vector<Tree> cfh_trees(const profile::Profile &run, std::optional<int> rank) {
  std::vector<Tree> trees;
  for (std::size_t i = 0; i < run.cfhs.size(); ++i)
    if (!rank || run.cfhs[i].rank == *rank)
      trees.push_back({cfh_title(run.cfhs[i]), run.cfhs[i], false});
  return trees;
}

std::string node_label(const profile::Profile &run, const profile::Cfh &cfh, std::uint32_t node) {
  std::int32_t probe = cfh.nodes[node].probe;
  if (node == 0 && !run.probe(probe)) return "program";
  return profile::probe_label(run, probe);
}

std::vector<TreeRow> tree_rows(const profile::Profile &run, const profile::Cfh &cfh) {
  std::vector<TreeRow> rows;
  if (cfh.nodes.empty()) return rows;
  std::vector<profile::NodeTimes> times = profile::node_times(cfh);
  auto children = profile::children_of(cfh);
  rows.reserve(cfh.nodes.size());
  std::vector<std::string> paths(cfh.nodes.size());
  // Depth first, iteratively: a CFH may be thousands deep.
  std::vector<std::pair<std::uint32_t, std::size_t>> stack{{0, 0}};
  while (!stack.empty()) {
    auto [i, depth] = stack.back();
    stack.pop_back();
    const profile::Node &n = cfh.nodes[i];
    const profile::NodeTimes &t = times[i];
    TreeRow &r = rows.emplace_back();
    r.node = i;
    r.parent = n.parent;
    r.depth = depth;
    r.probe = n.probe;
    r.label = node_label(run, cfh, i);
    paths[i] = i == 0 ? r.label : paths[n.parent] + ';' + r.label;
    r.path = paths[i];
    r.count = idb_stats_activations(&n.stats);
    r.throttled = n.stats.throttled;
    r.estimated = t.estimated;
    r.capped = t.capped;
    r.inclusive = t.inclusive;
    r.exclusive = t.exclusive;
    r.corrected = t.corrected;
    double parent = i == 0 ? t.inclusive : times[n.parent].inclusive;
    r.percent_of_parent = i == 0 ? 100.0 : parent > 0 ? 100.0 * t.inclusive / parent : 0.0;
    r.cpu = n.stats.cpu_sum;
    r.noise = n.stats.noise;
    r.p50 = quantile_seconds(n, 0.50);
    r.p90 = quantile_seconds(n, 0.90);
    r.p99 = quantile_seconds(n, 0.99);
    for (auto it = children[i].rbegin(); it != children[i].rend(); ++it)
      stack.emplace_back(*it, depth + 1);
  }
  return rows;
}

std::vector<FlatRow> flat_rows(const profile::Profile &run, const profile::Cfh &cfh) {
  if (cfh.nodes.empty()) return {};
  std::vector<profile::NodeTimes> times = profile::node_times(cfh);
  std::vector<double> own = corrected_exclusive(cfh);
  std::vector<FlatRow> rows;
  std::unordered_map<std::int32_t, std::size_t> row_of;
  // Depth first, with the probes open above each node, so that a node counts into its
  // probe's inclusive time only where no node of the probe lies above it.
  auto children = profile::children_of(cfh);
  std::unordered_map<std::int32_t, int> open;
  std::vector<std::pair<std::uint32_t, bool>> stack{{0, false}}; // (node, leaving)
  while (!stack.empty()) {
    auto [i, leaving] = stack.back();
    stack.pop_back();
    const profile::Node &n = cfh.nodes[i];
    if (leaving) {
      --open[n.probe];
      continue;
    }
    if (i != 0 || !cfh.named) {
      auto [slot, added] = row_of.try_emplace(n.probe, rows.size());
      if (added)
        rows.push_back({n.probe, i == 0 ? node_label(run, cfh, i) + " (outside every probe)"
                                        : node_label(run, cfh, i)});
      FlatRow &row = rows[slot->second];
      row.own += own[i];
      if (open[n.probe] == 0) row.inclusive += std::max(0.0, times[i].corrected_all);
      row.count += idb_stats_activations(&n.stats);
      row.untimed += n.stats.throttled;
      row.capped = row.capped || times[i].capped;
      ++row.paths;
    }
    ++open[n.probe];
    stack.emplace_back(i, true);
    for (auto it = children[i].rbegin(); it != children[i].rend(); ++it)
      stack.emplace_back(*it, false);
  }
  double total = std::max(0.0, times[0].corrected_all);
  for (FlatRow &row : rows) {
    row.own_percent = total > 0 ? 100.0 * row.own / total : 0.0;
    row.inclusive_percent = total > 0 ? 100.0 * row.inclusive / total : 0.0;
  }
  std::stable_sort(rows.begin(), rows.end(), [](const FlatRow &a, const FlatRow &b) {
    if (a.own != b.own) return a.own > b.own;
    if (a.inclusive != b.inclusive) return a.inclusive > b.inclusive;
    return a.label < b.label;
  });
  return rows;
}

std::vector<std::uint32_t> hot_path(const profile::Cfh &cfh) {
  std::vector<std::uint32_t> path;
  if (cfh.nodes.empty()) return path;
  std::vector<profile::NodeTimes> times = profile::node_times(cfh);
  auto children = profile::children_of(cfh);
  // The workers' time outside their probes is no code to go down into.
  for (std::vector<std::uint32_t> &list : children)
    list.erase(std::remove_if(list.begin(), list.end(),
                              [&](std::uint32_t c) {
                                return cfh.nodes[c].probe == profile::kWorkersOutsideProbes;
                              }),
               list.end());
  for (std::uint32_t at = 0;;) {
    path.push_back(at);
    if (children[at].empty()) return path;
    at = *std::max_element(
        children[at].begin(), children[at].end(),
        [&](std::uint32_t a, std::uint32_t b) { return times[a].inclusive < times[b].inclusive; });
  }
}

std::string number_text(double value) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  return ec == std::errc() ? std::string(buf, end) : std::string("nan");
}

const std::vector<std::string> &tree_export_columns() {
  static const std::vector<std::string> columns{
      "tree",  "path",    "count",     "inclusive_s", "exclusive_s", "corrected_s", "pct_parent",
      "cpu_s", "noise_s", "throttled", "p50_s",       "p90_s",       "p99_s",       "estimated_s"};
  return columns;
}

std::vector<std::string> tree_export_cells(const std::string &tree, const TreeRow &row) {
  return {tree,
          row.path,
          std::to_string(row.count),
          number_text(row.inclusive),
          number_text(row.exclusive),
          number_text(row.corrected),
          number_text(row.percent_of_parent),
          number_text(row.cpu),
          number_text(row.noise),
          std::to_string(row.throttled),
          std::isnan(row.p50) ? std::string() : number_text(row.p50),
          std::isnan(row.p90) ? std::string() : number_text(row.p90),
          std::isnan(row.p99) ? std::string() : number_text(row.p99),
          number_text(row.estimated)};
}

} // namespace idb::analysis

// Building RunData (run_data.hpp): node times per CFH, the merged tree, and the per-probe,
// per-rank merges in one pass over the nodes.
#include "run_data.hpp"

#include "cfh_merge.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_map>

namespace idb::gui {

namespace {

void merge_into(ProbeStats &into, const profile::Node &node, const profile::NodeTimes &t) {
  idb_stats_merge(&into.stats, &node.stats);
  into.corrected += t.corrected;
}

std::string number(double value) {
  std::ostringstream out;
  out.precision(9);
  out << value;
  return out.str();
}

RunSummary summarize(const RunData &run) {
  RunSummary summary;
  for (const profile::Cfh &cfh : run.profile.cfhs)
    summary.ranks.push_back(cfh.rank);
  std::sort(summary.ranks.begin(), summary.ranks.end());
  summary.ranks.erase(std::unique(summary.ranks.begin(), summary.ranks.end()), summary.ranks.end());
  std::unordered_map<std::int32_t, std::size_t> slot; // probe id → index in probes
  for (std::size_t c = 0; c < run.profile.cfhs.size(); ++c) {
    const profile::Cfh &cfh = run.profile.cfhs[c];
    auto rank = std::size_t(std::lower_bound(summary.ranks.begin(), summary.ranks.end(), cfh.rank) -
                            summary.ranks.begin());
    for (std::size_t i = 1; i < cfh.nodes.size(); ++i) { // nodes[0] is the program
      const profile::Node &node = cfh.nodes[i];
      auto [it, added] = slot.try_emplace(node.probe, summary.probes.size());
      if (added) {
        ProbeSummary &p = summary.probes.emplace_back();
        p.id = node.probe;
        p.label = profile::probe_label(run.profile, node.probe);
        const profile::Probe *site = run.profile.probe(node.probe);
        p.kind = site ? site->kind : 0;
        p.per_rank.resize(summary.ranks.size());
      }
      ProbeSummary &p = summary.probes[it->second];
      merge_into(p.per_rank[rank], node, run.times[c][i]);
      merge_into(p.all, node, run.times[c][i]);
    }
  }
  std::stable_sort(summary.probes.begin(), summary.probes.end(),
                   [](const ProbeSummary &a, const ProbeSummary &b) {
                     return a.all.stats.sum > b.all.stats.sum;
                   });
  return summary;
}

} // namespace

std::string rank_name(int rank) {
  return rank < 0 ? std::string("all ranks (summary)") : "rank " + std::to_string(rank);
}

std::string metric_name(Metric metric) {
  switch (metric) {
  case Metric::total:
    return "total";
  case Metric::cpu:
    return "CPU";
  case Metric::range:
    return "range";
  case Metric::sdev:
    return "sdev";
  case Metric::count:
    return "count";
  case Metric::noise:
    return "noise";
  case Metric::corrected:
    return "corrected total";
  }
  return "?";
}

double metric_value(const ProbeStats &s, Metric metric) {
  switch (metric) {
  case Metric::total:
    return s.stats.sum;
  case Metric::cpu:
    return s.stats.cpu_sum;
  case Metric::range:
    return s.stats.count ? s.stats.max - s.stats.min : 0.0;
  case Metric::sdev:
    return std::sqrt(idb_stats_variance(&s.stats));
  case Metric::count:
    return double(s.stats.count);
  case Metric::noise:
    return s.stats.noise;
  case Metric::corrected:
    return s.corrected;
  }
  return 0.0;
}

const ProbeSummary *RunSummary::probe(std::int32_t id) const {
  for (const ProbeSummary &p : probes)
    if (p.id == id) return &p;
  return nullptr;
}

RunData summarize_run(std::string label, profile::Profile profile, store::QueryResult attributes) {
  RunData run;
  run.label = std::move(label);
  run.profile = std::move(profile);
  run.attributes = std::move(attributes);
  run.times.reserve(run.profile.cfhs.size());
  for (const profile::Cfh &cfh : run.profile.cfhs)
    run.times.push_back(profile::node_times(cfh));
  run.merged = cli::merge_cfhs(run.profile.cfhs);
  run.merged_times = profile::node_times(run.merged);
  run.summary = summarize(run);
  return run;
}

store::QueryResult probe_rows(const RunData &run, std::int32_t probe) {
  store::QueryResult t;
  t.columns = {"rank", "thread", "cfh",  "node", "parent probe", "count", "total",
               "min",  "max",    "mean", "sdev", "cpu",          "noise", "corrected"};
  t.numeric = {true, true, false, true, false, true, true,
               true, true, true,  true, true,  true, true};
  for (std::size_t c = 0; c < run.profile.cfhs.size(); ++c) {
    const profile::Cfh &cfh = run.profile.cfhs[c];
    for (std::size_t i = 0; i < cfh.nodes.size(); ++i) {
      const profile::Node &n = cfh.nodes[i];
      if (n.probe != probe) continue;
      const idb_stats_t &s = n.stats;
      std::string parent = n.parent == profile::kNoParent
                               ? std::string()
                               : profile::probe_label(run.profile, cfh.nodes[n.parent].probe);
      t.rows.push_back({std::to_string(cfh.rank), std::to_string(cfh.thread), cfh.name,
                        std::to_string(i), parent, std::to_string(s.count), number(s.sum),
                        number(s.min), number(s.max), number(s.mean),
                        number(std::sqrt(idb_stats_variance(&s))), number(s.cpu_sum),
                        number(s.noise), number(run.times[c][i].corrected)});
    }
  }
  return t;
}

store::QueryResult runs_table(const std::vector<store::RunInfo> &runs) {
  store::QueryResult t;
  t.columns = {"label", "program", "nprocs", "threads", "start", "wall s", "attributes", "nodes"};
  t.numeric = {false, false, true, true, false, true, true, true};
  for (const store::RunInfo &r : runs) {
    t.rows.push_back({r.label, r.program, std::to_string(r.nprocs), std::to_string(r.threads),
                      r.start_time ? store::Cell(store::iso_utc(*r.start_time)) : std::nullopt,
                      r.wall_seconds ? store::Cell(number(*r.wall_seconds)) : std::nullopt,
                      std::to_string(r.attributes), std::to_string(r.nodes)});
  }
  return t;
}

} // namespace idb::gui

// Building RunData (run_data.hpp): node times per CFH, and through the analysis library
// the run's trees as a whole and the per-probe, per-rank merges.
#include "run_data.hpp"

#include "idb/analysis/probes.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace idb::gui {

namespace {

std::string number(double value) {
  std::ostringstream out;
  out.precision(9);
  out << value;
  return out.str();
}

// The per-(probe, rank) records of the analysis, regrouped per probe with a slot per rank
// and every rank merged.
RunSummary summarize(const profile::Profile &profile) {
  RunSummary summary;
  std::vector<analysis::ProbeRank> records = analysis::probe_ranks(profile);
  summary.ranks = analysis::ranks_of(records);
  for (const analysis::ProbeRank &r : records) {
    if (r.probe == 0) continue; // the program's root
    if (summary.probes.empty() || summary.probes.back().id != r.probe) {
      ProbeSummary &p = summary.probes.emplace_back();
      p.id = r.probe;
      p.label = profile::probe_label(profile, r.probe);
      const profile::Probe *site = profile.probe(r.probe);
      p.kind = site ? site->kind : 0;
      p.per_rank.resize(summary.ranks.size());
    }
    ProbeSummary &p = summary.probes.back();
    auto rank = std::size_t(std::lower_bound(summary.ranks.begin(), summary.ranks.end(), r.rank) -
                            summary.ranks.begin());
    p.per_rank[rank] = static_cast<const ProbeStats &>(r);
    p.all.merge(r);
  }
  std::vector<analysis::Imbalance> spread = analysis::imbalance(records, Metric::total);
  std::size_t k = 0;
  for (ProbeSummary &p : summary.probes) { // both in probe order until the sort below
    while (k < spread.size() && spread[k].probe < p.id)
      ++k;
    if (k < spread.size() && spread[k].probe == p.id) p.imbalance = spread[k];
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
  run.whole = analysis::aggregate_trees(run.profile);
  run.summary = summarize(run.profile);
  run.dynamics = analysis::run_dynamics(run.profile);
  return run;
}

std::vector<TreeChoice> tree_choices(const RunData &run) {
  std::vector<TreeChoice> choices;
  for (std::size_t i = 0; i < run.whole.size(); ++i)
    choices.push_back(
        {run.complete
             ? run.whole[i].title
             : "rank " + std::to_string(run.summary.ranks.empty() ? 0 : run.summary.ranks.front()) +
                   " (reading the other ranks…): " + run.whole[i].title,
         -1 - int(i)});
  for (std::size_t i = 0; i < run.profile.cfhs.size(); ++i)
    choices.push_back({analysis::cfh_title(run.profile.cfhs[i]), int(i)});
  return choices;
}

const profile::Cfh *chosen_tree(const RunData &run, int index, std::string *title) {
  if (index < 0 && std::size_t(-1 - index) < run.whole.size()) {
    const analysis::Tree &tree = run.whole[std::size_t(-1 - index)];
    if (title) *title = tree.title;
    return &tree.cfh;
  }
  if (index >= 0 && std::size_t(index) < run.profile.cfhs.size()) {
    const profile::Cfh &cfh = run.profile.cfhs[std::size_t(index)];
    if (title) *title = analysis::cfh_title(cfh);
    return &cfh;
  }
  return nullptr;
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
                        number(analysis::value({s, 0, {}}, Metric::sdev)),
                        s.cpu_count > 0 ? store::Cell(number(s.cpu_sum)) : std::nullopt,
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

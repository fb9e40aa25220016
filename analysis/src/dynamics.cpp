// A run's dynamics and what stands out in them (idb/analysis/dynamics.hpp).
#include "idb/analysis/dynamics.hpp"

#include <algorithm>
#include <cmath>

namespace idb::analysis {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  auto mid = v.begin() + std::ptrdiff_t(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  double upper = *mid;
  if (v.size() % 2) return upper;
  return (upper + *std::max_element(v.begin(), mid)) / 2;
}

double median_of(const std::vector<double> &v, std::size_t from, std::size_t to) {
  return median(
      std::vector<double>(v.begin() + std::ptrdiff_t(from), v.begin() + std::ptrdiff_t(to)));
}

std::string label_of(const profile::Profile &run, std::int32_t probe) {
  const profile::Probe *p = run.probe(probe);
  if (p && !p->description.empty()) return p->description;
  return "#" + std::to_string(probe);
}

} // namespace

RunDynamics run_dynamics(const profile::Profile &run, std::optional<std::int32_t> probe) {
  RunDynamics out;
  std::map<std::int32_t, std::uint64_t> iterations; // per dynamic probe, the most
  for (const profile::Cfh &h : run.cfhs)
    for (const profile::Dynamics &d : h.dynamics) {
      std::uint64_t &most = iterations[h.nodes[d.node].probe];
      most = std::max(most, d.iterations);
    }
  if (iterations.empty()) return out;
  if (probe) {
    if (!iterations.count(*probe)) return out;
    out.probe = *probe;
  } else {
    out.probe = iterations.begin()->first;
    for (const auto &[id, most] : iterations)
      if (most > iterations[out.probe]) out.probe = id;
  }
  for (const auto &[id, most] : iterations)
    if (id != out.probe) out.others.push_back(id);
  std::map<std::int32_t, double> totals;
  for (const profile::Cfh &h : run.cfhs) {
    RankSeries series{h.rank, h.thread, 0, {}, {}};
    bool any = false;
    std::uint64_t length = 0;
    for (const profile::Dynamics &d : h.dynamics)
      if (h.nodes[d.node].probe == out.probe) length = std::max(length, d.iterations);
    for (const profile::Dynamics &d : h.dynamics) {
      if (h.nodes[d.node].probe != out.probe) continue;
      any = true;
      series.clusters += d.clusters.size();
      out.dropped += d.dropped;
      out.mixed += d.mixed;
      for (std::uint32_t m = 0; m < d.members.size(); ++m) {
        std::int32_t id = h.nodes[d.members[m]].probe;
        std::vector<double> seconds = d.series(m, true), visits = d.series(m, false);
        auto &s = series.seconds[id];
        auto &v = series.visits[id];
        s.resize(length, 0.0);
        v.resize(length, 0.0);
        for (std::size_t i = 0; i < seconds.size(); ++i) {
          s[i] += seconds[i];
          v[i] += visits[i];
          totals[id] += seconds[i];
        }
      }
    }
    if (!any) continue;
    out.iterations = std::max(out.iterations, length);
    out.series.push_back(std::move(series));
  }
  std::stable_sort(out.series.begin(), out.series.end(),
                   [](const RankSeries &a, const RankSeries &b) {
                     return a.rank != b.rank ? a.rank < b.rank : a.thread < b.thread;
                   });
  for (const auto &[id, total] : totals)
    if (id != out.probe) out.probes.push_back(id);
  std::stable_sort(out.probes.begin(), out.probes.end(),
                   [&](std::int32_t a, std::int32_t b) { return totals[a] > totals[b]; });
  out.probes.insert(out.probes.begin(), out.probe);
  for (std::int32_t id : out.probes) {
    out.labels[id] = label_of(run, id);
    out.totals[id] = totals[id];
    const profile::Probe *p = run.probe(id);
    out.kinds[id] = p ? p->kind : 0;
  }
  return out;
}

std::string series_name(const RunDynamics &d, std::size_t k) {
  bool threads = std::any_of(d.series.begin(), d.series.end(),
                             [](const RankSeries &s) { return s.thread != 0; });
  std::string name = "rank " + std::to_string(d.series[k].rank);
  if (threads) name += " thread " + std::to_string(d.series[k].thread);
  return name;
}

Spread spread_over_ranks(const RunDynamics &d, std::int32_t probe) {
  Spread s;
  s.min.assign(d.iterations, HUGE_VAL);
  s.mean.assign(d.iterations, 0.0);
  s.max.assign(d.iterations, -HUGE_VAL);
  s.max_at.assign(d.iterations, 0);
  std::vector<std::size_t> reached(d.iterations, 0);
  for (std::size_t k = 0; k < d.series.size(); ++k) {
    auto it = d.series[k].seconds.find(probe);
    if (it == d.series[k].seconds.end()) continue;
    for (std::size_t i = 0; i < it->second.size(); ++i) {
      double v = it->second[i];
      s.min[i] = std::min(s.min[i], v);
      if (v > s.max[i]) {
        s.max[i] = v;
        s.max_at[i] = k;
      }
      s.mean[i] += v;
      ++reached[i];
    }
  }
  for (std::size_t i = 0; i < d.iterations; ++i) {
    if (reached[i]) {
      s.mean[i] /= double(reached[i]);
    } else {
      s.min[i] = s.max[i] = 0;
    }
  }
  return s;
}

std::vector<Outlier> outliers(const std::vector<double> &series, std::size_t window,
                              double factor) {
  std::vector<Outlier> out;
  std::size_t n = series.size();
  if (n < 3) return out;
  std::size_t half = std::max<std::size_t>(window / 2, 1);
  std::vector<double> around;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t from = i > half ? i - half : 0, to = std::min(n, i + half + 1);
    around.clear();
    for (std::size_t j = from; j < to; ++j)
      if (j != i) around.push_back(series[j]);
    double baseline = median(around);
    double v = series[i];
    if (baseline > 0 ? (v > baseline * factor || v * factor < baseline) : v > 0)
      out.push_back({i, v, baseline});
  }
  return out;
}

Step level_shift(const std::vector<double> &series, double least) {
  Step step;
  std::size_t n = series.size();
  std::size_t margin = std::max<std::size_t>(1, (n + 19) / 20);
  if (n < 2 * margin + 1) return step;
  // The split is chosen on the series clipped to its 5th and 95th percentiles, so that a
  // few interrupted iterations cannot pull it.
  std::vector<double> sorted = series;
  std::sort(sorted.begin(), sorted.end());
  double low = sorted[n / 20], high = sorted[n - 1 - n / 20];
  std::vector<double> clipped;
  clipped.reserve(n);
  for (double v : series)
    clipped.push_back(std::clamp(v, low, high));
  double total = 0;
  for (double v : clipped)
    total += v;
  double before = 0, best = -1;
  std::size_t at = 0;
  for (std::size_t i = 1; i < n; ++i) {
    before += clipped[i - 1];
    if (i < margin || n - i < margin) continue;
    double gap = std::fabs(before / double(i) - (total - before) / double(n - i));
    double score = gap * std::sqrt(double(i) * double(n - i));
    if (score > best) {
      best = score;
      at = i;
    }
  }
  step.iteration = at;
  step.before = median_of(series, 0, at);
  step.after = median_of(series, at, n);
  double base = std::max(std::fabs(step.before), 1e-300);
  step.found = std::fabs(step.after - step.before) > least * base;
  return step;
}

double growth(const std::vector<double> &series) {
  std::size_t n = series.size();
  if (n < 10) return 0;
  double first = median_of(series, 0, n / 5), last = median_of(series, n - n / 5, n);
  return first > 0 ? last / first - 1 : 0;
}

std::optional<Drift> drifting(const std::vector<std::vector<double>> &series, double least) {
  if (series.size() < 3) return std::nullopt;
  std::vector<double> g;
  g.reserve(series.size());
  for (const auto &s : series)
    g.push_back(growth(s));
  Drift best;
  double farthest = -1, spread = 0;
  for (std::size_t k = 0; k < g.size(); ++k) {
    std::vector<double> rest;
    for (std::size_t j = 0; j < g.size(); ++j)
      if (j != k) rest.push_back(g[j]);
    double others = median(rest);
    if (std::fabs(g[k] - others) > farthest) {
      farthest = std::fabs(g[k] - others);
      best = {k, g[k], others};
      for (double &r : rest)
        r = std::fabs(r - others);
      spread = median(rest);
    }
  }
  // How much a series moves from one iteration to the next, over its level: the growths
  // of series that jump that much apart by chance.
  std::vector<double> jumps;
  for (const auto &s : series) {
    std::vector<double> steps;
    for (std::size_t i = 1; i < s.size(); ++i)
      steps.push_back(std::fabs(s[i] - s[i - 1]));
    double level = median(s);
    if (level > 0) jumps.push_back(median(steps) / level);
  }
  double noise = median(jumps);
  if (farthest <= least || farthest <= 3 * spread || farthest <= 2 * noise) return std::nullopt;
  return best;
}

std::optional<TimeStep> time_step_candidate(const profile::Profile &run) {
  constexpr int kLoop = 2, kComm = 4; // IDB_LOOP, IDB_COMM of idb/probe.h
  auto kind = [&](std::int32_t id) {
    const profile::Probe *p = run.probe(id);
    return p ? p->kind : 0;
  };
  std::map<std::int32_t, double> totals;
  double run_time = 0;
  for (const profile::Cfh &h : run.cfhs) {
    std::vector<char> comm(h.nodes.size(), 0); // a COMM node lies below (or is) the node
    for (std::size_t i = h.nodes.size(); i-- > 0;) {
      const profile::Node &n = h.nodes[i];
      if (kind(n.probe) == kComm) comm[i] = 1;
      if (n.parent != profile::kNoParent && n.parent < i && comm[i]) comm[n.parent] = 1;
    }
    for (std::size_t i = 0; i < h.nodes.size(); ++i) {
      const profile::Node &n = h.nodes[i];
      if (n.parent == profile::kNoParent) {
        if (!h.named) run_time += n.stats.sum;
      } else if (comm[i] && kind(n.probe) == kLoop) {
        totals[n.probe] += n.stats.sum;
      }
    }
  }
  if (totals.empty()) return std::nullopt;
  auto best = std::max_element(totals.begin(), totals.end(), [](const auto &a, const auto &b) {
    return a.second < b.second || (a.second == b.second && a.first > b.first);
  });
  return TimeStep{best->first, label_of(run, best->first),
                  run_time > 0 ? best->second / run_time : 0.0};
}

} // namespace idb::analysis

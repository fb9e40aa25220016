// Derived node times and the text forms of a CFH.
#include "idb/tree.hpp"

#include "idb/histogram.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace idb::profile {

std::vector<std::vector<std::uint32_t>> children_of(const Cfh &cfh) {
  std::vector<std::vector<std::uint32_t>> children(cfh.nodes.size());
  for (std::uint32_t i = 1; i < cfh.nodes.size(); ++i)
    children[cfh.nodes[i].parent].push_back(i);
  return children;
}

namespace {

// `v` with `decimals` digits after the point, as printf's "%.Nf" writes it (both round
// exactly), but several times faster: a large report formats millions of cells.
std::string fixed(double v, int decimals) {
  char buf[400]; // room for any double in fixed notation
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
  return ec == std::errc() ? std::string(buf, end) : std::string("?");
}

std::string seconds(double s) {
  return fixed(s, 6);
}

// The report's columns and their usual widths; a column widens for a longer cell (a deep
// label, a run of more than ten seconds in microseconds) instead of shifting the row.
struct Column {
  const char *title;
  std::size_t width;
};
constexpr Column kLabel{"probe", 5};
// A deep tree (a recursive function gives a node per level, up to IDB_MAX_DEPTH) stays
// readable: indentation stops growing at this depth, and deeper labels say their depth
// ("[612] mark_group(...)"); the label column is at most this wide, and a longer label
// pushes its own row's numbers right, not every row's.
constexpr std::size_t kMaxIndentDepth = 40;
constexpr std::size_t kMaxLabelWidth = 120;
constexpr Column kCounts[] = {{"count", 10}, {"incl s", 12},  {"excl s", 12}, {"corr s", 12},
                              {"%par", 7},   {"mean us", 11}, {"sdev us", 11}};
constexpr Column kQuantiles[] = {{"p50 us", 11}, {"p90 us", 11}, {"p99 us", 11}};
constexpr double kQuantileLevels[] = {0.50, 0.90, 0.99};
constexpr Column kCpu[] = {{"cpu s", 12}, {"cpu n", 7}};
constexpr Column kNoise{"noise s", 12};
constexpr Column kBytes[] = {{"sent B", 12}, {"recv B", 12}};
// COMM nodes that waited (format 1.4): seconds in every wait-state pattern together.
constexpr Column kWait{"wait s", 12};
// Throttled nodes: of the count, the activations only counted (times cover the others).
constexpr Column kThrottled{"untimed", 10};
// Throttled nodes: the time of all their activations, the untimed ones at the samples' mean.
constexpr Column kEstimated{"est s", 12};
// Summary CFHs: the spread of the per-rank inclusive time over the ranks.
constexpr Column kSpread[] = {
    {"ranks", 6}, {"rank min s", 12}, {"rank max s", 12}, {"max@", 5}, {"max/mean", 9}};

bool has_waits(const Cfh &cfh) {
  return std::any_of(cfh.nodes.begin(), cfh.nodes.end(),
                     [](const Node &n) { return !n.waits.empty(); });
}

bool has_bytes(const Cfh &cfh) {
  for (const Node &n : cfh.nodes)
    if (n.stats.bytes_sent || n.stats.bytes_recv) return true;
  return false;
}

std::size_t throttled_nodes(const Cfh &cfh) {
  return std::size_t(std::count_if(cfh.nodes.begin(), cfh.nodes.end(),
                                   [](const Node &n) { return n.stats.throttled > 0; }));
}

using Row = std::vector<std::string>; // the label, then one cell per column

struct Printer {
  const Profile &profile;
  const Cfh &cfh;
  const TreeOptions &options;
  std::vector<NodeTimes> times;
  std::vector<std::vector<std::uint32_t>> children;
  bool show_bytes = false;     // COMM nodes carry bytes: two more columns
  bool show_throttled = false; // throttled nodes: one more
  bool show_waits = false;     // nodes that waited in communication: one more
  bool show_spread() const { return cfh.summary && cfh.spread.size() == cfh.nodes.size(); }

  // A throttled node by its estimate, which its inclusive time (the timed activations
  // alone) may leave far below.
  bool shown(std::uint32_t i) const {
    double root = times[0].inclusive;
    return i == 0 || root <= 0 || 100.0 * times[i].estimated / root >= options.prune_percent;
  }
  Row row(std::uint32_t i, std::size_t depth) const {
    const idb_stats_t &s = cfh.nodes[i].stats;
    const NodeTimes &t = times[i];
    double parent = i == 0 ? t.inclusive : times[cfh.nodes[i].parent].inclusive;
    std::string label(2 * std::min(depth, kMaxIndentDepth), ' ');
    if (depth > kMaxIndentDepth) label += "[" + std::to_string(depth) + "] ";
    label += probe_label(profile, cfh.nodes[i].probe);
    Row r{std::move(label),       std::to_string(idb_stats_activations(&s)),
          seconds(t.inclusive),   seconds(t.exclusive),
          seconds(t.corrected),   fixed(parent > 0 ? 100.0 * t.inclusive / parent : 0.0, 2),
          fixed(s.mean * 1e6, 3), fixed(std::sqrt(idb_stats_variance(&s)) * 1e6, 3)};
    if (options.show_quantiles)
      for (double q : kQuantileLevels) {
        double value = quantile_seconds(cfh.nodes[i], q);
        r.push_back(std::isnan(value) ? "-" : fixed(value * 1e6, 3));
      }
    if (options.show_cpu) {
      r.push_back(s.cpu_count ? seconds(s.cpu_sum) : "-");
      r.push_back(std::to_string(s.cpu_count));
    }
    r.push_back(seconds(s.noise));
    if (show_throttled) {
      r.push_back(s.throttled ? std::to_string(s.throttled) : "-");
      r.push_back(s.throttled ? (t.capped ? "<=" : "") + seconds(t.estimated) : "-");
    }
    if (show_bytes) {
      r.push_back(std::to_string(s.bytes_sent));
      r.push_back(std::to_string(s.bytes_recv));
    }
    if (show_waits)
      r.push_back(cfh.nodes[i].waits.empty() ? "-" : seconds(wait_seconds(cfh.nodes[i].waits)));
    if (show_spread()) {
      const NodeSpread &n = cfh.spread[i];
      r.push_back(std::to_string(n.ranks));
      r.push_back(seconds(n.total.min));
      r.push_back(seconds(n.total.max));
      r.push_back(std::to_string(n.total.rank_max));
      r.push_back(fixed(n.total.mean > 0 ? n.total.max / n.total.mean : 0.0, 3));
    }
    return r;
  }
  // Shown nodes depth first in node order; iterative, as a CFH may be thousands deep.
  std::vector<Row> rows() const {
    std::vector<Row> out;
    std::vector<std::pair<std::uint32_t, std::size_t>> stack{{0, 0}};
    while (!stack.empty()) {
      auto [node, depth] = stack.back();
      stack.pop_back();
      if (!shown(node)) continue;
      out.push_back(row(node, depth));
      for (auto it = children[node].rbegin(); it != children[node].rend(); ++it)
        stack.emplace_back(*it, depth + 1);
    }
    return out;
  }
  void print(std::ostream &out) const {
    Row header{kLabel.title};
    std::vector<std::size_t> width{kLabel.width};
    auto add = [&](const Column &c) {
      header.push_back(c.title);
      width.push_back(c.width);
    };
    for (const Column &c : kCounts)
      add(c);
    if (options.show_quantiles)
      for (const Column &c : kQuantiles)
        add(c);
    if (options.show_cpu)
      for (const Column &c : kCpu)
        add(c);
    add(kNoise);
    if (show_throttled) {
      add(kThrottled);
      add(kEstimated);
    }
    if (show_bytes)
      for (const Column &c : kBytes)
        add(c);
    if (show_waits) add(kWait);
    if (show_spread())
      for (const Column &c : kSpread)
        add(c);
    std::vector<Row> table = rows();
    table.insert(table.begin(), header);
    for (const Row &r : table)
      for (std::size_t c = 0; c < r.size(); ++c)
        width[c] = std::max(width[c], r[c].size());
    width[0] = std::min(width[0], std::max(kMaxLabelWidth, kLabel.width));
    std::string line;
    for (const Row &r : table) {
      line.assign(r[0]).append(width[0] - std::min(width[0], r[0].size()), ' ');
      for (std::size_t c = 1; c < r.size(); ++c)
        line.append(width[c] - r[c].size() + 1, ' ').append(r[c]);
      line += '\n';
      out.write(line.data(), std::streamsize(line.size()));
    }
  }
};

} // namespace

namespace {

// Scales the estimates of each node's throttled children down to what the node's time
// leaves them, when they exceed it (NodeTimes::capped). Parents precede children, so a
// node's own figure is final when its children's turn comes.
void cap_estimates(const Cfh &cfh, std::vector<NodeTimes> &t) {
  std::vector<double> timed(t.size(), 0.0), estimated(t.size(), 0.0);
  for (std::size_t i = 1; i < t.size(); ++i) {
    std::size_t parent = cfh.nodes[i].parent;
    if (cfh.nodes[i].stats.throttled)
      estimated[parent] += std::max(0.0, t[i].estimated);
    else
      timed[parent] += std::max(0.0, t[i].corrected);
  }
  for (std::size_t i = 1; i < t.size(); ++i) {
    std::size_t parent = cfh.nodes[i].parent;
    if (!cfh.nodes[i].stats.throttled) continue;
    double room = std::max(0.0, t[parent].corrected_all - timed[parent]);
    if (estimated[parent] <= room) continue;
    t[i].estimated = std::max(0.0, t[i].estimated) * (room / estimated[parent]);
    t[i].corrected_all = t[i].estimated;
    t[i].capped = true;
  }
}

} // namespace

std::vector<NodeTimes> node_times(const Cfh &cfh) {
  std::vector<NodeTimes> t(cfh.nodes.size());
  std::vector<double> children_noise(cfh.nodes.size(), 0.0);
  for (std::size_t i = 0; i < cfh.nodes.size(); ++i) {
    t[i].inclusive = t[i].exclusive = cfh.nodes[i].stats.sum;
  }
  // The charge of a node's children, at most its exclusive time (NodeTimes).
  auto charge = [&](std::size_t i) {
    return std::min(children_noise[i], std::max(0.0, t[i].exclusive));
  };
  // Parents precede children, so one backward pass accumulates bottom-up: a node's
  // children are all done when its own turn comes.
  for (std::size_t i = cfh.nodes.size(); i-- > 1;) {
    t[i].descendant_noise += charge(i);
    std::size_t parent = cfh.nodes[i].parent;
    t[parent].exclusive -= t[i].inclusive;
    t[parent].descendant_noise += t[i].descendant_noise;
    children_noise[parent] += cfh.nodes[i].stats.noise;
  }
  if (!t.empty()) t[0].descendant_noise += charge(0);
  for (std::size_t i = 0; i < t.size(); ++i) {
    NodeTimes &n = t[i];
    n.corrected = n.inclusive - n.descendant_noise;
    const idb_stats_t &s = cfh.nodes[i].stats;
    n.estimated = s.throttled ? idb_stats_estimated_sum(&s) : n.inclusive;
    n.corrected_all = s.throttled ? n.estimated : n.corrected;
  }
  cap_estimates(cfh, t);
  return t;
}

std::string probe_label(const Profile &profile, std::int32_t probe) {
  if (probe == kWorkersOutsideProbes) return "(worker threads outside their probes)";
  const Probe *p = profile.probe(probe);
  if (p && !p->description.empty()) return p->description;
  // Appending rather than `"#" + to_string(...)`, which trips GCC 12's -Wrestrict at -O3.
  std::string label = "#";
  label += std::to_string(probe);
  return label;
}

std::string paths_text(const Profile &profile, const Cfh &cfh) {
  if (cfh.nodes.empty()) return {};
  auto children = children_of(cfh);
  std::string text;
  std::vector<std::pair<std::uint32_t, std::string>> stack;
  for (auto it = children[0].rbegin(); it != children[0].rend(); ++it)
    stack.emplace_back(*it, "");
  while (!stack.empty()) {
    auto [node, prefix] = stack.back();
    stack.pop_back();
    std::string path = prefix + probe_label(profile, cfh.nodes[node].probe);
    const idb_stats_t &s = cfh.nodes[node].stats;
    text += path + ' ' + std::to_string(idb_stats_activations(&s)) + '\n';
    for (auto it = children[node].rbegin(); it != children[node].rend(); ++it)
      stack.emplace_back(*it, path + ';');
  }
  return text;
}

void print_tree(std::ostream &out, const Profile &profile, const Cfh &cfh,
                const TreeOptions &options) {
  if (cfh.nodes.empty()) return;
  Printer{profile,
          cfh,
          options,
          node_times(cfh),
          children_of(cfh),
          has_bytes(cfh),
          throttled_nodes(cfh) > 0,
          has_waits(cfh)}
      .print(out);
}

void print_profile(std::ostream &out, const Profile &profile, const TreeOptions &options) {
  out << "program " << profile.get("program", "?") << "  host " << profile.get("host", "?")
      << "  ranks " << profile.get("nprocs", "1") << "  threads " << profile.get("threads", "?")
      << "  timer " << profile.get("timer", "?") << " ("
      << fixed(profile.number("timer_hz") / 1e9, 3) << " GHz)\n";
  if (profile.meta.count("mpi_mode")) out << "mpi mode " << profile.get("mpi_mode") << ", ";
  out << "noise per activation " << fixed(profile.number("noise_per_activation_s") * 1e9, 1)
      << " ns, cpu policy " << profile.get("cpu_policy", "?") << "\n";
  if (profile.get("throttle") == "on") {
    out << "throttling on: a node with " << profile.get("throttle_after", "?")
        << " or more timed activations averaging under "
        << fixed(profile.number("throttle_below_s") * 1e9, 0) << " ns stops timing";
    if (profile.meta.count("throttle_early_after") &&
        profile.get("throttle_early_after") != profile.get("throttle_after"))
      out << ", with " << profile.get("throttle_early_after") << " or more under "
          << fixed(profile.number("throttle_early_below_s") * 1e9, 0) << " ns";
    out << ";\n  its later activations count in \"untimed\", their time in the parent's";
    if (profile.number("throttle_sample") > 0)
      out << ";\n  one in about " << profile.get("throttle_sample")
          << " of them is timed as a sample: \"est s\" counts each at the samples' mean\n"
          << "  (\"<=\": no more than what the parent's time leaves, where the samples say more)";
    out << "\n";
  }
  if (profile.get("wait") == "on") {
    out << "wait states: " << profile.get("wait_events", "?")
        << " MPI calls replayed at finalize (clock: " << profile.get("wait_clock", "?") << ")";
    if (profile.number("wait_dropped") > 0)
      out << "; " << profile.get("wait_dropped") << " more not recorded (IDB_WAIT_BUFFER full)";
    if (profile.number("wait_unreplayed") > 0)
      out << "; " << profile.get("wait_unreplayed") << " left out (unmatched)";
    out << "\n";
  }
  for (const Cfh &cfh : profile.cfhs) {
    out << "\nCFH \"" << cfh.name << "\"";
    if (cfh.summary)
      out << " summary of every rank";
    else
      out << " rank " << cfh.rank;
    out << " thread " << cfh.thread;
    if (cfh.mismatches) out << "  mismatched stops " << cfh.mismatches;
    if (cfh.overflow) out << "  over node cap " << cfh.overflow;
    if (cfh.depth_overflow) out << "  over depth cap " << cfh.depth_overflow;
    if (std::size_t n = throttled_nodes(cfh))
      out << "  throttled nodes " << n; // see the run header's throttling line
    out << '\n';
    print_tree(out, profile, cfh, options);
  }
}

} // namespace idb::profile

// Derived node times and the text forms of a CFH.
#include "idb/tree.hpp"

#include <cmath>
#include <cstdio>

namespace idb::profile {

namespace {

std::vector<std::vector<std::uint32_t>> children_of(const Cfh &cfh) {
  std::vector<std::vector<std::uint32_t>> children(cfh.nodes.size());
  for (std::uint32_t i = 1; i < cfh.nodes.size(); ++i) children[cfh.nodes[i].parent].push_back(i);
  return children;
}

std::string format(const char *fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string seconds(double s) { return format("%.6f", s); }

struct Printer {
  std::ostream &out;
  const Profile &profile;
  const Cfh &cfh;
  const TreeOptions &options;
  std::vector<NodeTimes> times;
  std::vector<std::vector<std::uint32_t>> children;
  std::size_t name_width = 0;

  bool shown(std::uint32_t i) const {
    double root = times[0].inclusive;
    return i == 0 || root <= 0 || 100.0 * times[i].inclusive / root >= options.prune_percent;
  }
  void measure(std::uint32_t i, std::size_t depth) {
    if (!shown(i)) return;
    name_width = std::max(name_width, 2 * depth + probe_label(profile, cfh.nodes[i].probe).size());
    for (std::uint32_t c : children[i]) measure(c, depth + 1);
  }
  void row(std::uint32_t i, std::size_t depth) {
    if (!shown(i)) return;
    const idb_stats_t &s = cfh.nodes[i].stats;
    const NodeTimes &t = times[i];
    std::string name = std::string(2 * depth, ' ') + probe_label(profile, cfh.nodes[i].probe);
    double parent = i == 0 ? t.inclusive : times[cfh.nodes[i].parent].inclusive;
    double sdev = std::sqrt(idb_stats_variance(&s));
    char line[512];
    std::snprintf(line, sizeof line, "%-*s %10llu %12s %12s %12s %7.2f %11.3f %11.3f", int(name_width),
                  name.c_str(), (unsigned long long)s.count, seconds(t.inclusive).c_str(),
                  seconds(t.exclusive).c_str(), seconds(t.corrected).c_str(),
                  parent > 0 ? 100.0 * t.inclusive / parent : 0.0, s.mean * 1e6, sdev * 1e6);
    out << line;
    if (options.show_cpu)
      out << ' ' << (s.cpu_count ? format("%12.6f", s.cpu_sum) : std::string(11, ' ') + "-")
          << ' ' << format("%7.0f", double(s.cpu_count));
    out << ' ' << format("%12.6f", s.noise) << '\n';
    for (std::uint32_t c : children[i]) row(c, depth + 1);
  }
  void print() {
    measure(0, 0);
    name_width = std::max<std::size_t>(name_width, 5);
    char head[512];
    std::snprintf(head, sizeof head, "%-*s %10s %12s %12s %12s %7s %11s %11s", int(name_width),
                  "probe", "count", "incl s", "excl s", "corr s", "%par", "mean us", "sdev us");
    out << head;
    if (options.show_cpu) out << "        cpu s   cpu n";
    out << "      noise s\n";
    row(0, 0);
  }
};

} // namespace

std::vector<NodeTimes> node_times(const Cfh &cfh) {
  std::vector<NodeTimes> t(cfh.nodes.size());
  for (std::size_t i = 0; i < cfh.nodes.size(); ++i) {
    t[i].inclusive = t[i].exclusive = cfh.nodes[i].stats.sum;
  }
  // Parents precede children, so one backward pass accumulates bottom-up.
  for (std::size_t i = cfh.nodes.size(); i-- > 1;) {
    NodeTimes &parent = t[cfh.nodes[i].parent];
    parent.exclusive -= t[i].inclusive;
    parent.descendant_noise += t[i].descendant_noise + cfh.nodes[i].stats.noise;
  }
  for (NodeTimes &n : t) n.corrected = n.inclusive - n.descendant_noise;
  return t;
}

std::string probe_label(const Profile &profile, std::int32_t probe) {
  const Probe *p = profile.probe(probe);
  return p && !p->description.empty() ? p->description : "#" + std::to_string(probe);
}

std::string paths_text(const Profile &profile, const Cfh &cfh) {
  auto children = children_of(cfh);
  std::string text;
  std::vector<std::pair<std::uint32_t, std::string>> stack;
  for (auto it = children[0].rbegin(); it != children[0].rend(); ++it) stack.emplace_back(*it, "");
  while (!stack.empty()) {
    auto [node, prefix] = stack.back();
    stack.pop_back();
    std::string path = prefix + probe_label(profile, cfh.nodes[node].probe);
    text += path + ' ' + std::to_string(cfh.nodes[node].stats.count) + '\n';
    for (auto it = children[node].rbegin(); it != children[node].rend(); ++it)
      stack.emplace_back(*it, path + ';');
  }
  return text;
}

void print_tree(std::ostream &out, const Profile &profile, const Cfh &cfh,
                const TreeOptions &options) {
  if (cfh.nodes.empty()) return;
  Printer p{out, profile, cfh, options, node_times(cfh), children_of(cfh)};
  p.print();
}

void print_profile(std::ostream &out, const Profile &profile, const TreeOptions &options) {
  out << "program " << profile.get("program", "?") << "  host " << profile.get("host", "?")
      << "  ranks " << profile.get("nprocs", "1") << "  threads " << profile.get("threads", "?")
      << "  timer " << profile.get("timer", "?") << " ("
      << format("%.3f", profile.number("timer_hz") / 1e9) << " GHz)\n";
  out << "noise per activation "
      << format("%.1f", profile.number("noise_per_activation_s") * 1e9) << " ns, cpu policy "
      << profile.get("cpu_policy", "?") << "\n";
  for (const Cfh &cfh : profile.cfhs) {
    out << "\nCFH \"" << cfh.name << "\" rank " << cfh.rank << " thread " << cfh.thread;
    if (cfh.mismatches) out << "  mismatched stops " << cfh.mismatches;
    if (cfh.overflow) out << "  over node cap " << cfh.overflow;
    if (cfh.depth_overflow) out << "  over depth cap " << cfh.depth_overflow;
    out << '\n';
    print_tree(out, profile, cfh, options);
  }
}

} // namespace idb::profile

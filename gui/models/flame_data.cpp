// Laying out, searching and describing a flame graph (flame_data.hpp).
#include "flame_data.hpp"

#include "tree_model.hpp"

#include "idb/analysis/exports.hpp"
#include "idb/tree.hpp"

#include <algorithm>
#include <cctype>

namespace idb::gui {

namespace {

bool contains_folded(const std::string &text, const std::string &lower_needle) {
  auto it =
      std::search(text.begin(), text.end(), lower_needle.begin(), lower_needle.end(),
                  [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
  return it != text.end();
}

} // namespace

FlameGraph flame_graph(const profile::Profile &run, const profile::Cfh &cfh, std::string title) {
  FlameGraph graph;
  graph.title = std::move(title);
  if (cfh.nodes.empty()) return graph;
  const std::vector<profile::NodeTimes> times = profile::node_times(cfh);
  const std::vector<double> self = analysis::corrected_exclusive(cfh);
  const std::vector<std::vector<std::uint32_t>> children = profile::children_of(cfh);
  auto frame_of = [&](std::uint32_t node, std::uint32_t parent, std::uint32_t depth, double start,
                      double width) {
    const profile::Node &n = cfh.nodes[node];
    FlameFrame &f = graph.frames.emplace_back();
    f.node = node;
    f.parent = parent;
    f.depth = depth;
    f.probe = n.probe;
    f.label = analysis::node_label(run, cfh, node);
    f.start = start;
    f.width = width;
    f.corrected = std::max(0.0, times[node].corrected_all);
    f.self = self[node];
    f.inclusive = times[node].inclusive;
    f.noise = n.stats.noise;
    f.count = n.stats.count + n.stats.throttled;
    f.throttled = n.stats.throttled;
    graph.depth = std::max(graph.depth, depth + 1);
  };
  // Depth first from every root (a CFH has one; a malformed one could have more, laid side
  // by side under none), iteratively: a CFH may be thousands deep.
  struct Pending {
    std::uint32_t node, parent, depth;
    double start, width;
  };
  std::vector<Pending> stack;
  double roots_end = 0;
  for (std::uint32_t i = 0; i < cfh.nodes.size(); ++i)
    if (cfh.nodes[i].parent == profile::kNoParent) {
      const double width = std::max(0.0, times[i].corrected_all);
      stack.push_back({i, kFlameTop, 0, roots_end, width});
      roots_end += width;
    }
  std::reverse(stack.begin(), stack.end());
  while (!stack.empty()) {
    const Pending at = stack.back();
    stack.pop_back();
    const auto frame = std::uint32_t(graph.frames.size());
    frame_of(at.node, at.parent, at.depth, at.start, at.width);
    std::vector<std::uint32_t> kids = children[at.node];
    std::stable_sort(kids.begin(), kids.end(), [&](std::uint32_t a, std::uint32_t b) {
      return times[a].corrected_all > times[b].corrected_all;
    });
    double sum = 0;
    for (std::uint32_t k : kids)
      sum += std::max(0.0, times[k].corrected_all);
    const double scale = sum > at.width && sum > 0 ? at.width / sum : 1.0;
    double start = at.start;
    std::vector<Pending> placed;
    placed.reserve(kids.size());
    for (std::uint32_t k : kids) {
      const double width = std::max(0.0, times[k].corrected_all) * scale;
      placed.push_back({k, frame, at.depth + 1, start, width});
      start += width;
    }
    stack.insert(stack.end(), placed.rbegin(), placed.rend());
  }
  return graph;
}

FlameMatches flame_search(const FlameGraph &graph, const std::string &text) {
  FlameMatches m;
  m.matched.assign(graph.frames.size(), false);
  if (text.empty() || graph.frames.empty()) return m;
  std::string needle = text;
  for (char &c : needle)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  // Parents precede children: a frame under a match is covered by it already.
  std::vector<bool> covered(graph.frames.size(), false);
  double width = 0;
  for (std::size_t i = 0; i < graph.frames.size(); ++i) {
    const FlameFrame &f = graph.frames[i];
    const bool inside = f.parent != kFlameTop && covered[f.parent];
    if (contains_folded(f.label, needle)) {
      m.matched[i] = true;
      ++m.count;
      if (!inside) width += f.width;
    }
    covered[i] = inside || m.matched[i];
  }
  double total = 0;
  for (const FlameFrame &f : graph.frames)
    if (f.parent == kFlameTop) total += f.width;
  m.share = total > 0 ? std::min(1.0, width / total) : 0.0;
  return m;
}

QString flame_tooltip(const FlameGraph &graph, std::uint32_t frame) {
  if (frame >= graph.frames.size()) return {};
  const FlameFrame &f = graph.frames[frame];
  QStringList path;
  for (std::uint32_t at = frame; at != kFlameTop; at = graph.frames[at].parent)
    path.prepend(QString::fromStdString(graph.frames[at].label));
  double total = 0;
  for (const FlameFrame &r : graph.frames)
    if (r.parent == kFlameTop) total += r.width;
  auto share = [total](double seconds) {
    return total > 0
               ? QStringLiteral(" (%1%)").arg(formatValue(100 * seconds / total, Format::percent))
               : QString();
  };
  QString text = QString::fromStdString(f.label);
  text += QStringLiteral("\n%1").arg(path.join(QStringLiteral(" → ")));
  text += QStringLiteral("\nactivations: %1").arg(formatValue(double(f.count), Format::integer));
  if (f.throttled > 0)
    text += QStringLiteral(", %1 untimed").arg(formatValue(double(f.throttled), Format::integer));
  // A throttled node is drawn by its estimate (profile::NodeTimes::corrected_all).
  const QString inclusive =
      f.throttled > 0
          ? QStringLiteral("\nestimated inclusive (the untimed activations at the samples' "
                           "mean): %1%2")
          : QStringLiteral("\ncorrected inclusive: %1%2");
  text += inclusive.arg(formatValue(f.corrected, Format::seconds), share(f.corrected));
  text += QStringLiteral("\ncorrected exclusive: %1%2")
              .arg(formatValue(f.self, Format::seconds), share(f.self));
  text +=
      QStringLiteral("\nwall inclusive: %1, probes' charge %2")
          .arg(formatValue(f.inclusive, Format::seconds), formatValue(f.noise, Format::seconds));
  const std::uint64_t timed = f.count - f.throttled;
  if (timed > 0)
    text += QStringLiteral("\nmean timed activation: %1")
                .arg(formatValue(f.inclusive / double(timed), Format::seconds));
  return text;
}

} // namespace idb::gui

// Collapsed stacks and Hatchet's literal format (exports.hpp).
#include "idb/analysis/exports.hpp"

#include "idb/probe.h"
#include "idb/tree.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace idb::analysis {

namespace {

const char *frame_type(const profile::Probe *probe) {
  if (!probe) return "function";
  switch (probe->kind) {
  case IDB_LOOP:
    return "loop";
  case IDB_CALL:
    return "call";
  case IDB_COMM:
    return "comm";
  default:
    return "function";
  }
}

// One tree's nodes as Hatchet literal objects, appended to `out`.
void hatchet_tree(const profile::Profile &run, const Tree &tree, std::uint64_t &next_id,
                  std::string &out) {
  const profile::Cfh &cfh = tree.cfh;
  std::vector<profile::NodeTimes> times = profile::node_times(cfh);
  std::vector<double> own = corrected_exclusive(cfh);
  auto children = profile::children_of(cfh);
  // Depth first, iteratively: an entry opens a node (after a comma when it is not its
  // parent's first child) or closes one.
  struct Step {
    std::uint32_t node;
    bool close, comma;
  };
  std::vector<Step> stack{{0, false, false}};
  while (!stack.empty()) {
    Step step = stack.back();
    stack.pop_back();
    std::uint32_t i = step.node;
    if (step.close) {
      out += "]}";
      continue;
    }
    if (step.comma) out += ", ";
    const profile::Node &node = cfh.nodes[i];
    const profile::Probe *probe = run.probe(node.probe);
    std::string name = node_label(run, cfh, i);
    if (i == 0) name += " [" + tree.title + "]";
    out += "{\"frame\": {\"name\": " + json_string(name) +
           ", \"type\": " + json_string(i == 0 ? "program" : frame_type(probe));
    if (probe && !probe->file.empty())
      out +=
          ", \"file\": " + json_string(probe->file) + ", \"line\": " + std::to_string(probe->line);
    out += "}, \"metrics\": {\"time (inc)\": " + number_text(times[i].inclusive) +
           ", \"time\": " + number_text(times[i].exclusive) +
           ", \"corrected (inc)\": " + number_text(times[i].corrected_all) +
           ", \"corrected\": " + number_text(own[i]) +
           ", \"noise\": " + number_text(node.stats.noise) +
           ", \"count\": " + std::to_string(idb_stats_activations(&node.stats));
    if (i != 0) out += ", \"_hatchet_nid\": " + std::to_string(next_id++);
    out += "}, \"children\": [";
    stack.push_back({i, true, false});
    for (std::size_t k = children[i].size(); k-- > 0;)
      stack.push_back({children[i][k], false, k > 0});
  }
}

} // namespace

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char code[8];
        std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned char>(c));
        out += code;
      } else {
        out += c;
      }
    }
  }
  return out + '"';
}

std::vector<double> corrected_exclusive(const profile::Cfh &cfh) {
  std::vector<profile::NodeTimes> times = profile::node_times(cfh);
  std::vector<double> own(times.size());
  for (std::size_t i = 0; i < times.size(); ++i)
    own[i] = times[i].corrected_all;
  for (std::size_t i = 1; i < times.size(); ++i)
    own[cfh.nodes[i].parent] -= times[i].corrected_all;
  for (double &t : own)
    t = std::max(0.0, t);
  return own;
}

std::string folded_stacks(const profile::Profile &run, const profile::Cfh &cfh) {
  std::string out;
  if (cfh.nodes.empty()) return out;
  std::vector<double> own = corrected_exclusive(cfh);
  auto children = profile::children_of(cfh);
  std::vector<std::pair<std::uint32_t, std::string>> stack{{0, ""}};
  while (!stack.empty()) {
    auto [i, prefix] = stack.back();
    stack.pop_back();
    std::string frame = node_label(run, cfh, i);
    std::replace(frame.begin(), frame.end(), ';', ',');
    std::string path = prefix;
    if (!path.empty()) path += ';';
    path += frame;
    auto micros = static_cast<long long>(std::llround(own[i] * 1e6));
    if (micros > 0 && (i != 0 || !cfh.named)) {
      out += path;
      out += ' ';
      out += std::to_string(micros);
      out += '\n';
    }
    for (auto it = children[i].rbegin(); it != children[i].rend(); ++it)
      stack.emplace_back(*it, path);
  }
  return out;
}

std::string hatchet_literal(const profile::Profile &run, const std::vector<Tree> &trees) {
  std::string out = "[";
  std::uint64_t next_id = 1;
  bool first = true;
  for (const Tree &tree : trees) {
    if (tree.cfh.nodes.empty()) continue;
    out += first ? "" : ",\n";
    first = false;
    hatchet_tree(run, tree, next_id, out);
  }
  return out + "]\n";
}

} // namespace idb::analysis

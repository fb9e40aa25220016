// Turning a tree of a run into TreeData, and a shown tree back into export rows
// (cfh_tree.hpp).
#include "cfh_tree.hpp"

#include "wait_data.hpp"

#include "idb/analysis/trees.hpp"

#include <cmath>
#include <unordered_map>

namespace idb::gui {

TreeData cfh_tree(const profile::Profile &profile, const profile::Cfh &cfh) {
  TreeData tree;
  tree.label_title = "probe";
  // A throttled node's estimate beside its inclusive time, which holds its timed
  // activations alone: the two read together.
  tree.columns = {{"count", Format::integer},
                  {"inclusive", Format::seconds},
                  {"estimated", Format::seconds_or_blank},
                  {"exclusive", Format::seconds},
                  {"corrected", Format::seconds},
                  {"wait", Format::seconds_or_blank},
                  {"% of parent", Format::percent},
                  {"CPU", Format::seconds_or_blank},
                  {"noise", Format::seconds},
                  {"untimed", Format::integer_or_blank},
                  {"p50", Format::seconds_or_blank},
                  {"p90", Format::seconds_or_blank},
                  {"p99", Format::seconds_or_blank}};
  std::vector<analysis::TreeRow> rows = analysis::tree_rows(profile, cfh);
  std::unordered_map<std::uint32_t, std::uint32_t> row_of; // node → row
  tree.rows.reserve(rows.size());
  for (const analysis::TreeRow &r : rows) {
    row_of.emplace(r.node, std::uint32_t(tree.rows.size()));
    TreeRow &row = tree.rows.emplace_back();
    row.parent = r.parent == profile::kNoParent ? kTreeTop : row_of.at(r.parent);
    row.label = r.label;
    row.values = {double(r.count), r.inclusive,
                  // a throttled node's every activation, the untimed at its samples' mean
                  r.throttled ? r.estimated : std::nan(""), r.exclusive, r.corrected,
                  std::nan(""), // wait s, set below for a node that waited
                  r.percent_of_parent, r.cpu, r.noise, double(r.throttled), r.p50, r.p90, r.p99};
    row.key = r.probe;
    row.source = r.node;
    // CPU time that was never measured (no CPU-timed activation) is blank, not 0.
    if (r.node < cfh.nodes.size() && cfh.nodes[r.node].stats.cpu_count == 0)
      row.values[kCpuColumn - 1] = std::nan("");
    if (r.capped)
      row.note = "estimated: at most this; its samples said more than its parent's time leaves "
                 "(at this grain they measure mostly the probe)";
    if (r.node < cfh.nodes.size() && !cfh.nodes[r.node].waits.empty()) {
      const profile::Node &n = cfh.nodes[r.node];
      row.values[kWaitColumn - 1] = profile::wait_seconds(n.waits);
      row.tint = wait_share(n);
      row.note = wait_note(n);
    }
  }
  for (std::uint32_t node : analysis::hot_path(cfh))
    tree.hot_path.push_back(row_of.at(node));
  return tree;
}

std::vector<std::vector<std::string>> tree_export_rows(const TreeModel &model,
                                                       const std::string &tree) {
  std::vector<std::vector<std::string>> out;
  // Depth first, iteratively (a CFH may be thousands deep): (index, its parent's path).
  std::vector<std::pair<QModelIndex, std::string>> stack;
  for (int r = model.rowCount() - 1; r >= 0; --r)
    stack.emplace_back(model.index(r, 0), std::string());
  while (!stack.empty()) {
    const QModelIndex at = stack.back().first;
    const std::string path = std::move(stack.back().second);
    stack.pop_back();
    analysis::TreeRow row;
    row.label = at.data().toString().toStdString();
    row.path = path.empty() ? row.label : path + ';' + row.label;
    auto value = [&](int column) { return at.siblingAtColumn(column).data(kValueRole).toDouble(); };
    row.count = std::uint64_t(value(1));
    row.inclusive = value(2);
    row.estimated = std::isnan(value(3)) ? row.inclusive : value(3); // blank: not throttled
    row.exclusive = value(4);
    row.corrected = value(5);
    row.percent_of_parent = value(7);                // 6: wait s, which the export does not have
    row.cpu = std::isnan(value(8)) ? 0.0 : value(8); // not measured: 0, as idb report writes
    row.noise = value(9);
    row.throttled = std::uint64_t(value(10));
    row.p50 = value(11);
    row.p90 = value(12);
    row.p99 = value(13);
    out.push_back(analysis::tree_export_cells(tree, row));
    for (int r = model.rowCount(at) - 1; r >= 0; --r)
      stack.emplace_back(model.index(r, 0, at), row.path);
  }
  return out;
}

} // namespace idb::gui

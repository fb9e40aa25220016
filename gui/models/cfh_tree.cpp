// Turning a CFH into TreeData (cfh_tree.hpp).
#include "cfh_tree.hpp"

namespace idb::gui {

TreeData cfh_tree(const profile::Profile &profile, const profile::Cfh &cfh,
                  const std::vector<profile::NodeTimes> &times) {
  TreeData tree;
  tree.label_title = "probe";
  tree.columns = {{"count", Format::integer},       {"inclusive s", Format::seconds},
                  {"exclusive s", Format::seconds}, {"corrected s", Format::seconds},
                  {"% of parent", Format::percent}, {"CPU s", Format::seconds},
                  {"noise s", Format::seconds}};
  tree.rows.reserve(cfh.nodes.size());
  for (std::size_t i = 0; i < cfh.nodes.size(); ++i) {
    const profile::Node &n = cfh.nodes[i];
    const profile::NodeTimes &t = times[i];
    double share = 100.0;
    if (n.parent != profile::kNoParent) {
      double parent = times[n.parent].inclusive;
      share = parent > 0 ? 100.0 * t.inclusive / parent : 0.0;
    }
    TreeRow &row = tree.rows.emplace_back();
    row.parent = n.parent == profile::kNoParent ? kTreeTop : n.parent;
    row.label = i == 0 && !profile.probe(n.probe) ? std::string("program")
                                                  : profile::probe_label(profile, n.probe);
    row.values = {double(n.stats.count), t.inclusive,  t.exclusive, t.corrected, share,
                  n.stats.cpu_sum,       n.stats.noise};
    row.key = n.probe;
  }
  return tree;
}

} // namespace idb::gui

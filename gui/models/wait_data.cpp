// The wait states of a node for the GUI (wait_data.hpp).
#include "wait_data.hpp"

#include "idb/wait_states.h"

#include <algorithm>
#include <cstdio>

namespace idb::gui {

namespace {

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g s", s);
  return text;
}

std::string percent_text(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", 100 * share);
  return text;
}

} // namespace

double wait_share(const profile::Node &node) {
  double total = node.stats.sum;
  if (!(total > 0)) return 0;
  return std::clamp(profile::wait_seconds(node.waits) / total, 0.0, 1.0);
}

std::string wait_note(const profile::Node &node) {
  if (node.waits.empty()) return {};
  std::string note = "waited " + percent_text(wait_share(node)) + " of its time:";
  for (std::size_t i = 0; i < node.waits.size(); ++i)
    note += std::string(i ? ", " : " ") + idb_wait_pattern_name(node.waits[i].pattern) + " " +
            seconds_text(node.waits[i].seconds);
  return note;
}

WaitTable wait_table(const std::string &label, const profile::Node &node) {
  WaitTable t;
  if (node.waits.empty()) {
    t.title = label + ": no wait states (only communication calls the replay paired have them)";
    return t;
  }
  const double total = node.stats.sum;
  t.title = "Wait states of " + label + ": " + seconds_text(profile::wait_seconds(node.waits)) +
            " of " + seconds_text(total) + " (" + percent_text(wait_share(node)) + ")";
  for (const profile::Wait &w : node.waits) {
    WaitRow &r = t.rows.emplace_back();
    r.pattern = idb_wait_pattern_name(w.pattern);
    r.seconds = w.seconds;
    r.instances = w.instances;
    r.share = total > 0 ? std::clamp(w.seconds / total, 0.0, 1.0) : 0.0;
    r.ranks = w.ranks;
    r.min = w.spread.min;
    r.max = w.spread.max;
    r.rank_max = w.spread.rank_max;
    t.spread = t.spread || w.ranks > 0;
  }
  return t;
}

} // namespace idb::gui

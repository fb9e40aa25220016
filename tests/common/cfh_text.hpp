// CFHs written as text, for tests that build trees (STYLE: trees as text): one line per
// node, "path count seconds [noise [throttled]]", the path's probes joined by ';'.
#pragma once

#include "idb/profile.hpp"

#include <cstdint>
#include <string>

namespace idb::test {

// The id of the probe described `description` in `p`, added (kind PROC) when missing.
std::int32_t probe_for(profile::Profile &p, const std::string &description);

// A CFH from lines "path count seconds [noise [throttled]]", parents before children; each
// node's mean, min and max are seconds / count (count: the timed activations). The root (probe 0,
// described by `p`'s "program" metadata or "prog") takes one activation of `root_seconds`. Adds a
// probe to `p` per new description. Throws std::out_of_range for a path whose parent has no line
// before it.
profile::Cfh build_cfh(profile::Profile &p, double root_seconds, const std::string &lines);

// A throttled node timed by samples: the root (0.0125 s) over main (0.010 s) over helper, 100
// timed activations of 1 us, then 2,000 only counted, 8 of those timed as samples of 2 us
// each: an estimate of 0.0001 + 2000 * 0.000002 = 0.0041 s. Node 2 is the helper.
profile::Cfh sampled_helper_cfh(profile::Profile &p);

} // namespace idb::test

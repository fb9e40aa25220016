// The run-level rows of a load: the runs row built from the profile's metadata, the run's
// attributes and its verbatim metadata. Internal to the store library.
#pragma once

#include "sqlite.hpp"

namespace idb::store::detail {

// Inserts the runs row and returns its run_id. Throws Error when `label` is taken.
std::int64_t insert_run(Connection &c, const profile::Profile &p, const std::string &label);

// The profile's attributes, overridden key by key by `extra`, and its META section
// (minus argv and attr.*), for run `run_id`.
void insert_run_facts(Connection &c, std::int64_t run_id, const profile::Profile &p,
                      const KeyValues &extra);

// argv as one line a POSIX shell would split back into the same words.
std::string command_line(const std::vector<std::string> &argv);

} // namespace idb::store::detail

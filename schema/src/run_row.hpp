// The run-level rows of a load, written once for both engines: the runs row built from the
// profile's metadata, the run's attributes, its verbatim metadata and its probe sites.
// Internal to the store library.
#pragma once

#include "load_session.hpp"

namespace idb::store::detail {

// Writes the runs row of `run_id` labelled `label`.
void write_run(LoadSession &s, std::int64_t run_id, const profile::Profile &p,
               const std::string &label);

// The profile's attributes, overridden key by key by `extra`; its META section (minus
// argv and attr.*); its probe table. Throws Error for a probe of unknown kind.
void write_run_facts(LoadSession &s, std::int64_t run_id, const profile::Profile &p,
                     const KeyValues &extra);

// argv as one line a POSIX shell would split back into the same words.
std::string command_line(const std::vector<std::string> &argv);

} // namespace idb::store::detail

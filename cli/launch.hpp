// Launching a program and collecting the profile(s) it leaves: what `idb run` and
// `idb tune` share. The launch waits like system(): ^C reaches the program, and idb stays
// to deal with what it leaves.
#pragma once

#include "idb/profile.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace idb::cli {

using Environment = std::vector<std::pair<std::string, std::string>>;

// Runs `line` (argv[0] searched in PATH) with `env` added to the environment, its output
// passing through, or into the file `log` when it is not empty. Returns the exit status
// (128 + signal when it was killed), or 127 when it could not start (reported as `who:
// cannot start ...`).
int launch(const std::vector<std::string> &line, const Environment &env, const std::string &log,
           const char *who);

// As launch, but in a process group of its own, which a timeout ends: past `timeout`
// seconds the group gets SIGTERM, and SIGKILL 5 s later, and `timed_out` says so. ^C and
// the like (SIGINT, SIGQUIT, SIGTERM sent to idb) are passed on to the group. Its standard
// input is /dev/null: a group not in the terminal's foreground must not read from it.
int launch_limited(const std::vector<std::string> &line, const Environment &env,
                   const std::string &log, const char *who, double timeout, bool &timed_out);

// What a run left in its profile folder: one profile for the run, and the ranks that left
// nothing when it was combined from per-rank files.
struct Collected {
  std::optional<profile::Profile> profile;
  std::vector<int> missing; // ranks below nprocs without a profile, in order
};

// The profile(s) in `folder` as one: the merged profile when the ranks' merge completed
// (spills a killed rank left beside it are ignored), else the per-rank profiles combined,
// with the ranks that left none. Reports (prefixed `who: `) and returns no profile when
// there is none or one is unreadable.
Collected collect(const std::string &folder, const char *who);

// "2" or "2, 5-7, 9": ranks in order as runs.
std::string rank_list(const std::vector<int> &ranks);

// The words joined by spaces.
std::string joined(const std::vector<std::string> &line);

} // namespace idb::cli

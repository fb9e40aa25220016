// Running the real compiler from the wrappers: with the arguments as a vector (no shell),
// waiting for it, and optionally capturing what it prints.
#pragma once

#include <string>
#include <vector>

namespace idb::instr {

// Runs argv[0] (searched in PATH) and returns its exit status (128 + signal when killed;
// -1 when it cannot be started). Output goes where ours goes. Not thread-safe.
int run_process(const std::vector<std::string> &argv);

// Like run_process, capturing standard output and error together into `output`.
// Returns -1 when it cannot be started.
int run_capture(const std::vector<std::string> &argv, std::string &output);

} // namespace idb::instr

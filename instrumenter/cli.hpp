// The `idb-instrument` command: `list`, `apply` and `default-selection`. Kept in the
// library (main.cpp only calls run_cli) so tests run the same code.
#pragma once

#include "candidate.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace idb::instr {

// Runs the command line; returns the exit status. Errors are one line on `err`.
int run_cli(const std::vector<std::string> &args, std::ostream &out, std::ostream &err);

// `list` output: a table for people, or JSON.
void print_table(const std::vector<FileResult> &results, std::ostream &out);
void print_json(const std::vector<FileResult> &results, std::ostream &out);

// The loop that is most likely the program's time step, for the runtime's dynamics
// (mode=dynamic): of the outermost loops in main's call tree with MPI calls in them
// (directly, or through calls to functions the files define that make them), the one
// whose calls reach the most functions and MPI calls; then the one nearest to main, then
// the first in source order. nullptr when no loop has MPI calls.
const Candidate *dynamic_candidate(const std::vector<FileResult> &results);

// Reads a selection file (`-`: standard input); returns false with `error` set.
bool read_selection_file(const std::string &path, std::string &text, std::string &error);

} // namespace idb::instr

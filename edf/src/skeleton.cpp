// The skeleton `idb edf new` writes: every section with a placeholder and a comment per
// key, so a user fills it in rather than looking the format up.
#include "idb/edf.hpp"

namespace idb::edf {

std::string skeleton(Mode mode) {
  bool compare = mode == Mode::compare;
  std::string text =
      "# An IDB experiment definition (docs/edf.md). '#' starts a comment; run it with\n"
      "# 'idb edf FILE'.\n"
      "[PREAMBLE]\n"
      "Experiment   what ran, on what, and why\n"
      "Mode         ";
  text += compare ? "COMPARE      # or COALESCE: merge repeated runs of one configuration\n"
                  : "COALESCE     # or COMPARE: put runs that differ side by side\n";
  text +=
      "Application  the program's name\n"
      "Analyst      your name\n"
      "Database     idb.db       # a SQLite file, or postgresql://user@host:5432/db\n"
      "Value        total        # or cpu, range, sdev, count, noise, corrected, p50, p90, p99\n"
      "Rank         all          # all, or one MPI rank\n"
      "[DESCR]\n"
      "Free text, kept verbatim: the question this experiment answers, the machine,\n"
      "the inputs, what changed between the runs.\n"
      "[AUTOINST]\n"
      "[DBLIST]\n"
      "# One line per run: a run label in the database above, a label pattern for a\n"
      "# group of repeated runs (run-*), a SQLite file or a postgresql:// URL that holds\n"
      "# one run; then a note.\n";
  text += compare ? "baseline-*   the first entry: differences and ratios are to it\n"
                    "changed-*    the runs to compare with it\n"
                  : "run-1        first run\n"
                    "run-2        second run\n";
  return text;
}

} // namespace idb::edf

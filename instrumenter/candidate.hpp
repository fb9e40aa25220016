// Plain value structs that travel between the instrumenter's stages: a candidate event
// (what `idb-instrument list` prints), a placed probe (what the manifest records), and the
// result of processing one source file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idb::instr {

// The four probe kinds; the numbers are the runtime's IDB_PROC .. IDB_COMM.
enum class Kind { Proc = 1, Loop = 2, Call = 3, Comm = 4 };

// "PROC", "LOOP", "CALL" or "COMM".
const char *kind_name(Kind kind);
// "IDB_PROC" .. "IDB_COMM", the runtime's macros.
const char *kind_macro(Kind kind);

// How a LOOP probe is placed: around the whole loop, or inside the body per iteration;
// dynamic is white box with each iteration kept apart (the runtime's dynamics: the file's
// registration calls idb_dynamic_probe).
enum class LoopMode { blackbox, whitebox, dynamic };

// "blackbox", "whitebox" or "dynamic": the selection's `mode=` spelling, also what `list`
// prints.
const char *loop_mode_name(LoopMode mode);
// The mode `text` names, or nullopt for any other text.
std::optional<LoopMode> parse_loop_mode(std::string_view text);

// One place where a probe could go.
struct Candidate {
  int id = 0;              // stable probe ID (probe_id.hpp)
  Kind kind = Kind::Proc;  //
  std::string description; // e.g. "solve(...) [solver.c:42]"
  std::string file;        // as given on the command line
  unsigned line = 0;       //
  unsigned column = 0;     //
  std::string function;    // enclosing function, qualified
  std::string callee;      // CALL and COMM: the called name
  int depth = 0;           // LOOP: nesting depth, 1 = outermost
  int parent = 0;          // LOOP, CALL, COMM: the ID of the loop holding it, 0 none
  // What the probe would enclose: "loop" when that holds an open-ended loop, else its weight
  // (the size rule's); for CALL and COMM the callee's, "" when its definition is not seen.
  std::string size;
  std::optional<LoopMode> loop_mode; // LOOP, when selected
  bool selected = false;             // chosen by the selection
  bool forced = false;               // chosen by an include rule naming its ID: no size rule
  std::string skipped;               // why a selected candidate got no probe ("" when placed)
};

// An instrumented copy of a user header that the translation unit's copy (or another
// header's copy) includes in place of the original.
struct HeaderCopy {
  std::string original; // the header as the preprocessor named it
  std::string path;     // where the copy goes (in the wrappers' temporary folder)
  std::string text;     // the copy
};

// What processing one translation unit produced.
struct FileResult {
  std::string file;
  std::vector<Candidate> candidates; // in source order (the main file's, then each header's)
  std::string output;                // the instrumented text (apply only)
  std::vector<HeaderCopy> headers;   // copies of the user headers it includes (apply only)
  std::string error;                 // "" on success
  std::string summary; // the unit's summary for the program index (summary_text), when asked
};

} // namespace idb::instr

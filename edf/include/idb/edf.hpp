// Experiment definition files (.edf, DESIGN §7): the parser, the writer and the edits a
// tool makes to a file it did not write. A file is read into a Document that keeps every
// byte (comments, spacing, line ends), so write(parse(text)) == text for every text the
// parser accepts, and into an Experiment, the validated plain struct the analysis reads.
// No function here throws for bad content (std::bad_alloc aside) or prints; errors and
// warnings are text of the form "FILE:LINE:COLUMN: message". Thread-safe: no shared state.
#pragma once

#include "idb/analysis/metric.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idb::edf {

// Line and column of a place in the file, both from 1; the column counts characters
// (UTF-8 code points), so it matches what an editor shows.
struct Position {
  int line = 0, column = 0;
};

enum class SectionKind { preamble, descr, autoinst, dblist };

// One line of a key/value section ([PREAMBLE], [DBLIST]) taken apart so that it can be
// put back byte for byte: indent + key + gap + value + tail + eol. `tail` holds the spaces
// after the value and a trailing comment. A blank or comment-only line has an empty key
// and everything after the indent in `tail`.
struct Line {
  std::string indent, key, gap, value, tail, eol;
  int line = 0;                         // line number in the file; 0 for an added line
  int key_column = 0, value_column = 0; // columns of key and value (0 when added)
};

struct Section {
  SectionKind kind = SectionKind::preamble;
  std::string header;      // the header line as written, e.g. "[DBLIST]   # the runs"
  std::string header_eol;  // "\n", "\r\n", or "" at the end of the file
  int line = 0;            // of the header
  std::vector<Line> lines; // [PREAMBLE] and [DBLIST]
  std::string body;        // [DESCR] and [AUTOINST]: every byte after the header line, verbatim
};

// A whole file as written.
struct Document {
  std::string path;    // for messages
  std::string preface; // comment and blank lines before the first section, verbatim
  std::vector<Section> sections;
};

enum class Mode { coalesce, compare };

// What is measured per probe (the Value key): a metric of the analysis library.
using analysis::Metric;

// Rank selection: all ranks, or one.
struct RankChoice {
  bool all = true;
  int rank = 0;
};

// One [DBLIST] line: a run label, a label pattern, a SQLite path or a PostgreSQL URL, then
// a free note.
struct DbEntry {
  std::string name, note;
  Position at; // of the name
};

// What the file says, validated. Keys of [PREAMBLE] are matched without regard to case.
struct Experiment {
  std::string title; // Experiment
  Mode mode = Mode::coalesce;
  std::string application, analyst;
  // The experiment's database: Database as written (a path, sqlite:PATH or a PostgreSQL
  // URL), or a postgresql:// URL built from Host, Port, User, Password and Database.
  // Empty when the file names none.
  std::string database;
  Position database_at;
  std::optional<Metric> value;         // Value key: the default for `idb edf --value`
  std::optional<RankChoice> rank;      // Rank key: N or all
  std::string descr;                   // [DESCR] body verbatim; empty when absent
  std::optional<std::string> autoinst; // [AUTOINST] body verbatim; nullopt when absent
  std::vector<DbEntry> dblist;
};

struct ParseResult {
  std::optional<Document> document;  // set on success
  Experiment experiment;             // valid when document is set
  std::string error;                 // otherwise "FILE:LINE:COLUMN: message"
  std::vector<std::string> warnings; // unknown keys, a password in the file
};

// Parses `text`; `path` only names the file in messages. Accepted: LF or CRLF line ends,
// a last line without one, UTF-8 text after an optional byte-order mark (kept in the
// preface). Refused with the place: binary bytes (NUL and
// other control characters), invalid UTF-8, lines over 65,536 bytes, files over 16 MiB,
// text outside a section, unknown or repeated sections, an unterminated header, a missing
// [PREAMBLE], Mode or [DBLIST], an unknown mode or value, bad numbers (Port, Rank), a run
// listed twice.
ParseResult parse(std::string_view text, const std::string &path);
// Reads and parses a file; an unreadable file is an error "FILE: cannot read: REASON".
ParseResult read(const std::string &path);

// The document as text: every part concatenated in order. For a parsed document this is
// the parsed text byte for byte.
std::string write(const Document &doc);

// Writes write(doc) to `path` through idb::files::write_output_file (a temporary file
// beside it, then rename, so an interrupted write leaves the old file; a path that is not
// a regular file written in place). Returns "" on success, else one line of error.
std::string save(const Document &doc, const std::string &path);

// The [AUTOINST] body (the instrumenter's selection, verbatim), nullopt when the file has
// no such section.
std::optional<std::string> autoinst(const Document &doc);

// Replaces the [AUTOINST] body with `selection`, adding a newline at its end when it has
// none, and adds the section (before [DBLIST], else at the end) when absent. Every other
// byte of the document stays as it was. Returns "" on success, or an error when a line of
// `selection` would read as a section header ("[DBLIST]" at the start of a line), which
// the format cannot hold; the document is then unchanged.
std::string set_autoinst(Document &doc, std::string_view selection);

// The instrumenter's two calls (`idb-instrument --edf FILE`). read_autoinst: the
// selection in FILE's [AUTOINST] ("" when the section is absent), or nullopt with `error`
// set ("FILE:LINE:COLUMN: ..." or "FILE: cannot read: ..."). update_autoinst: read FILE,
// set_autoinst, save; returns "" or the error, and leaves the file untouched on error.
std::optional<std::string> read_autoinst(const std::string &path, std::string &error);
std::string update_autoinst(const std::string &path, std::string_view selection);

// Sets the [PREAMBLE] key (matched without regard to case) to `value`, keeping the line's
// indent, gap and comment, or appends a new line when the key is absent. Returns "" on
// success, or an error for a value holding a line break or " #" (which would start a
// comment); the document is then unchanged.
std::string set_field(Document &doc, std::string_view key, std::string_view value);

// Appends a [DBLIST] line. Returns "" on success, or an error for a name that is empty or
// holds white space or '#', or a note holding a line break or " #".
std::string add_entry(Document &doc, std::string_view name, std::string_view note);

// "all" or a rank (0 or more); nullopt for anything else.
std::optional<RankChoice> parse_rank(std::string_view text);

// A skeleton to fill in, for `idb edf new`: every section, each key with a placeholder
// and a comment saying what goes there. It parses as it is.
std::string skeleton(Mode mode);

} // namespace idb::edf

// Internal to the parser: the lines of a file, section headers and key/value lines taken
// apart (parse.cpp), the Document built from them (document.cpp), message formatting.
#pragma once

#include "idb/edf.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace idb::edf {

// The largest file parse() accepts (docs/edf.md).
constexpr std::size_t kMaxFileBytes = 16u << 20;

// One line of the input: its content without the line end, and the end ("\n", "\r\n", a
// lone "\r", or "" for a last line without one). Views into the parsed text.
struct RawLine {
  int number = 0;
  std::string_view content, eol;
};

// Splits `text` into lines, checking that it is text (see parse()). On failure returns
// nothing and sets `error`.
std::vector<RawLine> split_lines(std::string_view text, const std::string &path,
                                 std::string &error);

// `text` with each lone "\r" line end made "\n" ("\r\n" stays): a section body as the
// selection parser and other line readers want it.
std::string with_newlines(std::string_view text);

// What a line starting with '[' is: a known section (kind set), or a problem with the
// byte offset it is at.
struct HeaderScan {
  bool bracketed = false;
  std::optional<SectionKind> kind;
  std::string problem;
  std::size_t problem_offset = 0;
};
HeaderScan scan_header(std::string_view content);

std::string_view section_name(SectionKind kind);

// A key/value section's line taken apart (see Line).
Line split_fields(const RawLine &raw);

// Builds the Document: sections, their lines or bodies, and the preface. Returns "" or an
// error "FILE:LINE:COLUMN: message".
std::string build_document(const std::vector<RawLine> &lines, Document &doc);

// The 1-based column of byte `offset` of `line`, counting UTF-8 code points.
int column_of(std::string_view line, std::size_t offset);
// "PATH:LINE:COLUMN: message".
std::string located(const std::string &path, int line, int column, const std::string &message);

// Lower-case ASCII copy, for matching keys and words without regard to case.
std::string lower(std::string_view text);

} // namespace idb::edf

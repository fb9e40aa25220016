// Builds the byte-keeping Document from the lines of a file: which section each line
// belongs to, free text kept verbatim, key/value lines taken apart.
#include "lex.hpp"

#include <array>

namespace idb::edf {

namespace {

bool free_text(SectionKind kind) {
  return kind == SectionKind::descr || kind == SectionKind::autoinst;
}

bool blank_or_comment(std::string_view content) {
  std::size_t i = content.find_first_not_of(" \t");
  return i == std::string_view::npos || content[i] == '#';
}

// Opens a new section at `raw`, refusing a second one of the same kind.
std::string open_section(const RawLine &raw, SectionKind kind, Document &doc) {
  for (const Section &s : doc.sections)
    if (s.kind == kind)
      return located(doc.path, raw.number, 1,
                     "section [" + std::string(section_name(kind)) +
                         "] appears twice (first on line " + std::to_string(s.line) + ")");
  Section &s = doc.sections.emplace_back();
  s.kind = kind;
  s.header = std::string(raw.content);
  s.header_eol = std::string(raw.eol);
  s.line = raw.number;
  return "";
}

} // namespace

std::string build_document(const std::vector<RawLine> &lines, Document &doc) {
  for (const RawLine &raw : lines) {
    Section *current = doc.sections.empty() ? nullptr : &doc.sections.back();
    HeaderScan scan = scan_header(raw.content);
    if (current && free_text(current->kind)) {
      // Inside free text only a well-formed known header ends the body; any other line,
      // bracketed or indented, is the body's.
      if (scan.kind && scan.problem.empty()) {
        if (std::string e = open_section(raw, *scan.kind, doc); !e.empty()) return e;
      } else {
        current->body.append(raw.content).append(raw.eol);
      }
      continue;
    }
    if (scan.bracketed) {
      if (!scan.problem.empty())
        return located(doc.path, raw.number, column_of(raw.content, scan.problem_offset),
                       scan.problem);
      if (std::string e = open_section(raw, *scan.kind, doc); !e.empty()) return e;
    } else if (!current) {
      if (!blank_or_comment(raw.content))
        return located(doc.path, raw.number,
                       column_of(raw.content, raw.content.find_first_not_of(" \t")),
                       "text outside a section (the file starts with [PREAMBLE])");
      doc.preface.append(raw.content).append(raw.eol);
    } else {
      current->lines.push_back(split_fields(raw));
    }
  }
  return "";
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char &c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

} // namespace idb::edf

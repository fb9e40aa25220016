// The writer and the edits a tool makes to a parsed Document (the instrumenter writing
// its selection back into [AUTOINST], the CLI filling in keys): each touches only the
// part it changes, so the rest of the file stays byte for byte as the user wrote it.
#include "lex.hpp"

#include "idb/output_file.hpp"

namespace idb::edf {

namespace {

Section *find(Document &doc, SectionKind kind) {
  for (Section &s : doc.sections)
    if (s.kind == kind) return &s;
  return nullptr;
}

// The line end the document already uses, so added lines match it.
std::string eol_of(const Document &doc) {
  for (const Section &s : doc.sections)
    if (!s.header_eol.empty()) return s.header_eol;
  return "\n";
}

// Whether `text` ends with a line end of any kind ("\n", "\r\n" or a lone "\r").
bool ends_line(const std::string &text) {
  return text.ends_with('\n') || text.ends_with('\r');
}

// Makes sure the text before a new part ends with a line end.
void end_last_line(Document &doc) {
  if (doc.sections.empty()) {
    if (!doc.preface.empty() && !ends_line(doc.preface)) doc.preface += eol_of(doc);
    return;
  }
  Section &s = doc.sections.back();
  std::string eol = eol_of(doc);
  if (!s.lines.empty()) {
    if (s.lines.back().eol.empty()) s.lines.back().eol = eol;
  } else if (!s.body.empty()) {
    if (!ends_line(s.body)) s.body += eol;
  } else if (s.header_eol.empty()) {
    s.header_eol = eol;
  }
}

Section &add_section(Document &doc, SectionKind kind, std::size_t at) {
  Section s;
  s.kind = kind;
  s.header = "[" + std::string(section_name(kind)) + "]";
  s.header_eol = eol_of(doc);
  if (at == doc.sections.size()) end_last_line(doc);
  return *doc.sections.insert(doc.sections.begin() + std::ptrdiff_t(at), std::move(s));
}

// Appends a key/value line to a section, after its last key/value line so that trailing
// blank lines and comments stay where they are.
void append_line(Document &doc, Section &s, std::string_view key, std::string_view value) {
  Line l;
  l.key = std::string(key);
  if (!value.empty()) l.gap = std::string(key.size() < 12 ? 13 - key.size() : 1, ' ');
  l.value = std::string(value);
  l.eol = eol_of(doc);
  std::size_t at = s.lines.size();
  while (at > 0 && s.lines[at - 1].key.empty())
    --at;
  if (at > 0 && s.lines[at - 1].eol.empty()) s.lines[at - 1].eol = l.eol;
  if (at == 0 && s.header_eol.empty()) s.header_eol = l.eol;
  s.lines.insert(s.lines.begin() + std::ptrdiff_t(at), std::move(l));
}

// A value or note cannot hold a line end or a comment mark, and must be text.
std::string check_value(std::string_view value) {
  if (value.find_first_of("\r\n") != std::string_view::npos) return "holds a line break";
  std::string bad;
  split_lines(value, "value", bad);
  if (!bad.empty()) return "is not text (" + bad + ")";
  if (value.find(" #") != std::string_view::npos || value.find("\t#") != std::string_view::npos ||
      value.starts_with("#"))
    return "holds ' #', which would start a comment";
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  if (!value.empty() && (blank(value.front()) || blank(value.back())))
    return "starts or ends with a space";
  return "";
}

} // namespace

std::string write(const Document &doc) {
  std::string out = doc.preface;
  for (const Section &s : doc.sections) {
    out += s.header;
    out += s.header_eol;
    for (const Line &l : s.lines)
      out.append(l.indent).append(l.key).append(l.gap).append(l.value).append(l.tail).append(l.eol);
    out += s.body;
  }
  return out;
}

std::string save(const Document &doc, const std::string &path) {
  return files::write_output_file(path, write(doc));
}

std::optional<std::string> autoinst(const Document &doc) {
  for (const Section &s : doc.sections)
    if (s.kind == SectionKind::autoinst) return with_newlines(s.body);
  return std::nullopt;
}

std::string set_autoinst(Document &doc, std::string_view selection) {
  // A selection's lines end in "\n" (or "\r\n"), as its own parser reads them.
  for (std::size_t i = 0, line = 1, start = 0; i < selection.size(); ++i) {
    if (selection[i] == '\n') {
      ++line;
      start = i + 1;
    }
    if (selection[i] == '\r' && (i + 1 == selection.size() || selection[i + 1] != '\n'))
      return located("the selection", int(line), column_of(selection.substr(start), i - start),
                     "a carriage return alone inside a line (a selection ends lines with \\n)");
  }
  std::string eol = eol_of(doc);
  std::string body(selection);
  if (!body.empty() && body.back() != '\n') body += eol == "\r" ? "\n" : eol;
  std::string bad;
  split_lines(body, "selection", bad); // must read back: text, no stray control bytes
  if (!bad.empty()) return "the " + bad;
  std::size_t start = 0;
  for (int line = 1; start < body.size(); ++line) {
    std::size_t end = body.find('\n', start);
    std::string_view content = std::string_view(body).substr(start, end - start);
    if (content.ends_with('\r')) content.remove_suffix(1);
    HeaderScan scan = scan_header(content);
    if (scan.kind && scan.problem.empty())
      return "line " + std::to_string(line) + " of the selection reads as a section header: '" +
             std::string(content) + "'";
    start = end + 1;
  }
  if (eol == "\r") { // a file whose lines end in a lone "\r" keeps them so
    std::string ends;
    for (std::size_t i = 0; i < body.size(); ++i)
      if (body[i] != '\n' || i == 0 || body[i - 1] != '\r')
        ends += body[i] == '\n' ? '\r' : body[i];
    body = std::move(ends);
  }
  Section *s = find(doc, SectionKind::autoinst);
  if (!s) {
    std::size_t at = doc.sections.size();
    for (std::size_t i = 0; i < doc.sections.size(); ++i)
      if (doc.sections[i].kind == SectionKind::dblist) at = i;
    s = &add_section(doc, SectionKind::autoinst, at);
  }
  if (s->header_eol.empty() && !body.empty()) s->header_eol = eol_of(doc);
  s->body = std::move(body);
  return "";
}

std::optional<std::string> read_autoinst(const std::string &path, std::string &error) {
  ParseResult r = read(path);
  if (!r.document) {
    error = r.error;
    return std::nullopt;
  }
  return autoinst(*r.document).value_or("");
}

std::string update_autoinst(const std::string &path, std::string_view selection) {
  ParseResult r = read(path);
  if (!r.document) return r.error;
  if (std::string e = set_autoinst(*r.document, selection); !e.empty()) return path + ": " + e;
  return save(*r.document, path);
}

std::string set_field(Document &doc, std::string_view key, std::string_view value) {
  if (key.empty() || key.find_first_of(" \t#\r\n[") != std::string_view::npos)
    return "'" + std::string(key) + "' is not a key";
  if (std::string e = check_value(value); !e.empty())
    return "the value of " + std::string(key) + " " + e;
  Section *s = find(doc, SectionKind::preamble);
  if (!s) s = &add_section(doc, SectionKind::preamble, 0);
  std::string wanted = lower(key);
  for (Line &l : s->lines)
    if (!l.key.empty() && lower(l.key) == wanted) {
      if (l.gap.empty() && !value.empty()) l.gap = " ";
      l.value = std::string(value);
      return "";
    }
  append_line(doc, *s, key, value);
  return "";
}

std::string add_entry(Document &doc, std::string_view name, std::string_view note) {
  if (name.empty() || name.find_first_of(" \t#\r\n") != std::string_view::npos || name[0] == '[')
    return "'" + std::string(name) + "' cannot be a [DBLIST] name";
  if (std::string e = check_value(note); !e.empty())
    return "the note of " + std::string(name) + " " + e;
  Section *s = find(doc, SectionKind::dblist);
  if (!s) s = &add_section(doc, SectionKind::dblist, doc.sections.size());
  append_line(doc, *s, name, note);
  return "";
}

} // namespace idb::edf

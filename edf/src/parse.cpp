// The lexical half of the parser: splits an .edf into lines, checks that it is text,
// recognises section headers and takes key/value lines apart into a Document that keeps
// every byte. The meaning of the keys is checked afterwards (experiment.cpp).
#include "lex.hpp"

#include <array>
#include <cstdio>

namespace idb::edf {

namespace {

constexpr std::size_t kMaxLine = 65536;

struct Known {
  std::string_view name;
  SectionKind kind;
};
constexpr std::array<Known, 4> kSections{{{"PREAMBLE", SectionKind::preamble},
                                          {"DESCR", SectionKind::descr},
                                          {"AUTOINST", SectionKind::autoinst},
                                          {"DBLIST", SectionKind::dblist}}};

bool space(char c) {
  return c == ' ' || c == '\t';
}

// Length of the UTF-8 sequence starting at text[i], or 0 when it is not valid there.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char c = byte(i);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  unsigned int cp = n == 1 ? c : c & (0x7Fu >> n);
  for (std::size_t k = 1; k < n; ++k)
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  static constexpr unsigned int kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

// Checks one line's content (without its end): text, no control bytes, valid UTF-8.
// Returns "" or the message, with `bad` the byte offset of the fault.
std::string check_text(std::string_view line, std::size_t &bad) {
  for (std::size_t i = 0; i < line.size();) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c < 0x20 && c != '\t') || c == 0x7F) {
      bad = i;
      char message[64];
      std::snprintf(message, sizeof message, "binary data (byte 0x%02x), not text", c);
      return message;
    }
    std::size_t n = utf8_length(line, i);
    if (n == 0) {
      bad = i;
      return "not UTF-8 text";
    }
    i += n;
  }
  return "";
}

} // namespace

int column_of(std::string_view line, std::size_t offset) {
  int column = 1;
  for (std::size_t i = 0; i < offset && i < line.size(); ++i)
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++column;
  return column;
}

std::string located(const std::string &path, int line, int column, const std::string &message) {
  return path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message;
}

std::vector<RawLine> split_lines(std::string_view text, const std::string &path,
                                 std::string &error) {
  std::vector<RawLine> lines;
  if (text.size() > kMaxFileBytes) {
    error = located(path, 1, 1, "file larger than 16 MiB; not an experiment definition");
    return {};
  }
  for (std::size_t at = 0; at < text.size();) {
    // A line ends at "\n", "\r\n" or a lone "\r" (as old Mac editors write); the ending
    // is kept as it was, so a rewrite keeps it.
    std::size_t stop = text.find_first_of("\r\n", at);
    if (stop == std::string_view::npos) stop = text.size();
    std::size_t eol = stop == text.size()                                ? 0
                      : text.substr(stop, 2) == std::string_view("\r\n") ? 2
                                                                         : 1;
    RawLine l;
    l.number = int(lines.size()) + 1;
    l.content = text.substr(at, stop - at);
    l.eol = text.substr(stop, eol);
    if (l.content.size() > kMaxLine) {
      error =
          located(path, l.number, column_of(l.content, kMaxLine), "line longer than 65536 bytes");
      return {};
    }
    std::size_t bad = 0;
    if (std::string message = check_text(l.content, bad); !message.empty()) {
      error = located(path, l.number, column_of(l.content, bad), message);
      return {};
    }
    lines.push_back(l);
    at = stop + eol;
  }
  return lines;
}

std::string with_newlines(std::string_view text) {
  std::string out(text);
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i] == '\r' && (i + 1 == out.size() || out[i + 1] != '\n')) out[i] = '\n';
  return out;
}

HeaderScan scan_header(std::string_view content) {
  HeaderScan scan;
  if (content.empty() || content[0] != '[') return scan;
  scan.bracketed = true;
  std::size_t close = content.find(']');
  if (close == std::string_view::npos) {
    scan.problem = "unterminated section header: no ']'";
    scan.problem_offset = content.size();
    return scan;
  }
  std::string_view name = content.substr(1, close - 1);
  std::size_t rest = close + 1;
  while (rest < content.size() && space(content[rest]))
    ++rest;
  if (rest < content.size() && content[rest] != '#') {
    scan.problem = "unexpected text after the section header";
    scan.problem_offset = rest;
    return scan;
  }
  for (const Known &k : kSections)
    if (k.name == name) {
      scan.kind = k.kind;
      return scan;
    }
  scan.problem = "unknown section [" + std::string(name) +
                 "] (known: [PREAMBLE], [DESCR], [AUTOINST], [DBLIST])";
  scan.problem_offset = 0;
  return scan;
}

std::string_view section_name(SectionKind kind) {
  for (const Known &k : kSections)
    if (k.kind == kind) return k.name;
  return "";
}

Line split_fields(const RawLine &raw) {
  std::string_view s = raw.content;
  Line l;
  l.line = raw.number;
  l.eol = std::string(raw.eol);
  std::size_t i = 0;
  while (i < s.size() && space(s[i]))
    ++i;
  l.indent = std::string(s.substr(0, i));
  if (i == s.size() || s[i] == '#') {
    l.tail = std::string(s.substr(i));
    return l;
  }
  std::size_t key_end = i;
  while (key_end < s.size() && !space(s[key_end]))
    ++key_end;
  l.key = std::string(s.substr(i, key_end - i));
  l.key_column = column_of(s, i);
  std::size_t value_at = key_end;
  while (value_at < s.size() && space(s[value_at]))
    ++value_at;
  l.gap = std::string(s.substr(key_end, value_at - key_end));
  // A comment starts at a '#' after white space, so "a#b" stays a value.
  std::size_t comment = value_at;
  while (comment < s.size() && !(s[comment] == '#' && space(s[comment - 1])))
    ++comment;
  std::size_t value_end = comment;
  while (value_end > value_at && space(s[value_end - 1]))
    --value_end;
  l.value = std::string(s.substr(value_at, value_end - value_at));
  l.value_column = column_of(s, value_at);
  l.tail = std::string(s.substr(value_end));
  return l;
}

} // namespace idb::edf

// Insertion list applied in one pass over the original text.
#include "edits.hpp"

#include <algorithm>

namespace idb::instr {

void Edits::insert(unsigned offset, int rank, std::string text) {
  insertions_.push_back({offset, rank, static_cast<unsigned>(insertions_.size()), std::move(text)});
}

void Edits::replace_name(unsigned offset, unsigned length, std::string text) {
  insertions_.push_back(
      {offset, 0, static_cast<unsigned>(insertions_.size()), std::move(text), length});
}

bool Edits::claim(unsigned begin, unsigned end) {
  return claimed_.emplace(begin, end).second;
}

namespace {

// Lines of the original text counted so far, for `#line` (insertions come in order).
struct LineCounter {
  size_t offset = 0, line = 1;
  size_t at(const std::string &text, size_t to) {
    line += size_t(
        std::count(text.begin() + std::ptrdiff_t(offset), text.begin() + std::ptrdiff_t(to), '\n'));
    offset = to;
    return line;
  }
};

// After an insertion at `offset`: when more than blanks follow on its line, a new line
// that `#line` numbers as the original one, and blanks (tabs kept) up to its column.
void restore_position(const std::string &original, size_t offset, const std::string &file,
                      LineCounter &lines, std::string &out) {
  size_t end = original.find('\n', offset);
  if (end == std::string::npos) end = original.size();
  if (original.find_first_not_of(" \t\r", offset) >= end) return;
  size_t begin = offset == 0 ? std::string::npos : original.rfind('\n', offset - 1);
  begin = begin == std::string::npos ? 0 : begin + 1;
  out += "\n#line " + std::to_string(lines.at(original, offset)) + " \"" + c_string(file) + "\"\n";
  for (size_t i = begin; i < offset; ++i)
    out += original[i] == '\t' ? '\t' : ' ';
}

} // namespace

std::string Edits::apply(const std::string &original, const std::string *line_file) const {
  auto sorted = insertions_;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Insertion &a, const Insertion &b) {
    if (a.offset != b.offset) return a.offset < b.offset;
    return a.rank < b.rank;
  });
  std::string out;
  out.reserve(original.size() + sorted.size() * 96);
  size_t at = 0;
  LineCounter lines;
  for (size_t i = 0; i < sorted.size(); ++i) {
    const Insertion &ins = sorted[i];
    out.append(original, at, ins.offset - at);
    out += ins.text;
    at = ins.offset + ins.replaced;
    if (ins.replaced) continue; // a directive's file name: nothing on its line needs a column
    bool last_here = i + 1 == sorted.size() || sorted[i + 1].offset != at;
    if (line_file && last_here) restore_position(original, at, *line_file, lines, out);
  }
  out.append(original, at, std::string::npos);
  return out;
}

std::string c_string(const std::string &text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n' || c == '\t') {
      out += ' ';
      continue;
    }
    out += c;
  }
  return out;
}

size_t semicolon_after(const std::string &text, size_t end) {
  size_t i = end;
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (text.compare(i, 2, "//") == 0) {
      i = text.find('\n', i);
      if (i == std::string::npos) return std::string::npos;
    } else if (text.compare(i, 2, "/*") == 0) {
      i = text.find("*/", i + 2);
      if (i == std::string::npos) return std::string::npos;
      i += 2;
    } else {
      return c == ';' ? i + 1 : std::string::npos;
    }
  }
  return std::string::npos;
}

} // namespace idb::instr

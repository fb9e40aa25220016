// Insertion list applied in one pass over the original text.
#include "edits.hpp"

#include <algorithm>

namespace idb::instr {

void Edits::insert(unsigned offset, int rank, std::string text) {
  insertions_.push_back({offset, rank, static_cast<unsigned>(insertions_.size()), std::move(text)});
}

bool Edits::claim(unsigned begin, unsigned end) {
  return claimed_.emplace(begin, end).second;
}

std::string Edits::apply(const std::string &original) const {
  auto sorted = insertions_;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Insertion &a, const Insertion &b) {
    if (a.offset != b.offset) return a.offset < b.offset;
    return a.rank < b.rank;
  });
  std::string out;
  out.reserve(original.size() + sorted.size() * 96);
  size_t at = 0;
  for (const auto &ins : sorted) {
    out.append(original, at, ins.offset - at);
    out += ins.text;
    at = ins.offset;
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

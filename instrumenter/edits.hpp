// The one owner of a file's edits. Rules only add insertions; nothing is ever replaced or
// removed, so the original text survives between them. Insertions at one offset are
// ordered by rank: closing text (negative ranks, innermost first) before opening text
// (outermost first).
#pragma once

#include <set>
#include <string>
#include <vector>

namespace idb::instr {

class Edits {
public:
  void insert(unsigned offset, int rank, std::string text);
  // Claims [begin, end) for one probe's wrapping; false when another probe claimed that
  // exact range already (never edit the same location twice).
  bool claim(unsigned begin, unsigned end);
  bool empty() const { return insertions_.empty(); }
  std::string apply(const std::string &original) const;

private:
  struct Insertion {
    unsigned offset;
    int rank;
    unsigned sequence;
    std::string text;
  };
  std::vector<Insertion> insertions_;
  std::set<std::pair<unsigned, unsigned>> claimed_;
};

// `text` as the body of a C string literal.
std::string c_string(const std::string &text);

// The offset just past the `;` that ends a statement whose last token ends at `end`:
// skips blanks and comments; npos when the next character is not `;`.
size_t semicolon_after(const std::string &text, size_t end);

} // namespace idb::instr

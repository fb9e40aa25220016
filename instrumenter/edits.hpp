// The one owner of a file's edits. Rules only add insertions; nothing is ever replaced or
// removed, so the original text survives between them. Insertions at one offset are
// ordered by rank: closing text (negative ranks, innermost first) before opening text
// (outermost first). The one replacement is an #include's file name, pointed at an
// instrumented copy of the header (replace_name).
#pragma once

#include <set>
#include <string>
#include <vector>

namespace idb::instr {

class Edits {
public:
  void insert(unsigned offset, int rank, std::string text);
  // Replaces [offset, offset + length), an #include's file name, by `text`.
  void replace_name(unsigned offset, unsigned length, std::string text);
  // Claims [begin, end) for one probe's wrapping; false when another probe claimed that
  // exact range already (never edit the same location twice).
  bool claim(unsigned begin, unsigned end);
  bool empty() const { return insertions_.empty(); }
  // The original text with the insertions. With `line_file`, every original character
  // keeps its line and column: where original text follows an insertion on the same line,
  // a `#line N "line_file"` directive and the line's indentation put it back in place, so
  // a compiler's messages point into the user's file as written.
  std::string apply(const std::string &original, const std::string *line_file = nullptr) const;

private:
  struct Insertion {
    unsigned offset;
    int rank;
    unsigned sequence;
    std::string text;
    unsigned replaced = 0; // original characters the text stands for
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

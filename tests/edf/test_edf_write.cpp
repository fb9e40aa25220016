// The .edf writer: write(parse(text)) is the text byte for byte, and the edits a tool
// makes (the selection in [AUTOINST], a key, a run) change only their own part.
#include "files.hpp"
#include "idb/edf.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace idb::edf {
namespace {

Document parsed(const std::string &text) {
  ParseResult r = parse(text, "x.edf");
  if (!r.document) ADD_FAILURE() << r.error;
  return r.document.value_or(Document{});
}

TEST(EdfWrite, RoundTripsByteForByte) {
  const char *texts[] = {
      "# head\n\n[PREAMBLE]   # facts\n  Mode\tCOMPARE   # why\nAnalyst  A. User  \n\n"
      "[DESCR]\n  free [text]\n\n[AUTOINST]\n[DBLIST]\nr1\nr2   note # c\n# end",
      "[PREAMBLE]\r\nMode COALESCE\r\n[DESCR]\r\nline\r\n[DBLIST]\r\nr1 x\r\n",
      "[PREAMBLE]\nMode COALESCE\n[DBLIST]",
      "[PREAMBLE]\nMode COALESCE\n[DBLIST]\n[AUTOINST]\nno end of line",
  };
  for (const char *text : texts)
    EXPECT_EQ(write(parsed(text)), text);
}

TEST(EdfWrite, SetAutoinstKeepsTheRest) {
  std::string text = "# c\n[PREAMBLE]\nMode COMPARE # m\n[AUTOINST]\nold\n  selection\n"
                     "[DBLIST]\nr1  note\n";
  Document doc = parsed(text);
  ASSERT_TRUE(autoinst(doc));
  EXPECT_EQ(*autoinst(doc), "old\n  selection\n");
  EXPECT_EQ(set_autoinst(doc, "PROC main\nLOOP solve:12"), "");
  std::string expected = "# c\n[PREAMBLE]\nMode COMPARE # m\n[AUTOINST]\nPROC main\nLOOP "
                         "solve:12\n[DBLIST]\nr1  note\n";
  EXPECT_EQ(write(doc), expected);
  ParseResult again = parse(write(doc), "x.edf");
  ASSERT_TRUE(again.experiment.autoinst);
  EXPECT_EQ(*again.experiment.autoinst, "PROC main\nLOOP solve:12\n");
}

TEST(EdfWrite, SetAutoinstAddsTheSection) {
  Document doc = parsed("[PREAMBLE]\nMode COMPARE\n[DBLIST]\nr1\n");
  EXPECT_FALSE(autoinst(doc));
  EXPECT_EQ(set_autoinst(doc, "PROC main\n"), "");
  EXPECT_EQ(write(doc), "[PREAMBLE]\nMode COMPARE\n[AUTOINST]\nPROC main\n[DBLIST]\nr1\n");
  // With CRLF line ends, added lines use them too.
  doc = parsed("[DBLIST]\r\n[PREAMBLE]\r\nMode COMPARE");
  EXPECT_EQ(set_autoinst(doc, "x"), "");
  EXPECT_EQ(write(doc), "[AUTOINST]\r\nx\r\n[DBLIST]\r\n[PREAMBLE]\r\nMode COMPARE");
  // A document without [DBLIST] gets the section at its end, after a line end.
  Document bare;
  bare.preface = "# only a comment";
  EXPECT_EQ(set_autoinst(bare, "x"), "");
  EXPECT_EQ(write(bare), "# only a comment\n[AUTOINST]\nx\n");
}

TEST(EdfWrite, SetAutoinstRefusesAHeaderLine) {
  std::string text = "[PREAMBLE]\nMode COMPARE\n[AUTOINST]\nold\n[DBLIST]\n";
  Document doc = parsed(text);
  EXPECT_EQ(set_autoinst(doc, "ok\n[DBLIST]\n"),
            "line 2 of the selection reads as a section header: '[DBLIST]'");
  EXPECT_EQ(write(doc), text);
  EXPECT_EQ(set_autoinst(doc, "a\rb\n"), "the selection:1:2: a carriage return alone inside a "
                                         "line (a selection ends lines with \\n)");
  EXPECT_EQ(write(doc), text);
  // Bracketed lines that are not headers, and indented ones, are fine.
  EXPECT_EQ(set_autoinst(doc, "[select]\n [DBLIST]\n"), "");
  ParseResult r = parse(write(doc), "x.edf");
  ASSERT_TRUE(r.document) << r.error;
  EXPECT_EQ(*r.experiment.autoinst, "[select]\n [DBLIST]\n");
}

TEST(EdfWrite, SetFieldKeepsLayout) {
  Document doc = parsed("[PREAMBLE]\n  mode\t\tCOALESCE   # was\n# notes\n\n[DBLIST]\n");
  EXPECT_EQ(set_field(doc, "Mode", "COMPARE"), "");
  EXPECT_EQ(set_field(doc, "Analyst", "B. User"), "");
  EXPECT_EQ(write(doc), "[PREAMBLE]\n  mode\t\tCOMPARE   # was\nAnalyst      B. User\n# notes\n\n"
                        "[DBLIST]\n");
  EXPECT_EQ(set_field(doc, "Analyst", "a # b"),
            "the value of Analyst holds ' #', which would start a comment");
  EXPECT_EQ(set_field(doc, "Analyst", "a\nb"), "the value of Analyst holds a line break");
  EXPECT_EQ(set_field(doc, "Two words", "x"), "'Two words' is not a key");
}

TEST(EdfWrite, AddEntry) {
  Document doc = parsed("[PREAMBLE]\nMode COMPARE\n[DBLIST]\nr1 first");
  EXPECT_EQ(add_entry(doc, "r2", "second"), "");
  EXPECT_EQ(add_entry(doc, "r3", ""), "");
  EXPECT_EQ(write(doc), "[PREAMBLE]\nMode COMPARE\n[DBLIST]\nr1 first\nr2           second\nr3\n");
  EXPECT_EQ(add_entry(doc, "two words", ""), "'two words' cannot be a [DBLIST] name");
  ParseResult r = parse(write(doc), "x.edf");
  ASSERT_TRUE(r.document) << r.error;
  EXPECT_EQ(r.experiment.dblist.size(), 3u);
}

TEST(EdfWrite, SaveReplacesTheFile) {
  test::TempDir dir;
  std::string path = dir.file("e.edf");
  Document doc = parsed("[PREAMBLE]\nMode COMPARE\n[DBLIST]\n");
  EXPECT_EQ(set_autoinst(doc, "PROC f\n"), "");
  EXPECT_EQ(save(doc, path), "");
  EXPECT_EQ(test::read_file(path), write(doc));
  EXPECT_EQ(save(doc, dir.file("no/such/dir.edf")),
            "cannot write " + dir.file("no/such/dir.edf") + ": No such file or directory");
}

TEST(EdfWrite, InstrumenterCalls) {
  test::TempDir dir;
  std::string path = dir.file("e.edf");
  std::string head = "# grow and prune\n[PREAMBLE]\nMode  COALESCE  # keep\n[AUTOINST]\n";
  std::string tail = "[DBLIST]\nr-*   runs\n";
  {
    std::ofstream out(path, std::ios::binary);
    out << head << "PROC main\n" << tail;
  }
  std::string error;
  EXPECT_EQ(read_autoinst(path, error), "PROC main\n");
  EXPECT_EQ(update_autoinst(path, "PROC main\nLOOP solve:12\n"), "");
  EXPECT_EQ(test::read_file(path), head + "PROC main\nLOOP solve:12\n" + tail);
  // Refused selections and broken files leave the file as it was.
  EXPECT_EQ(update_autoinst(path, "[DBLIST]\n"),
            path + ": line 1 of the selection reads as a section header: '[DBLIST]'");
  EXPECT_EQ(test::read_file(path), head + "PROC main\nLOOP solve:12\n" + tail);
  {
    std::ofstream out(path, std::ios::binary);
    out << "[PREAMBLE]\nMode x\n[DBLIST]\n";
  }
  EXPECT_EQ(update_autoinst(path, "PROC f\n"),
            path + ":2:6: unknown mode 'x' (COALESCE or COMPARE)");
  EXPECT_FALSE(read_autoinst(path, error));
  EXPECT_EQ(error, path + ":2:6: unknown mode 'x' (COALESCE or COMPARE)");
  EXPECT_EQ(test::read_file(path), "[PREAMBLE]\nMode x\n[DBLIST]\n");
}

} // namespace
} // namespace idb::edf

// The .edf parser on valid and invalid files side by side: what a valid file yields, and
// for each kind of fault the exact "FILE:LINE:COLUMN: message" it is refused with.
#include "idb/edf.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

namespace idb::edf {
namespace {

const char *kValid = R"(# an experiment
[PREAMBLE]
Experiment   4-rank SMVP runs, mesh sf5
Mode         COALESCE            # or COMPARE
Application  smvp
Analyst      A. User
Database     results.db          # or postgresql://host:5432/idb
[DESCR]
free text, kept verbatim
[NOT A SECTION] # is body text here
  [DBLIST] indented: body text too
[AUTOINST]
PROC solve
[DBLIST]
run1   first run on node a
run2   second run on node a
run-*  a group # with a comment
)";

// The error for `text`, or "" when it parses.
std::string error_of(const std::string &text) {
  return parse(text, "x.edf").error;
}

TEST(EdfParse, ReadsEverySection) {
  ParseResult r = parse(kValid, "x.edf");
  ASSERT_TRUE(r.document) << r.error;
  const Experiment &e = r.experiment;
  EXPECT_EQ(e.title, "4-rank SMVP runs, mesh sf5");
  EXPECT_EQ(e.mode, Mode::coalesce);
  EXPECT_EQ(e.application, "smvp");
  EXPECT_EQ(e.analyst, "A. User");
  EXPECT_EQ(e.database, "results.db");
  EXPECT_EQ(e.database_at.line, 7);
  EXPECT_EQ(e.database_at.column, 14);
  EXPECT_EQ(e.descr, "free text, kept verbatim\n[NOT A SECTION] # is body text here\n"
                     "  [DBLIST] indented: body text too\n");
  ASSERT_TRUE(e.autoinst);
  EXPECT_EQ(*e.autoinst, "PROC solve\n");
  ASSERT_EQ(e.dblist.size(), 3u);
  EXPECT_EQ(e.dblist[0].name, "run1");
  EXPECT_EQ(e.dblist[0].note, "first run on node a");
  EXPECT_EQ(e.dblist[2].name, "run-*");
  EXPECT_EQ(e.dblist[2].note, "a group");
  EXPECT_EQ(e.dblist[2].at.line, 17);
  EXPECT_TRUE(r.warnings.empty());
}

TEST(EdfParse, MinimalFileAndOptionalParts) {
  ParseResult r = parse("[PREAMBLE]\nmode compare\n[DBLIST]", "x.edf");
  ASSERT_TRUE(r.document) << r.error;
  EXPECT_EQ(r.experiment.mode, Mode::compare);
  EXPECT_TRUE(r.experiment.database.empty());
  EXPECT_FALSE(r.experiment.autoinst);
  EXPECT_TRUE(r.experiment.dblist.empty());
}

TEST(EdfParse, MissingSections) {
  EXPECT_EQ(error_of("[DBLIST]\nrun1\n"), "x.edf:1:1: no [PREAMBLE] section");
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COALESCE\n"),
            "x.edf:3:1: no [DBLIST] section (end of file)");
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COALESCE"), "x.edf:2:1: no [DBLIST] section (end of file)");
  EXPECT_EQ(error_of(""), "x.edf:1:1: no [PREAMBLE] section");
  EXPECT_EQ(error_of("# only a comment\n[PREAMBLE]\nExperiment x\n[DBLIST]\n"),
            "x.edf:2:1: [PREAMBLE] has no Mode (COALESCE or COMPARE)");
}

TEST(EdfParse, SectionsInAnyOrderButOnce) {
  EXPECT_EQ(error_of("[DBLIST]\n[DESCR]\ntext\n[PREAMBLE]\nMode COMPARE\n"), "");
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COMPARE\n[DBLIST]\n[PREAMBLE]\n"),
            "x.edf:4:1: section [PREAMBLE] appears twice (first on line 1)");
}

TEST(EdfParse, UnknownAndMalformedHeaders) {
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COALESCE\n[RESULTS]\n[DBLIST]\n"),
            "x.edf:3:1: unknown section [RESULTS] (known: [PREAMBLE], [DESCR], [AUTOINST], "
            "[DBLIST])");
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COALESCE\n[DBLIST\n"),
            "x.edf:3:8: unterminated section header: no ']'");
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COALESCE\n[DBLIST] runs\n"),
            "x.edf:3:10: unexpected text after the section header");
  EXPECT_EQ(error_of("[PREAMBLE]  # the facts\nMode COALESCE\n[DBLIST]\t# runs\n"), "");
  // Section names are written in capitals, as in DESIGN §7.
  EXPECT_NE(error_of("[preamble]\nMode COALESCE\n[DBLIST]\n"), "");
}

TEST(EdfParse, TextOutsideASection) {
  EXPECT_EQ(error_of("\n  # fine\nMode COALESCE\n"),
            "x.edf:3:1: text outside a section (the file starts with [PREAMBLE])");
  EXPECT_EQ(error_of("   stray\n"),
            "x.edf:1:4: text outside a section (the file starts with [PREAMBLE])");
}

TEST(EdfParse, ModeAndValueWords) {
  EXPECT_EQ(error_of("[PREAMBLE]\nMode  coalesce\n[DBLIST]\n"), "");
  EXPECT_EQ(error_of("[PREAMBLE]\nMode  MERGE\n[DBLIST]\n"),
            "x.edf:2:7: unknown mode 'MERGE' (COALESCE or COMPARE)");
  EXPECT_EQ(error_of("[PREAMBLE]\nMode\n[DBLIST]\n"),
            "x.edf:2:5: unknown mode '' (COALESCE or COMPARE)");
  ParseResult r = parse("[PREAMBLE]\nMode COMPARE\nValue CPU\nRank 3\n[DBLIST]\n", "x.edf");
  ASSERT_TRUE(r.document) << r.error;
  EXPECT_EQ(r.experiment.value, Metric::cpu);
  ASSERT_TRUE(r.experiment.rank);
  EXPECT_FALSE(r.experiment.rank->all);
  EXPECT_EQ(r.experiment.rank->rank, 3);
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COMPARE\nValue wall\n[DBLIST]\n"),
            "x.edf:3:7: unknown value 'wall' (total, cpu, range, sdev, count, noise, "
            "corrected, p50, p90 or p99)");
}

TEST(EdfParse, BadNumbers) {
  const std::string head = "[PREAMBLE]\nMode COMPARE\nDatabase idb\nHost db.example\n";
  EXPECT_EQ(error_of(head + "Port 5432\n[DBLIST]\n"), "");
  EXPECT_EQ(error_of(head + "Port 54x32\n[DBLIST]\n"),
            "x.edf:5:6: Port takes a number from 1 to 65535, not '54x32'");
  EXPECT_EQ(error_of(head + "Port 70000\n[DBLIST]\n"),
            "x.edf:5:6: Port takes a number from 1 to 65535, not '70000'");
  EXPECT_EQ(error_of(head + "Port -1\n[DBLIST]\n"),
            "x.edf:5:6: Port takes a number from 1 to 65535, not '-1'");
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COMPARE\nRank 1.5\n[DBLIST]\n"),
            "x.edf:3:6: Rank takes 'all' or a rank, 0 or more, not '1.5'");
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COMPARE\nRank 99999999999999999999\n[DBLIST]\n"),
            "x.edf:3:6: Rank takes 'all' or a rank, 0 or more, not '99999999999999999999'");
}

TEST(EdfParse, ConnectionKeysMakeAUrl) {
  ParseResult r = parse("[PREAMBLE]\nMode COMPARE\nHost db.example\nPort 5433\nUser ann\n"
                        "Database perf runs\n[DBLIST]\n",
                        "x.edf");
  ASSERT_TRUE(r.document) << r.error;
  EXPECT_EQ(r.experiment.database, "postgresql://ann@db.example:5433/perf%20runs");
  EXPECT_TRUE(r.warnings.empty());
  r = parse("[PREAMBLE]\nMode COMPARE\nHost h\nUser ann\nPassword s:cret\nDatabase d\n[DBLIST]\n",
            "x.edf");
  ASSERT_TRUE(r.document) << r.error;
  EXPECT_EQ(r.experiment.database, "postgresql://ann:s%3Acret@h/d");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].rfind("x.edf:5:1: a password in the file", 0), 0u) << r.warnings[0];
  r = parse("[PREAMBLE]\nMode COMPARE\n[DBLIST]\n postgresql://ann:pw@h/d\npostgresql://h/d\n",
            "x.edf");
  ASSERT_TRUE(r.document) << r.error;
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].rfind("x.edf:4:2: a password in the file", 0), 0u) << r.warnings[0];
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COMPARE\nHost\nDatabase d\n[DBLIST]\n"),
            "x.edf:3:1: Host has no value");
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COMPARE\nPort 5432\n[DBLIST]\n"),
            "x.edf:3:1: 'Port' needs Host (a PostgreSQL server)");
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COMPARE\nHost h\n[DBLIST]\n"),
            "x.edf:3:1: Host needs Database, the name of a database on that server (not a URL)");
}

TEST(EdfParse, KeysOnceAndUnknownKeysWarn) {
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COMPARE\nmode COALESCE\n[DBLIST]\n"),
            "x.edf:3:1: key 'mode' given twice (first on line 2)");
  ParseResult r = parse("[PREAMBLE]\nMode COMPARE\n  Machine  cluster a\n[DBLIST]\n", "x.edf");
  ASSERT_TRUE(r.document) << r.error;
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0], "x.edf:3:3: unknown key 'Machine' in [PREAMBLE], kept");
}

TEST(EdfParse, RunListedTwice) {
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COMPARE\n[DBLIST]\na\n  b x\n  a again\n"),
            "x.edf:6:3: 'a' is listed twice (first on line 4)");
}

TEST(EdfParse, CommentsNeedSpaceBefore) {
  ParseResult r =
      parse("[PREAMBLE]\nMode COMPARE\nAnalyst A#1 # who\n[DBLIST]\nrun#2 note\n", "x.edf");
  ASSERT_TRUE(r.document) << r.error;
  EXPECT_EQ(r.experiment.analyst, "A#1");
  EXPECT_EQ(r.experiment.dblist.at(0).name, "run#2");
}

TEST(EdfParse, CrlfLineEnds) {
  ParseResult r =
      parse("[PREAMBLE]\r\nMode COMPARE\r\nAnalyst a b\r\n[DBLIST]\r\nr1 x\r\n", "x.edf");
  ASSERT_TRUE(r.document) << r.error;
  EXPECT_EQ(r.experiment.analyst, "a b");
  EXPECT_EQ(r.experiment.dblist.at(0).note, "x");
}

TEST(EdfParse, BinaryJunk) {
  const char junk[] = "[PREAMBLE]\nMode COMPARE\nAna\0lyst\n[DBLIST]\n";
  std::string nul(junk, sizeof junk - 1);
  EXPECT_EQ(error_of(nul), "x.edf:3:4: binary data (byte 0x00), not text");
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COM\x01PARE\n"),
            "x.edf:2:9: binary data (byte 0x01), not text");
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COMPARE\x0b\n"),
            "x.edf:2:13: binary data (byte 0x0b), not text");
  EXPECT_EQ(error_of("[PREAMBLE]\nAnalyst \xff\xfe\n"), "x.edf:2:9: not UTF-8 text");
  EXPECT_EQ(error_of("[PREAMBLE]\nAnalyst \xc0\xaf\n"), "x.edf:2:9: not UTF-8 text"); // overlong
  EXPECT_EQ(error_of("\x89PNG\r\n\x1a\n"), "x.edf:1:1: not UTF-8 text");
  // UTF-8 is text, and columns count characters, not bytes.
  EXPECT_EQ(error_of("[PREAMBLE]\nAnalyst Jürgen Müller\nMode COMPARE\n[DBLIST]\n"), "");
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COMPARE\nRank   ü\n[DBLIST]\n"),
            "x.edf:3:8: Rank takes 'all' or a rank, 0 or more, not 'ü'");
  EXPECT_EQ(error_of("[PREAMBLE]\nÄnalyst ü\x01\n"),
            "x.edf:2:10: binary data (byte 0x01), not text");
}

TEST(EdfParse, HugeLinesAndFiles) {
  std::string line(65536, 'x');
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COMPARE\n[DESCR]\n" + line + "\n[DBLIST]\n"), "");
  EXPECT_EQ(error_of("[PREAMBLE]\nMode COMPARE\n[DESCR]\n" + line + "y\n[DBLIST]\n"),
            "x.edf:4:65537: line longer than 65536 bytes");
  std::string big(17u << 20, '\n');
  EXPECT_EQ(error_of(big), "x.edf:1:1: file larger than 16 MiB; not an experiment definition");
}

TEST(EdfParse, UnreadableFile) {
  ParseResult r = read("/nonexistent/x.edf");
  EXPECT_FALSE(r.document);
  EXPECT_EQ(r.error, "/nonexistent/x.edf: cannot read: No such file or directory");
}

// A UTF-8 byte-order mark (as Windows editors write it) with CRLF line ends reads as the
// same experiment, and a rewrite keeps the mark.
TEST(EdfParse, AByteOrderMarkAndCrlfLineEndsAreRead) {
  std::string text =
      "\xEF\xBB\xBF[PREAMBLE]\r\nMode COMPARE\r\n[AUTOINST]\r\n[DBLIST]\r\na\r\nb\r\n";
  ParseResult r = parse(text, "bom.edf");
  ASSERT_TRUE(r.document) << r.error;
  EXPECT_EQ(Mode::compare, r.experiment.mode);
  Document doc = *r.document;
  set_autoinst(doc, "include proc\n");
  EXPECT_EQ(0u, write(doc).find("\xEF\xBB\xBF[PREAMBLE]\r\n")) << write(doc);
}

// Lone carriage returns (old Mac editors) end lines as "\n" does: the same experiment,
// the selection read with "\n" line ends, and a rewrite keeps the file's own line ends.
TEST(EdfParse, LoneCarriageReturnLineEndsAreRead) {
  std::string text = "[PREAMBLE]\rMode COMPARE\rAnalyst a b\r[AUTOINST]\rinclude x\rexclude y\r"
                     "[DBLIST]\rr1 first\rr2\r";
  ParseResult r = parse(text, "mac.edf");
  ASSERT_TRUE(r.document) << r.error;
  EXPECT_EQ(Mode::compare, r.experiment.mode);
  EXPECT_EQ("a b", r.experiment.analyst);
  ASSERT_EQ(2u, r.experiment.dblist.size());
  EXPECT_EQ("first", r.experiment.dblist[0].note);
  EXPECT_EQ("include x\nexclude y\n", r.experiment.autoinst);
  EXPECT_EQ("include x\nexclude y\n", autoinst(*r.document).value_or("none"));
  EXPECT_EQ(text, write(*r.document));
  Document doc = *r.document;
  ASSERT_EQ("", set_autoinst(doc, "include z\r\nexclude w"));
  EXPECT_NE(std::string::npos, write(doc).find("[AUTOINST]\rinclude z\rexclude w\r[DBLIST]\r"))
      << write(doc);
  // An error names the line as the reader counts them.
  std::string error = parse("[PREAMBLE]\rMode SOMETIMES\r[DBLIST]\r", "mac.edf").error;
  EXPECT_EQ(0u, error.find("mac.edf:2:6: ")) << error;
}

// What is not a regular file is refused at once: a FIFO would block, /dev/zero would be
// read for gigabytes, a folder is not a file.
TEST(EdfParse, RefusesWhatIsNotARegularFile) {
  char folder[] = "/tmp/idb-edf-XXXXXX";
  ASSERT_NE(nullptr, mkdtemp(folder));
  std::string fifo = std::string(folder) + "/x.edf";
  ASSERT_EQ(0, mkfifo(fifo.c_str(), 0600));
  EXPECT_EQ(read(fifo).error, fifo + ": cannot read: a FIFO, not a regular file");
  EXPECT_EQ(read("/dev/zero").error,
            "/dev/zero: cannot read: a character device, not a regular file");
  EXPECT_EQ(read(folder).error, std::string(folder) + ": cannot read: a folder, not a file");
  unlink(fifo.c_str());
  rmdir(folder);
}

TEST(EdfParse, SkeletonParses) {
  for (Mode m : {Mode::coalesce, Mode::compare}) {
    ParseResult r = parse(skeleton(m), "new.edf");
    ASSERT_TRUE(r.document) << r.error;
    EXPECT_EQ(r.experiment.mode, m);
    EXPECT_EQ(r.experiment.dblist.size(), 2u);
    EXPECT_TRUE(r.warnings.empty());
    EXPECT_EQ(write(*r.document), skeleton(m));
  }
}

} // namespace
} // namespace idb::edf

// The idb-instrument command: list as a table and JSON, apply into a folder and in place
// (with its backup), flags from compile_commands.json, and one-line errors that write
// nothing.
#include "cli.hpp"
#include "files.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <sys/stat.h>

using namespace idb::instr;
using idb::test::read_file;
using idb::test::TempDir;

namespace {

struct CliRun {
  int status;
  std::string out, err;
};

CliRun cli(const std::vector<std::string> &args) {
  std::ostringstream out, err;
  int status = run_cli(args, out, err);
  return {status, out.str(), err.str()};
}

void write(const std::string &path, const std::string &text) {
  std::ofstream(path) << text;
}

// work's loops are two: neither is the function's whole work, so both keep their probes.
const char *const kSource = "static int work(int n) {\n"
                            "  int s = 0;\n"
                            "  for (int i = 0; i < n; i++) s += i;\n"
                            "  for (int i = 0; i < n; i++) s += i;\n"
                            "  return s;\n"
                            "}\n"
                            "int main(void) { return work(3) == 6 ? 0 : 1; }\n";

} // namespace

TEST(Cli, ListPrintsTableAndJson) {
  TempDir dir;
  write(dir.file("w.c"), kSource);
  CliRun table = cli({"list", dir.file("w.c"), "--"});
  ASSERT_EQ(0, table.status) << table.err;
  EXPECT_NE(std::string::npos, table.out.find("PROC"));
  EXPECT_NE(std::string::npos, table.out.find("for loop in work [w.c:3]"));
  EXPECT_NE(std::string::npos, table.out.find("blackbox"));
  CliRun json = cli({"list", dir.file("w.c"), "--json", "--"});
  ASSERT_EQ(0, json.status) << json.err;
  EXPECT_EQ('[', json.out[0]);
  EXPECT_NE(std::string::npos, json.out.find("\"kind\": \"LOOP\""));
  EXPECT_NE(std::string::npos, json.out.find("\"depth\": 1"));
}

// The code's own warnings are the compiler's to give: list prints none of Clang's (nor its
// "1 warning generated."), while an error still says why a file has no candidates.
TEST(Cli, ListShowsClangsErrorsButNotItsWarnings) {
  TempDir dir;
  write(dir.file("warn.c"),
        "int f(int x) {\n  int unused;\n  if (x = 2) return 1;\n  return 0;\n}\n");
  testing::internal::CaptureStderr();
  CliRun quiet = cli({"list", dir.file("warn.c"), "--", "-Wall"});
  std::string printed = testing::internal::GetCapturedStderr();
  ASSERT_EQ(0, quiet.status) << quiet.err;
  EXPECT_NE(std::string::npos, quiet.out.find("f(...) [warn.c:1]"));
  EXPECT_EQ("", printed);
  write(dir.file("bad.c"), "int g(void) { return missing; }\n");
  testing::internal::CaptureStderr();
  CliRun bad = cli({"list", dir.file("bad.c"), "--"});
  printed = testing::internal::GetCapturedStderr();
  EXPECT_NE(0, bad.status);
  EXPECT_NE(std::string::npos, printed.find("use of undeclared identifier 'missing'")) << printed;
}

// What `idb tune` grows from: each loop and call names the loop holding it and its size, and an
// include rule naming a candidate by ID places it even where the size rule would not.
TEST(Cli, CandidatesNameTheirLoopAndAnIdRulePlacesASmallFunction) {
  TempDir dir;
  write(dir.file("n.c"), "static int tiny(int x) { return x + 1; }\n"
                         "int main(int argc, char **argv) {\n"
                         "  int s = 0;\n"
                         "  for (int i = 0; i < argc; i++)\n"
                         "    for (int j = 0; j < argc; j++) s += tiny(j);\n"
                         "  (void)argv;\n"
                         "  return s == 0;\n"
                         "}\n");
  CliRun json = cli({"list", dir.file("n.c"), "--json", "--"});
  ASSERT_EQ(0, json.status) << json.err;
  std::smatch outer, inner, call, tiny;
  ASSERT_TRUE(std::regex_search(json.out, outer,
                                std::regex(R"(\{"id": (\d+), "kind": "LOOP"[^}]*"depth": 1,)")));
  ASSERT_TRUE(std::regex_search(
      json.out, inner,
      std::regex(R"(\{"id": (\d+), "kind": "LOOP"[^}]*"depth": 2, "parent": (\d+))")));
  EXPECT_EQ(outer[1], inner[2]) << json.out;
  ASSERT_TRUE(std::regex_search(
      json.out, call, std::regex(R"("kind": "CALL"[^}]*"parent": (\d+),[^}]*"callee": "tiny")")));
  EXPECT_EQ(inner[1], call[1]) << "the call is in the inner loop";
  EXPECT_NE(std::string::npos, json.out.find(R"("size": "1", "callee": "tiny")"))
      << "a call says how much its callee holds";
  ASSERT_TRUE(std::regex_search(
      json.out, tiny,
      std::regex(
          R"(\{"id": (\d+), "kind": "PROC"[^}]*"function": "tiny"[^}]*"skipped": "small function)")));

  write(dir.file("sel"), "default\ninclude proc id=" + tiny[1].str() + "\n");
  CliRun forced = cli({"list", dir.file("n.c"), "--json", "--selection", dir.file("sel"), "--"});
  ASSERT_EQ(0, forced.status) << forced.err;
  EXPECT_TRUE(
      std::regex_search(forced.out, std::regex(R"("function": "tiny",[^}]*"selected": true})")))
      << forced.out;
  write(dir.file("sel2"), "default\ninclude proc function=tiny\n");
  CliRun by_name = cli({"list", dir.file("n.c"), "--json", "--selection", dir.file("sel2"), "--"});
  EXPECT_TRUE(std::regex_search(
      by_name.out,
      std::regex(R"("function": "tiny",[^}]*"selected": true, "skipped": "small function)")))
      << "a rule by name keeps the size rule";
}

TEST(Cli, ListKeepsLongDescriptionsApartFromTheirSelection) {
  TempDir dir;
  std::string name(60, 'f');
  write(dir.file("w.c"), "static int " + name +
                             "(int n) {\n  int s = n;\n  while (n--)\n    s += n;\n"
                             "  return s;\n}\n"
                             "int main(void) { return " +
                             name + "(1) == 1 ? 0 : 1; }\n");
  // The loop is its function's whole work: the bounded rule would leave it out.
  write(dir.file("all.sel"), "default\nset bounded-weight 0\n");
  CliRun table = cli({"list", dir.file("w.c"), "--selection", dir.file("all.sel"), "--"});
  ASSERT_EQ(0, table.status) << table.err;
  std::istringstream lines(table.out);
  std::string line;
  int rows = 0;
  while (std::getline(lines, line)) {
    if (line.find(name) == std::string::npos) continue;
    ++rows; // its PROC and LOOP, and the CALL in main
    EXPECT_TRUE(std::regex_search(line, std::regex(R"(\] +(yes|blackbox|-)$)"))) << line;
  }
  EXPECT_EQ(3, rows) << table.out;
}

TEST(Cli, ApplyWritesOutputAndManifestAndLeavesTheSourceAlone) {
  TempDir dir;
  write(dir.file("w.c"), kSource);
  CliRun run = cli({"apply", dir.file("w.c"), "--out", dir.file("out"), "--"});
  ASSERT_EQ(0, run.status) << run.err;
  EXPECT_EQ(kSource, read_file(dir.file("w.c")));
  std::string out = read_file(dir.file("out/w.c"));
  EXPECT_NE(std::string::npos, out.find("idb_scope_open_(0, IDB_PROC"));
  std::string manifest = read_file(dir.file("out/idb-manifest.tsv"));
  EXPECT_EQ(0u, manifest.find("id\tkind\tdescription\tfile\tline\tfunction\n"));
  EXPECT_NE(std::string::npos, manifest.find("\tLOOP\tfor loop in work [w.c:3]\t"));
}

// mode=dynamic: a white box whose registration makes it the runtime's dynamic probe.
TEST(Cli, ADynamicLoopIsAWhiteBoxRegisteredAsDynamic) {
  TempDir dir;
  write(dir.file("w.c"), kSource);
  write(dir.file("d.sel"), "include proc\ninclude loop mode=dynamic function=work\n");
  CliRun listed = cli({"list", dir.file("w.c"), "--selection", dir.file("d.sel"), "--"});
  ASSERT_EQ(0, listed.status) << listed.err;
  EXPECT_NE(std::string::npos, listed.out.find("dynamic")) << listed.out;
  CliRun run = cli(
      {"apply", dir.file("w.c"), "--out", dir.file("out"), "--selection", dir.file("d.sel"), "--"});
  ASSERT_EQ(0, run.status) << run.err;
  std::string out = read_file(dir.file("out/w.c"));
  EXPECT_NE(std::string::npos, out.find("for (int i = 0; i < n; i++) { idb_scope_t")) << out;
  std::size_t registered = out.find("idb_register_probe(IDB_LOOP, ");
  ASSERT_NE(std::string::npos, registered) << out;
  std::string id = out.substr(registered + 29, out.find(',', registered + 29) - registered - 29);
  EXPECT_NE(std::string::npos, out.find("idb_dynamic_probe(" + id + ");")) << out;
}

// `list` names the likely time step: of the outermost loops with MPI calls in main's call
// tree, the one whose calls reach most (here the loop in run, not the set-up loop).
TEST(Cli, ListSuggestsTheTimeStepLoopForDynamics) {
  TempDir dir;
  write(
      dir.file("s.c"),
      "int MPI_Barrier(int comm);\n"
      "static void exchange(int n) { for (int i = 0; i < n; ++i) MPI_Barrier(i); }\n"
      "static double work(int n) { double s = 0; for (int i = 0; i < n; ++i) s += i; return s; }\n"
      "static void setup(int n) { for (int i = 0; i < n; ++i) MPI_Barrier(0); }\n"
      "static double run(int n) {\n"
      "  double s = 0;\n"
      "  for (int step = 0; step < n; ++step) { s += work(n); exchange(n); }\n"
      "  return s;\n"
      "}\n"
      "int main(void) { setup(3); return run(3) > 0 ? 0 : 1; }\n");
  CliRun listed = cli({"list", dir.file("s.c"), "--"});
  ASSERT_EQ(0, listed.status) << listed.err;
  EXPECT_NE(std::string::npos, listed.err.find("the time step is likely for loop in run [s.c:7]"))
      << listed.err;
  CliRun json = cli({"list", dir.file("s.c"), "--json", "--"});
  ASSERT_EQ(0, json.status) << json.err;
  std::size_t marked = json.out.find("\"dynamic_candidate\": true");
  ASSERT_NE(std::string::npos, marked) << json.out;
  std::size_t object = json.out.rfind('{', marked);
  EXPECT_NE(std::string::npos, json.out.substr(object, marked - object).find("for loop in run"))
      << json.out;
  // Once it is dynamic, nothing more is said.
  write(dir.file("d.sel"), "default\ninclude loop function=run mode=dynamic\n");
  CliRun chosen = cli({"list", dir.file("s.c"), "--selection", dir.file("d.sel"), "--"});
  EXPECT_EQ(std::string::npos, chosen.err.find("time step")) << chosen.err;
}

TEST(Cli, InPlaceKeepsABackupAndRefusesToOverwriteIt) {
  TempDir dir;
  write(dir.file("w.c"), kSource);
  std::string manifest = dir.file("m.tsv");
  CliRun run = cli({"apply", dir.file("w.c"), "--in-place", "--manifest", manifest, "--"});
  ASSERT_EQ(0, run.status) << run.err;
  EXPECT_EQ(kSource, read_file(dir.file("w.c.idb-orig")));
  std::string instrumented = read_file(dir.file("w.c"));
  EXPECT_NE(kSource, instrumented);
  CliRun again = cli({"apply", dir.file("w.c"), "--in-place", "--manifest", manifest, "--"});
  EXPECT_EQ(1, again.status);
  EXPECT_NE(std::string::npos, again.err.find("already instrumented")) << again.err;
  EXPECT_EQ(instrumented, read_file(dir.file("w.c")));
  EXPECT_EQ(kSource, read_file(dir.file("w.c.idb-orig")));
}

TEST(Cli, FlagsComeFromCompileCommands) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("inc"));
  write(dir.file("inc/size.h"), "#define SIZE 4\n");
  write(dir.file("p.c"), "#include \"size.h\"\n"
                         "int sum(const int *a) {\n"
                         "  int s = 0;\n"
                         "  for (int i = 0; i < SIZE * FACTOR; i++) s += a[i];\n"
                         "  return s;\n"
                         "}\n");
  write(dir.file("compile_commands.json"),
        "[{\"directory\": \"" + dir.path() + "\", \"file\": \"p.c\", " +
            "\"arguments\": [\"gcc\", \"-Iinc\", \"-DFACTOR=2\", \"-c\", \"p.c\"]}]\n");
  CliRun with_db = cli({"list", dir.file("p.c"), "-p", dir.path(), "--json"});
  ASSERT_EQ(0, with_db.status) << with_db.err;
  EXPECT_NE(std::string::npos, with_db.out.find("for loop in sum [p.c:4]"));
  // Without the database the file does not compile: one error line, nothing listed.
  CliRun without = cli({"list", dir.file("p.c"), "--"});
  EXPECT_EQ(1, without.status);
  EXPECT_EQ("", without.out);
}

TEST(Cli, ErrorsAreOneLineAndWriteNothing) {
  TempDir dir;
  write(dir.file("w.c"), kSource);
  write(dir.file("bad.sel"), "include proc\ninclude loops\n");
  CliRun bad_sel = cli({"apply", dir.file("w.c"), "--out", dir.file("out"), "--selection",
                        dir.file("bad.sel"), "--"});
  EXPECT_EQ(2, bad_sel.status);
  EXPECT_EQ(0u, bad_sel.err.find("idb-instrument: " + dir.file("bad.sel") +
                                 ":2:9: unknown kind 'loops'\n"))
      << bad_sel.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out")));
  CliRun missing =
      cli({"apply", dir.file("w.c"), dir.file("nope.c"), "--out", dir.file("out"), "--"});
  EXPECT_EQ(1, missing.status);
  EXPECT_NE(std::string::npos, missing.err.find("(nothing written)")) << missing.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out")));
  EXPECT_EQ(2, cli({"apply", dir.file("w.c"), "--"}).status); // neither --out nor --in-place
  EXPECT_EQ(2, cli({"frobnicate", dir.file("w.c")}).status);
  // A selection named by mistake as a FIFO is refused at once, not waited on.
  ASSERT_EQ(0, mkfifo(dir.file("sel.fifo").c_str(), 0600));
  CliRun fifo = cli({"list", dir.file("w.c"), "--selection", dir.file("sel.fifo"), "--"});
  EXPECT_EQ(2, fifo.status);
  EXPECT_NE(std::string::npos, fifo.err.find("cannot read selection file " + dir.file("sel.fifo") +
                                             ": a FIFO, not a regular file"))
      << fifo.err;
}

TEST(Cli, PrintsItsVersion) {
  CliRun run = cli({"--version"});
  EXPECT_EQ(0, run.status);
  EXPECT_EQ("idb-instrument " IDB_VERSION "\n", run.out);
}

TEST(Cli, DefaultSelectionParsesBack) {
  CliRun run = cli({"default-selection"});
  ASSERT_EQ(0, run.status);
  EXPECT_NE(std::string::npos, run.out.find("include loop depth=1 mode=blackbox"));
}

// An experiment definition file carries the selection in [AUTOINST]: --edf reads it (the
// default selection, with a note, when there is none); with --selection too, apply
// records the new selection there and keeps every other byte.
TEST(Cli, SelectionComesFromAndGoesBackToTheExperiment) {
  TempDir dir;
  write(dir.file("w.c"), kSource);
  const std::string head = "# growing the tree\n[PREAMBLE]\nMode  COALESCE\n[AUTOINST]\n";
  const std::string tail = "[DBLIST]\nrun-1  the first\n";
  write(dir.file("x.edf"), head + "include loop depth=1 mode=whitebox\n" + tail);
  CliRun listed = cli({"list", dir.file("w.c"), "--edf", dir.file("x.edf"), "--"});
  ASSERT_EQ(0, listed.status) << listed.err;
  EXPECT_NE(std::string::npos, listed.out.find("whitebox")) << listed.out;
  EXPECT_EQ(std::string::npos, listed.out.find("blackbox")) << listed.out;

  write(dir.file("grown.sel"), "include proc\ninclude loop depth=1 mode=blackbox\n");
  CliRun applied = cli({"apply", dir.file("w.c"), "--out", dir.file("out"), "--edf",
                        dir.file("x.edf"), "--selection", dir.file("grown.sel"), "--"});
  ASSERT_EQ(0, applied.status) << applied.err;
  EXPECT_EQ(head + "include proc\ninclude loop depth=1 mode=blackbox\n" + tail,
            read_file(dir.file("x.edf")));
  EXPECT_NE(std::string::npos, read_file(dir.file("out/w.c")).find("idb_scope_open_(0, IDB_PROC"));

  write(dir.file("none.edf"), "[PREAMBLE]\nMode  COMPARE\n[DBLIST]\nrun-1\n");
  CliRun missing = cli({"list", dir.file("w.c"), "--edf", dir.file("none.edf"), "--"});
  EXPECT_EQ(0, missing.status) << missing.err;
  EXPECT_NE(std::string::npos,
            missing.err.find("none.edf has no selection in [AUTOINST]: using the default"))
      << missing.err;
  EXPECT_NE(std::string::npos, missing.out.find("blackbox")) << "the default selection";
  CliRun bad = cli({"list", dir.file("w.c"), "--edf", dir.file("absent.edf"), "--"});
  EXPECT_EQ(2, bad.status);
  EXPECT_NE(std::string::npos, bad.err.find("absent.edf")) << bad.err;
}

TEST(Cli, SeveralFilesAreOneProgram) {
  // scale's callee is bounded in its own file: given together, scale is a bounded function
  // and its reason says the program index decided; given alone, scale keeps its probe; with
  // IDB_INDEX=0, so do both.
  TempDir dir;
  write(dir.file("leaf.c"), "double leaf(double x) { return x * 2.0 + 1.0; }\n");
  write(dir.file("scale.c"), "double leaf(double x);\n"
                             "double scale(double x) {\n"
                             "  double a = leaf(x), b = a * a, c = b - a;\n"
                             "  a += c; b *= a; c -= b; a = a * c; a -= 1; b += 2;\n"
                             "  return a + b + c;\n"
                             "}\n");
  CliRun both = cli({"list", dir.file("scale.c"), dir.file("leaf.c"), "--json", "--"});
  ASSERT_EQ(0, both.status) << both.err;
  EXPECT_NE(std::string::npos, both.out.find("through the program index")) << both.out;
  CliRun alone = cli({"list", dir.file("scale.c"), "--json", "--"});
  ASSERT_EQ(0, alone.status) << alone.err;
  EXPECT_EQ(std::string::npos, alone.out.find("bounded function")) << alone.out;
  setenv("IDB_INDEX", "0", 1);
  CliRun off = cli({"list", dir.file("scale.c"), dir.file("leaf.c"), "--json", "--"});
  unsetenv("IDB_INDEX");
  ASSERT_EQ(0, off.status) << off.err;
  EXPECT_EQ(std::string::npos, off.out.find("program index")) << off.out;
}

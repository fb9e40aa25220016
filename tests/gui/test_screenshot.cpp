// The built idb-gui run the way the docs run it: --screenshot of every view of a run and
// of an experiment in both modes, each a real PNG; --export of the tree view; and the
// command line's refusals.
#include "fixtures.hpp"
#include "test_database.hpp"

#include "csv.hpp"
#include "files.hpp"
#include "idb/analysis/diff.hpp"
#include "idb/analysis/exports.hpp"
#include "idb/analysis/trees.hpp"

#include <QFile>
#include <QImage>
#include <QProcess>

#include <gtest/gtest.h>

#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace idb;

namespace {

struct Result {
  int code = -1;
  QString err;
};

Result run_gui(const QStringList &args) {
  QProcess p;
  p.setProgram(QStringLiteral(IDB_GUI_EXE));
  p.setArguments(args);
  p.start();
  if (!p.waitForFinished(120000)) return {};
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
          QString::fromUtf8(p.readAllStandardError())};
}

} // namespace

TEST(Screenshot, RendersEveryView) {
  auto db = test::fresh_database();
  {
    auto store_db = store::open(db->url());
    store::load(*store_db, test::gui_profile(), {"small-1", {}, {}});
    store::load(*store_db, test::gui_profile(1.2), {"small-2", {}, {}});
    store::load(*store_db, test::gui_profile(1.5), {"large-1", {}, {}});
    store::load(*store_db, test::gui_profile(1.6), {"large-2", {}, {}});
  }
  test::TempDir dir;
  const QString url = QString::fromStdString(db->url());
  for (const char *view : {"runs", "run", "chart", "tree", "flat", "flame", "source", "sql"}) {
    const QString out = QString::fromStdString(dir.file(std::string(view) + ".png"));
    Result r = run_gui({"--db", url, "--screenshot", out, "--view", view});
    ASSERT_EQ(r.code, 0) << view << ": " << r.err.toStdString();
    QImage image(out);
    EXPECT_EQ(image.size(), QSize(1280, 820)) << view;
  }
  std::ofstream(dir.file("e.edf")) << "[PREAMBLE]\nMode COMPARE\n[DBLIST]\nsmall-1\nsmall-2\n";
  for (const char *view : {"coalesce", "compare"}) {
    const QString out = QString::fromStdString(dir.file(std::string(view) + ".png"));
    Result r = run_gui({"--db", url, "--screenshot", out, "--view", view,
                        QString::fromStdString(dir.file("e.edf"))});
    ASSERT_EQ(r.code, 0) << view << ": " << r.err.toStdString();
    EXPECT_FALSE(QImage(out).isNull()) << view;
  }
  // The diff of small-1 against small-2, as a picture and as rows.
  const QString diff = QString::fromStdString(dir.file("diff.png"));
  Result d = run_gui({"--db", url, "--run", "small-1", "--screenshot", diff, "--view", "diff",
                      "--compare", "small-2"});
  ASSERT_EQ(d.code, 0) << d.err.toStdString();
  EXPECT_EQ(QImage(diff).size(), QSize(1280, 820));
  const QString rows = QString::fromStdString(dir.file("diff.csv"));
  d = run_gui({"--db", url, "--run", "small-1", "--export", rows, "--view", "diff", "--compare",
               "small-2"});
  ASSERT_EQ(d.code, 0) << d.err.toStdString();
  {
    auto store_db = store::open(db->url());
    const profile::Profile a = store::read_run(*store_db, "small-1");
    const profile::Profile b = store::read_run(*store_db, "small-2");
    std::vector<std::vector<std::string>> cells;
    for (const analysis::DiffRow &row : analysis::diff_trees(
             a, analysis::aggregate_trees(a)[0].cfh, b, analysis::aggregate_trees(b)[0].cfh))
      cells.push_back(analysis::diff_export_cells(row));
    ASSERT_EQ(cells.size(), 5u);
    EXPECT_EQ(test::read_file(rows.toStdString()),
              gui::toCsv(analysis::diff_export_columns(), cells).toStdString());
  }
  // Two groups, each named by a label pattern: the rows of analysis::diff_groups.
  d = run_gui({"--db", url, "--run", "small-1", "--export", rows, "--view", "diff", "--baseline",
               "small-*", "--compare", "large-*"});
  ASSERT_EQ(d.code, 0) << d.err.toStdString();
  {
    auto store_db = store::open(db->url());
    std::vector<profile::Profile> runs;
    std::vector<analysis::Tree> trees;
    for (const char *label : {"small-1", "small-2", "large-1", "large-2"}) {
      runs.push_back(store::read_run(*store_db, label));
      trees.push_back(analysis::aggregate_trees(runs.back())[0]);
    }
    std::vector<std::vector<std::string>> cells;
    for (const analysis::DiffRow &row :
         analysis::diff_groups({{&runs[0], &trees[0].cfh}, {&runs[1], &trees[1].cfh}},
                               {{&runs[2], &trees[2].cfh}, {&runs[3], &trees[3].cfh}}))
      cells.push_back(analysis::diff_export_cells(row));
    ASSERT_EQ(cells.size(), 5u);
    EXPECT_FALSE(cells[0][10].empty()) << "a p for every node";
    EXPECT_EQ(test::read_file(rows.toStdString()),
              gui::toCsv(analysis::diff_export_columns(), cells).toStdString());
  }
  d = run_gui({"--db", url, "--run", "small-1", "--screenshot", diff, "--view", "diff", "--compare",
               "nosuch"});
  EXPECT_EQ(d.code, 1);
  EXPECT_TRUE(d.err.contains("no run is labelled 'nosuch'")) << d.err.toStdString();
  d = run_gui({"--db", url, "--run", "small-1", "--screenshot", diff, "--view", "diff", "--compare",
               "small-1", "--baseline", "tiny-*"});
  EXPECT_EQ(d.code, 1);
  EXPECT_TRUE(d.err.contains("'tiny-*'")) << d.err.toStdString();
  // --node chooses a node of the tree (or the flame graph's frame to zoom into) by the
  // start of its label; one nobody has fails.
  const QString out = QString::fromStdString(dir.file("node.png"));
  Result r = run_gui({"--db", url, "--screenshot", out, "--view", "tree", "--node", "output"});
  EXPECT_EQ(r.code, 0) << r.err.toStdString();
  r = run_gui({"--db", url, "--screenshot", out, "--view", "tree", "--node", "nosuch"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.contains("no node of the tree is labelled 'nosuch")) << r.err.toStdString();
  r = run_gui({"--db", url, "--screenshot", out, "--view", "flame", "--node", "solve"});
  EXPECT_EQ(r.code, 0) << r.err.toStdString();
  r = run_gui({"--db", url, "--screenshot", out, "--view", "flame", "--node", "nosuch"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.contains("no frame of the flame graph is labelled 'nosuch"))
      << r.err.toStdString();
  r = run_gui({"--db", url, "--screenshot", out, "--view", "flat", "--node", "solve"});
  EXPECT_EQ(r.code, 0) << r.err.toStdString();
  r = run_gui({"--db", url, "--screenshot", out, "--view", "flat", "--node", "nosuch"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.contains("no probe of the flat profile is labelled 'nosuch"))
      << r.err.toStdString();
  for (const char *view : {"run", "source"}) {
    r = run_gui({"--db", url, "--screenshot", out, "--view", view, "--node", "nosuch"});
    EXPECT_EQ(r.code, 1) << view;
    EXPECT_TRUE(r.err.contains("no node of the tree is labelled 'nosuch")) << r.err.toStdString();
  }
  // The Iterations view of a run with dynamics, on a probe --node names.
  store::load(*store::open(db->url()), test::gui_dynamic_profile(), {"steps", {}, {}});
  const QString steps = QString::fromStdString(dir.file("iterations.png"));
  r = run_gui({"--db", url, "--run", "steps", "--screenshot", steps, "--view", "iterations",
               "--node", "exchange"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  EXPECT_EQ(QImage(steps).size(), QSize(1280, 820));
  r = run_gui({"--db", url, "--run", "steps", "--screenshot", steps, "--view", "iterations",
               "--node", "nosuch"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.contains("no probe of the iterations is labelled 'nosuch"))
      << r.err.toStdString();
}

// --view tree --export: the rows of the run as a whole, which idb report --aggregate
// --format csv writes too (the examples' tests compare the two programs on every run):
// here against the analysis library's rows of the stored run, on this engine, with a named
// CFH kept apart from the threads' tree.
TEST(Screenshot, ExportsTheTreesOfTheRunAsAWhole) {
  auto db = test::fresh_database();
  profile::Profile p = test::gui_profile();
  profile::Cfh object = p.cfhs[0];
  object.named = true;
  object.name = "field";
  p.cfhs.push_back(object);
  {
    auto store_db = store::open(db->url());
    store::load(*store_db, p, {"objects", {}, {}});
  }
  test::TempDir dir;
  const QString out = QString::fromStdString(dir.file("tree.csv"));
  Result r = run_gui({"--db", QString::fromStdString(db->url()), "--run", "objects", "--view",
                      "tree", "--export", out});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  auto store_db = store::open(db->url());
  profile::Profile run = store::read_run(*store_db, "objects");
  std::vector<std::vector<std::string>> rows;
  for (const analysis::Tree &t : analysis::aggregate_trees(run))
    for (const analysis::TreeRow &row : analysis::tree_rows(run, t.cfh))
      rows.push_back(analysis::tree_export_cells(t.title, row));
  ASSERT_EQ(rows.size(), 10u); // 5 nodes in the threads' tree, 5 in the object's
  EXPECT_EQ(test::read_file(out.toStdString()),
            gui::toCsv(analysis::tree_export_columns(), rows).toStdString());
  // The flame graph writes its tree's folded stacks, as idb export --format folded.
  const QString folded = QString::fromStdString(dir.file("flame.folded"));
  r = run_gui({"--db", QString::fromStdString(db->url()), "--run", "objects", "--view", "flame",
               "--export", folded});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  EXPECT_EQ(test::read_file(folded.toStdString()),
            analysis::folded_stacks(run, analysis::aggregate_trees(run)[0].cfh));
  // The other views write the table File → Export table writes.
  const QString runs = QString::fromStdString(dir.file("runs.csv"));
  r = run_gui({"--db", QString::fromStdString(db->url()), "--export", runs, "--view", "runs"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  std::string text = test::read_file(runs.toStdString());
  EXPECT_EQ(text.rfind("label,program,nprocs,", 0), 0u) << text;
  EXPECT_NE(text.find("\nobjects,small,2,"), std::string::npos) << text;
  const QString chart = QString::fromStdString(dir.file("chart.csv"));
  r = run_gui({"--db", QString::fromStdString(db->url()), "--export", chart, "--view", "chart"});
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  text = test::read_file(chart.toStdString());
  EXPECT_EQ(text.rfind("category,rank 0,rank 1\n", 0), 0u) << text;
  // main() on rank 0: 9 s in its thread and 9 in the object; rank 1: its thread's 9 s.
  EXPECT_NE(text.find("\nmain(),18,9\n"), std::string::npos) << text;
  // A target that is not a regular file (/dev/null; here a FIFO held open) is written in
  // place and stays what it was.
  const std::string fifo = dir.file("rows.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  int held = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(held, 0);
  r = run_gui({"--db", QString::fromStdString(db->url()), "--export", QString::fromStdString(fifo),
               "--view", "runs"});
  char head[32] = {};
  ssize_t got = ::read(held, head, sizeof head - 1);
  ::close(held);
  ASSERT_EQ(r.code, 0) << r.err.toStdString();
  EXPECT_EQ(std::string(head, got > 0 ? std::size_t(got) : 0).rfind("label,program,", 0), 0u);
  EXPECT_TRUE(std::filesystem::is_fifo(fifo)) << "the FIFO was replaced";
  // A file that cannot be written: one line, exit 1.
  r = run_gui({"--db", QString::fromStdString(db->url()), "--export",
               QString::fromStdString(dir.file("no/such/folder/tree.csv")), "--view", "tree"});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.contains("cannot write")) << r.err.toStdString();
}

TEST(Screenshot, RefusesWhatItCannotDo) {
  test::TempDir dir;
  const QString out = QString::fromStdString(dir.file("x.png"));
  Result r = run_gui({"--screenshot", out, "--view", "pie"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.err.contains("--view must be")) << r.err.toStdString();
  r = run_gui({"--screenshot", out, "--view", "coalesce"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.err.contains("needs an experiment file")) << r.err.toStdString();
  r = run_gui({"--db", QString::fromStdString(dir.file("none.db")), "--screenshot", out});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.contains("none.db")) << r.err.toStdString();
  EXPECT_FALSE(QFile::exists(out));
  r = run_gui({"--export", out, "--view", "chart"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.err.contains("--export --view chart needs --db")) << r.err.toStdString();
  r = run_gui({"--screenshot", out, "--view", "diff", "--db", "x.db"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.err.contains("--view diff needs --compare OTHER")) << r.err.toStdString();
  r = run_gui({"--screenshot", out, "--view", "tree", "--compare", "x", "--db", "x.db"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.err.contains("--compare goes with --view diff")) << r.err.toStdString();
  r = run_gui({"--screenshot", out, "--view", "diff", "--baseline", "x", "--db", "x.db"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.err.contains("--view diff needs --compare OTHER")) << r.err.toStdString();
  r = run_gui({"--screenshot", out, "--view", "tree", "--baseline", "x", "--db", "x.db"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.err.contains("--baseline goes with --view diff and --compare"))
      << r.err.toStdString();
  r = run_gui({"--export", out, "--screenshot", out});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.err.contains("exclude each other")) << r.err.toStdString();
  r = run_gui(
      {"--db", QString::fromStdString(dir.file("none.db")), "--view", "tree", "--export", out});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.contains("none.db")) << r.err.toStdString();
  EXPECT_FALSE(QFile::exists(out));
  // A run the database does not hold: one line, exit 1 (it waited for ever before).
  auto db = test::fresh_database();
  store::load(*store::open(db->url()), test::gui_profile(), {"small-1", {}, {}});
  r = run_gui({"--db", QString::fromStdString(db->url()), "--run", "nosuch", "--view", "tree",
               "--screenshot", out});
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(r.err.contains("no run labelled 'nosuch'")) << r.err.toStdString();
  EXPECT_FALSE(QFile::exists(out));
}

// Without a display: --help and --version answer, a screenshot renders offscreen by
// itself, and a window is refused with the reason (Qt aborted in each case before).
TEST(Screenshot, WorksWithoutADisplayWhereItCan) {
  auto db = test::fresh_database();
  store::load(*store::open(db->url()), test::gui_profile(), {"small-1", {}, {}});
  test::TempDir dir;
  const QString out = QString::fromStdString(dir.file("runs.png"));
  auto bare = [](const QStringList &args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
      env.remove(QString::fromLatin1(name));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(IDB_GUI_EXE), args);
    if (!p.waitForFinished(120000)) return std::make_pair(-1, QString());
    return std::make_pair(p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                          QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError()));
  };
  auto [help_code, help] = bare({"--help"});
  EXPECT_EQ(help_code, 0);
  EXPECT_TRUE(help.contains("--screenshot")) << help.toStdString();
  auto [version_code, version] = bare({"--version"});
  EXPECT_EQ(version_code, 0);
  EXPECT_TRUE(version.startsWith("idb-gui ")) << version.toStdString();
  auto [shot_code, shot] =
      bare({"--db", QString::fromStdString(db->url()), "--screenshot", out, "--view", "runs"});
  EXPECT_EQ(shot_code, 0) << shot.toStdString();
  EXPECT_EQ(QImage(out).size(), QSize(1280, 820));
  auto [window_code, window] = bare({"--db", QString::fromStdString(db->url())});
  EXPECT_EQ(window_code, 2);
  EXPECT_TRUE(window.contains("no display")) << window.toStdString();
}

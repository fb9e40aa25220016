// Opening a large run in idb-gui (docs/PERFORMANCE.md, "The GUI"): loads a synthetic
// profile (tests/store/synthetic.hpp; default 256 ranks x 2,000 nodes) into a fresh SQLite
// file, untimed, then times from the request to open the database in a MainWindow until
// the run is shown (read off the GUI thread, summarised, tree model and first chart set:
// the runShown signal) and until the chart and tree tabs have been painted once; and, for
// a run large enough to come in two steps, until its lowest rank's views are painted. Also
// times the parts on their own: store::read_run, and summarize_run. Prints one line per
// measure, the median of --repeat runs.
//   bench_gui_open [--ranks N] [--nodes N] [--repeat N] [--db PATH]
#include "main_window.hpp"
#include "synthetic.hpp"

#include <QApplication>
#include <QSettings>
#include <QSignalSpy>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Options {
  int ranks = 256, nodes = 2000, repeat = 3;
  std::string db = "/tmp/idb-bench-gui.db";
};

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string arg = argv[i];
    if (arg == "--ranks") o.ranks = std::atoi(argv[i + 1]);
    if (arg == "--nodes") o.nodes = std::atoi(argv[i + 1]);
    if (arg == "--repeat") o.repeat = std::max(1, std::atoi(argv[i + 1]));
    if (arg == "--db") o.db = argv[i + 1];
  }
  return o;
}

struct Times {
  double first = 0;   // the lowest rank's tree and chart painted (a first look)
  double shown = 0;   // the whole run shown: runShown
  double painted = 0; // and its chart and tree painted
};

void paint_views(idb::gui::MainWindow &window) {
  window.showView(idb::gui::MainWindow::View::chart);
  window.chartView()->repaint();
  window.showView(idb::gui::MainWindow::View::tree);
  window.treeView()->repaint();
}

// One open in a fresh window.
Times open_once(const std::string &db, QSettings &settings) {
  idb::gui::MainWindow window(settings);
  window.resize(1280, 820);
  window.show();
  Times t;
  const auto start = Clock::now();
  QObject::connect(&window, &idb::gui::MainWindow::firstLookShown, &window, [&] {
    paint_views(window);
    t.first = seconds_since(start);
  });
  QSignalSpy shown(&window, &idb::gui::MainWindow::runShown);
  QSignalSpy failed(&window, &idb::gui::MainWindow::errorShown);
  window.openDatabase(QString::fromStdString(db), QStringLiteral("bench"));
  if (!shown.wait(600000) || failed.count()) {
    std::fprintf(stderr, "bench_gui_open: %s\n", qPrintable(window.errorText()));
    std::exit(1);
  }
  t.shown = seconds_since(start);
  paint_views(window);
  t.painted = seconds_since(start);
  if (t.first == 0) t.first = t.painted; // a small run comes in one step
  return t;
}

} // namespace

int main(int argc, char **argv) {
  ::setenv("QT_QPA_PLATFORM", "offscreen", 0);
  QApplication app(argc, argv);
  const Options o = parse(argc, argv);
  std::filesystem::remove(o.db);
  {
    auto db = idb::store::open(o.db);
    idb::store::load(*db, idb::test::synthetic_profile(o.ranks, o.nodes), {"bench", {}, {}});
  }
  std::vector<double> read, summary, first, shown, painted;
  QSettings settings(QString::fromStdString(o.db + ".ini"), QSettings::IniFormat);
  for (int i = 0; i < o.repeat; ++i) {
    auto db = idb::store::open(o.db);
    auto start = Clock::now();
    idb::profile::Profile p = idb::store::read_run(*db, "bench");
    read.push_back(seconds_since(start));
    start = Clock::now();
    idb::gui::RunData run = idb::gui::summarize_run("bench", std::move(p), {});
    summary.push_back(seconds_since(start));
    Times t = open_once(o.db, settings);
    first.push_back(t.first);
    shown.push_back(t.shown);
    painted.push_back(t.painted);
  }
  std::printf("ranks %d nodes %d repeat %d (medians)\n", o.ranks, o.nodes, o.repeat);
  std::printf("read_run s %.3f\nsummarize_run s %.3f\n", median(read), median(summary));
  std::printf("open to first look (lowest rank's chart and tree painted) s %.3f\n", median(first));
  std::printf("open to whole run shown s %.3f\nopen to whole run painted s %.3f\n", median(shown),
              median(painted));
  std::filesystem::remove(o.db);
  std::filesystem::remove(o.db + ".ini");
  return 0;
}

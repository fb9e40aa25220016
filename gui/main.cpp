// idb-gui: the Qt front end. `idb-gui` asks for a database; `idb-gui --db URL` opens one
// (a SQLite path or a postgresql:// URL, the password from PGPASSWORD or ~/.pgpass);
// `idb-gui [--db URL] FILE.edf` opens an experiment (--db overrides the file's database);
// `--screenshot OUT.png --view runs|run|tree|flat|flame|diff|source|chart|sql|iterations|coalesce|
// compare`
// renders a view offscreen and exits (`--view diff --compare OTHER [--baseline BASE]` sets
// the run OTHER against --run, or against BASE; either may be a label pattern naming a
// group of repeated runs); `--export OUT.csv` instead writes the rows the view shows (the tree: the
// run as a whole, as `idb report --aggregate --format csv`; the flame graph: folded
// stacks, as `idb export RUN --format folded`; the diff: one row per node of either run)
// and exits. Both work without
// a display, as do --help and --version.
#include "main_window.hpp"
#include "screenshot.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <initializer_list>

namespace {

int fail(const QString &message) {
  std::fprintf(stderr, "idb-gui: %s\n", qPrintable(message));
  return 2;
}

bool given(int argc, char **argv, std::initializer_list<const char *> options) {
  for (int i = 1; i < argc; ++i)
    for (const char *option : options)
      if (std::strcmp(argv[i], option) == 0) return true;
  return false;
}

void name_application() {
  QCoreApplication::setApplicationName(QStringLiteral("idb-gui"));
  QCoreApplication::setOrganizationName(QStringLiteral("IDB"));
  QCoreApplication::setApplicationVersion(QStringLiteral(IDB_VERSION));
}

void add_options(QCommandLineParser &cli) {
  cli.setApplicationDescription(QStringLiteral("IDB: explore the runs of an IDB database"));
  cli.addHelpOption();
  cli.addVersionOption();
  cli.addOptions(
      {{"db", "The database: a SQLite file or postgresql://user@host:port/db.", "URL"},
       {"run", "The run to show first (default: the first).", "LABEL"},
       {"screenshot", "Render --view to this PNG offscreen and exit.", "OUT.png"},
       {"view",
        "What --screenshot or --export shows: runs, run, chart, tree, flat, flame, diff, "
        "source, sql, iterations, coalesce or compare.",
        "NAME", "runs"},
       {"query", "The canned query of --view sql.", "NAME", "hottest_procedures"},
       {"compare",
        "What --view diff sets against the baseline: a run, or a label pattern "
        "(quoted, as 'pic-mul-*') naming a group of repeated runs.",
        "OTHER"},
       {"baseline",
        "The baseline of --view diff (default: --run): a run, or a label pattern "
        "naming a group of repeated runs.",
        "BASE"},
       {"node",
        "The node --view tree or run chooses, --view flame zooms into or --view source "
        "shows, or the probe --view flat chooses or --view "
        "iterations shows: the first whose label starts with LABEL (default: the hot "
        "path's leaf; the whole tree; the first probe; the dynamic probe).",
        "LABEL"},
       {"export",
        "Write the rows --view shows to this CSV offscreen and exit (tree: every "
        "tree of the run as a whole, as idb report --aggregate --format csv; flame: "
        "folded stacks, as idb export --format folded; diff: one row per node of either "
        "run).",
        "OUT.csv"}});
  cli.addPositionalArgument("FILE.edf", "An experiment definition file to open.", "[FILE.edf]");
}

} // namespace

int main(int argc, char **argv) {
  // --help and --version need no display: answered before the GUI application exists.
  if (given(argc, argv, {"-h", "--help", "--help-all", "-v", "--version"})) {
    QCoreApplication core(argc, argv);
    name_application();
    QCommandLineParser cli;
    add_options(cli);
    cli.process(core); // prints and exits
  }
  // The headless modes render offscreen by themselves; the windowed one needs a display.
  const bool no_display =
      qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
      qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && !given(argc, argv, {"-platform"});
  if (no_display && given(argc, argv, {"--screenshot", "--export"}))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  else if (no_display)
    return fail(QStringLiteral("no display to open a window on (DISPLAY and WAYLAND_DISPLAY "
                               "are not set); --screenshot and --export work without one"));
  QApplication app(argc, argv);
  name_application();
  QCommandLineParser cli;
  add_options(cli);
  cli.process(app);
  const QStringList files = cli.positionalArguments();
  if (files.size() > 1) return fail(QStringLiteral("one experiment at a time"));
  const QString edf = files.value(0);
  const QString view = cli.value("view");
  if (!idb::gui::knownView(view))
    return fail(
        QStringLiteral("--view must be runs, run, chart, tree, flat, flame, diff, source, sql, "
                       "iterations, coalesce or compare, not '%1'")
            .arg(view));
  const bool experiment_view = idb::gui::experimentView(view);

  if (cli.isSet("export") && cli.isSet("screenshot"))
    return fail(QStringLiteral("--export and --screenshot exclude each other"));
  const bool headless = cli.isSet("screenshot") || cli.isSet("export");
  const char *what = cli.isSet("export") ? "--export" : "--screenshot";
  if (headless && experiment_view && edf.isEmpty())
    return fail(QStringLiteral("--view %1 needs an experiment file").arg(view));
  if (headless && !experiment_view && !cli.isSet("db"))
    return fail(QStringLiteral("%1 --view %2 needs --db").arg(QLatin1String(what), view));

  if (headless && view == "diff" && !cli.isSet("compare"))
    return fail(QStringLiteral("--view diff needs --compare OTHER, the run to set against --run"));
  if (cli.isSet("compare") && view != "diff")
    return fail(QStringLiteral("--compare goes with --view diff"));
  if (cli.isSet("baseline") && !cli.isSet("compare"))
    return fail(QStringLiteral("--baseline goes with --view diff and --compare"));

  QSettings settings;
  idb::gui::MainWindow window(settings);
  window.resize(1280, 820);
  if (headless) {
    window.setAttribute(Qt::WA_DontShowOnScreen);
    const bool csv = cli.isSet("export");
    idb::gui::takeScreenshot(window,
                             {cli.value(csv ? "export" : "screenshot"), view, cli.value("query"),
                              cli.value("node"), csv, cli.value("compare"), cli.value("baseline")});
  }
  if (!headless && cli.isSet("view") && !experiment_view && view != "diff") {
    // In a window, --view names the tab shown once the first run is.
    auto *once = new QObject(&window);
    QObject::connect(&window, &idb::gui::MainWindow::runShown, once, [&window, once, view] {
      window.showViewNamed(view);
      once->deleteLater();
    });
  }
  if (!headless && cli.isSet("compare")) {
    // In a window too: once the first run is shown, set OTHER against it.
    auto *once = new QObject(&window);
    QObject::connect(
        &window, &idb::gui::MainWindow::runShown, once,
        [&window, once, other = cli.value("compare"), baseline = cli.value("baseline")] {
          window.diffWith(other, baseline);
          once->deleteLater();
        });
  }
  window.show();
  if (cli.isSet("db")) window.openDatabase(cli.value("db"), cli.value("run"));
  if (!edf.isEmpty()) window.openExperiment(edf, cli.value("db"));
  if (!cli.isSet("db") && edf.isEmpty())
    QTimer::singleShot(0, &window, &idb::gui::MainWindow::askForDatabase);
  return QApplication::exec();
}

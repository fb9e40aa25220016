// [DBLIST] resolution: which runs each entry names, in which database. Labels and label
// patterns are looked up in the experiment's database; a database entry must hold exactly
// one run. Relative SQLite paths in the file are taken from the .edf's folder, so an
// experiment kept beside its databases works from any current folder.
#include "idb/edf_runs.hpp"

#include "idb/analysis/diff.hpp"

#include <filesystem>
#include <fnmatch.h>
#include <set>

namespace idb::edf {

namespace {

namespace fs = std::filesystem;

bool ends_with(const std::string &s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool server_url(const std::string &s) {
  return s.starts_with("postgresql://") || s.starts_with("postgres://");
}

// A SQLite path or URL with a relative path taken from `base`.
std::string sqlite_url(const std::string &name, const std::string &base) {
  std::string path = name;
  if (path.starts_with("sqlite://"))
    path = path.substr(9);
  else if (path.starts_with("sqlite:"))
    path = path.substr(7);
  if (path.empty() || fs::path(path).is_absolute() || base.empty()) return path;
  return (fs::path(base) / path).lexically_normal().string();
}

// The name with a URL's password replaced by ***, for messages.
std::string shown(const std::string &name) {
  if (!server_url(name)) return name;
  std::size_t start = name.find("://") + 3, at = name.find('@', start);
  std::size_t slash = name.find('/', start);
  if (at == std::string::npos || (slash != std::string::npos && slash < at)) return name;
  std::size_t colon = name.find(':', start);
  if (colon == std::string::npos || colon > at) return name;
  return name.substr(0, colon + 1) + "***" + name.substr(at);
}

std::string where(const ResolveOptions &o, const DbEntry &d) {
  return o.path + ":" + std::to_string(d.at.line) + ":" + std::to_string(d.at.column) +
         ": [DBLIST] entry '" + shown(d.name) + "': ";
}

// Every run of a database as (run_id, label), in load order.
std::vector<RunRef> all_runs(store::Database &db) {
  store::QueryResult r = store::query(db, "SELECT run_id, label FROM runs ORDER BY run_id");
  std::vector<RunRef> out;
  for (const auto &row : r.rows)
    out.push_back({&db, std::stoll(row[0].value_or("0")), row[1].value_or(""), db.location()});
  return out;
}

std::vector<RunRef> from_database(const std::string &name, const ResolveOptions &o,
                                  Connections &connections) {
  std::string url = server_url(name) ? name : sqlite_url(name, o.base_dir);
  store::Database &db = connections.get(url);
  std::vector<RunRef> runs = all_runs(db);
  if (runs.size() != 1)
    throw Error("holds " + std::to_string(runs.size()) +
                " runs; a database in [DBLIST] must hold exactly one (list the runs by label "
                "with Database naming it)");
  return runs;
}

std::vector<RunRef> from_labels(const ResolvedEntry &r, const ResolveOptions &o,
                                Connections &connections) {
  if (o.database.empty())
    throw Error("a run label, but the experiment names no database (Database in [PREAMBLE], "
                "or --db)");
  store::Database &db = connections.get(o.database);
  std::vector<RunRef> matched;
  for (RunRef &run : all_runs(db)) {
    bool match = r.kind == EntryKind::pattern
                     ? fnmatch(r.entry.name.c_str(), run.label.c_str(), 0) == 0
                     : run.label == r.entry.name;
    if (match) matched.push_back(std::move(run));
  }
  if (matched.empty())
    throw Error(r.kind == EntryKind::pattern ? "no run label matches it in " + db.location()
                                             : "no run labelled so in " + db.location());
  return matched;
}

} // namespace

store::Database &Connections::get(const std::string &url) {
  auto it = open_.find(url);
  if (it == open_.end()) {
    store::OpenOptions options{.create = false, .read_only = true, .wait_seconds = wait_seconds_};
    it = open_.emplace(url, store::open(url, options)).first;
  }
  return *it->second;
}

std::string experiment_database(const Experiment &e, const std::string &edf_path,
                                const std::string &override) {
  if (!override.empty()) return override;
  if (e.database.empty() || server_url(e.database)) return e.database;
  return sqlite_url(e.database, fs::path(edf_path).parent_path().string());
}

EntryKind classify(const std::string &name) {
  if (server_url(name) || name.starts_with("sqlite:")) return EntryKind::database;
  if (name.find('/') != std::string::npos || ends_with(name, ".db") || ends_with(name, ".sqlite") ||
      ends_with(name, ".sqlite3"))
    return EntryKind::database;
  if (analysis::is_label_pattern(name)) return EntryKind::pattern;
  return EntryKind::label;
}

std::vector<ResolvedEntry> resolve(const Experiment &e, const ResolveOptions &options,
                                   Connections &connections) {
  if (e.dblist.empty()) throw Error(options.path + ": [DBLIST] names no runs");
  std::vector<ResolvedEntry> out;
  std::map<std::pair<std::string, std::int64_t>, std::string> seen; // run → entry
  for (const DbEntry &d : e.dblist) {
    ResolvedEntry &r = out.emplace_back();
    r.entry = d;
    r.kind = classify(d.name);
    try {
      r.runs = r.kind == EntryKind::database ? from_database(d.name, options, connections)
                                             : from_labels(r, options, connections);
    } catch (const std::runtime_error &error) {
      throw Error(where(options, d) + error.what());
    }
    for (const RunRef &run : r.runs)
      if (auto [it, fresh] = seen.emplace(std::pair(run.location, run.run_id), d.name); !fresh)
        throw Error(where(options, d) + "run '" + run.label + "' is named by '" +
                    shown(it->second) + "' too");
  }
  return out;
}

} // namespace idb::edf

// Opening a database: the URL forms open() accepts (postgresql:// goes to postgres.cpp),
// which stored versions a connection may use, WAL mode for a SQLite file opened to write,
// and the forward migrations that bring a SQLite database's schema up to the version this
// build knows (the embedded scripts of schema/sql/sqlite, one transaction for all the
// missing ones).
#include "open.hpp"
#include "idb_store_migrations.hpp"
#include "postgres.hpp"
#include "sqlite.hpp"

#include <cctype>
#include <filesystem>

namespace idb::store {

int schema_version() {
  return int(detail::kMigrations.size());
}

namespace {

// The scheme of "scheme://...", or "" when `url` has none (a plain path).
std::string scheme_of(const std::string &url) {
  std::size_t colon = url.find("://");
  if (colon == std::string::npos || colon == 0) return "";
  for (std::size_t i = 0; i < colon; ++i) {
    auto c = static_cast<unsigned char>(url[i]);
    if (!std::isalnum(c) && c != '+' && c != '-' && c != '.') return "";
  }
  return url.substr(0, colon);
}

// The SQLite file `url` names. Never echoes a server URL, which may hold a password.
std::string sqlite_path(const std::string &url) {
  std::string path = url;
  if (url.rfind("sqlite://", 0) == 0) {
    path = url.substr(9);
  } else if (url.rfind("sqlite:", 0) == 0) {
    path = url.substr(7);
  } else if (std::string scheme = scheme_of(url); !scheme.empty()) {
    throw Error("unknown database URL scheme '" + scheme +
                "': use a path, sqlite:PATH or sqlite://PATH");
  }
  if (path.empty()) throw Error("the database URL '" + url + "' names no file");
  return path;
}

// The stored version: 0 for an empty database; refuses a database that holds tables but
// no idb_schema (someone else's file).
int stored_version(detail::Connection &c) {
  detail::Statement tables(c, "SELECT count(*), coalesce(sum(name = 'idb_schema'), 0) "
                              "FROM sqlite_master WHERE type = 'table'");
  tables.step();
  if (tables.integer(1) == 0) {
    if (tables.integer(0) != 0)
      throw Error(c.path() + " is a SQLite database but not an IDB one (no idb_schema table)");
    return 0;
  }
  detail::Statement version(c, "SELECT version FROM idb_schema");
  if (!version.step()) throw Error(c.path() + " has an empty idb_schema table");
  return int(version.integer(0));
}

// WAL mode lets readers go on while one process writes, and a writer start while others
// read; it stays with the file. Switching needs a moment alone with the file: when another
// connection holds it past the wait, the file stays in rollback mode until the next open,
// which is slower for concurrent users but loses nothing.
void use_wal(detail::Connection &c) {
  {
    detail::Statement mode(c, "PRAGMA journal_mode");
    if (mode.step() && mode.text(0) == "wal") return;
  } // finished: a statement still running would hold the read that forbids the switch
  try {
    c.exec("PRAGMA journal_mode = WAL", "cannot switch " + c.path() + " to WAL mode");
  } catch (const Error &) {
  }
}

// stored_version(), its failure naming the file.
int version_of(detail::Connection &c) {
  try {
    return stored_version(c);
  } catch (const Error &e) {
    throw Error(std::string("cannot read the schema of ") + c.path() + ": " + e.what());
  }
}

// Returns the version the database had before.
int migrate(detail::Connection &c) {
  int version = version_of(c);
  detail::check_version(c.path(), version, schema_version(), false);
  // Larger pages for a new file: fewer B-tree pages to split and allocate during loads.
  if (version == 0) c.exec("PRAGMA page_size = 16384", "cannot set the page size");
  use_wal(c);
  if (version == schema_version()) return version;
  detail::Transaction transaction(c);
  int now = stored_version(c); // another process may have migrated meanwhile
  detail::check_version(c.path(), now, schema_version(), false);
  for (int next = now + 1; next <= schema_version(); ++next) {
    c.exec(detail::kMigrations[std::size_t(next - 1)],
           "migration to schema version " + std::to_string(next) + " failed on " + c.path());
    detail::Statement(c, "UPDATE idb_schema SET version = ?1").bind(1, std::int64_t(next)).run();
  }
  transaction.commit();
  return version;
}

} // namespace

namespace detail {

void check_version(const std::string &where, int stored, int known, bool read_only) {
  if (stored > known)
    throw Error(where + " has schema version " + std::to_string(stored) +
                ", newer than this idb knows (" + std::to_string(known) + "): use a newer idb");
  if (!read_only || stored == known) return;
  if (stored == 0) throw Error(where + " holds no IDB database (idb load creates one)");
  throw Error(where + " has schema version " + std::to_string(stored) + ", older than this idb's " +
              std::to_string(known) + "; a command that only reads leaves it as it is: " +
              "'idb migrate --db DB' brings it up to date (as does any load)");
}

} // namespace detail

std::unique_ptr<Database> open(const std::string &url, const OpenOptions &options) {
  if (std::string scheme = scheme_of(url); scheme == "postgresql" || scheme == "postgres")
    return std::make_unique<detail::PostgresDatabase>(url, options);
  std::string path = sqlite_path(url);
  std::error_code ignored;
  if ((!options.create || options.read_only) && !std::filesystem::exists(path, ignored))
    throw Error("no database at " + path + " (idb load creates one)");
  auto db = std::make_unique<detail::SqliteDatabase>(path, options);
  if (options.read_only) {
    int version = version_of(db->connection);
    detail::check_version(path, version, schema_version(), true);
    db->set_version_at_open(version);
  } else {
    db->set_version_at_open(migrate(db->connection));
  }
  return db;
}

} // namespace idb::store

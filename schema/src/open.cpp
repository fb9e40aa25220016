// Opening a database: the URL forms open() accepts (postgresql:// goes to postgres.cpp),
// and the forward migrations that bring a SQLite database's schema up to the version this
// build knows (the embedded scripts of schema/sql/sqlite, one transaction for all the
// missing ones).
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

void refuse_newer(const detail::Connection &c, int version) {
  if (version > schema_version())
    throw Error(c.path() + " has schema version " + std::to_string(version) +
                ", newer than this idb knows (" + std::to_string(schema_version()) +
                "): use a newer idb");
}

void migrate(detail::Connection &c) {
  int version = 0;
  try {
    version = stored_version(c);
  } catch (const Error &e) {
    throw Error(std::string("cannot read the schema of ") + c.path() + ": " + e.what());
  }
  refuse_newer(c, version);
  if (version == schema_version()) return;
  // Larger pages for a new file: fewer B-tree pages to split and allocate during loads.
  if (version == 0) c.exec("PRAGMA page_size = 16384", "cannot set the page size");
  detail::Transaction transaction(c);
  version = stored_version(c); // another process may have migrated meanwhile
  refuse_newer(c, version);
  for (int next = version + 1; next <= schema_version(); ++next) {
    c.exec(detail::kMigrations[std::size_t(next - 1)],
           "migration to schema version " + std::to_string(next) + " failed on " + c.path());
    detail::Statement(c, "UPDATE idb_schema SET version = ?1").bind(1, std::int64_t(next)).run();
  }
  transaction.commit();
}

} // namespace

std::unique_ptr<Database> open(const std::string &url, const OpenOptions &options) {
  if (std::string scheme = scheme_of(url); scheme == "postgresql" || scheme == "postgres")
    return std::make_unique<detail::PostgresDatabase>(url);
  std::string path = sqlite_path(url);
  std::error_code ignored;
  if (!options.create && !std::filesystem::exists(path, ignored))
    throw Error("no database at " + path + " (idb load creates one)");
  auto db = std::make_unique<detail::SqliteDatabase>(path, options.create);
  migrate(db->connection);
  return db;
}

} // namespace idb::store

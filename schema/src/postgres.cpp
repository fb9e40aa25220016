// The PostgreSQL connection (see postgres.hpp): parsing a postgresql:// URL into what may
// be printed, connecting through libpqxx (libpq finds the password in PGPASSWORD or
// ~/.pgpass), the forward migrations (schema/sql, PostgreSQL dialect) in one transaction, and
// pg_rethrow(), where every libpqxx failure becomes one line of idb::store::Error.
#include "postgres.hpp"

#include "idb_store_pg_migrations.hpp"
#include "open.hpp"

#include <pqxx/pqxx>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace idb::store::detail {

int postgres_schema_version() {
  return int(kPostgresMigrations.size());
}

namespace {

// The query string of a URL without any password=... pair.
std::string without_password_param(const std::string &query) {
  std::string kept;
  std::size_t start = 0;
  while (start <= query.size()) {
    std::size_t end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    std::string pair = query.substr(start, end - start);
    if (!pair.empty() && pair.rfind("password=", 0) != 0) kept += (kept.empty() ? "" : "&") + pair;
    start = end + 1;
  }
  return kept;
}

std::string env_or(const char *name, const char *fallback) {
  const char *value = std::getenv(name);
  return value && *value ? value : fallback;
}

// Message text on one line: newlines and tabs become spaces, runs of spaces one.
std::string one_line(const std::string &text) {
  std::string line;
  for (char ch : text) {
    char c = (ch == '\n' || ch == '\r' || ch == '\t') ? ' ' : ch;
    if (c == ' ' && (line.empty() || line.back() == ' ')) continue;
    line += c;
  }
  while (!line.empty() && line.back() == ' ')
    line.pop_back();
  return line;
}

// libpq's "connection to server at "H", port P failed: REASON" names the server already.
std::string connect_reason(const std::string &message) {
  std::size_t failed = message.find(" failed: ");
  if (message.rfind("connection to server", 0) == 0 && failed != std::string::npos)
    return message.substr(failed + 9);
  return message;
}

} // namespace

PostgresUrl parse_postgres_url(const std::string &url) {
  PostgresUrl parsed;
  std::size_t scheme_end = url.find("://");
  std::string rest = url.substr(scheme_end + 3), query, user;
  // Credentials end at the last '@', whatever the password holds ('@', '/', '?' unescaped
  // included): a URL with an '@' in its query loses more than its password here, never less.
  if (std::size_t at = rest.rfind('@'); at != std::string::npos) {
    user = rest.substr(0, at);
    rest.erase(0, at + 1);
    if (std::size_t colon = user.find(':'); colon != std::string::npos) {
      parsed.password = user.substr(colon + 1);
      user.resize(colon);
    }
  }
  if (std::size_t q = rest.find('?'); q != std::string::npos) {
    query = without_password_param(rest.substr(q + 1));
    rest.resize(q);
  }
  std::size_t slash = rest.find('/');
  std::string authority = rest.substr(0, slash),
              path = slash == std::string::npos ? "" : rest.substr(slash);
  parsed.printable = url.substr(0, scheme_end + 3) + (user.empty() ? "" : user + "@") + authority +
                     path + (query.empty() ? "" : "?" + query);
  std::string host = authority, port;
  std::size_t bracket = host.rfind(']');
  if (std::size_t colon = host.rfind(':');
      colon != std::string::npos && (bracket == std::string::npos || colon > bracket)) {
    port = host.substr(colon + 1);
    host.resize(colon);
  }
  parsed.server = (host.empty() ? env_or("PGHOST", "localhost") : host) + ":" +
                  (port.empty() ? env_or("PGPORT", "5432") : port);
  return parsed;
}

std::string PostgresDatabase::scrub(std::string message) const {
  // The password, and each piece of it between a URL's delimiters that libpq may quote
  // alone when it reads such a password as part of the host, path or query.
  std::vector<std::string> secrets;
  if (!url_.password.empty()) secrets.push_back(url_.password);
  std::string piece;
  for (char c : url_.password + "/") {
    if (std::string_view("/?@:&=#").find(c) == std::string_view::npos) {
      piece += c;
      continue;
    }
    if (piece.size() >= 3) secrets.push_back(piece);
    piece.clear();
  }
  for (const std::string &secret : secrets)
    for (std::size_t at; (at = message.find(secret)) != std::string::npos;)
      message.replace(at, secret.size(), "***");
  return one_line(message);
}

void pg_rethrow(const PostgresDatabase &db, std::string_view what) {
  // Only libpqxx's own exceptions are translated: Error and whatever a caller's callback
  // threw pass through unchanged.
  try {
    throw;
  } catch (const pqxx::sql_error &e) {
    if (e.sqlstate() == "55P03") // lock_not_available: lock_timeout passed
      throw Error(db.scrub(std::string(what) + ": another session held a lock past the time " +
                           "this command waits for it (--wait SECONDS sets it)"));
    if (e.sqlstate() == "25006") // read_only_sql_transaction
      throw ReadOnlyError(db.scrub(std::string(what) + ": " + e.what()));
    throw Error(db.scrub(std::string(what) + ": " + e.what()));
  } catch (const pqxx::pqxx_exception &e) {
    throw Error(db.scrub(std::string(what) + ": " + e.base().what()));
  }
}

namespace {

// 0 for a database without IDB's tables; refuses one that holds other tables only.
int stored_version(pqxx::transaction_base &w, const std::string &where) {
  pqxx::row tables =
      w.exec1("SELECT count(*), count(*) FILTER (WHERE table_name = 'idb_schema') "
              "FROM information_schema.tables WHERE table_schema = current_schema()");
  if (tables[1].as<long>() == 0) {
    if (tables[0].as<long>() != 0)
      throw Error(where + " is a PostgreSQL database but not an IDB one (no idb_schema table)");
    return 0;
  }
  pqxx::result version = w.exec("SELECT version FROM idb_schema");
  if (version.empty()) throw Error(where + " has an empty idb_schema table");
  return version[0][0].as<int>();
}

// Returns the version the database had before.
int migrate(PostgresDatabase &db) {
  pqxx::work w(db.connection());
  // Concurrent first opens would both create the tables: one waits for the other here.
  w.exec("SELECT pg_advisory_xact_lock(7283911)");
  int version = stored_version(w, db.location());
  check_version(db.location(), version, postgres_schema_version(), false);
  if (version == postgres_schema_version()) return version;
  for (int next = version + 1; next <= postgres_schema_version(); ++next) {
    w.exec(std::string(kPostgresMigrations[std::size_t(next - 1)]));
    w.exec_params("UPDATE idb_schema SET version = $1", next);
  }
  w.commit();
  return version;
}

// What lock_timeout takes for `seconds` of waiting (0 there would mean for ever).
std::string lock_timeout(double seconds) {
  double ms = std::max(seconds * 1000, 1.0); // under a millisecond would round to 0
  return std::to_string(std::int64_t(std::min(ms, 2147483647.0)));
}

} // namespace

PostgresDatabase::PostgresDatabase(const std::string &url, const OpenOptions &options)
    : url_(parse_postgres_url(url)), read_only_(options.read_only) {
  try {
    connection_ = std::make_unique<pqxx::connection>(url);
  } catch (const std::exception &e) {
    throw Error(
        scrub("cannot connect to PostgreSQL at " + url_.server + ": " + connect_reason(e.what())));
  }
  pg_check(*this, "cannot prepare the connection to " + location(), [&] {
    pqxx::nontransaction setup(*connection_);
    setup.exec("SET client_min_messages = warning");
    setup.exec("SET lock_timeout = " + lock_timeout(options.wait_seconds));
    // Every transaction of a read-only connection is READ ONLY (the queries also open
    // theirs so, which a statement cannot undo).
    if (read_only_) setup.exec("SET default_transaction_read_only = on");
  });
  if (read_only_) {
    int version = pg_check(*this, "cannot read the schema of " + location(), [&] {
      pqxx::read_transaction r(*connection_);
      return stored_version(r, location());
    });
    check_version(location(), version, postgres_schema_version(), true);
    version_at_open_ = version;
    return;
  }
  version_at_open_ = pg_check(*this, "cannot bring the schema of " + location() + " up to date",
                              [&] { return migrate(*this); });
}

PostgresDatabase::~PostgresDatabase() = default;

int PostgresDatabase::version() {
  return pg_check(*this, "cannot read the schema version", [&] {
    pqxx::read_transaction w(*connection_);
    return w.exec1("SELECT version FROM idb_schema")[0].as<int>();
  });
}

} // namespace idb::store::detail

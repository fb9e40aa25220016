// The PostgreSQL backend of the store, through libpqxx: the connection behind a
// postgresql:// URL, the URL's printable form (never its password), and pg_check(), the
// one place where libpqxx exceptions become idb::store::Error. Internal to the store
// library.
#pragma once

#include "idb/store.hpp"

#include <pqxx/connection>

#include <memory>
#include <string>
#include <string_view>

namespace idb::store::detail {

// A postgresql:// (or postgres://) URL taken apart for messages: `printable` is the URL
// with any password removed, `server` is "host:port" (libpq's defaults filled in).
struct PostgresUrl {
  std::string printable, server, password;
};
PostgresUrl parse_postgres_url(const std::string &url);

// An open connection to a PostgreSQL database, schema migrated. Closed by the destructor.
class PostgresDatabase final : public Database {
public:
  // Connects (libpq reads PGPASSWORD or ~/.pgpass) and, unless read-only, applies missing
  // migrations. Throws Error("cannot connect to PostgreSQL at HOST:PORT: reason") on one line.
  PostgresDatabase(const std::string &url, const OpenOptions &options);
  ~PostgresDatabase() override;
  std::string engine() const override { return "postgresql"; }
  std::string location() const override { return url_.printable; }
  int version() override;
  bool read_only() const override { return read_only_; }
  // Reads the whole result, then hands its rows over (postgres_query.cpp).
  std::vector<std::string> for_each_row(const std::string &sql, const KeyValues &params,
                                        const RowCallback &each) override;
  // COPY for every table (postgres_load.cpp).
  std::unique_ptr<LoadSession> begin_load() override;

  pqxx::connection &connection() { return *connection_; }
  // `message` on one line, the password (if the URL held one) replaced by "***".
  std::string scrub(std::string message) const;

private:
  PostgresUrl url_;
  bool read_only_;
  std::unique_ptr<pqxx::connection> connection_;
};

// The schema version the PostgreSQL migrations reach (the number of scripts).
int postgres_schema_version();

// Runs `body`; turns a libpqxx exception it throws into Error("<what>: <message>") (one
// line, password scrubbed; a lock waited for past lock_timeout says so, and a write in a
// read-only transaction is ReadOnlyError). Any other exception (Error among them) passes
// through.
template <typename Body>
auto pg_check(const PostgresDatabase &db, std::string_view what, Body &&body) -> decltype(body());
[[noreturn]] void pg_rethrow(const PostgresDatabase &db, std::string_view what);

template <typename Body>
auto pg_check(const PostgresDatabase &db, std::string_view what, Body &&body) -> decltype(body()) {
  try {
    return body();
  } catch (...) {
    pg_rethrow(db, what);
  }
}

} // namespace idb::store::detail

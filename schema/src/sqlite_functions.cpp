// The classic IDB SQL functions, registered on every SQLite connection the store opens.
// Each takes a probe ID (lid) and, optionally, a run_id, and answers over the rows of
// that probe in the `probes` view (all runs when no run_id is given): sdev is the pooled
// standard deviation of every activation, minprobe and maxprobe the extreme activation
// times, maxnoise the largest per-row noise. minprobe, maxprobe and maxnoise read the
// view itself, so `max = maxprobe(?)` compares equal values. The functions are marked
// deterministic (the database cannot change within one statement, so SQLite may evaluate
// a call with constant arguments once per statement) and direct-only (not usable in the
// schema, where a stored function of the data would go stale).
#include "sqlite_functions.hpp"

#include "sqlite.hpp"

#include <sqlite3.h>

#include <cmath>

namespace idb::store::detail {

namespace {

// The one-row statement of each function; ?1 is the probe ID, ?2 the run_id or NULL.
constexpr const char *kMinProbe =
    "SELECT min(min) FROM probes WHERE lid = ?1 AND count > 0 AND (?2 IS NULL OR run_id = ?2)";
constexpr const char *kMaxProbe =
    "SELECT max(max) FROM probes WHERE lid = ?1 AND count > 0 AND (?2 IS NULL OR run_id = ?2)";
constexpr const char *kMaxNoise =
    "SELECT max(noise) FROM probes WHERE lid = ?1 AND (?2 IS NULL OR run_id = ?2)";
// Activations and pooled M2 over every node of the probe, in two passes (mean first).
constexpr const char *kPooled =
    "WITH s AS (SELECT s.count, s.total, s.mean, s.m2 FROM nodes n "
    "  JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node "
    "  JOIN cfh_instances h ON h.cfh_id = n.cfh_id "
    "  WHERE n.probe_id = ?1 AND (?2 IS NULL OR h.run_id = ?2)), "
    "g AS (SELECT sum(count) AS n, sum(total) / nullif(sum(count), 0) AS avg FROM s) "
    "SELECT g.n, sum(s.m2 + s.count * (s.mean - g.avg) * (s.mean - g.avg)) FROM s, g";

// Runs `sql` with the function's arguments bound; leaves the row ready in `stmt`, or
// returns false (after setting an error result) when SQLite fails.
bool run(sqlite3_context *ctx, sqlite3_stmt **stmt, const char *sql, int argc,
         sqlite3_value **argv) {
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  // A probe ID bound as text ('10', as `idb query --param` binds) compares as the number.
  for (int i = 0; i < argc; ++i)
    sqlite3_value_numeric_type(argv[i]);
  int rc = sqlite3_prepare_v2(db, sql, -1, stmt, nullptr);
  if (rc == SQLITE_OK) rc = sqlite3_bind_value(*stmt, 1, argv[0]);
  if (rc == SQLITE_OK) rc = argc > 1 ? sqlite3_bind_value(*stmt, 2, argv[1]) : SQLITE_OK;
  if (rc == SQLITE_OK) rc = sqlite3_step(*stmt);
  if (rc == SQLITE_ROW) return true;
  sqlite3_result_error(ctx, sqlite3_errmsg(db), -1);
  return false;
}

// minprobe, maxprobe and maxnoise: the statement's one value (NULL when the probe has no
// rows) is the result. The statement comes from the function's user data.
void one_value(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  sqlite3_stmt *stmt = nullptr;
  const auto *sql = static_cast<const char *>(sqlite3_user_data(ctx));
  if (run(ctx, &stmt, sql, argc, argv)) sqlite3_result_value(ctx, sqlite3_column_value(stmt, 0));
  sqlite3_finalize(stmt);
}

// sdev: sqrt(M2 / (count - 1)), 0 below two activations, NULL for an unknown probe.
void sdev(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  sqlite3_stmt *stmt = nullptr;
  if (run(ctx, &stmt, kPooled, argc, argv)) {
    if (sqlite3_column_type(stmt, 0) == SQLITE_NULL) {
      sqlite3_result_null(ctx);
    } else {
      sqlite3_int64 count = sqlite3_column_int64(stmt, 0);
      double m2 = sqlite3_column_double(stmt, 1);
      sqlite3_result_double(ctx,
                            count > 1 ? std::sqrt(std::fmax(m2, 0.0) / double(count - 1)) : 0.0);
    }
  }
  sqlite3_finalize(stmt);
}

using Function = void (*)(sqlite3_context *, int, sqlite3_value **);

void define(sqlite3 *db, const char *name, Function f, const char *sql) {
  for (int argc = 1; argc <= 2; ++argc)
    check(db,
          sqlite3_create_function_v2(db, name, argc,
                                     SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY,
                                     const_cast<char *>(sql), f, nullptr, nullptr, nullptr),
          std::string("cannot register the SQL function ") + name);
}

} // namespace

void register_functions(sqlite3 *db) {
  define(db, "sdev", sdev, nullptr);
  define(db, "minprobe", one_value, kMinProbe);
  define(db, "maxprobe", one_value, kMaxProbe);
  define(db, "maxnoise", one_value, kMaxNoise);
}

} // namespace idb::store::detail

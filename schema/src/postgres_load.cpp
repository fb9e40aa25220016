// The PostgreSQL side of a load (load_session.hpp): one transaction (pqxx::work, whose
// destructor rolls back unless committed), keys from the tables' identity sequences, and
// every table filled through COPY (libpqxx's tablewriter, fed whole lines formatted here:
// numbers exactly, text escaped for COPY's text format).
#include "load_session.hpp"
#include "postgres.hpp"

#include <pqxx/pqxx>
#include <pqxx/tablewriter>

#include <charconv>

namespace idb::store::detail {

namespace {

// One COPY ... FROM STDIN into `table`; rows are built field by field into one line.
class CopyRows final : public TableRows {
public:
  CopyRows(const PostgresDatabase &db, pqxx::work &w, std::string_view table,
           const Columns &columns)
      : db_(db), what_("cannot load into " + db.location() + " (" + std::string(table) + ")"),
        writer_(pg_check(db_, what_, [&] { return open(w, table, columns); })) {}
  TableRows &null() override {
    separate();
    line_ += "\\N";
    return *this;
  }
  TableRows &integer(std::int64_t value) override {
    separate();
    char text[24];
    line_.append(text, std::to_chars(text, text + sizeof text, value).ptr);
    return *this;
  }
  TableRows &real(double value) override {
    separate();
    char text[32];
    auto [end, ec] = std::to_chars(text, text + sizeof text, value);
    line_.append(text, ec == std::errc() ? end : text);
    return *this;
  }
  TableRows &text(std::string_view value) override {
    separate();
    for (char ch : value) {
      switch (ch) {
      case '\\':
        line_ += "\\\\";
        break;
      case '\t':
        line_ += "\\t";
        break;
      case '\n':
        line_ += "\\n";
        break;
      case '\r':
        line_ += "\\r";
        break;
      default:
        line_ += ch;
      }
    }
    return *this;
  }
  void end_row() override {
    pg_check(db_, what_, [&] { writer_->write_raw_line(line_); });
    line_.clear();
    first_ = true;
  }
  void finish() override {
    pg_check(db_, what_, [&] { writer_->complete(); });
  }

private:
  // tablewriter is deprecated in favour of stream_to, whose 6.4 version cannot take a
  // preformatted line and formats every field through a string stream: 3x slower here.
  static std::unique_ptr<pqxx::tablewriter> open(pqxx::work &w, std::string_view table,
                                                 const Columns &columns) {
    std::vector<std::string> names(columns.begin(), columns.end());
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    return std::make_unique<pqxx::tablewriter>(w, std::string(table), names.begin(), names.end());
#pragma GCC diagnostic pop
  }
  void separate() {
    if (!first_) line_ += '\t';
    first_ = false;
  }

  const PostgresDatabase &db_;
  std::string what_;
  std::unique_ptr<pqxx::tablewriter> writer_;
  std::string line_;
  bool first_ = true;
};

class PostgresLoadSession final : public LoadSession {
public:
  explicit PostgresLoadSession(PostgresDatabase &db)
      : db_(db), what_("cannot load into " + db.location()),
        work_(pg_check(db_, what_, [&] { return std::make_unique<pqxx::work>(db.connection()); })) {
  }
  bool label_taken(const std::string &label) override {
    return pg_check(db_, what_, [&] {
      // Loads of one label take turns from here to their commit, so the second one sees the
      // first's run rather than failing on the unique index.
      work_->exec_params("SELECT pg_advisory_xact_lock(7283912, hashtext($1))", label);
      return !work_->exec_params("SELECT 1 FROM runs WHERE label = $1", label).empty();
    });
  }
  // Sequence values are never handed out twice, whatever other loaders do meanwhile.
  std::vector<std::int64_t> new_keys(Key key, std::size_t count) override {
    const char *sql = key == Key::run
                          ? "SELECT nextval(pg_get_serial_sequence('runs', 'run_id')) "
                            "FROM generate_series(1, $1)"
                          : "SELECT nextval(pg_get_serial_sequence('cfh_instances', 'cfh_id')) "
                            "FROM generate_series(1, $1)";
    return pg_check(db_, what_, [&] {
      std::vector<std::int64_t> keys;
      for (const pqxx::row &row : work_->exec_params(sql, count))
        keys.push_back(row[0].as<std::int64_t>());
      return keys;
    });
  }
  std::unique_ptr<TableRows> rows(std::string_view table, const Columns &columns) override {
    return std::make_unique<CopyRows>(db_, *work_, table, columns);
  }
  void commit() override {
    pg_check(db_, what_, [&] { work_->commit(); });
  }

private:
  PostgresDatabase &db_;
  std::string what_;
  std::unique_ptr<pqxx::work> work_;
};

} // namespace

std::unique_ptr<LoadSession> PostgresDatabase::begin_load() {
  return std::make_unique<PostgresLoadSession>(*this);
}

} // namespace idb::store::detail

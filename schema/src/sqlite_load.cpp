// The SQLite side of a load (load_session.hpp): a BEGIN IMMEDIATE transaction, keys taken
// after the largest in use (the transaction holds the only write lock), and each table
// filled through one prepared INSERT reused for every row.
#include "load_session.hpp"
#include "sqlite.hpp"

namespace idb::store::detail {

namespace {

// An INSERT of `rows` rows at once: "INSERT OR ROLLBACK INTO t (a, b) VALUES (?1, ?2), (?3,
// ?4)". A statement that may fail halfway through its rows needs a statement journal to
// undo them (a temporary file: a write of every page it touches); OR ROLLBACK ends the
// whole load's transaction on a failed constraint instead, which is what a failed load
// means anyway, and the schema's foreign keys are checked at the commit, so none is needed.
std::string insert_sql(std::string_view table, const Columns &columns, std::size_t rows) {
  std::string sql = "INSERT OR ROLLBACK INTO " + column_list(table, columns) + " VALUES ";
  std::size_t field = 0;
  for (std::size_t row = 0; row < rows; ++row) {
    sql += row ? ", (" : "(";
    for (std::size_t i = 0; i < columns.size(); ++i)
      sql += (i ? ", ?" : "?") + std::to_string(++field);
    sql += ")";
  }
  return sql;
}

// One field of a buffered row.
struct Field {
  enum class Type { null, integer, real, text } type = Type::null;
  std::int64_t integer = 0;
  double real = 0;
  std::string text;
};

// Rows are buffered and go in batches of kBatch through one multi-row INSERT (a third fewer
// instructions per row than one INSERT each: the statement's set-up is paid once per
// batch); the rows of an incomplete last batch go one by one at finish().
class SqliteTableRows final : public TableRows {
public:
  static constexpr std::size_t kBatch = 64;
  SqliteTableRows(Connection &c, std::string_view table, const Columns &columns)
      : columns_(columns.size()), fields_(kBatch * columns.size()),
        batch_(c, insert_sql(table, columns, kBatch)), single_(c, insert_sql(table, columns, 1)) {}
  TableRows &null() override {
    next().type = Field::Type::null;
    return *this;
  }
  TableRows &integer(std::int64_t value) override {
    Field &f = next();
    f.type = Field::Type::integer;
    f.integer = value;
    return *this;
  }
  TableRows &real(double value) override {
    Field &f = next();
    f.type = Field::Type::real;
    f.real = value;
    return *this;
  }
  TableRows &text(std::string_view value) override {
    Field &f = next();
    f.type = Field::Type::text;
    f.text.assign(value);
    return *this;
  }
  void end_row() override {
    if (filled_ % columns_ != 0) throw Error("a row of the load has too few fields");
    if (filled_ < fields_.size()) return;
    bind(batch_, 0, fields_.size());
    batch_.run();
    filled_ = 0;
  }
  void finish() override {
    for (std::size_t start = 0; start < filled_; start += columns_) {
      bind(single_, start, columns_);
      single_.run();
    }
    filled_ = 0;
  }

private:
  Field &next() {
    if (filled_ == fields_.size()) throw Error("a row of the load has too many fields");
    return fields_[filled_++];
  }
  // Binds fields [start, start + count) to parameters 1..count of `s`.
  void bind(Statement &s, std::size_t start, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      const Field &f = fields_[start + i];
      int index = int(i + 1);
      switch (f.type) {
      case Field::Type::null:
        s.bind_null(index);
        break;
      case Field::Type::integer:
        s.bind(index, f.integer);
        break;
      case Field::Type::real:
        s.bind(index, f.real);
        break;
      case Field::Type::text:
        s.bind(index, std::string_view(f.text));
        break;
      }
    }
  }

  std::size_t columns_;
  std::vector<Field> fields_;
  std::size_t filled_ = 0;
  Statement batch_, single_;
};

class SqliteLoadSession final : public LoadSession {
public:
  explicit SqliteLoadSession(Connection &c) : c_(c), transaction_(raise_cache(c)) {}
  bool label_taken(const std::string &label) override {
    Statement taken(c_, "SELECT 1 FROM runs WHERE label = ?1");
    return taken.bind(1, std::string_view(label)).step();
  }
  std::vector<std::int64_t> new_keys(Key key, std::size_t count) override {
    Statement last(c_, key == Key::run ? "SELECT coalesce(max(run_id), 0) FROM runs"
                                       : "SELECT coalesce(max(cfh_id), 0) FROM cfh_instances");
    last.step();
    std::vector<std::int64_t> keys(count);
    for (std::size_t i = 0; i < count; ++i)
      keys[i] = last.integer(0) + 1 + std::int64_t(i);
    return keys;
  }
  std::unique_ptr<TableRows> rows(std::string_view table, const Columns &columns) override {
    return std::make_unique<SqliteTableRows>(c_, table, columns);
  }
  void commit() override { transaction_.commit(); }

private:
  // A large page cache keeps the index B-trees in memory for the whole load; a cache size
  // the caller chose on this connection (not SQLite's default) is left alone.
  static Connection &raise_cache(Connection &c) {
    Statement size(c, "PRAGMA cache_size");
    if (size.step() && size.integer(0) == -2000)
      c.exec("PRAGMA cache_size = -131072", "cannot set the cache size");
    return c;
  }

  Connection &c_;
  Transaction transaction_;
};

} // namespace

std::unique_ptr<LoadSession> SqliteDatabase::begin_load() {
  return std::make_unique<SqliteLoadSession>(connection);
}

} // namespace idb::store::detail

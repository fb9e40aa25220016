// A stored run read back into the reader's structs (run_profile.hpp): five queries over the
// base tables, filtered by the run's label (and the rank) or by one CFH, turned into
// Profile, Cfh and Node values.
#include "run_profile.hpp"

#include <charconv>
#include <vector>

namespace idb::cli {

namespace {

const std::string &text(const store::Cell &cell) {
  static const std::string empty;
  return cell ? *cell : empty;
}

// A number cell as T; 0 for NULL. from_chars: exact like strtod, several times faster,
// and blind to the locale.
template <typename T> T number(const store::Cell &cell) {
  T value{};
  if (cell) std::from_chars(cell->data(), cell->data() + cell->size(), value);
  return value;
}

double real(const store::Cell &cell) {
  return number<double>(cell);
}

std::uint64_t unsigned_of(const store::Cell &cell) {
  return number<std::uint64_t>(cell);
}

std::int32_t int_of(const store::Cell &cell) {
  return number<std::int32_t>(cell);
}

int kind_of(const std::string &name) {
  if (name == "PROC") return 1;
  if (name == "LOOP") return 2;
  if (name == "CALL") return 3;
  if (name == "COMM") return 4;
  return 0;
}

// The condition and parameters selecting the run's CFHs (alias h), optionally one rank.
struct Filter {
  std::string where;
  store::KeyValues params;
};

Filter cfh_filter(const std::string &label, std::optional<int> rank) {
  Filter f{" WHERE r.label = :label", {{"label", label}}};
  if (rank) {
    f.where += " AND h.rank = CAST(:rank AS INTEGER)";
    f.params.emplace_back("rank", std::to_string(*rank));
  }
  return f;
}

void read_meta(store::Database &db, const std::string &label, profile::Profile &p) {
  store::QueryResult r = store::query(db,
                                      "SELECT m.key, m.value FROM runs r JOIN run_meta m "
                                      "ON m.run_id = r.run_id WHERE r.label = :label",
                                      {{"label", label}});
  for (const auto &row : r.rows)
    p.meta[text(row[0])] = text(row[1]);
}

void read_probes(store::Database &db, const std::string &label, profile::Profile &p) {
  store::QueryResult r = store::query(
      db,
      "SELECT p.probe_id, p.kind, p.description, p.file, p.line, p.function FROM runs r "
      "JOIN probe_sites p ON p.run_id = r.run_id WHERE r.label = :label ORDER BY p.probe_id",
      {{"label", label}});
  for (const auto &row : r.rows)
    p.probes.push_back({int_of(row[0]), kind_of(text(row[1])), text(row[2]), text(row[3]),
                        int_of(row[4]), text(row[5])});
}

// The CFHs without nodes, and the cfh_id of each.
std::vector<std::string> read_cfhs(store::Database &db, const Filter &f, profile::Profile &p) {
  store::QueryResult r = store::query(
      db,
      "SELECT h.cfh_id, h.rank, h.thread, h.name, h.named, h.overflow, h.mismatches, "
      "h.unclosed, h.depth_overflow FROM runs r JOIN cfh_instances h ON h.run_id = r.run_id" +
          f.where + " ORDER BY h.cfh_id",
      f.params);
  std::vector<std::string> ids;
  for (const auto &row : r.rows) {
    profile::Cfh &h = p.cfhs.emplace_back();
    h.rank = int_of(row[1]);
    h.thread = int_of(row[2]);
    h.name = text(row[3]);
    h.named = int_of(row[4]) != 0;
    h.overflow = unsigned_of(row[5]);
    h.mismatches = unsigned_of(row[6]);
    h.unclosed = unsigned_of(row[7]);
    h.depth_overflow = unsigned_of(row[8]);
    ids.push_back(text(row[0]));
  }
  return ids;
}

profile::Node node_of(const std::vector<store::Cell> &row) {
  profile::Node n;
  n.parent = row[1] ? std::uint32_t(unsigned_of(row[1])) : profile::kNoParent;
  n.probe = int_of(row[2]);
  idb_stats_t &s = n.stats;
  s.count = unsigned_of(row[3]);
  s.sum = real(row[4]);
  s.min = real(row[5]);
  s.max = real(row[6]);
  s.mean = real(row[7]);
  s.m2 = real(row[8]);
  s.cpu_count = unsigned_of(row[9]);
  s.cpu_sum = real(row[10]);
  s.cpu_min = real(row[11]);
  s.cpu_max = real(row[12]);
  s.noise = real(row[13]);
  s.bytes_sent = unsigned_of(row[14]);
  s.bytes_recv = unsigned_of(row[15]);
  return n;
}

// One CFH's nodes in node order. One query per CFH keeps the text cells of only one CFH in
// memory at a time: reading all 512k nodes of a 256-rank run in one result took 0.8 GB
// and most of the time in malloc and page faults.
void read_nodes(store::Database &db, const std::string &cfh_id, profile::Cfh &cfh) {
  store::QueryResult r = store::query(
      db,
      "SELECT n.node, n.parent, n.probe_id, s.count, s.total, s.min, s.max, s.mean, s.m2, "
      "s.cpu_count, s.cpu_total, s.cpu_min, s.cpu_max, s.noise, s.bytes_sent, s.bytes_recv "
      "FROM nodes n JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node "
      "WHERE n.cfh_id = CAST(:cfh AS INTEGER) ORDER BY n.node",
      {{"cfh", cfh_id}});
  cfh.nodes.reserve(r.rows.size());
  for (const auto &row : r.rows)
    cfh.nodes.push_back(node_of(row));
}

} // namespace

profile::Profile read_run(store::Database &db, const std::string &label, std::optional<int> rank) {
  store::QueryResult run =
      store::query(db, "SELECT run_id FROM runs WHERE label = :label", {{"label", label}});
  if (run.rows.empty()) throw store::Error("no run labelled '" + label + "' in " + db.location());
  profile::Profile p;
  p.version_major = 1;
  read_meta(db, label, p);
  read_probes(db, label, p);
  std::vector<std::string> ids = read_cfhs(db, cfh_filter(label, rank), p);
  for (std::size_t i = 0; i < ids.size(); ++i)
    read_nodes(db, ids[i], p.cfhs[i]);
  return p;
}

} // namespace idb::cli

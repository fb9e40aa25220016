// Loading a profile into PostgreSQL as one run: one transaction; the runs row through a
// bound INSERT, everything else through COPY (libpqxx's tablewriter, fed whole lines that
// are formatted here: numbers exactly, text escaped for COPY's text format). Any failure
// (a taken label, bad content, a throwing progress callback, a server error) unwinds
// through pqxx::work, whose destructor rolls the whole run back.
#include "postgres.hpp"
#include "run_row.hpp"

#include "idb/probe.h"
#include "idb/tree.hpp"

#include <pqxx/pqxx>
#include <pqxx/tablewriter>

#include <charconv>
#include <cmath>
#include <map>
#include <optional>

namespace idb::store::detail {

namespace {

using Value = std::optional<std::string>;

std::string real_text(double value) {
  char text[32];
  auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  return std::string(text, ec == std::errc() ? end : text);
}

// One COPY ... FROM STDIN into `table`; rows are built field by field into one line.
class Copy {
public:
  Copy(pqxx::work &w, const std::string &table, const std::vector<std::string> &columns)
      : writer_(open(w, table, columns)) {}
  Copy &integer(std::int64_t value) {
    separate();
    char text[24];
    line_.append(text, std::to_chars(text, text + sizeof text, value).ptr);
    return *this;
  }
  Copy &real(double value) {
    separate();
    line_ += real_text(value);
    return *this;
  }
  Copy &text(const Value &value) {
    separate();
    if (!value) {
      line_ += "\\N";
      return *this;
    }
    for (char ch : *value) {
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
  void end_row() {
    writer_->write_raw_line(line_);
    line_.clear();
    first_ = true;
  }
  void complete() { writer_->complete(); }

private:
  // tablewriter is deprecated in favour of stream_to, whose 6.4 version cannot take a
  // preformatted line and formats every field through a string stream: 3x slower here.
  static std::unique_ptr<pqxx::tablewriter> open(pqxx::work &w, const std::string &table,
                                                 const std::vector<std::string> &columns) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    return std::make_unique<pqxx::tablewriter>(w, table, columns.begin(), columns.end());
#pragma GCC diagnostic pop
  }
  void separate() {
    if (!first_) line_ += '\t';
    first_ = false;
  }

  std::unique_ptr<pqxx::tablewriter> writer_;
  std::string line_;
  bool first_ = true;
};

Value meta_text(const profile::Profile &p, const char *key) {
  auto it = p.meta.find(key);
  return it == p.meta.end() ? Value() : Value(it->second);
}

Value meta_number(const profile::Profile &p, const char *key) {
  double value = p.number(key, NAN);
  return std::isnan(value) ? Value() : Value(real_text(value));
}

std::string now_utc() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return iso_utc(double(now.tv_sec));
}

// The runs row's values in column order (the same mapping as run_row.cpp for SQLite).
std::vector<Value> run_values(const profile::Profile &p, const std::string &label) {
  double start = p.number("start_unix", NAN), end = p.number("end_unix", NAN);
  std::vector<Value> v = {label,
                          p.get("program", "unknown"),
                          command_line(p.argv),
                          meta_number(p, "start_unix"),
                          meta_number(p, "end_unix"),
                          std::isnan(start) || std::isnan(end) ? Value() : real_text(end - start),
                          std::to_string(std::int64_t(p.number("nprocs", 1))),
                          std::to_string(std::int64_t(p.number("threads", 0)))};
  for (const char *key : {"host", "os", "arch", "compiler", "flags", "idb_version", "timer"})
    v.push_back(meta_text(p, key));
  v.push_back(meta_number(p, "timer_hz"));
  v.push_back(meta_number(p, "noise_per_activation_s"));
  v.push_back(meta_text(p, "cpu_policy"));
  v.push_back(p.get("profile_mode", "full"));
  v.push_back(now_utc());
  return v;
}

std::int64_t insert_run(PostgresDatabase &db, pqxx::work &w, const profile::Profile &p,
                        const std::string &label) {
  std::string taken =
      "a run labelled '" + label + "' is already in " + db.location() + ": choose another label";
  if (!w.exec_params("SELECT 1 FROM runs WHERE label = $1", label).empty()) throw Error(taken);
  std::vector<Value> values = run_values(p, label);
  std::vector<const char *> params;
  params.reserve(values.size());
  for (const Value &v : values)
    params.push_back(v ? v->c_str() : nullptr);
  try {
    return w
        .exec_params1("INSERT INTO runs (label, program, command_line, start_time, end_time, "
                      "wall_seconds, nprocs, threads, host, os, arch, compiler, flags, "
                      "idb_version, timer, timer_hz, noise_per_activation, cpu_policy, "
                      "profile_mode, loaded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, "
                      "$11, $12, $13, $14, $15, $16, $17, $18, $19, $20) RETURNING run_id",
                      pqxx::prepare::make_dynamic_params(params))[0]
        .as<std::int64_t>();
  } catch (const pqxx::unique_violation &) {
    throw Error(taken); // another loader took the label since the check
  }
}

const char *kind_name(const profile::Probe &probe) {
  static const std::map<int, const char *> names = {
      {IDB_PROC, "PROC"}, {IDB_LOOP, "LOOP"}, {IDB_CALL, "CALL"}, {IDB_COMM, "COMM"}};
  auto it = names.find(probe.kind);
  if (it == names.end())
    throw Error("probe " + std::to_string(probe.id) + " has an unknown kind " +
                std::to_string(probe.kind));
  return it->second;
}

void copy_run_facts(pqxx::work &w, std::int64_t run_id, const profile::Profile &p,
                    const KeyValues &extra) {
  std::map<std::string, std::string> attributes = p.attributes;
  for (const auto &[key, value] : extra)
    attributes[key] = value;
  Copy attr(w, "run_attributes", {"run_id", "key", "value"});
  for (const auto &[key, value] : attributes)
    attr.integer(run_id).text(key).text(value).end_row();
  attr.complete();
  Copy meta(w, "run_meta", {"run_id", "key", "value"});
  for (const auto &[key, value] : p.meta)
    if (key != "argv" && key.rfind("attr.", 0) != 0)
      meta.integer(run_id).text(key).text(value).end_row();
  meta.complete();
  Copy probes(w, "probe_sites",
              {"run_id", "probe_id", "kind", "description", "file", "line", "function"});
  for (const profile::Probe &probe : p.probes) {
    probes.integer(run_id).integer(probe.id).text(std::string(kind_name(probe)));
    probes.text(probe.description);
    if (probe.file.empty())
      probes.text(std::nullopt).text(std::nullopt);
    else
      probes.text(probe.file).integer(probe.line);
    probes.text(probe.function.empty() ? Value() : Value(probe.function)).end_row();
  }
  probes.complete();
}

// Takes one cfh_id per CFH from the table's identity sequence, then copies the rows.
std::vector<std::int64_t> copy_cfhs(pqxx::work &w, std::int64_t run_id, const profile::Profile &p) {
  std::vector<std::int64_t> ids;
  for (const pqxx::row &row :
       w.exec_params("SELECT nextval(pg_get_serial_sequence('cfh_instances', 'cfh_id')) "
                     "FROM generate_series(1, $1)",
                     p.cfhs.size()))
    ids.push_back(row[0].as<std::int64_t>());
  Copy copy(w, "cfh_instances",
            {"cfh_id", "run_id", "rank", "thread", "name", "named", "overflow", "mismatches",
             "unclosed", "depth_overflow"});
  for (std::size_t i = 0; i < p.cfhs.size(); ++i) {
    const profile::Cfh &h = p.cfhs[i];
    copy.integer(ids[i]).integer(run_id).integer(h.rank).integer(h.thread).text(h.name);
    copy.integer(h.named ? 1 : 0).integer(std::int64_t(h.overflow));
    copy.integer(std::int64_t(h.mismatches)).integer(std::int64_t(h.unclosed));
    copy.integer(std::int64_t(h.depth_overflow)).end_row();
  }
  copy.complete();
  return ids;
}

// Refuses a parent that does not precede its child, as the SQLite loader does.
void copy_nodes(pqxx::work &w, const profile::Profile &p, const std::vector<std::int64_t> &ids) {
  Copy copy(w, "nodes", {"cfh_id", "node", "parent", "probe_id", "depth"});
  std::vector<std::int64_t> depth;
  for (std::size_t index = 0; index < p.cfhs.size(); ++index) {
    const profile::Cfh &h = p.cfhs[index];
    depth.assign(h.nodes.size(), 0);
    for (std::size_t i = 0; i < h.nodes.size(); ++i) {
      std::uint32_t parent = h.nodes[i].parent;
      copy.integer(ids[index]).integer(std::int64_t(i));
      if (parent == profile::kNoParent) {
        copy.text(std::nullopt);
      } else if (parent >= i) {
        throw Error("CFH " + std::to_string(index) + " node " + std::to_string(i) + ": parent " +
                    std::to_string(parent) + " does not precede it");
      } else {
        depth[i] = depth[parent] + 1;
        copy.integer(parent);
      }
      copy.integer(h.nodes[i].probe).integer(depth[i]).end_row();
    }
  }
  copy.complete();
}

void copy_stats(pqxx::work &w, const profile::Profile &p, const std::vector<std::int64_t> &ids,
                const LoadOptions &options, std::size_t total) {
  Copy copy(w, "node_stats",
            {"cfh_id", "node", "count", "total", "min", "max", "mean", "m2", "cpu_count",
             "cpu_total", "cpu_min", "cpu_max", "noise", "bytes_sent", "bytes_recv"});
  std::size_t done = 0;
  for (std::size_t index = 0; index < p.cfhs.size(); ++index) {
    const profile::Cfh &h = p.cfhs[index];
    for (std::size_t i = 0; i < h.nodes.size(); ++i) {
      const idb_stats_t &st = h.nodes[i].stats;
      copy.integer(ids[index]).integer(std::int64_t(i)).integer(std::int64_t(st.count));
      copy.real(st.sum).real(st.min).real(st.max).real(st.mean).real(st.m2);
      copy.integer(std::int64_t(st.cpu_count)).real(st.cpu_sum).real(st.cpu_min);
      copy.real(st.cpu_max).real(st.noise).integer(std::int64_t(st.bytes_sent));
      copy.integer(std::int64_t(st.bytes_recv)).end_row();
      // Every 16k nodes and at the end, as the SQLite loader reports.
      if (options.progress && (++done % 16384 == 0 || done == total)) options.progress(done, total);
    }
  }
  copy.complete();
}

void copy_derived(pqxx::work &w, const profile::Profile &p, const std::vector<std::int64_t> &ids) {
  Copy copy(w, "node_derived", {"cfh_id", "node", "exclusive", "descendant_noise"});
  for (std::size_t index = 0; index < p.cfhs.size(); ++index) {
    std::vector<profile::NodeTimes> times = profile::node_times(p.cfhs[index]);
    for (std::size_t i = 0; i < times.size(); ++i)
      copy.integer(ids[index])
          .integer(std::int64_t(i))
          .real(times[i].exclusive)
          .real(times[i].descendant_noise)
          .end_row();
  }
  copy.complete();
}

} // namespace

LoadResult postgres_load(PostgresDatabase &db, const profile::Profile &profile,
                         const LoadOptions &options) {
  LoadResult result;
  result.label = options.label.empty() ? default_label(profile) : options.label;
  for (const profile::Cfh &h : profile.cfhs)
    result.nodes += h.nodes.size();
  result.cfhs = profile.cfhs.size();
  return pg_check(db, "cannot load into " + db.location(), [&] {
    pqxx::work w(db.connection());
    result.run_id = insert_run(db, w, profile, result.label);
    copy_run_facts(w, result.run_id, profile, options.attributes);
    std::vector<std::int64_t> ids = copy_cfhs(w, result.run_id, profile);
    if (options.progress) options.progress(0, result.nodes);
    copy_nodes(w, profile, ids);
    copy_derived(w, profile, ids);
    copy_stats(w, profile, ids, options, result.nodes);
    w.commit();
    return result;
  });
}

} // namespace idb::store::detail

// The run-level rows of a load (see run_row.hpp): what the profile's META section says
// about the run, mapped onto the columns of `runs`, plus attributes and verbatim metadata.
#include "run_row.hpp"

#include "idb/probe.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <map>

namespace idb::store {

std::string iso_utc(double unix_seconds) {
  auto t = static_cast<std::time_t>(std::floor(unix_seconds));
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string default_label(const profile::Profile &profile) {
  std::string label = profile.get("program", "run");
  // Appended piece by piece: GCC 12 at -O3 warns falsely (-Wrestrict) on "-" + string.
  if (profile.meta.count("start_unix"))
    label.append("-").append(iso_utc(profile.number("start_unix")));
  if (profile.meta.count("pid")) label.append("-").append(profile.get("pid"));
  return label;
}

namespace detail {

std::string command_line(const std::vector<std::string> &argv) {
  std::string line;
  for (const std::string &arg : argv) {
    if (!line.empty()) line += ' ';
    bool plain = !arg.empty() &&
                 arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLM"
                                       "NOPQRSTUVWXYZ0123456789-_./=:,+@%") == std::string::npos;
    if (plain) {
      line += arg;
      continue;
    }
    line += '\'';
    for (char ch : arg)
      line += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    line += '\'';
  }
  return line;
}

namespace {

std::string now_utc() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return iso_utc(double(now.tv_sec));
}

const char *kind_name(const profile::Probe &probe) {
  switch (probe.kind) {
  case IDB_PROC:
    return "PROC";
  case IDB_LOOP:
    return "LOOP";
  case IDB_CALL:
    return "CALL";
  case IDB_COMM:
    return "COMM";
  default:
    throw Error("probe " + std::to_string(probe.id) + " has an unknown kind " +
                std::to_string(probe.kind));
  }
}

void write_probes(LoadSession &s, std::int64_t run_id, const profile::Profile &p) {
  auto rows = s.rows("probe_sites",
                     {"run_id", "probe_id", "kind", "description", "file", "line", "function"});
  for (const profile::Probe &probe : p.probes) {
    rows->integer(run_id).integer(probe.id).text(kind_name(probe)).text(probe.description);
    if (probe.file.empty())
      rows->null().null();
    else
      rows->text(probe.file).integer(probe.line);
    rows->text_or_null(probe.function).end_row();
  }
  rows->finish();
}

void write_pairs(LoadSession &s, std::string_view table, std::int64_t run_id,
                 const std::map<std::string, std::string> &pairs, bool meta) {
  auto rows = s.rows(table, {"run_id", "key", "value"});
  for (const auto &[key, value] : pairs)
    if (!meta || (key != "argv" && key.rfind("attr.", 0) != 0))
      rows->integer(run_id).text(key).text(value).end_row();
  rows->finish();
}

} // namespace

void write_run(LoadSession &s, std::int64_t run_id, const profile::Profile &p,
               const std::string &label) {
  auto rows = s.rows("runs", {"run_id",       "label",        "program",
                              "command_line", "start_time",   "end_time",
                              "wall_seconds", "nprocs",       "threads",
                              "host",         "os",           "arch",
                              "compiler",     "flags",        "idb_version",
                              "timer",        "timer_hz",     "noise_per_activation",
                              "cpu_policy",   "profile_mode", "loaded_at"});
  double start = p.number("start_unix", NAN), end = p.number("end_unix", NAN);
  rows->integer(run_id).text(label).text(p.get("program", "unknown")).text(command_line(p.argv));
  rows->real_or_null(start).real_or_null(end).real_or_null(end - start);
  rows->integer(std::int64_t(p.number("nprocs", 1)));
  rows->integer(std::int64_t(p.number("threads", 0)));
  for (const char *key : {"host", "os", "arch", "compiler", "flags", "idb_version", "timer"}) {
    auto it = p.meta.find(key);
    if (it == p.meta.end())
      rows->null();
    else
      rows->text(it->second);
  }
  rows->real_or_null(p.number("timer_hz", NAN));
  rows->real_or_null(p.number("noise_per_activation_s", NAN));
  rows->text_or_null(p.get("cpu_policy", ""));
  bool summary =
      std::any_of(p.cfhs.begin(), p.cfhs.end(), [](const profile::Cfh &h) { return h.summary; });
  rows->text(summary ? "summary" : "full").text(now_utc()).end_row();
  rows->finish();
}

void write_run_facts(LoadSession &s, std::int64_t run_id, const profile::Profile &p,
                     const KeyValues &extra) {
  std::map<std::string, std::string> attributes = p.attributes;
  for (const auto &[key, value] : extra)
    attributes[key] = value;
  write_pairs(s, "run_attributes", run_id, attributes, false);
  write_pairs(s, "run_meta", run_id, p.meta, true);
  write_probes(s, run_id, p);
}

} // namespace detail
} // namespace idb::store

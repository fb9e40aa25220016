// The run-level rows of a load (see run_row.hpp): what the profile's META section says
// about the run, mapped onto the columns of `runs`, plus attributes and verbatim metadata.
#include "run_row.hpp"

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

// Binds a metadata value as text, or NULL when the profile lacks it.
void bind_text(Statement &s, int index, const profile::Profile &p, const char *key) {
  auto it = p.meta.find(key);
  if (it == p.meta.end())
    s.bind_null(index);
  else
    s.bind(index, std::string_view(it->second));
}

void bind_number(Statement &s, int index, const profile::Profile &p, const char *key) {
  double value = p.number(key, NAN);
  if (std::isnan(value))
    s.bind_null(index);
  else
    s.bind(index, value);
}

std::string now_utc() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return iso_utc(double(now.tv_sec));
}

void refuse_taken(Connection &c, const std::string &label) {
  Statement taken(c, "SELECT 1 FROM runs WHERE label = ?1");
  if (taken.bind(1, std::string_view(label)).step())
    throw Error("a run labelled '" + label + "' is already in " + c.path() +
                ": choose another label");
}

} // namespace

std::int64_t insert_run(Connection &c, const profile::Profile &p, const std::string &label) {
  refuse_taken(c, label);
  Statement s(c, "INSERT INTO runs (label, program, command_line, start_time, end_time, "
                 "wall_seconds, nprocs, threads, host, os, arch, compiler, flags, idb_version, "
                 "timer, timer_hz, noise_per_activation, cpu_policy, profile_mode, loaded_at) "
                 "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "
                 "?17, ?18, ?19, ?20)");
  s.bind(1, std::string_view(label)).bind(2, std::string_view(p.get("program", "unknown")));
  s.bind(3, std::string_view(command_line(p.argv)));
  bind_number(s, 4, p, "start_unix");
  bind_number(s, 5, p, "end_unix");
  double start = p.number("start_unix", NAN), end = p.number("end_unix", NAN);
  if (std::isnan(start) || std::isnan(end))
    s.bind_null(6);
  else
    s.bind(6, end - start);
  s.bind(7, std::int64_t(p.number("nprocs", 1)));
  s.bind(8, std::int64_t(p.number("threads", 0)));
  const char *texts[] = {"host", "os", "arch", "compiler", "flags", "idb_version", "timer"};
  for (int i = 0; i < 7; ++i)
    bind_text(s, 9 + i, p, texts[i]);
  bind_number(s, 16, p, "timer_hz");
  bind_number(s, 17, p, "noise_per_activation_s");
  bind_text(s, 18, p, "cpu_policy");
  s.bind(19, std::string_view(p.get("profile_mode", "full")));
  s.bind(20, std::string_view(now_utc()));
  s.run();
  return c.last_insert_id();
}

void insert_run_facts(Connection &c, std::int64_t run_id, const profile::Profile &p,
                      const KeyValues &extra) {
  std::map<std::string, std::string> attributes = p.attributes;
  for (const auto &[key, value] : extra)
    attributes[key] = value;
  Statement attr(c, "INSERT INTO run_attributes (run_id, key, value) VALUES (?1, ?2, ?3)");
  for (const auto &[key, value] : attributes)
    attr.bind(1, run_id).bind(2, std::string_view(key)).bind(3, std::string_view(value)).run();
  Statement meta(c, "INSERT INTO run_meta (run_id, key, value) VALUES (?1, ?2, ?3)");
  for (const auto &[key, value] : p.meta)
    if (key != "argv" && key.rfind("attr.", 0) != 0)
      meta.bind(1, run_id).bind(2, std::string_view(key)).bind(3, std::string_view(value)).run();
}

} // namespace detail
} // namespace idb::store

// What finalize writes besides the CFHs: the run's metadata (program, arguments, host,
// times, timer, attributes from IDB_ATTR_*), the expansion of the IDB_OUT pattern, and
// the one-line reports of what the probes counted as wrong.
#include "runtime.h"
#include "writer.h"

#include <clocale>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <locale.h>
#include <new>
#include <sys/utsname.h>
#include <unistd.h>

#ifndef IDB_VERSION
#define IDB_VERSION "unknown"
#endif

namespace idb::rt {

namespace {

// Room for every key fill_meta adds: the runtime's own (29 with every option on) and the
// MPI layer's (Runtime::ext_meta), which come last.
constexpr std::size_t kMaxMeta = 40 + sizeof(Runtime::ext_meta) / sizeof(Runtime::ext_meta[0]);
constexpr std::size_t kValue = 4096; // room for a working folder's path

struct Meta {
  MetaEntry entries[kMaxMeta];
  char values[kMaxMeta][kValue];
  std::size_t count = 0;

  void add(const char *key, const char *format, ...) __attribute__((format(printf, 3, 4))) {
    if (count == kMaxMeta) { // a key added here without room made for it
      std::fprintf(stderr, "idb: internal error: no room for META key %s; left out\n", key);
      return;
    }
    va_list args;
    va_start(args, format);
    std::vsnprintf(values[count], kValue, format, args);
    va_end(args);
    entries[count] = MetaEntry{key, values[count], std::strlen(values[count])};
    ++count;
  }
};

// The argument vector, NUL-separated as the kernel keeps it. Caller frees.
char *read_cmdline(std::size_t &size) {
  size = 0;
  FILE *f = std::fopen("/proc/self/cmdline", "rb");
  if (!f) return nullptr;
  std::size_t capacity = 4096;
  auto *data = static_cast<char *>(std::malloc(capacity));
  while (data) {
    size += std::fread(data + size, 1, capacity - size, f);
    if (size < capacity) break;
    capacity *= 2;
    auto *bigger = static_cast<char *>(std::realloc(data, capacity));
    if (!bigger) std::free(data);
    data = bigger;
  }
  std::fclose(f);
  if (data && size > 0 && data[size - 1] == '\0') --size; // no trailing separator
  return data;
}

void append(char *out, std::size_t size, std::size_t &at, const char *text) {
  for (; *text && at + 1 < size; ++text)
    out[at++] = *text;
  out[at] = '\0';
}

// Expands %n (program), %p (pid), %h (host), %r (rank), %t (start, Unix seconds), %%.
void expand_path(const char *pattern, char *out, std::size_t size) {
  std::size_t at = 0;
  out[0] = '\0';
  char host[256] = "host", number[32];
  gethostname(host, sizeof host - 1);
  for (const char *p = pattern; *p; ++p) {
    if (*p != '%' || !p[1]) {
      char one[2] = {*p, '\0'};
      append(out, size, at, one);
      continue;
    }
    switch (*++p) {
    case 'n':
      append(out, size, at, g_rt.program);
      break;
    case 'h':
      append(out, size, at, host);
      break;
    case 'p':
      std::snprintf(number, sizeof number, "%ld", long(getpid()));
      append(out, size, at, number);
      break;
    case 'r':
      std::snprintf(number, sizeof number, "%d", g_rt.rank);
      append(out, size, at, number);
      break;
    case 't':
      std::snprintf(number, sizeof number, "%ld", long(g_rt.start_unix));
      append(out, size, at, number);
      break;
    default: {
      char one[3] = {'%', *p == '%' ? '\0' : *p, '\0'};
      append(out, size, at, *p == '%' ? "%" : one);
    }
    }
  }
  if (at > 0 && out[at - 1] == '/') {
    char name[300];
    std::snprintf(name, sizeof name, "%s-%ld.idbprof", g_rt.program, long(getpid()));
    append(out, size, at, name);
  }
}

// True when this process is one rank of several and `pattern` names the same file for all
// of them (no %r, no %p, not a folder): with no MPI layer merging the ranks, every rank
// would write that file and the last rename would win.
bool shared_by_ranks(const char *pattern) {
  std::size_t n = std::strlen(pattern);
  return g_rt.nprocs > 1 && !std::strstr(pattern, "%r") && !std::strstr(pattern, "%p") && n > 0 &&
         pattern[n - 1] != '/';
}

void fill_meta(Meta &m, const char *mode) {
  const Config &cfg = g_rt.config;
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  struct utsname u;
  bool have_uname = uname(&u) == 0;
  m.add("program", "%s", g_rt.program);
  m.add("host", "%s", host);
  m.add("pid", "%ld", long(getpid()));
  m.add("rank", "%d", g_rt.rank);
  m.add("nprocs", "%d", g_rt.nprocs);
  m.add("threads", "%d", g_rt.threads);
  m.add("start_unix", "%.17g", g_rt.start_unix);
  m.add("end_unix", "%.17g", g_rt.end_unix);
  m.add("timer", "%s", timer_name());
  m.add("timer_hz", "%.17g", g_rt.ticks_per_second);
  m.add("noise_per_activation_s", "%.17g", g_rt.noise_ticks / g_rt.ticks_per_second);
  m.add("cpu_policy", "%s", cpu_policy_name(cfg.cpu));
  m.add("cpu_clock", "%s", thread_cpu_source());
  m.add("cpu_threshold_us", "%.17g", cfg.cpu_threshold_us);
  m.add("throttle", "%s", cfg.throttle ? "on" : "off");
  if (cfg.throttle) {
    m.add("throttle_after", "%u", cfg.throttle_after);
    m.add("throttle_percent", "%.17g", cfg.throttle_percent);
    m.add("throttle_below_s", "%.17g", g_rt.limits.throttle_ticks / g_rt.ticks_per_second);
    m.add("throttle_sample", "%u", cfg.throttle_sample);
    m.add("throttle_early_after", "%llu",
          static_cast<unsigned long long>(g_rt.limits.throttle_early_after));
    m.add("throttle_early_below_s", "%.17g",
          g_rt.limits.throttle_early_ticks / g_rt.ticks_per_second);
    m.add("throttled_noise_per_activation_s", "%.17g",
          g_rt.throttled_ticks / g_rt.ticks_per_second);
  }
  m.add("histogram", "%s", g_rt.limits.hist_mult ? "on" : "off");
  m.add("max_nodes", "%u", cfg.max_nodes);
  m.add("max_depth", "%u", cfg.max_depth);
  m.add("idb_version", "%s", IDB_VERSION);
  if (have_uname) {
    m.add("os", "%s %s", u.sysname, u.release);
    m.add("arch", "%s", u.machine);
  }
  char cwd[kValue];
  if (getcwd(cwd, sizeof cwd)) m.add("cwd", "%s", cwd);
  if (mode) m.add("mpi_mode", "%s", mode);
  for (int i = 0; i < g_rt.ext_meta_count; ++i)
    m.add(g_rt.ext_meta[i][0], "%s", g_rt.ext_meta[i][1]);
}

// IDB_ATTR_<key>=<value> become "attr.<key>" entries; returns how many were added.
std::size_t add_attributes(MetaEntry *out, std::size_t room, char **keys) {
  std::size_t n = 0;
  for (char **e = environ; e && *e && n < room; ++e) {
    if (std::strncmp(*e, "IDB_ATTR_", 9) != 0) continue;
    const char *eq = std::strchr(*e, '=');
    if (!eq || eq == *e + 9) continue;
    std::size_t klen = std::size_t(eq - (*e + 9));
    keys[n] = static_cast<char *>(std::malloc(klen + 6));
    if (!keys[n]) break;
    std::memcpy(keys[n], "attr.", 5);
    std::memcpy(keys[n] + 5, *e + 9, klen);
    keys[n][klen + 5] = '\0';
    out[n] = MetaEntry{keys[n], eq + 1, std::strlen(eq + 1)};
    ++n;
  }
  return n;
}

// The run's writer job; `sections` (may be null) replace the process's own CFHs.
WriteJob run_job(const Bytes *sections = nullptr) {
  WriteJob job{};
  job.cfhs = g_rt.first;
  job.rank = g_rt.rank;
  job.ticks_per_second = g_rt.ticks_per_second;
  job.noise_ticks = g_rt.noise_ticks;
  job.throttled_ticks = g_rt.throttled_ticks;
  job.end_ticks = g_rt.end_ticks;
  if (sections) {
    job.sections = sections->data;
    job.sections_size = sections->size;
    job.section_count = sections->count;
  }
  return job;
}

void report_counts(const char *path, bool written) {
  unsigned long long mismatches = 0, overflow = 0, deep = 0, unclosed = 0;
  for (const Cfh *c = g_rt.first; c; c = c->next) {
    mismatches += c->mismatches;
    overflow += c->overflow;
    deep += c->depth_overflow;
    unclosed += c->unclosed;
  }
  if (mismatches)
    std::fprintf(stderr,
                 "idb: warning: %llu probe stops did not match the open probe (or CFH enters and "
                 "leaves did not pair up)\n",
                 mismatches);
  if (overflow)
    std::fprintf(
        stderr,
        "idb: warning: %llu activations not recorded: node cap %u reached (IDB_MAX_NODES)\n",
        overflow, g_rt.config.max_nodes);
  if (deep)
    std::fprintf(
        stderr,
        "idb: warning: %llu activations not recorded: depth cap %u reached (IDB_MAX_DEPTH)\n", deep,
        g_rt.config.max_depth);
  if (g_rt.config.verbose && written)
    std::fprintf(stderr, "idb: profile written to %s (%llu probes closed at exit)\n", path,
                 unclosed);
}

} // namespace

bool serialize_run(Bytes *probes, Bytes *sections) {
  bool ok = !probes || serialize_probes(*probes);
  if (sections) {
    report_counts(nullptr, false);
    ok = serialize_cfhs(run_job(), *sections) && ok;
  }
  return ok;
}

bool write_run_profile(const Bytes *sections, const char *mode, const char *suffix, char *used,
                       std::size_t used_size) {
  void *room = std::malloc(sizeof(Meta)); // 192 KiB: not on the finalizing thread's stack
  if (!room) {
    std::fprintf(stderr, "idb: error: profile not written: out of memory\n");
    return false;
  }
  Meta &meta = *new (room) Meta;
  // Numbers are written in the C locale whatever the program chose with setlocale.
  locale_t c_locale = newlocale(LC_ALL_MASK, "C", nullptr);
  locale_t saved = c_locale ? uselocale(c_locale) : nullptr;
  fill_meta(meta, mode);
  std::size_t cmdline_size = 0;
  char *cmdline = read_cmdline(cmdline_size);
  constexpr std::size_t kRoom = 256;
  MetaEntry all[kMaxMeta + 1 + kRoom];
  char *keys[kRoom];
  std::size_t n = meta.count;
  std::memcpy(all, meta.entries, sizeof(MetaEntry) * n);
  if (cmdline) all[n++] = MetaEntry{"argv", cmdline, cmdline_size};
  std::size_t attrs = add_attributes(all + n, kRoom, keys);
  n += attrs;

  char path[4096];
  expand_path(g_rt.config.out, path, sizeof path);
  // A rank's own profile (not the merge, not a spill) to a file every rank names: its
  // own file instead, as a spill is named, and rank 0 says so once.
  char own[64];
  bool per_rank = !sections && !suffix && shared_by_ranks(g_rt.config.out);
  if (per_rank) {
    std::snprintf(own, sizeof own, ".rank%d.idbprof", g_rt.rank);
    suffix = own;
  }
  if (suffix) std::strncat(path, suffix, sizeof path - std::strlen(path) - 1);
  if (used) std::snprintf(used, used_size, "%s", path);
  WriteJob job = run_job(sections);
  job.meta = all;
  job.meta_count = n;
  char error[512];
  bool written = write_profile(path, job, error, sizeof error);
  if (!written) std::fprintf(stderr, "idb: error: profile not written: %s\n", error);
  if (per_rank) {
    report_counts(path, written);
    if (g_rt.rank == 0)
      std::fprintf(stderr,
                   "idb: IDB_OUT names one file for all %d ranks and no MPI layer merged them: "
                   "each rank wrote its own, %.*s.rank<r>.idbprof ('idb load --combine FILES' "
                   "stores them as one run)\n",
                   g_rt.nprocs, int(std::strlen(path) - std::strlen(own)), path);
  } else if (suffix) { // a spill: its warnings come with the merge (serialize_run)
    if (g_rt.config.verbose && written)
      std::fprintf(stderr, "idb: rank %d's profile written to %s until the merge completes\n",
                   g_rt.rank, path);
  } else if (!sections) {
    report_counts(path, written);
  } else if (g_rt.config.verbose && written) {
    std::fprintf(stderr, "idb: profile of %d ranks written to %s\n", g_rt.nprocs, path);
  }
  for (std::size_t i = 0; i < attrs; ++i)
    std::free(keys[i]);
  std::free(cmdline);
  std::free(room);
  if (c_locale) {
    uselocale(saved);
    freelocale(c_locale);
  }
  return written;
}

} // namespace idb::rt

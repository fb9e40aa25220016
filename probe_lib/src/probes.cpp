// The process-wide probe table: an array in registration order and the runtime's hash
// table from id to position, both grown under the table's mutex.
#include "probes.h"

#include "hash_map.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>

namespace idb::rt {

namespace {

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
ProbeInfo *g_probes = nullptr;
std::size_t g_count = 0, g_capacity = 0;
HashMap<std::uint32_t> g_index; // probe id → position in g_probes

std::uint64_t key_of(int id) {
  return std::uint32_t(id);
}

char *copy(const char *text) {
  if (!text) return nullptr;
  std::size_t n = std::strlen(text) + 1;
  auto *p = static_cast<char *>(std::malloc(n));
  if (p) std::memcpy(p, text, n);
  return p;
}

bool reserve(std::size_t count) {
  if (count <= g_capacity) return true;
  std::size_t capacity = g_capacity ? g_capacity * 2 : 256;
  auto *probes = static_cast<ProbeInfo *>(std::realloc(g_probes, capacity * sizeof(ProbeInfo)));
  if (!probes) return false;
  g_probes = probes;
  g_capacity = capacity;
  return true;
}

} // namespace

void probe_seen(int kind, int id, const char *description, const char *file, int line,
                const char *function) {
  if (id == kCalibrationProbe) return;
  pthread_mutex_lock(&g_lock);
  bool added = false;
  if (reserve(g_count + 1) && g_index.insert(key_of(id), std::uint32_t(g_count), &added) && added)
    g_probes[g_count++] = ProbeInfo{id, kind, line, copy(description), copy(file), copy(function)};
  pthread_mutex_unlock(&g_lock);
}

const char *probe_description(int id, char *fallback, std::size_t size) {
  const char *text = nullptr;
  pthread_mutex_lock(&g_lock);
  if (const std::uint32_t *at = g_index.find(key_of(id))) text = g_probes[*at].description;
  pthread_mutex_unlock(&g_lock);
  if (text && *text) return text;
  std::snprintf(fallback, size, "#%d", id);
  return fallback;
}

bool probe_info(int id, ProbeInfo &info) {
  pthread_mutex_lock(&g_lock);
  const std::uint32_t *at = g_index.find(key_of(id));
  if (at) info = g_probes[*at];
  pthread_mutex_unlock(&g_lock);
  return at != nullptr;
}

void probe_table_lock() {
  pthread_mutex_lock(&g_lock);
}

void probe_table_unlock() {
  pthread_mutex_unlock(&g_lock);
}

void probe_visit(void (*visit)(const ProbeInfo &, void *), void *context) {
  pthread_mutex_lock(&g_lock);
  for (std::size_t i = 0; i < g_count; ++i)
    visit(g_probes[i], context);
  pthread_mutex_unlock(&g_lock);
}

} // namespace idb::rt

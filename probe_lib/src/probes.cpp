// The process-wide probe table: an array in registration order and an open-addressing
// index by id, both grown under the table's mutex.
#include "probes.h"

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
std::uint32_t *g_index = nullptr; // position + 1 in g_probes; 0 = free
std::size_t g_index_size = 0;     // a power of two, at least twice g_count

std::size_t home(int id, std::size_t size) {
  return std::size_t((std::uint32_t(id) * 0x9E3779B1u) >> 7) & (size - 1);
}

std::uint32_t *find_slot(int id) {
  for (std::size_t i = home(id, g_index_size);; i = (i + 1) & (g_index_size - 1))
    if (g_index[i] == 0 || g_probes[g_index[i] - 1].id == id) return &g_index[i];
}

char *copy(const char *text) {
  if (!text) return nullptr;
  std::size_t n = std::strlen(text) + 1;
  auto *p = static_cast<char *>(std::malloc(n));
  if (p) std::memcpy(p, text, n);
  return p;
}

bool reserve(std::size_t count) {
  if (count > g_capacity) {
    std::size_t capacity = g_capacity ? g_capacity * 2 : 256;
    auto *probes = static_cast<ProbeInfo *>(std::realloc(g_probes, capacity * sizeof(ProbeInfo)));
    if (!probes) return false;
    g_probes = probes;
    g_capacity = capacity;
  }
  if (count * 2 > g_index_size) {
    std::size_t size = g_index_size ? g_index_size * 2 : 512;
    auto *index = static_cast<std::uint32_t *>(std::calloc(size, sizeof(std::uint32_t)));
    if (!index) return false;
    std::free(g_index);
    g_index = index;
    g_index_size = size;
    for (std::size_t i = 0; i < g_count; ++i)
      *find_slot(g_probes[i].id) = std::uint32_t(i + 1);
  }
  return true;
}

} // namespace

void probe_seen(int kind, int id, const char *description, const char *file, int line,
                const char *function) {
  if (id == kCalibrationProbe) return;
  pthread_mutex_lock(&g_lock);
  if (reserve(g_count + 1)) {
    std::uint32_t *slot = find_slot(id);
    if (*slot == 0) {
      g_probes[g_count] = ProbeInfo{id, kind, line, copy(description), copy(file), copy(function)};
      *slot = std::uint32_t(++g_count);
    }
  }
  pthread_mutex_unlock(&g_lock);
}

const char *probe_description(int id, char *fallback, std::size_t size) {
  const char *text = nullptr;
  pthread_mutex_lock(&g_lock);
  if (g_index_size) {
    std::uint32_t at = *find_slot(id);
    if (at) text = g_probes[at - 1].description;
  }
  pthread_mutex_unlock(&g_lock);
  if (text && *text) return text;
  std::snprintf(fallback, size, "#%d", id);
  return fallback;
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

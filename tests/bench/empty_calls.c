/* Two functions with the signatures of idb_start and idb_stop that do nothing, built as a
 * shared and as a static library like the runtime: bench_probe_pair's BM_TwoEmptyCalls
 * measures the floor that any out-of-line call per start and per stop costs. */
void bench_empty_start(int kind, int id, const char *description);
void bench_empty_stop(int id);

void bench_empty_start(int kind, int id, const char *description) {
  (void)kind;
  (void)id;
  (void)description;
}

void bench_empty_stop(int id) {
  (void)id;
}

// A program whose profile is as large as asked, for the store's concurrency tests: main
// runs OUTER loops, each calling INNER distinct sites once, so the real runtime writes
// one CFH of 2 + OUTER × (1 + INNER) nodes (IDB_OUT names the file). No timing matters.
#include <idb/probe.h>

#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  std::size_t outer = std::strtoul(argv[1], nullptr, 10),
              inner = std::strtoul(argv[2], nullptr, 10);
  idb_init("bulk_profile_gen");
  std::vector<std::string> names; // the runtime keeps pointers to descriptions
  names.reserve(outer + inner);
  for (std::size_t i = 0; i < outer; ++i)
    names.push_back("loop " + std::to_string(i));
  for (std::size_t j = 0; j < inner; ++j)
    names.push_back("call " + std::to_string(j));
  idb_start(IDB_PROC, 1, "main");
  for (std::size_t i = 0; i < outer; ++i) {
    int loop = 100 + int(i);
    idb_start(IDB_LOOP, loop, names[i].c_str());
    for (std::size_t j = 0; j < inner; ++j) {
      int call = 1000000 + int(j);
      idb_start(IDB_CALL, call, names[outer + j].c_str());
      idb_stop(call);
    }
    idb_stop(loop);
  }
  idb_stop(1);
  return 0;
}

// Builds shapes from a spec, skipping bad ones, and prints the total area. Built through
// idb-cxx (which defines IDB_INSTRUMENTED and makes <idb/probe.h> includable), the total
// is computed in a CFH of its own; the plain build neither includes nor links IDB.
#include "shapes.hpp"

#ifdef IDB_INSTRUMENTED
#include <idb/probe.h>
#endif

#include <cstdio>
#include <stdexcept>

int main() {
  const char kinds[] = {'s', 'c', 'x', 's'};
  const double sizes[] = {2, 1, 3, -1};
  std::vector<std::unique_ptr<Shape>> shapes;
  for (int i = 0; i < 4; i++) {
    try {
      shapes.push_back(make_shape(kinds[i], sizes[i]));
    } catch (const std::exception &e) {
      std::printf("skipped: %s\n", e.what());
    }
  }
  double area = 0;
  {
#ifdef IDB_INSTRUMENTED
    idb::Cfh totals{"totals"};
    idb::CfhContext in{totals};
#endif
    area = total_area(shapes);
  }
  std::printf("%zu shapes, total area %.3f\n", shapes.size(), area);
  return 0;
}

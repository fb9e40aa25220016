// Builds shapes from a spec, skipping bad ones, and prints the total area.
#include "shapes.hpp"

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
  std::printf("%zu shapes, total area %.3f\n", shapes.size(), total_area(shapes));
  return 0;
}

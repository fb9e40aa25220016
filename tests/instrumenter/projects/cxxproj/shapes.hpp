// Shapes with virtual area, and a total over a list.
#pragma once
#include <memory>
#include <vector>

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
};
std::unique_ptr<Shape> make_shape(char kind, double size);
double total_area(const std::vector<std::unique_ptr<Shape>> &shapes);

// A template kernel in the header: the wrappers instrument it once, where it is written,
// in a copy of the header that the sources include instead.
template <typename F> double sum_of(const std::vector<std::unique_ptr<Shape>> &shapes, F f) {
  double s = 0;
  for (const auto &shape : shapes)
    s += f(*shape);
  return s;
}

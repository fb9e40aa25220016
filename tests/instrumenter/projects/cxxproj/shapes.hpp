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

// The default selection's size rule: what a function or loop holds decides, not its
// top-level statement count nor the inline keyword. Kernels that are one loop nest, class
// members defined in the class and static inline functions with loops get probes; short
// accessors and helpers whose only loop runs a few constant trips do not.
#include <cstdio>
#include <vector>

namespace {

class Grid {
public:
  explicit Grid(int n) : n_(n), v_(static_cast<std::size_t>(n) * n, 1.0) {}

  // A three-line accessor: skipped.
  double at(int i, int j) const {
    int k = i * n_ + j;
    return v_[static_cast<std::size_t>(k)];
  }

  // Defined in the class, one top-level statement, a loop nest: probed.
  void smooth() {
    for (int i = 1; i < n_ - 1; ++i)
      for (int j = 1; j < n_ - 1; ++j)
        v_[static_cast<std::size_t>(i * n_ + j)] =
            0.25 * (at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1));
  }

  int size() const { return n_; }

private:
  int n_;
  std::vector<double> v_;
};

// A loop of three constant trips over one statement: its function and the loop are
// skipped, wherever it is called from.
inline double dot3(const double *a, const double *b) {
  double s = 0;
  for (int d = 0; d < 3; ++d)
    s += a[d] * b[d];
  return s;
}

// static inline with a loop of unknown length: probed.
static inline double norm_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += dot3(x + 3 * i, x + 3 * i);
  return s;
}

// Loop-free, but its statements and calls weigh eight or more: probed.
double blend(double a, double b, double t) {
  double u = 1.0 - t;
  double x = a * u;
  double y = b * t;
  if (x > y)
    std::printf("a side\n");
  else
    std::printf("b side\n");
  return x + y;
}

} // namespace

int main() {
  Grid g(8);
  for (int step = 0; step < 3; ++step)
    g.smooth();
  std::vector<double> x(12, 0.5);
  double total = norm_sum(x.data(), 4) + g.at(3, 3) + blend(1.0, 2.0, 0.25);
  std::printf("%d %.6f\n", g.size(), total);
  return 0;
}

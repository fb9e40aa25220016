// C++: probes close on exceptions (RAII), templates are instrumented once in their source,
// lambdas are left alone, constexpr and in-class (inline) methods are skipped, out-of-line
// methods, range-for, references returned through `return f(x);`, and a static
// initialiser that runs instrumented code before main.
// The layout is part of what this case tests:
// clang-format off
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

int checked_div(int a, int b) {
  int q = 0;
  if (b == 0) throw std::runtime_error("division by zero");
  q = a / b;
  return q;
}

template <class T> T accumulate(const std::vector<T> &values) {
  T total{};
  for (const T &v : values) total += v;
  return total;
}

constexpr int cube(int x) { return x * x * x; }

class Counter {
public:
  int bump() { return ++n_; }
  int &slot(int i);
  int add_all(const std::vector<int> &v);

private:
  int n_ = 0;
  int slots_[4] = {0, 0, 0, 0};
};

int &Counter::slot(int i) {
  int j = i % 4;
  if (j < 0) j = -j;
  return slots_[j];
}

int Counter::add_all(const std::vector<int> &v) {
  int sum = 0;
  for (int x : v) {
    if (x < 0) continue;
    sum += x;
  }
  return sum;
}

int &pick(Counter &c, int i) {
  int k = i + 1;
  k--;
  return c.slot(k);
}

std::string greet(const char *who) {
  std::string s = "hello ";
  s += who;
  return s;
}

struct Startup {
  Startup() { std::printf("startup %s\n", greet("world").c_str()); }
} startup;

} // namespace

int main() {
  int failures = 0;
  for (int b : {2, 0, 5}) {
    try {
      std::printf("%d\n", checked_div(100, b));
    } catch (const std::exception &e) {
      std::printf("caught: %s\n", e.what());
      failures++;
    }
  }
  std::vector<int> ints{1, 2, 3, -4};
  std::vector<double> reals{0.5, 0.25};
  Counter c;
  pick(c, 2) = 7;
  auto twice = [](int x) { return 2 * x; };
  std::printf("%d %.2f %d %d %d %d %d\n", accumulate(ints), accumulate(reals), cube(3),
              c.bump(), c.slot(2), c.add_all(ints), twice(failures));
  return failures == 1 ? 0 : 1;
}

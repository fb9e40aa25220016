// C++ CALL probes: member calls, calls returning references (`return f(x);` keeps the
// value category), calls that throw out of a wrapped statement and out of a white-box
// loop, a call whose result initialises a variable, and calls inside conditions.
// The layout is part of what this case tests:
// clang-format off
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>

namespace {

struct Registry {
  std::map<std::string, int> values;
  int &at(const std::string &key) { return values[key]; }
  int get(const std::string &key) const {
    auto it = values.find(key);
    if (it == values.end()) throw std::out_of_range("no " + key);
    return it->second;
  }
};

int &slot(Registry &r, const std::string &key) {
  std::string k = key;
  k += "";
  return r.at(k);
}

int checked(const Registry &r, const std::string &key) {
  int total = 0;
  for (int attempt = 0; attempt < 3; attempt++) {
    total += r.get(key);
    if (total > 100) break;
  }
  return total;
}

} // namespace

int main() {
  Registry r;
  slot(r, "a") = 5;
  slot(r, "b") += 2;
  int a = r.get("a");
  std::printf("a=%d b=%d\n", a, r.get("b"));
  try {
    checked(r, "missing");
  } catch (const std::out_of_range &e) {
    std::printf("caught %s\n", e.what());
  }
  if (r.get("a") == 5) std::printf("checked %d\n", checked(r, "a"));
  return 0;
}

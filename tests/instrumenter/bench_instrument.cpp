// Benchmark: how long idb-instrument takes on one large C translation unit. Generates a
// file that includes four system headers and defines N functions (about 24 lines each: loops two
// deep, calls in statements and conditions, an early return), then times, in-process and best of R
// runs, `list` (parse, walk, select; no edits), `apply` with the default selection and `apply` with
// every candidate selected (all loops white-box, every call). Prints one line per mode with the
// time per source line. Figures: docs/PERFORMANCE.md ("The instrumenter").
// usage: bench_instrument [--functions N] [--repeat R] [--write FILE]
// (--write only writes the generated file, to time the idb-instrument command on it.)
#include "selection.hpp"
#include "tool.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace idb::instr;

namespace {

std::string function_text(int i) {
  std::string n = std::to_string(i);
  return "static double kernel" + n + "(double *a, int n, int m) {\n" +
         "  double s = 0.0;\n"
         "  int i, j;\n"
         "  if (n <= 0) return 0.0;\n"
         "  for (i = 0; i < n; i++) {\n"
         "    for (j = 0; j < m; j++) {\n"
         "      if (a[i] > 0.5) continue;\n"
         "      s += a[i] * (double)j;\n"
         "    }\n"
         "    a[i] = helper(a[i]);\n"
         "  }\n"
         "  while (s > 1000.0) s = shrink(s);\n"
         "  if (helper(s) > 2.0) s = helper(s);\n"
         "  else s = shrink(s);\n"
         "  do {\n"
         "    s += 1.0;\n"
         "  } while (s < 3.0);\n"
         "  record(s);\n"
         "  {\n"
         "    double t = helper(s);\n"
         "    s += t;\n"
         "  }\n"
         "  return s;\n"
         "}\n";
}

std::string generate(int functions, int &lines) {
  // Real files include system headers; their parse is part of the cost.
  std::string code = "#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
                     "#include <string.h>\n"
                     "double helper(double);\ndouble shrink(double);\nvoid record(double);\n";
  for (int i = 0; i < functions; ++i)
    code += function_text(i);
  code += "double run(double *a, int n) {\n  double s = 0.0;\n";
  for (int i = 0; i < functions; ++i)
    code += "  s += kernel" + std::to_string(i) + "(a, n, 3);\n";
  code += "  return s;\n}\n";
  lines = static_cast<int>(std::count(code.begin(), code.end(), '\n'));
  return code;
}

double best_of(int repeat, const std::string &code, const Selection &sel, bool apply,
               size_t &probes) {
  double best = 1e30;
  for (int r = 0; r < repeat; ++r) {
    auto start = std::chrono::steady_clock::now();
    FileResult result = run_on_text(code, "large.c", {}, sel, apply);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!result.error.empty()) {
      std::fprintf(stderr, "bench_instrument: %s\n", result.error.c_str());
      std::exit(1);
    }
    probes = static_cast<size_t>(
        std::count_if(result.candidates.begin(), result.candidates.end(),
                      [](const Candidate &c) { return c.selected && c.skipped.empty(); }));
    best = std::min(best, s);
  }
  return best;
}

} // namespace

int main(int argc, char **argv) {
  int functions = 2000, repeat = 3;
  std::string write_to;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string arg = argv[i];
    if (arg == "--functions")
      functions = std::atoi(argv[i + 1]);
    else if (arg == "--repeat")
      repeat = std::atoi(argv[i + 1]);
    else if (arg == "--write")
      write_to = argv[i + 1];
  }
  int lines = 0;
  std::string code = generate(functions, lines);
  if (!write_to.empty()) {
    std::FILE *out = std::fopen(write_to.c_str(), "w");
    bool ok = out && std::fwrite(code.data(), 1, code.size(), out) == code.size();
    if (out) ok = std::fclose(out) == 0 && ok;
    return ok ? 0 : 1;
  }
  auto everything = parse_selection("include all mode=whitebox\nset min-statements 0\n", "all");
  struct Mode {
    const char *name;
    Selection sel;
    bool apply;
  } modes[] = {{"list", default_selection(), false},
               {"apply default", default_selection(), true},
               {"apply everything", everything.selection, true}};
  std::printf("%d lines, %d functions, best of %d\n", lines, functions, repeat);
  for (const Mode &m : modes) {
    size_t probes = 0;
    double s = best_of(repeat, code, m.sel, m.apply, probes);
    std::printf("%-17s %8.3f s  %6.2f us/line  %7zu probes\n", m.name, s, 1e6 * s / lines, probes);
  }
  return 0;
}

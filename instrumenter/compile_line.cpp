// Reading a GCC-style compiler command line: which arguments are sources, whether it
// links, and the preprocessor and language flags Clang must see to parse the sources as
// the compiler will.
#include "wrapper.hpp"

#include <algorithm>
#include <array>
#include <filesystem>

namespace idb::instr {

namespace fs = std::filesystem;

namespace {

// Options whose value is the next argument when not attached.
bool takes_value(const std::string &a) {
  static const std::array<const char *, 24> options = {"-o",
                                                       "-I",
                                                       "-D",
                                                       "-U",
                                                       "-include",
                                                       "-imacros",
                                                       "-isystem",
                                                       "-iquote",
                                                       "-idirafter",
                                                       "-iprefix",
                                                       "-iwithprefix",
                                                       "-isysroot",
                                                       "-MF",
                                                       "-MT",
                                                       "-MQ",
                                                       "-x",
                                                       "-L",
                                                       "-Xlinker",
                                                       "-Xpreprocessor",
                                                       "-Xassembler",
                                                       "-aux-info",
                                                       "--param",
                                                       "-T",
                                                       "-l"};
  return std::find(options.begin(), options.end(), a) != options.end();
}

// Flags Clang should see, with a value attached or separate.
bool parse_relevant(const std::string &a) {
  static const std::array<const char *, 10> prefixes = {
      "-I",       "-D",      "-U",         "-include",  "-imacros",
      "-isystem", "-iquote", "-idirafter", "-isysroot", "--sysroot"};
  for (const char *p : prefixes)
    if (a.rfind(p, 0) == 0) return true;
  static const std::array<const char *, 12> exact = {
      "-ansi", "-pthread", "-fopenmp",  "-fexceptions", "-fno-exceptions", "-fno-rtti",
      "-m32",  "-m64",     "-nostdinc", "-nostdinc++",  "-fsigned-char",   "-funsigned-char"};
  if (std::find(exact.begin(), exact.end(), a) != exact.end()) return true;
  return a.rfind("-std=", 0) == 0;
}

// The language of a source by extension: 'c', 'x' (C++) or 0 (not a source we handle).
char language_of(const std::string &path) {
  auto dot = path.rfind('.');
  if (dot == std::string::npos) return 0;
  std::string ext = path.substr(dot + 1);
  if (ext == "c") return 'c';
  if (ext == "cc" || ext == "cpp" || ext == "cxx" || ext == "c++" || ext == "C" || ext == "cp")
    return 'x';
  return 0;
}

} // namespace

CompileLine parse_compile_line(const std::vector<std::string> &args) {
  CompileLine line;
  char forced = 0; // from -x
  bool inputs = false, deps = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (a == "-c" || a == "-S" || a == "-E" || a == "-fsyntax-only") line.links = false;
    if (a == "-E" || a == "-M" || a == "-MM" || a == "-fsyntax-only") line.passthrough = true;
    if (a == "-x" && i + 1 < args.size()) {
      const std::string &lang = args[i + 1];
      // Other languages (assembler, ...) are compiled as they are.
      forced = lang == "c" ? 'c' : lang == "c++" ? 'x' : lang == "none" ? '\0' : '?';
    }
    if (a == "-MD" || a == "-MMD") deps = true;
    if (a == "-MF" && i + 1 < args.size()) line.dep_file = args[i + 1];
    if (a == "-o" && i + 1 < args.size()) line.output = args[i + 1];
    if (parse_relevant(a)) {
      line.parse_flags.push_back(a);
      if (takes_value(a) && i + 1 < args.size()) line.parse_flags.push_back(args[i + 1]);
    }
    if (takes_value(a)) {
      ++i;
      continue;
    }
    if (a == "-") line.error = "cannot instrument a source read from standard input";
    if (a.empty() || a[0] == '-') continue;
    inputs = true;
    char lang = forced ? forced : language_of(a);
    if (lang == 'c' || lang == 'x') line.sources.push_back({i, a, lang == 'x'});
  }
  if (deps && line.dep_file.empty() && line.sources.size() == 1) {
    fs::path base =
        line.output.empty() ? fs::path(line.sources[0].path).filename() : fs::path(line.output);
    line.dep_file = base.replace_extension(".d").string();
  }
  // `cc --version` and the like: nothing to compile, nothing to link.
  if (!inputs) line.passthrough = true;
  return line;
}

} // namespace idb::instr

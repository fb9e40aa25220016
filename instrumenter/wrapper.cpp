// run_wrapper: instrument each source of a compiler command into a temporary folder, then
// run the real compiler on the instrumented files with the original arguments, the
// runtime's header folder and IDB_INSTRUMENTED defined (so a code can use <idb/probe.h>,
// e.g. to enter one CFH per object, only in its instrumented build).
#include "wrapper.hpp"

#include "idb/edf.hpp"

#include "cli.hpp"
#include "index_cache.hpp"
#include "manifest.hpp"
#include "output_files.hpp"
#include "process.hpp"
#include "selection.hpp"
#include "tool.hpp"

#include <algorithm>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string_view>
#include <unistd.h>

namespace idb::instr {

namespace fs = std::filesystem;

namespace {

// What the wrappers add to every compile they instrument, and to the parse before it, so
// Clang sees the code the compiler will build.
std::vector<std::string> instrumented_flags(const RuntimePaths &runtime) {
  return {"-DIDB_INSTRUMENTED=1", "-I" + runtime.include_dir};
}

// The folders the command's own flags put on the include path (-I, -isystem, -iquote,
// -idirafter; attached or separate).
std::vector<std::string> own_include_dirs(const std::vector<std::string> &flags) {
  std::vector<std::string> dirs;
  for (std::size_t i = 0; i < flags.size(); ++i)
    for (std::string_view option : {"-I", "-isystem", "-iquote", "-idirafter"}) {
      if (flags[i].rfind(option, 0) != 0) continue;
      if (flags[i].size() > option.size())
        dirs.push_back(flags[i].substr(option.size()));
      else if (i + 1 < flags.size())
        dirs.push_back(flags[++i]);
      break;
    }
  return dirs;
}

// The include folders the real compiler searches beyond the command's own (mpicc's MPI
// folder, say), from its `-E -v` report, so Clang finds the same headers. (The command's
// own stay as its flags say: given again as system folders, the user's headers would be
// system headers to Clang.)
std::vector<std::string> compiler_include_dirs(const std::string &compiler, bool cxx,
                                               const std::vector<std::string> &flags) {
  std::vector<std::string> argv = {compiler};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"-E", "-v", "-x", cxx ? "c++" : "c", "/dev/null"});
  std::string report;
  run_capture(argv, report);
  std::vector<std::string> dirs;
  std::istringstream in(report);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind("#include <...> search starts here", 0) == 0)
      inside = true;
    else if (line.rfind("End of search list", 0) == 0)
      inside = false;
    else if (inside && line.size() > 1 && line[0] == ' ')
      dirs.push_back(line.substr(1));
  }
  std::vector<std::string> own = own_include_dirs(flags);
  dirs.erase(std::remove_if(dirs.begin(), dirs.end(),
                            [&](const std::string &dir) {
                              return std::any_of(own.begin(), own.end(), [&](const std::string &o) {
                                std::error_code ec;
                                return fs::equivalent(dir, o, ec) && !ec;
                              });
                            }),
             dirs.end());
  return dirs;
}

// The selection from IDB_SELECTION_FILE, IDB_SELECTION (text) or the [AUTOINST] section
// of the experiment definition file IDB_EDF, else (also for an empty [AUTOINST]) the
// default.
SelectionResult wrapper_selection() {
  if (const char *file = std::getenv("IDB_SELECTION_FILE"); file && *file) {
    std::string text, error;
    if (!read_selection_file(file, text, error)) return {{}, error};
    return parse_selection(text, file);
  }
  if (const char *text = std::getenv("IDB_SELECTION"); text && *text)
    return parse_selection(text, "IDB_SELECTION");
  if (const char *edf_file = std::getenv("IDB_EDF"); edf_file && *edf_file) {
    std::string error;
    std::optional<std::string> text = edf::read_autoinst(edf_file, error);
    if (!text) return {{}, error};
    // An experiment without a selection yet starts from the default one.
    if (text->find_first_not_of(" \t\r\n") != std::string::npos)
      return parse_selection(*text, std::string(edf_file) + " [AUTOINST]");
  }
  return {default_selection(), ""};
}

class TempFolder {
public:
  TempFolder() {
    const char *base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/idb-cc-XXXXXX";
    if (mkdtemp(pattern.data())) path_ = pattern;
  }
  ~TempFolder() {
    std::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }
  TempFolder(const TempFolder &) = delete;
  TempFolder &operator=(const TempFolder &) = delete;
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

// The command that preprocesses `input` in place of `source` as `argv` would compile it:
// the same flags with `extra` before them, without -c, -o and the dependency flags.
std::vector<std::string> preprocess_command(const std::vector<std::string> &argv,
                                            const CompileLine::Source &source,
                                            const std::string &input,
                                            const std::vector<std::string> &extra) {
  std::vector<std::string> command = {argv[0]};
  command.insert(command.end(), extra.begin(), extra.end());
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string &a = argv[i];
    if (a == "-c" || a == "-MD" || a == "-MMD" || a == "-MP") continue;
    if (a == "-o" || a == "-MF" || a == "-MT" || a == "-MQ") {
      ++i;
      continue;
    }
    command.push_back(i == source.index + 1 ? input : a);
  }
  command.push_back("-E");
  return command;
}

// The file a source was preprocessed from, when the build compiles the compiler's own
// preprocessed output (`cc -E x.cpp > x.2.cpp`, then `cc -c x.2.cpp`): Clang cannot read
// GCC's preprocessed system headers, but it can read x.cpp. Only when the first line marker
// names an existing C or C++ file and preprocessing that file with this command's flags
// gives this text exactly, so compiling it instead compiles the same program; else "".
std::string preprocessed_origin(const std::vector<std::string> &argv, const CompileLine &line,
                                const CompileLine::Source &source) {
  if (line.sources.size() != 1) return "";
  std::ifstream in(source.path, std::ios::binary);
  std::string first;
  if (!in || !std::getline(in, first)) return "";
  // `# 0 "x.cpp"` (GCC 11 and later) or `# 1 "x.cpp"`.
  if (first.rfind("# 0 \"", 0) != 0 && first.rfind("# 1 \"", 0) != 0) return "";
  std::size_t end = first.find('"', 5);
  if (end == std::string::npos || end + 1 != first.size()) return "";
  std::string origin = first.substr(5, end - 5);
  std::error_code ec;
  if (origin == source.path || !fs::is_regular_file(origin, ec)) return "";
  CompileLine probe = parse_compile_line({origin});
  if (probe.sources.size() != 1 || probe.sources[0].cxx != source.cxx) return "";
  std::string output;
  if (run_capture(preprocess_command(argv, source, origin, {}), output) != 0) return "";
  std::ostringstream given;
  given << first << '\n' << in.rdbuf();
  return output == given.str() ? origin : "";
}

// Whether the user's headers are instrumented too: IDB_HEADERS is not 0.
bool headers_wanted() {
  const char *value = std::getenv("IDB_HEADERS");
  return !(value && std::string(value) == "0");
}

// Folders whose headers are never the user's, whatever flag put them on the search path:
// the system's and the runtime's.
std::vector<std::string> foreign_header_folders(const RuntimePaths &runtime) {
  return {"/usr/include", "/usr/local/include", "/usr/lib",
          "/usr/lib64",   "/usr/share",         runtime.include_dir};
}

// Instruments one source into `folder` as `name`, and the user headers that got probes
// (with the headers between them and the source) into `folder`/h; returns the new path,
// or "" with `error` set.
std::string instrument_source(const CompileLine::Source &source, const std::string &compiler,
                              const CompileLine &line, const Selection &sel,
                              const std::string &folder, const std::string &name,
                              FileResult &result, std::string &error) {
  std::ifstream in(source.path, std::ios::binary);
  if (!in) {
    error = "cannot read " + source.path;
    return "";
  }
  std::ostringstream text;
  text << in.rdbuf();
  const RuntimePaths runtime = runtime_paths();
  std::vector<std::string> flags = instrumented_flags(runtime);
  flags.insert(flags.end(), line.parse_flags.begin(), line.parse_flags.end());
  for (const auto &dir : compiler_include_dirs(compiler, source.cxx, line.parse_flags))
    flags.insert(flags.end(), {"-idirafter", dir});
  flags.insert(flags.end(), {"-x", source.cxx ? "c++" : "c"});
  HeaderOptions headers;
  headers.enabled = headers_wanted();
  headers.copy_folder = folder + "/h";
  // A source in the working folder: its own folder is the compiler's first stop for
  // `#include "x.h"`, and GCC names what it finds there `x.h`; from the copy, found
  // through `-iquote .`, it would be `./x.h` (in messages and in `__FILE__`). Copies,
  // named by their `#line`, keep the name.
  headers.copy_all = fs::path(source.path).parent_path().empty();
  headers.excluded = foreign_header_folders(runtime);
  // The other sources of its folder, for the size rule (index_cache.hpp).
  std::optional<ProgramIndex> program = folder_index(source.path, source.cxx, flags);
  result = run_on_text(text.str(), source.path, flags, sel, true, true, headers,
                       program ? &*program : nullptr);
  if (!result.error.empty()) {
    error = result.error;
    return "";
  }
  if (!result.summary.empty()) keep_summary(source.path, flags, result.summary);
  for (const HeaderCopy &copy : result.headers) {
    std::error_code ec;
    fs::create_directories(fs::path(copy.path).parent_path(), ec);
    error = write_file_atomically(copy.path, copy.text);
    if (!error.empty()) return "";
  }
  std::string out = (fs::path(folder) / name).string();
  error = write_file_atomically(out, result.output);
  return error.empty() ? out : "";
}

// Puts the original source names back into the dependency file the compiler wrote, so
// make and Ninja track the user's file rather than the temporary copy.
void fix_dependency_file(const std::string &path,
                         const std::vector<std::pair<std::string, std::string>> &renames) {
  std::error_code ec;
  if (path.empty() || !fs::is_regular_file(path, ec)) return; // `-MF /dev/null`: nothing to fix
  std::ifstream in(path, std::ios::binary);
  if (!in) return;
  std::ostringstream data;
  data << in.rdbuf();
  std::string text = data.str();
  bool changed = false;
  for (const auto &[from, to] : renames)
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
      text.replace(at, from.size(), to);
      changed = true;
    }
  if (changed) write_file_atomically(path, text);
}

struct Command {
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> renames; // instrumented copy -> source
  std::string record;     // IDB_BUILD_RECORD lines: source, probes placed, why not instrumented
  std::string candidates; // IDB_CANDIDATES lines: every candidate of the instrumented sources
};

// Appends this command's lines to the file the environment variable `variable` names
// (IDB_BUILD_RECORD, IDB_CANDIDATES), in one write to a file opened for appending, so the
// jobs of a parallel build do not interleave within a line.
void append_record(const char *variable, const std::string &lines, const std::string &tool,
                   std::ostream &err) {
  const char *path = std::getenv(variable);
  if (!path || !*path || lines.empty()) return;
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 || write(fd, lines.data(), lines.size()) != ssize_t(lines.size()))
    err << tool << ": cannot append to " << variable << " " << path << "\n";
  if (fd >= 0) close(fd);
}

// True with IDB_STRICT=1: a source that cannot be instrumented fails the build.
bool strict() {
  const char *value = std::getenv("IDB_STRICT");
  return value && std::string(value) == "1";
}

// The compiler command with every source instrumented into `temp`, the runtime's header
// and, when linking, the runtime. A source that cannot be instrumented (Clang cannot parse
// what the real compiler builds, say) is compiled as it is, and a line saying so goes to
// `notes`; with IDB_STRICT=1 the command is refused instead. Returns "" or why not.
std::string build_command(const std::vector<std::string> &argv, const CompileLine &line,
                          const Selection &sel, const std::string &temp, Command &command,
                          std::vector<std::string> &notes) {
  std::vector<std::string> args(argv.begin() + 1, argv.end());
  RuntimePaths runtime = runtime_paths();
  std::vector<std::string> extra = instrumented_flags(runtime);
  for (size_t n = 0; n < line.sources.size(); ++n) {
    const auto &source = line.sources[n];
    std::string folder = temp + "/" + std::to_string(n), error;
    fs::create_directories(folder);
    // Preprocessed text is instrumented through the file it came from, then preprocessed
    // again as the build did, and compiled under its own name (the object file takes its
    // name from it).
    CompileLine::Source from = source;
    std::string origin = preprocessed_origin(argv, line, source);
    if (!origin.empty()) from.path = origin;
    FileResult result;
    std::string out = instrument_source(from, argv[0], line, sel, folder,
                                        fs::path(from.path).filename().string(), result, error);
    const std::vector<Candidate> &candidates = result.candidates;
    if (out.empty() && strict()) return "cannot instrument " + source.path + ": " + error;
    if (out.empty()) {
      if (error.rfind(source.path + " ", 0) == 0) error.erase(0, source.path.size() + 1);
      notes.push_back(source.path + " not instrumented: " + error);
      command.record += source.path + "\t0\tnot instrumented: " + error + "\n";
      continue;
    }
    // Quoted includes of the original folder first, as if compiling it in place; debug
    // information names the original folder.
    std::string dir = fs::path(from.path).parent_path().string();
    std::string prefix_map = "-ffile-prefix-map=" + folder;
    prefix_map += dir.empty() ? "/=" : "=" + dir;
    std::vector<std::string> place = {"-iquote", dir.empty() ? "." : dir, prefix_map};
    if (!origin.empty()) {
      std::vector<std::string> flags = instrumented_flags(runtime);
      flags.insert(flags.end(), place.begin(), place.end());
      std::string preprocessed = folder + "/pp/" + fs::path(source.path).filename().string();
      fs::create_directories(folder + "/pp");
      std::vector<std::string> pp = preprocess_command(argv, source, out, flags);
      pp.insert(pp.end(), {"-o", preprocessed});
      if (run_process(pp) != 0) {
        if (strict()) return "cannot preprocess the instrumented " + origin;
        notes.push_back(source.path + " not instrumented: the instrumented " + origin +
                        " does not preprocess");
        command.record += source.path + "\t0\tnot instrumented: the instrumented " + origin +
                          " does not preprocess\n";
        continue;
      }
      out = preprocessed;
    }
    args[source.index] = out;
    command.renames.emplace_back(out, source.path);
    for (const HeaderCopy &copy : result.headers)
      command.renames.emplace_back(copy.path, copy.original);
    auto probes = std::count_if(candidates.begin(), candidates.end(),
                                [](const Candidate &c) { return placed(c); });
    command.candidates += candidate_lines(candidates);
    command.record += source.path + "\t" + std::to_string(probes) + "\t" +
                      (origin.empty() ? "" : "through " + origin) + "\n";
    extra.insert(extra.end(), place.begin(), place.end());
  }
  command.argv = {argv[0]};
  command.argv.insert(command.argv.end(), extra.begin(), extra.end());
  command.argv.insert(command.argv.end(), args.begin(), args.end());
  if (!line.links) return "";
  // libidb_mpi before MPI's own libraries, so its MPI_* functions are the ones the program
  // calls: before the first one on the line (-lmpi, or libmpi.so by full path as CMake's
  // FindMPI passes it), else at the end (an MPI wrapper compiler appends them last). Kept
  // in the link even under --as-needed, since the program may reach MPI only through
  // another library.
  if (std::optional<std::size_t> at = mpi_layer_position(argv)) {
    std::vector<std::string> layer = {
        "-L" + runtime.mpi_library_dir, "-Wl,-rpath," + runtime.mpi_library_dir,
        "-Wl,--push-state,--no-as-needed", "-lidb_mpi", "-Wl,--pop-state"};
    std::size_t where = *at < argv.size() ? 1 + extra.size() + (*at - 1) : command.argv.size();
    command.argv.insert(command.argv.begin() + std::ptrdiff_t(where), layer.begin(), layer.end());
  }
  command.argv.insert(command.argv.end(), {"-L" + runtime.library_dir,
                                           "-Wl,-rpath," + runtime.library_dir, "-lidb_probe"});
  return "";
}

} // namespace

RuntimePaths runtime_paths() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path prefix = exe.parent_path().parent_path();
    fs::path header = prefix / IDB_INSTALL_INCLUDEDIR / "idb" / "probe.h";
    if (fs::exists(header, ec)) {
      std::string lib = (prefix / IDB_INSTALL_LIBDIR).string();
      return {(prefix / IDB_INSTALL_INCLUDEDIR).string(), lib, lib};
    }
  }
  return {IDB_BUILD_INCLUDEDIR, IDB_BUILD_LIBDIR, IDB_BUILD_MPI_LIBDIR};
}

bool is_mpi_library(const std::string &arg) {
  if (arg.rfind("-lmpi", 0) == 0) return true;
  if (arg.empty() || arg[0] == '-') return false;
  std::string name = fs::path(arg).filename().string();
  if (name.rfind("libmpi", 0) != 0) return false;
  return name.size() > 2 &&
         (name.compare(name.size() - 2, 2, ".a") == 0 || name.find(".so") != std::string::npos);
}

std::optional<std::size_t> mpi_layer_position(const std::vector<std::string> &argv) {
  const char *forced = std::getenv("IDB_MPI");
  bool off = forced && *forced == '0', on = forced && *forced == '1';
  if (argv.empty() || off) return std::nullopt;
  for (std::size_t i = 1; i < argv.size(); ++i)
    if (is_mpi_library(argv[i])) return i;
  if (on || fs::path(argv[0]).filename().string().rfind("mpi", 0) == 0) return argv.size();
  return std::nullopt;
}

std::optional<std::string> one_word_compiler(const std::string &tool) {
  if (tool.rfind("idb-", 0) != 0 || tool == "idb-cc" || tool == "idb-cxx" || tool.size() < 5)
    return std::nullopt;
  std::string compiler = tool.substr(4);
  bool cxx = compiler.find("++") != std::string::npos || compiler == "mpicxx" ||
             compiler == "mpiCC" || compiler == "c++";
  const char *chosen = std::getenv(cxx ? "IDB_CXX" : "IDB_CC");
  return chosen && *chosen ? std::string(chosen) : compiler;
}

namespace {

// The compiler's exit status; a compiler that cannot be started is named, status 127 as a
// shell would give.
int run_compiler(const std::vector<std::string> &argv, const std::string &tool, std::ostream &err) {
  int status = run_process(argv);
  if (status != -1) return status;
  err << tool << ": cannot run the compiler '" << argv[0] << "'\n";
  return 127;
}

} // namespace

int run_wrapper(const std::vector<std::string> &argv, const std::string &tool, std::ostream &err) {
  if (argv.empty()) {
    err << "usage: " << tool << " COMPILER [ARGS...]   (e.g. make CC=\"" << tool << " gcc\")\n";
    return 2;
  }
  const char *enabled = std::getenv("IDB_INSTRUMENT");
  if (enabled && std::string(enabled) == "0") return run_compiler(argv, tool, err);
  CompileLine line = parse_compile_line({argv.begin() + 1, argv.end()});
  if (!line.error.empty()) {
    err << tool << ": " << line.error << " (set IDB_INSTRUMENT=0 to build without probes)\n";
    return 1;
  }
  if (line.passthrough) return run_compiler(argv, tool, err);
  SelectionResult sel = wrapper_selection();
  if (!sel.error.empty()) {
    err << tool << ": " << sel.error << "\n";
    return 1;
  }
  TempFolder temp;
  if (temp.path().empty()) {
    err << tool << ": cannot create a temporary folder\n";
    return 1;
  }
  Command command;
  std::vector<std::string> notes;
  std::string error = build_command(argv, line, sel.selection, temp.path(), command, notes);
  for (const std::string &note : notes)
    err << tool << ": " << note << "\n";
  append_record("IDB_BUILD_RECORD", command.record, tool, err);
  append_record("IDB_CANDIDATES", command.candidates, tool, err);
  if (!error.empty()) {
    err << tool << ": " << error << "\n";
    return 1;
  }
  int status = run_compiler(command.argv, tool, err);
  if (status == 0) fix_dependency_file(line.dep_file, command.renames);
  return status;
}

} // namespace idb::instr

// ClangTool glue: the compilation database, the argument adjusters, and a frontend
// action that hands each parsed translation unit to instrument_unit.
#include "tool.hpp"

#include "manifest.hpp"
#include "pragma_macros.hpp"
#include "unit.hpp"

#include <clang/AST/ASTConsumer.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

namespace idb::instr {

using namespace clang;

namespace {

using Results = std::map<std::string, FileResult>; // by absolute path

std::string absolute(const std::string &path) {
  std::error_code ec;
  auto abs = std::filesystem::absolute(path, ec);
  return ec ? path : abs.lexically_normal().string();
}

// Clang's diagnostics when they are to stay quiet: nothing printed, the first error kept
// as "file:line:column: message" for the one line that says why a file was not
// instrumented.
class QuietDiagnostics : public DiagnosticConsumer {
public:
  explicit QuietDiagnostics(std::shared_ptr<std::string> first_error)
      : first_error_(std::move(first_error)) {}
  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic &info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < DiagnosticsEngine::Error || !first_error_->empty()) return;
    llvm::SmallString<200> message;
    info.FormatDiagnostic(message);
    std::string where;
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      PresumedLoc at = info.getSourceManager().getPresumedLoc(info.getLocation());
      if (at.isValid())
        where = std::string(at.getFilename()) + ":" + std::to_string(at.getLine()) + ":" +
                std::to_string(at.getColumn()) + ": ";
    }
    *first_error_ = where + message.str().str();
  }

private:
  std::shared_ptr<std::string> first_error_; // shared: the engine may outlive the action
};

// Records the translation unit's #include directives for the header pass (unit.hpp).
class IncludeRecorder : public PPCallbacks {
public:
  IncludeRecorder(const SourceManager &sm, IncludeGraph &graph) : sm_(sm), graph_(graph) {}
  void InclusionDirective(SourceLocation hash, const Token &directive, StringRef, bool,
                          CharSourceRange name, const FileEntry *file, StringRef, StringRef,
                          const Module *, SrcMgr::CharacteristicKind) override {
    if (!file) return;
    FileID from = hash.isFileID() ? sm_.getFileID(hash) : FileID();
    if (from.isValid() && !sm_.getFileEntryForID(from) && from != sm_.getMainFileID())
      from = FileID(); // the predefines buffer: -include on the command line
    const IdentifierInfo *word = directive.getIdentifierInfo();
    bool next = word && word->getPPKeywordID() == tok::pp_include_next;
    graph_.inclusions.push_back({from, name, file, next});
  }
  void FileChanged(SourceLocation loc, FileChangeReason reason, SrcMgr::CharacteristicKind,
                   FileID) override {
    if (reason != EnterFile) return;
    if (const FileEntry *entry = sm_.getFileEntryForID(sm_.getFileID(loc))) ++graph_.entered[entry];
  }

private:
  const SourceManager &sm_;
  IncludeGraph &graph_;
};

// Records the macros Clang and GCC can define differently (unit.hpp, CompilerMacros): a
// stack of the open conditional blocks, each marked when its condition (or an earlier
// branch's) tells the two compilers apart, and every macro defined under a marked one.
// Blocks the preprocessor skips report no nested conditionals, so the stack stays even.
class CompilerMacroRecorder : public PPCallbacks {
public:
  CompilerMacroRecorder(const SourceManager &sm, const LangOptions &lang, CompilerMacros &out)
      : sm_(sm), lang_(lang), out_(out) {}
  void If(SourceLocation, SourceRange condition, ConditionValueKind) override {
    closed_ = false;
    open_.push_back(tells_apart(condition));
  }
  void Elif(SourceLocation, SourceRange condition, ConditionValueKind, SourceLocation) override {
    if (!open_.empty()) open_.back() = open_.back() || tells_apart(condition);
  }
  void Ifdef(SourceLocation, const Token &name, const MacroDefinition &) override {
    closed_ = false;
    open_.push_back(only_clang(name));
  }
  void Ifndef(SourceLocation, const Token &name, const MacroDefinition &) override {
    closed_ = false;
    open_.push_back(only_clang(name));
  }
  void Elifdef(SourceLocation, const Token &name, const MacroDefinition &) override {
    if (!open_.empty()) open_.back() = open_.back() || only_clang(name);
  }
  void Elifndef(SourceLocation, const Token &name, const MacroDefinition &) override {
    if (!open_.empty()) open_.back() = open_.back() || only_clang(name);
  }
  void Endif(SourceLocation, SourceLocation) override {
    closed_ = !open_.empty() && open_.back();
    if (!open_.empty()) open_.pop_back();
  }
  // A block the preprocessor skipped under Clang's reading may be the one GCC takes:
  // what it would define counts too.
  // It is reported after its block's #endif, when there is one.
  void SourceRangeSkipped(SourceRange range, SourceLocation) override {
    bool closed = closed_;
    closed_ = false;
    if ((!closed && std::find(open_.begin(), open_.end(), true) == open_.end()) ||
        sm_.isInSystemHeader(range.getBegin()))
      return;
    StringRef text = Lexer::getSourceText(CharSourceRange::getCharRange(range), sm_, lang_);
    while (!text.empty()) {
      auto [line, rest] = text.split('\n');
      text = rest;
      line = line.ltrim();
      if (!line.consume_front("#")) continue;
      line = line.ltrim();
      if (!line.consume_front("define")) continue;
      std::vector<std::string> words = identifiers_in(line.str());
      if (!words.empty() && line.size() && std::isspace(static_cast<unsigned char>(line[0])))
        out_.insert(words.front());
    }
  }
  void MacroDefined(const Token &name, const MacroDirective *) override {
    // The system's headers test GCC's version throughout; what they define is theirs.
    if (std::find(open_.begin(), open_.end(), true) != open_.end() &&
        !sm_.isInSystemHeader(name.getLocation()))
      out_.insert(name.getIdentifierInfo()->getName().str());
  }

private:
  // A macro only Clang defines, or one recorded already.
  bool only_clang(const Token &name) const {
    const IdentifierInfo *id = name.getIdentifierInfo();
    return id && only_clang(id->getName());
  }
  bool only_clang(StringRef name) const {
    return name.startswith("__clang") || name == "__llvm__" || name == "__apple_build_version__" ||
           out_.count(name.str());
  }
  // Whether the condition names a macro only Clang defines, or GCC's version other than
  // as `defined(...)`: both define __GNUC__, but Clang says 4.
  bool tells_apart(SourceRange condition) const {
    if (condition.isInvalid()) return false;
    bool after_defined = false;
    for (const std::string &word : identifiers_in(
             Lexer::getSourceText(CharSourceRange::getTokenRange(condition), sm_, lang_))) {
      if (only_clang(word)) return true;
      if (StringRef(word).startswith("__GNUC") && !after_defined) return true;
      after_defined = word == "defined";
    }
    return false;
  }

  const SourceManager &sm_;
  const LangOptions &lang_;
  CompilerMacros &out_;
  std::vector<bool> open_;
  bool closed_ = false; // the block just closed told the compilers apart
};

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &ci, std::string file, const ToolOptions &options, Results &results,
           std::shared_ptr<const std::string> first_error,
           std::shared_ptr<const IncludeGraph> graph,
           std::shared_ptr<const CompilerMacros> compiler_macros)
      : ci_(ci), file_(std::move(file)), options_(options), results_(results),
        first_error_(std::move(first_error)), graph_(std::move(graph)),
        compiler_macros_(std::move(compiler_macros)) {}

  void HandleTranslationUnit(ASTContext &ast) override {
    std::string key = absolute(file_);
    if (results_.count(key)) return; // a second compile command for the same file
    std::string given = file_;
    for (const auto &f : options_.files)
      if (absolute(f) == key) given = f;
    if (ci_.getDiagnostics().hasErrorOccurred()) {
      results_[key].file = given;
      results_[key].error = options_.quiet
                                ? given + " does not compile with Clang: " + *first_error_
                                : given + " does not compile (Clang's errors are above)";
      return;
    }
    HeaderOptions headers = options_.headers;
    headers.graph = graph_.get();
    results_[key] =
        instrument_unit(ast, given, options_.selection, options_.apply, options_.keep_columns,
                        headers, options_.program, compiler_macros_.get());
  }

private:
  CompilerInstance &ci_;
  std::string file_;
  const ToolOptions &options_;
  Results &results_;
  std::shared_ptr<const std::string> first_error_;
  std::shared_ptr<const IncludeGraph> graph_;
  std::shared_ptr<const CompilerMacros> compiler_macros_;
};

class Action : public ASTFrontendAction {
public:
  Action(const ToolOptions &options, Results &results) : options_(options), results_(results) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci,
                                                 llvm::StringRef file) override {
    if (options_.quiet) { // before parsing: the file's own warnings and errors stay quiet
      ci.getDiagnostics().setClient(new QuietDiagnostics(first_error_), true);
      ci.getDiagnosticOpts().ShowCarets = false; // also no "1 error generated."
    }
    auto graph = std::make_shared<IncludeGraph>();
    if (options_.headers.enabled)
      ci.getPreprocessor().addPPCallbacks(
          std::make_unique<IncludeRecorder>(ci.getSourceManager(), *graph));
    auto macros = std::make_shared<CompilerMacros>();
    ci.getPreprocessor().addPPCallbacks(
        std::make_unique<CompilerMacroRecorder>(ci.getSourceManager(), ci.getLangOpts(), *macros));
    return std::make_unique<Consumer>(ci, file.str(), options_, results_, first_error_, graph,
                                      macros);
  }

private:
  const ToolOptions &options_;
  Results &results_;
  std::shared_ptr<std::string> first_error_ = std::make_shared<std::string>();
};

class Factory : public tooling::FrontendActionFactory {
public:
  Factory(const ToolOptions &options, Results &results) : options_(options), results_(results) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<Action>(options_, results_);
  }

private:
  const ToolOptions &options_;
  Results &results_;
};

std::unique_ptr<tooling::CompilationDatabase> database(const ToolOptions &options,
                                                       std::string &error) {
  if (!options.build_dir.empty())
    return tooling::CompilationDatabase::loadFromDirectory(options.build_dir, error);
  return std::make_unique<tooling::FixedCompilationDatabase>(".", options.flags);
}

// The refusal of an instrumented file, checked before parsing: its probe header may not
// be on the include path, and its errors would hide the reason.
std::string refusal(const std::string &file, const std::string &head) {
  if (head.rfind(kInstrumentedMarker, 0) != 0) return "";
  return file + " is already instrumented (it starts with idb-instrument's marker); "
                "instrument the original source";
}

std::string file_head(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(std::strlen(kInstrumentedMarker), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  return in ? head : "";
}

// Summarizes each parsed unit for the program index, keeping Clang quiet.
class SummaryAction : public ASTFrontendAction {
public:
  explicit SummaryAction(std::map<std::string, UnitSummary> &out) : out_(out) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci,
                                                 llvm::StringRef file) override {
    ci.getDiagnostics().setClient(new IgnoringDiagConsumer, true);
    return std::make_unique<Summarizer>(ci, absolute(file.str()), out_);
  }

private:
  class Summarizer : public ASTConsumer {
  public:
    Summarizer(CompilerInstance &ci, std::string file, std::map<std::string, UnitSummary> &out)
        : ci_(ci), file_(std::move(file)), out_(out) {}
    void HandleTranslationUnit(ASTContext &ast) override {
      if (!ci_.getDiagnostics().hasErrorOccurred()) out_[file_] = summarize_unit(ast);
    }

  private:
    CompilerInstance &ci_;
    std::string file_;
    std::map<std::string, UnitSummary> &out_;
  };
  std::map<std::string, UnitSummary> &out_;
};

class SummaryFactory : public tooling::FrontendActionFactory {
public:
  explicit SummaryFactory(std::map<std::string, UnitSummary> &out) : out_(out) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<SummaryAction>(out_);
  }

private:
  std::map<std::string, UnitSummary> &out_;
};

} // namespace

namespace {

// A Clang tool over `files` with `db`'s commands, the resource folder this build uses,
// and the pragma macros read as Clang needs them. The code's own warnings are the
// compiler's to give (`-w`); Clang's errors stay, since they say why a file has no
// candidates.
std::unique_ptr<tooling::ClangTool> make_tool(const tooling::CompilationDatabase &db,
                                              const std::vector<std::string> &files) {
  std::vector<std::string> sources;
  sources.reserve(files.size());
  for (const auto &file : files)
    sources.push_back(absolute(file));
  auto tool = std::make_unique<tooling::ClangTool>(
      db, files, std::make_shared<PCHContainerOperations>(),
      pragma_macro_filesystem(llvm::vfs::getRealFileSystem(), sources));
  tool->appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
      {std::string("-resource-dir=") + resource_dir(), "-Wno-unknown-warning-option"},
      tooling::ArgumentInsertPosition::BEGIN));
  tool->appendArgumentsAdjuster(
      tooling::getInsertArgumentAdjuster("-w", tooling::ArgumentInsertPosition::END));
  return tool;
}

// Each file's summary for the program index, by absolute path, from `db`'s compile
// commands; a file that does not parse has none.
std::map<std::string, UnitSummary> summaries(const tooling::CompilationDatabase &db,
                                             const std::vector<std::string> &files) {
  std::unique_ptr<tooling::ClangTool> tool = make_tool(db, files);
  tool->setPrintErrorMessage(false);
  std::map<std::string, UnitSummary> found;
  SummaryFactory factory(found);
  tool->run(&factory);
  return found;
}

} // namespace

std::optional<UnitSummary> summarize_file(const std::string &file,
                                          const std::vector<std::string> &flags) {
  std::map<std::string, UnitSummary> found =
      summaries(tooling::FixedCompilationDatabase(".", flags), {file});
  auto it = found.find(absolute(file));
  if (it == found.end()) return std::nullopt;
  return std::move(it->second);
}

const char *resource_dir() {
  return IDB_CLANG_RESOURCE_DIR;
}

FileResult run_on_text(const std::string &code, const std::string &file,
                       const std::vector<std::string> &flags, const Selection &selection,
                       bool apply, bool for_compiler, const HeaderOptions &headers,
                       const ProgramIndex *program) {
  if (auto refused = refusal(file, code); !refused.empty()) {
    FileResult r;
    r.file = file;
    r.error = refused;
    return r;
  }
  ToolOptions options;
  options.files = {file};
  options.flags = flags;
  options.selection = selection;
  options.apply = apply;
  options.quiet = for_compiler;
  options.keep_columns = for_compiler;
  options.headers = headers;
  options.program = program;
  Results results;
  std::vector<std::string> args = {std::string("-resource-dir=") + resource_dir(),
                                   "-Wno-unknown-warning-option"};
  args.insert(args.end(), flags.begin(), flags.end());
  // As runToolOnCodeWithArgs(action, code, args, ...) builds it, over pragma_macros's
  // reading of the real files.
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> files(new llvm::vfs::OverlayFileSystem(
      pragma_macro_filesystem(llvm::vfs::getRealFileSystem(), {})));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(new llvm::vfs::InMemoryFileSystem);
  files->pushOverlay(memory);
  memory->addFile(file, 0, llvm::MemoryBuffer::getMemBufferCopy(code, file));
  tooling::runToolOnCodeWithArgs(std::make_unique<Action>(options, results), code, files, args,
                                 file, "idb-instrument");
  if (!results.empty()) return std::move(results.begin()->second);
  FileResult failed;
  failed.file = file;
  failed.error = "cannot parse " + file;
  return failed;
}

std::vector<FileResult> run_tool(const ToolOptions &options) {
  std::vector<FileResult> out;
  std::string error;
  auto db = database(options, error);
  if (!db) {
    FileResult failed;
    failed.error = "cannot read the compilation database in " + options.build_dir + ": " + error;
    return {failed};
  }
  for (const auto &file : options.files)
    if (auto refused = refusal(file, file_head(file)); !refused.empty()) {
      FileResult r;
      r.file = file;
      r.error = refused;
      return {r};
    }
  // The files given are the program: each one's size rule knows the others (a first pass
  // over them all).
  std::optional<ProgramIndex> program;
  ToolOptions with_program = options;
  if (!options.program && options.files.size() > 1 && program_index_wanted()) {
    program.emplace();
    for (const auto &[file, summary] : summaries(*db, options.files))
      program->add(summary);
    with_program.program = &*program;
  }
  Results results;
  Factory factory(with_program, results);
  make_tool(*db, options.files)->run(&factory);
  for (const auto &file : options.files) {
    auto it = results.find(absolute(file));
    if (it != results.end()) {
      out.push_back(std::move(it->second));
      continue;
    }
    FileResult missing;
    missing.file = file;
    missing.error = "cannot parse " + file + " (no such file, or no compile command for it)";
    out.push_back(std::move(missing));
  }
  return out;
}

} // namespace idb::instr

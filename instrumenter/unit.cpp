// The translation-unit pass behind instrument_unit.
#include "unit.hpp"

#include "bounded_work.hpp"
#include "call_nesting.hpp"
#include "manifest.hpp"
#include "program_index.hpp"
#include "rules.hpp"

#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace idb::instr {

using namespace clang;

namespace {

// Why no probe may go into this function at all, or "".
std::string no_probes_reason(const FunctionDecl &fd, bool cxx) {
  if (fd.isConstexpr()) return fd.isConsteval() ? "consteval function" : "constexpr function";
  if (fd.hasAttr<NakedAttr>()) return "naked function";
  if (isa<CoroutineBodyStmt>(fd.getBody())) return "coroutine";
  if (fd.getBody()->getBeginLoc().isMacroID() || fd.getLocation().isMacroID())
    return "defined by a macro expansion";
  // C forbids an inline definition with external linkage to call the probe header's static
  // functions (GCC warns by default).
  if (!cxx && fd.isInlineSpecified() && fd.getStorageClass() != SC_Static)
    return "C inline function with external linkage";
  return "";
}

} // namespace

std::vector<std::string> identifiers_in(std::string_view text) {
  std::vector<std::string> words;
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t i = 0; i < text.size();) {
    char c = text[i];
    if (text.compare(i, 2, "//") == 0) {
      i = text.find('\n', i);
    } else if (text.compare(i, 2, "/*") == 0) {
      i = text.find("*/", i + 2);
      if (i != std::string_view::npos) i += 2;
    } else if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c; ++i)
        if (text[i] == '\\') ++i;
      ++i;
    } else if (word_char(c)) {
      std::size_t start = i;
      while (i < text.size() && word_char(text[i]))
        ++i;
      if (!std::isdigit(static_cast<unsigned char>(c)))
        words.emplace_back(text.substr(start, i - start));
    } else {
      ++i;
    }
    if (i == std::string_view::npos) break;
  }
  return words;
}

namespace {

// Why a function declared through a macro that Clang and GCC may define differently gets
// no probe, or "". Clang parses here and GCC may compile: where such a macro spells
// `static` under one and `inline` under the other (in C, an inline definition with
// external linkage may not call the probe header's static functions, and then has no
// definition to call once it is too large to inline), or `constexpr` under one only, a
// probe that suits Clang's reading breaks GCC's build. Every declaration of the function
// counts, from its first token up to its name.
std::string compiler_dependent(const FunctionDecl &fd, const CompilerMacros &macros) {
  if (macros.empty()) return "";
  const SourceManager &sm = fd.getASTContext().getSourceManager();
  for (const FunctionDecl *d : fd.redecls()) {
    SourceLocation from = sm.getExpansionLoc(d->getBeginLoc());
    SourceLocation to = sm.getExpansionLoc(d->getLocation());
    if (from.isInvalid() || to.isInvalid() || sm.getFileID(from) != sm.getFileID(to) ||
        !sm.isBeforeInTranslationUnit(from, to))
      continue;
    bool invalid = false;
    StringRef file = sm.getBufferData(sm.getFileID(from), &invalid);
    if (invalid) continue;
    // From the end of what comes before (a macro that expands to nothing is not part of
    // the declaration's range), its preprocessor lines left out.
    std::size_t begin = sm.getFileOffset(from);
    while (begin > 0 && !std::strchr(";{}", file[begin - 1]))
      --begin;
    StringRef head = file.substr(begin, sm.getFileOffset(to) - begin);
    while (!head.empty()) {
      auto [line, rest] = head.split('\n');
      head = rest;
      if (line.ltrim().startswith("#")) continue;
      for (const std::string &word : identifiers_in(line))
        if (macros.count(word))
          return "declared through a macro Clang and GCC define differently (" + word + ")";
    }
  }
  return "";
}

// A header path as candidates and messages name it: lexically normal, without a leading
// "./".
std::string header_name(const std::string &path) {
  std::string name = std::filesystem::path(path).lexically_normal().string();
  while (name.rfind("./", 0) == 0)
    name.erase(0, 2);
  return name.empty() ? path : name;
}

bool under(const std::string &path, const std::string &folder) {
  if (folder.empty() || path.compare(0, folder.size(), folder) != 0) return false;
  return path.size() == folder.size() || folder.back() == '/' || path[folder.size()] == '/';
}

class Unit : public RecursiveASTVisitor<Unit> {
public:
  Unit(ASTContext &ast, const std::string &file, const Selection &sel, bool apply,
       bool keep_columns, const HeaderOptions &headers, const ProgramIndex *program,
       const CompilerMacros *compiler_macros)
      : ast_(ast), sel_(sel), apply_(apply), keep_columns_(keep_columns), headers_(headers),
        compiler_macros_(compiler_macros) {
    if (program) { // the other files' summaries, and this unit's own for the calls through it
      summary_ = summarize_unit(ast);
      program_ = *program;
      program_->add(*summary_);
    }
    const SourceManager &sm = ast.getSourceManager();
    FileState &main = files_[sm.getMainFileID()];
    main.fid = sm.getMainFileID();
    main.path = file;
    main.text = sm.getBufferData(sm.getMainFileID()).str();
    main_ = &main;
    rules_.push_back(make_proc_rule());
    rules_.push_back(make_loop_rule());
    rules_.push_back(make_comm_rule());
    rules_.push_back(make_call_rule());
  }

  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (FileState *state = wanted(*fd)) function(*fd, *state);
    return true;
  }

  FileResult finish() {
    FileResult result;
    result.file = main_->path;
    std::string error = check_ids();
    if (error.empty() && headers_.enabled && apply_) plan_copies();
    std::vector<const FileState *> order = {main_};
    for (const auto &[fid, state] : files_)
      if (&state != main_) order.push_back(&state);
    for (const FileState *state : order) {
      std::vector<Candidate> mine = state->candidates;
      std::sort(mine.begin(), mine.end(), [](const Candidate &a, const Candidate &b) {
        return std::tie(a.line, a.column, a.kind) < std::tie(b.line, b.column, b.kind);
      });
      result.candidates.insert(result.candidates.end(), mine.begin(), mine.end());
    }
    result.error = error;
    if (summary_) result.summary = summary_text(*summary_);
    if (!apply_ || !result.error.empty()) return result;
    result.output = prelude(main_->path) + render(*main_) + registration(result.candidates);
    for (const FileState *state : order)
      if (state->copy)
        result.headers.push_back(
            {state->path, state->copy_path, prelude(state->path) + render(*state)});
    return result;
  }

private:
  struct FileState {
    FileID fid;
    std::string path; // as given (main) or as the preprocessor named it (header)
    std::string text;
    std::vector<Candidate> candidates;
    Edits edits;
    bool copy = false;     // a header the unit includes as an instrumented copy
    std::string copy_path; // where that copy goes
  };

  ASTContext &ast_;
  const Selection &sel_;
  std::optional<UnitSummary> summary_;
  std::optional<ProgramIndex> program_;
  // A callee of another file of the program is what the index knows of it.
  BoundedWork bounded_{ast_, nullptr, [this](const FunctionDecl &fd) {
                         return program_ && program_->bounded(usr_of(fd));
                       }};
  // Own work: a callee of the sources with a loop holds its own probe.
  BoundedWork own_work_{ast_, [this](const FunctionDecl &fd) { return probed_apart(fd); },
                        [this](const FunctionDecl &fd) {
                          if (!program_) return false;
                          std::string usr = usr_of(fd);
                          return program_->bounded(usr) || program_->loops(usr);
                        }};
  std::optional<CallNesting> nesting_; // built when first needed: it walks the whole unit
  bool apply_;
  bool keep_columns_;
  const HeaderOptions &headers_;
  const CompilerMacros *compiler_macros_;
  std::map<FileID, FileState> files_;
  FileState *main_ = nullptr;
  std::set<FileID> refused_;                 // header entries whose functions are not wanted
  std::map<const FileEntry *, FileID> seen_; // the first entry of each wanted header
  std::vector<std::unique_ptr<ProbeRule>> rules_;

  std::string render(const FileState &state) const {
    return state.edits.apply(state.text, keep_columns_ ? &state.path : nullptr);
  }

  // Whether `fd` holds a probe of its own under the default selection: a function of the
  // files this unit instruments that holds an open-ended loop (never small).
  bool probed_apart(const FunctionDecl &fd) const {
    const SourceManager &sm = ast_.getSourceManager();
    SourceLocation at = sm.getExpansionLoc(fd.getBeginLoc());
    if (at.isInvalid() || sm.isInSystemHeader(at)) return false;
    if (sm.getFileID(at) != sm.getMainFileID() && !headers_.enabled) return false;
    return scan_function(fd, false).long_loops > 0;
  }

  // How deeply loops nest around `fd`'s calls: in this unit, or through the other files'
  // calls the program index holds.
  int nesting(const FunctionDecl &fd) {
    int here = local_nesting(fd);
    return program_ && here < 2 ? std::max(here, program_->nesting(usr_of(fd))) : here;
  }
  int local_nesting(const FunctionDecl &fd) {
    if (!nesting_) nesting_.emplace(ast_);
    return nesting_->nesting(fd);
  }

  // The file whose functions `fd` belongs to, when its candidates are wanted: the main
  // file's, and a user header's when headers are instrumented.
  FileState *wanted(const FunctionDecl &fd) {
    if (!fd.doesThisDeclarationHaveABody() || !fd.getBody() || fd.isImplicit() ||
        fd.isDefaulted() || fd.isDeleted() || fd.isTemplateInstantiation())
      return nullptr;
    const SourceManager &sm = ast_.getSourceManager();
    SourceLocation at = sm.getExpansionLoc(fd.getBeginLoc());
    if (at.isInvalid() || sm.isInSystemHeader(at)) return nullptr;
    FileID fid = sm.getFileID(at);
    if (fid == sm.getMainFileID()) return main_;
    if (!headers_.enabled || !headers_.graph) return nullptr;
    auto known = files_.find(fid);
    if (known != files_.end()) return &known->second;
    if (refused_.count(fid)) return nullptr;
    const FileEntry *entry = sm.getFileEntryForID(fid);
    if (!entry || excluded(entry) || !seen_.emplace(entry, fid).second) {
      refused_.insert(fid); // not the user's, or a second entry of one header
      return nullptr;
    }
    std::string name = header_name(entry->getName().str());
    bool invalid = false;
    llvm::StringRef text = sm.getBufferData(fid, &invalid);
    if (invalid) return nullptr;
    FileState &state = files_[fid];
    state.fid = fid;
    state.path = name;
    state.text = text.str();
    return &state;
  }

  void function(const FunctionDecl &fd, FileState &state) {
    FunctionContext ctx;
    ctx.decl = &fd;
    ctx.ast = &ast_;
    ctx.file = &state.path;
    ctx.text = &state.text;
    ctx.fid = state.fid;
    ctx.signature = fd.getQualifiedNameAsString() + " " + fd.getType().getAsString();
    ctx.name = readable_name(fd);
    ctx.scan = scan_function(fd);
    // The bounded rule weighs loop-free functions under bounded-weight (never main).
    if (!fd.isMain() && ctx.scan.long_loops == 0 && ctx.scan.weight < sel_.bounded_weight) {
      ctx.bounded = bounded_.bounded(fd);
      ctx.nested_helper = !ctx.bounded && nesting(fd) >= 2 && own_work_.bounded(fd);
      // What the unit alone could not tell: a callee of another file it rests on, or
      // loops around its calls only other files show.
      if (ctx.bounded) ctx.through_index = !bounded_.rests_on(fd).empty();
      if (ctx.nested_helper)
        ctx.through_index = !own_work_.rests_on(fd).empty() || local_nesting(fd) < 2;
    }
    if (!fd.isMain()) find_whole_loop(fd, ctx);
    ctx.cxx = ast_.getLangOpts().CPlusPlus;
    ctx.no_probes = no_probes_reason(fd, ctx.cxx);
    if (ctx.no_probes.empty() && compiler_macros_)
      ctx.no_probes = compiler_dependent(fd, *compiler_macros_);
    std::vector<std::pair<const ProbeRule *, Site>> sites;
    for (const auto &rule : rules_) {
      std::vector<Site> found;
      rule->collect(ctx, found);
      for (Site &site : found)
        sites.emplace_back(rule.get(), std::move(site));
    }
    tell_apart(sites);
    for (auto &[rule, site] : sites) { // PROC first: the rules' order
      select(sel_, site.candidate);
      if (site.candidate.selected)
        site.candidate.skipped =
            ctx.no_probes.empty() ? rule->place(ctx, site, sel_, state.edits) : ctx.no_probes;
      if (rule->kind() == Kind::Proc)
        ctx.proc_placed = site.candidate.selected && site.candidate.skipped.empty();
      state.candidates.push_back(std::move(site.candidate));
    }
  }

  // Sets ctx.whole_loop when one open-ended loop is all the function does that a probe of
  // its own could tell apart from the PROC: the loop (or the directive that governs it) is
  // a statement of the body itself, every other loop of the function's level is a short
  // one the size rule leaves out, and the other statements' calls reach only bounded code
  // or functions measured apart, weighing under bounded-weight together.
  void find_whole_loop(const FunctionDecl &fd, FunctionContext &ctx) {
    auto *body = dyn_cast<CompoundStmt>(fd.getBody());
    if (!body || sel_.bounded_weight == 0) return;
    const LoopSite *open = nullptr;
    for (const LoopSite &loop : ctx.scan.loops) {
      if (loop.depth != 1) continue;
      bool short_loop = loop.trips >= 0 && !loop.holds_loop;
      if (short_loop && loop.weight < sel_.min_statements) continue;
      if (open || short_loop) return; // another loop with a node of its own
      open = &loop;
    }
    if (!open || open->weight > ctx.scan.weight) return;
    const Stmt *top = open->loop;
    if (auto governed = ctx.scan.governed.find(top); governed != ctx.scan.governed.end())
      top = governed->second;
    bool found = false, through_index = false;
    for (const Stmt *s : body->body()) {
      if (s == top) {
        found = true;
        continue;
      }
      std::set<const FunctionDecl *> rests;
      if (!own_work_.bounded_calls(*s, &rests)) return;
      through_index = through_index || !rests.empty();
    }
    unsigned rest = ctx.scan.weight - open->weight;
    if (!found || rest >= sel_.bounded_weight) return;
    ctx.whole_loop = open;
    ctx.rest_weight = rest;
    ctx.through_index = ctx.through_index || through_index;
  }

  // Which headers the unit includes as instrumented copies. A header can only be replaced
  // where every directive that includes it is written plainly in the main file or in
  // another replaced header; one that is not (included by a system header, through a
  // macro, from the command line, or entered twice) stays original together with what it
  // includes, and its probes are skipped with the reason. When any header got a probe,
  // every other user header is copied as well, so that a copy's own directives find what
  // the original's found: each directive between copies names the copy, and a quoted one
  // from a copy to a user header that stays original names that header by its full path
  // (never a system header's: named by a full path, it would no longer be one, and its
  // warnings would show).
  void plan_copies() {
    const SourceManager &sm = ast_.getSourceManager();
    const IncludeGraph &graph = *headers_.graph;
    std::map<const FileEntry *, std::string> kept;
    std::multimap<const FileEntry *, const FileEntry *> includes;
    std::map<const FileEntry *, FileID> fid_of;
    for (const auto &inc : graph.inclusions) {
      const FileEntry *from = inc.from.isValid() ? sm.getFileEntryForID(inc.from) : nullptr;
      if (from) {
        includes.emplace(from, inc.target);
        fid_of.emplace(from, inc.from);
      }
      std::string why;
      if (!from)
        why = "included from the command line";
      else if (sm.isInSystemHeader(sm.getLocForStartOfFile(inc.from)))
        why = "included by a system header";
      else if (!name_delimiter(inc))
        why = "included through a macro";
      if (!why.empty()) kept.emplace(inc.target, why);
      // A copy would search from the wrong folder: #include_next continues the search
      // after the folder the header was found in.
      if (from && inc.next) kept.emplace(from, "uses #include_next");
    }
    for (const auto &[entry, count] : graph.entered) {
      if (count > 1) kept.emplace(entry, "included more than once");
      if (kept.count(entry) || !user_header(entry)) continue;
      // So would __has_include("x.h") in a copy, for a header beside the original.
      bool invalid = false;
      llvm::StringRef text = sm.getBufferData(sm.translateFile(entry), &invalid);
      if (!invalid && text.contains("__has_include")) kept.emplace(entry, "uses __has_include");
    }
    for (std::vector<const FileEntry *> todo = keys(kept); !todo.empty();) {
      const FileEntry *entry = todo.back();
      todo.pop_back();
      auto [begin, end] = includes.equal_range(entry);
      for (auto it = begin; it != end; ++it)
        if (kept.emplace(it->second, "included by a header that stays original").second)
          todo.push_back(it->second);
    }
    bool any = false;
    for (auto &[fid, state] : files_) {
      if (&state == main_ || state.edits.empty()) continue;
      const FileEntry *entry = sm.getFileEntryForID(fid);
      if (auto why = kept.find(entry); why != kept.end())
        skip_probes(state, "in a header that cannot be replaced: " + why->second);
      else
        any = true;
    }
    if (!any && !headers_.copy_all) return;
    std::map<const FileEntry *, FileState *> copies;
    for (const auto &inc : graph.inclusions) {
      if (copies.count(inc.target) || kept.count(inc.target) || !user_header(inc.target)) continue;
      auto at = fid_of.find(inc.target);
      FileID fid = at != fid_of.end() ? at->second : sm.translateFile(inc.target);
      if (fid.isInvalid()) continue;
      FileState &state = files_[fid];
      if (state.path.empty()) { // a header without functions of its own
        state.fid = fid;
        state.path = header_name(inc.target->getName().str());
        state.text = sm.getBufferData(fid).str();
      }
      state.copy = true;
      state.copy_path = headers_.copy_folder + "/" + std::to_string(copies.size()) + "/" +
                        std::filesystem::path(state.path).filename().string();
      copies[inc.target] = &state;
    }
    for (const auto &inc : graph.inclusions) {
      const FileEntry *from_entry = inc.from.isValid() ? sm.getFileEntryForID(inc.from) : nullptr;
      FileState *from = inc.from == sm.getMainFileID() ? main_ : nullptr;
      if (auto it = copies.find(from_entry); !from && it != copies.end()) from = it->second;
      if (!from) continue;
      const char delimiter = name_delimiter(inc);
      if (!delimiter) continue;
      std::string name;
      if (auto target = copies.find(inc.target); target != copies.end())
        name = target->second->copy_path;
      else if (from != main_ && delimiter == '"' && user_header(inc.target))
        name = inc.target->tryGetRealPathName().str();
      if (name.empty()) continue;
      unsigned begin = sm.getFileOffset(inc.name.getBegin());
      unsigned end = sm.getFileOffset(inc.name.getEnd());
      from->edits.replace_name(begin, end - begin, "\"" + c_string(name) + "\"");
    }
  }

  // A header of the user's own: not a system header, not in an excluded folder.
  bool user_header(const FileEntry *entry) const {
    if (!entry) return false;
    const SourceManager &sm = ast_.getSourceManager();
    FileID fid = sm.translateFile(entry);
    if (fid.isInvalid() || fid == sm.getMainFileID() ||
        sm.isInSystemHeader(sm.getLocForStartOfFile(fid)))
      return false;
    return !excluded(entry);
  }

  bool excluded(const FileEntry *entry) const {
    std::string name = header_name(entry->getName().str());
    std::string real = entry->tryGetRealPathName().str();
    return std::any_of(
        headers_.excluded.begin(), headers_.excluded.end(),
        [&](const std::string &folder) { return under(real, folder) || under(name, folder); });
  }

  // How a directive's file name is written in its file: '"' ("name", a search that starts
  // in the folder of the file holding it, which a copy in another folder would not
  // find), '<' (<name>), or 0 when it is not written there plainly (a macro's).
  char name_delimiter(const IncludeGraph::Inclusion &inc) const {
    const SourceManager &sm = ast_.getSourceManager();
    SourceLocation begin = inc.name.getBegin(), end = inc.name.getEnd();
    if (!inc.name.isCharRange() || begin.isMacroID() || end.isMacroID() ||
        sm.getFileID(begin) != inc.from || sm.getFileID(end) != inc.from)
      return 0;
    bool invalid = false;
    const char *at = sm.getCharacterData(begin, &invalid);
    if (invalid || (*at != '"' && *at != '<')) return 0;
    return *at;
  }

  // A loop skipped as its function's whole work relied on the PROC, which goes too.
  static void skip_probes(FileState &state, const std::string &why) {
    for (Candidate &c : state.candidates)
      if (placed(c) || (c.selected && skipped_as_whole_work(c.skipped))) c.skipped = why;
    state.edits = Edits();
  }

  template <typename Map> static std::vector<typename Map::key_type> keys(const Map &map) {
    std::vector<typename Map::key_type> out;
    out.reserve(map.size());
    for (const auto &entry : map)
      out.push_back(entry.first);
    return out;
  }

  // Two probes of one line with the same description (`f(g(x)) + g(y)`) get the column in
  // their location, "[file.c:12:9]", so the profile tells them apart.
  static void tell_apart(std::vector<std::pair<const ProbeRule *, Site>> &sites) {
    std::map<std::string, int> count;
    for (const auto &entry : sites)
      ++count[entry.second.candidate.description];
    for (auto &entry : sites) {
      Candidate &c = entry.second.candidate;
      if (count[c.description] < 2 || c.description.back() != ']') continue;
      c.description.insert(c.description.size() - 1, ":" + std::to_string(c.column));
    }
  }

  std::string check_ids() const {
    std::map<int, const Candidate *> seen;
    for (const auto &[fid, state] : files_)
      for (const Candidate &c : state.candidates) {
        auto [it, fresh] = seen.emplace(c.id, &c);
        if (!fresh)
          return "probe ID " + std::to_string(c.id) + " of " + c.description + " collides with " +
                 it->second->description;
      }
    return "";
  }
};

} // namespace

FileResult instrument_unit(ASTContext &ast, const std::string &file, const Selection &selection,
                           bool apply, bool keep_columns, const HeaderOptions &headers,
                           const ProgramIndex *program, const CompilerMacros *compiler_macros) {
  Unit unit(ast, file, selection, apply, keep_columns, headers, program, compiler_macros);
  unit.TraverseDecl(ast.getTranslationUnitDecl());
  return unit.finish();
}

} // namespace idb::instr

#include "program_index.hpp"

#include "bounded_work.hpp"
#include "function_scan.hpp"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Index/USRGeneration.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace idb::instr {

using namespace clang;

namespace {

constexpr const char *kSummaryHead = "idb-summary 1";

bool in_user_code(const SourceManager &sm, SourceLocation loc) {
  SourceLocation at = sm.getExpansionLoc(loc);
  return at.isValid() && !sm.isInSystemHeader(at);
}

// The user's function definitions of a unit (templates once, in their pattern).
class Definitions : public RecursiveASTVisitor<Definitions> {
public:
  explicit Definitions(const SourceManager &sm) : sm_(sm) {}
  std::vector<const FunctionDecl *> found;

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (fd->doesThisDeclarationHaveABody() && fd->getBody() && !fd->isImplicit() &&
        !fd->isDefaulted() && !fd->isDeleted() && in_user_code(sm_, fd->getBeginLoc()))
      found.push_back(fd);
    return true;
  }

private:
  const SourceManager &sm_;
};

} // namespace

std::string usr_of(const Decl &decl) {
  llvm::SmallString<128> usr;
  if (index::generateUSRForDecl(&decl, usr)) return "";
  return usr.str().str();
}

UnitSummary summarize_unit(ASTContext &ast) {
  const SourceManager &sm = ast.getSourceManager();
  UnitSummary summary;
  Definitions definitions(sm);
  definitions.TraverseDecl(ast.getTranslationUnitDecl());
  // Every callee declared in the user's code and defined in no file of the unit is asked
  // about, and assumed bounded: what a function's result rests on is the index's to decide.
  BoundedWork work(ast, nullptr, [](const FunctionDecl &) { return true; });
  std::set<std::tuple<std::string, std::string, bool>> calls;
  for (const FunctionDecl *fd : definitions.found) {
    std::string usr = usr_of(*fd);
    if (usr.empty()) continue;
    FunctionScan scan = scan_function(*fd, false);
    if (sm.getFileID(sm.getExpansionLoc(fd->getBeginLoc())) == sm.getMainFileID() &&
        !fd->isTemplated()) {
      UnitSummary::Function function;
      function.usr = usr;
      function.loops = scan.long_loops > 0;
      function.bounded = !function.loops && work.bounded(*fd);
      if (function.bounded)
        for (const FunctionDecl *callee : work.rests_on(*fd))
          if (std::string name = usr_of(*callee); !name.empty()) function.rests_on.push_back(name);
      std::sort(function.rests_on.begin(), function.rests_on.end());
      summary.functions.push_back(std::move(function));
    }
    for (const CallSite &site : scan.calls) {
      const FunctionDecl *callee = site.call->getDirectCallee();
      if (!callee || callee->getBuiltinID() || !in_user_code(sm, callee->getLocation())) continue;
      if (const FunctionDecl *pattern = callee->getTemplateInstantiationPattern()) callee = pattern;
      if (std::string name = usr_of(*callee); !name.empty())
        calls.emplace(usr, name, site.loop != 0);
    }
  }
  for (const auto &[caller, callee, in_loop] : calls)
    summary.calls.push_back({caller, callee, in_loop});
  if (const FileEntry *main = sm.getFileEntryForID(sm.getMainFileID()))
    summary.inputs.push_back(main->tryGetRealPathName().empty() ? main->getName().str()
                                                                : main->tryGetRealPathName().str());
  for (auto file = sm.fileinfo_begin(); file != sm.fileinfo_end(); ++file) {
    const FileEntry *entry = file->getFirst();
    std::string path = entry->tryGetRealPathName().str();
    if (path.empty() || (!summary.inputs.empty() && path == summary.inputs.front())) continue;
    // The system's headers are not the program's, and change with its packages only.
    if (path.rfind("/usr/include/", 0) == 0 || path.rfind("/usr/lib/", 0) == 0) continue;
    summary.inputs.push_back(path);
  }
  std::sort(summary.inputs.begin() + (summary.inputs.empty() ? 0 : 1), summary.inputs.end());
  return summary;
}

// One line per record, fields separated by tabs (a USR holds no tab or newline):
//   F <loops> <bounded> <usr>, then R <usr> for each function it rests on;
//   C <in loop> <caller> <callee>;  I <path> for each input.
std::string summary_text(const UnitSummary &summary) {
  std::ostringstream out;
  out << kSummaryHead << '\n';
  for (const auto &f : summary.functions) {
    out << "F\t" << f.loops << '\t' << f.bounded << '\t' << f.usr << '\n';
    for (const auto &r : f.rests_on)
      out << "R\t" << r << '\n';
  }
  for (const auto &c : summary.calls)
    out << "C\t" << c.in_loop << '\t' << c.caller << '\t' << c.callee << '\n';
  for (const auto &i : summary.inputs)
    out << "I\t" << i << '\n';
  return out.str();
}

bool parse_summary(const std::string &text, UnitSummary &summary) {
  summary = {};
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != kSummaryHead) return false;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    for (std::size_t at = 0;;) {
      std::size_t tab = line.find('\t', at);
      fields.push_back(line.substr(at, tab == std::string::npos ? tab : tab - at));
      if (tab == std::string::npos) break;
      at = tab + 1;
    }
    auto flag = [](const std::string &f) { return f == "1"; };
    if (fields[0] == "F" && fields.size() == 4)
      summary.functions.push_back({fields[3], flag(fields[1]), flag(fields[2]), {}});
    else if (fields[0] == "R" && fields.size() == 2 && !summary.functions.empty())
      summary.functions.back().rests_on.push_back(fields[1]);
    else if (fields[0] == "C" && fields.size() == 4)
      summary.calls.push_back({fields[2], fields[3], flag(fields[1])});
    else if (fields[0] == "I" && fields.size() == 2)
      summary.inputs.push_back(fields[1]);
    else
      return false;
  }
  return true;
}

bool program_index_wanted() {
  const char *value = std::getenv("IDB_INDEX");
  return !(value && std::string(value) == "0");
}

void ProgramIndex::add(const UnitSummary &unit) {
  for (const auto &f : unit.functions) {
    auto [entry, fresh] = functions_.try_emplace(f.usr);
    entry->second.loops = entry->second.loops || f.loops;
    entry->second.bounded = entry->second.bounded && f.bounded;
    entry->second.rests_on.insert(f.rests_on.begin(), f.rests_on.end());
  }
  for (const auto &c : unit.calls)
    calls_.emplace(c.caller, c.callee, c.in_loop);
  bounded_.clear();
  nesting_.reset();
}

bool ProgramIndex::bounded(const std::string &usr) const {
  return bounded_at(usr, 0);
}

bool ProgramIndex::bounded_at(const std::string &usr, int depth) const {
  if (auto known = bounded_.find(usr); known != bounded_.end()) return known->second;
  auto entry = functions_.find(usr);
  // Unknown (a library's), recursive, or deeper than the unit's own analysis follows.
  if (entry == functions_.end() || open_.count(usr) || depth >= kBoundedDepth) return false;
  bool result = entry->second.bounded;
  open_.insert(usr);
  for (const std::string &callee : entry->second.rests_on)
    if (result && !bounded_at(callee, depth + 1)) result = false;
  open_.erase(usr);
  // A recursion is unbounded from wherever it is entered, so a result found inside one
  // holds for the whole index.
  bounded_[usr] = result;
  return result;
}

bool ProgramIndex::loops(const std::string &usr) const {
  auto entry = functions_.find(usr);
  return entry != functions_.end() && entry->second.loops;
}

int ProgramIndex::nesting(const std::string &usr) const {
  if (!nesting_) {
    nesting_.emplace();
    // As CallNesting: each count only grows, up to 2.
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto &[caller, callee, in_loop] : calls_) {
        auto from = nesting_->find(caller);
        int through = std::min(2, (from == nesting_->end() ? 0 : from->second) + int(in_loop));
        int &mine = (*nesting_)[callee];
        if (through > mine) {
          mine = through;
          grew = true;
        }
      }
    }
  }
  auto it = nesting_->find(usr);
  return it == nesting_->end() ? 0 : it->second;
}

} // namespace idb::instr

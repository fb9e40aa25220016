// Parser and matcher of the selection's text form. One rule or setting per line; words
// separated by blanks; `#` starts a comment.
#include "selection.hpp"
#include "probe_id.hpp"

#include <charconv>
#include <fnmatch.h>
#include <sstream>
#include <utility>

namespace idb::instr {

namespace {

const char *const kDefault = "# IDB default selection\n"
                             "include proc\n"
                             "include loop depth=1 mode=blackbox\n"
                             "include comm\n"
                             "set min-statements 8\n"
                             "set bounded-weight 128\n"
                             "set skip-inline off\n";

struct Word {
  std::string text;
  unsigned column;
};

std::vector<Word> split_words(const std::string &line) {
  std::vector<Word> words;
  size_t i = 0;
  while (i < line.size()) {
    if (line[i] == '#') break;
    if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' &&
           line[i] != '#')
      ++i;
    words.push_back({line.substr(start, i - start), static_cast<unsigned>(start + 1)});
  }
  return words;
}

bool parse_int(const std::string &text, int &value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size() && value >= 0;
}

// Parses "proc", "loop", "call", "comm" or "all" into `rule.kinds`.
bool parse_kind(const std::string &word, Rule &rule) {
  static const std::pair<const char *, Kind> names[] = {
      {"proc", Kind::Proc}, {"loop", Kind::Loop}, {"call", Kind::Call}, {"comm", Kind::Comm}};
  if (word == "all") return true;
  for (const auto &[name, kind] : names)
    if (word == name) {
      rule.kinds.push_back(kind);
      return true;
    }
  return false;
}

bool parse_depth(const std::string &value, Rule &rule) {
  int n = 0;
  if (value.rfind("<=", 0) == 0 && parse_int(value.substr(2), n)) {
    rule.max_depth = n;
  } else if (value.rfind(">=", 0) == 0 && parse_int(value.substr(2), n)) {
    rule.min_depth = n;
  } else if (parse_int(value, n)) {
    rule.min_depth = rule.max_depth = n;
  } else {
    return false;
  }
  return true;
}

// One `key=value` filter; returns an error message or "".
std::string parse_filter(const std::string &word, Rule &rule) {
  auto eq = word.find('=');
  if (eq == std::string::npos) return "expected key=value, got '" + word + "'";
  std::string key = word.substr(0, eq), value = word.substr(eq + 1);
  if (key == "depth") {
    // "depth<=2" splits at '=' after '<'.
    return parse_depth(value, rule) ? "" : "bad depth '" + value + "'";
  }
  if (key == "depth<" || key == "depth>") {
    return parse_depth(key.substr(5) + "=" + value, rule) ? "" : "bad depth '" + word + "'";
  }
  if (value.empty()) return "empty value for '" + key + "'";
  if (key == "file")
    rule.file = value;
  else if (key == "function")
    rule.function = value;
  else if (key == "callee")
    rule.callee = value;
  else if (key == "mode") {
    auto mode = parse_loop_mode(value);
    if (!mode) return "mode must be blackbox, whitebox or dynamic, got '" + value + "'";
    rule.mode = *mode;
  } else if (key == "id") {
    int id = 0;
    if (!parse_int(value, id)) return "bad id '" + value + "'";
    rule.id = id;
  } else {
    return "unknown filter '" + key + "' (file, function, callee, depth, id, mode)";
  }
  return "";
}

bool parse_switch(const std::string &value, bool &out) {
  if (value == "on" || value == "yes" || value == "1")
    out = true;
  else if (value == "off" || value == "no" || value == "0")
    out = false;
  else
    return false;
  return true;
}

// `set NAME VALUE`; returns an error message or "".
std::string parse_setting(const std::vector<Word> &words, Selection &sel) {
  if (words.size() != 3) return "expected 'set NAME VALUE'";
  const std::string &name = words[1].text, &value = words[2].text;
  int n = 0;
  if (name == "min-statements") {
    if (!parse_int(value, n)) return "min-statements needs a number, got '" + value + "'";
    sel.min_statements = static_cast<unsigned>(n);
  } else if (name == "bounded-weight") {
    if (!parse_int(value, n)) return "bounded-weight needs a number, got '" + value + "'";
    sel.bounded_weight = static_cast<unsigned>(n);
  } else if (name == "skip-inline") {
    if (!parse_switch(value, sel.skip_inline)) return "skip-inline needs on or off";
  } else if (name == "comm") {
    if (!parse_switch(value, sel.comm)) return "comm needs on or off";
  } else {
    return "unknown setting '" + name + "' (min-statements, bounded-weight, skip-inline, comm)";
  }
  return "";
}

// One line into `sel`; returns "column: message" or "".
std::string parse_line(const std::vector<Word> &words, unsigned line_no, Selection &sel,
                       unsigned &column) {
  const std::string &verb = words[0].text;
  column = words[0].column;
  if (verb == "set") return parse_setting(words, sel);
  if (verb == "default") {
    if (words.size() != 1) return "'default' takes no arguments";
    auto base = parse_selection(kDefault, "default");
    sel.rules.insert(sel.rules.end(), base.selection.rules.begin(), base.selection.rules.end());
    return "";
  }
  if (verb != "include" && verb != "exclude")
    return "unknown directive '" + verb + "' (include, exclude, set, default)";
  if (words.size() < 2) return "'" + verb + "' needs a kind (proc, loop, call, comm, all)";
  Rule rule;
  rule.include = verb == "include";
  rule.line = line_no;
  column = words[1].column;
  if (!parse_kind(words[1].text, rule)) return "unknown kind '" + words[1].text + "'";
  for (size_t i = 2; i < words.size(); ++i) {
    column = words[i].column;
    if (auto error = parse_filter(words[i].text, rule); !error.empty()) return error;
  }
  sel.rules.push_back(rule);
  return "";
}

// One table for both directions, so the parser and the printed names cannot drift apart.
constexpr std::pair<LoopMode, const char *> kLoopModes[] = {{LoopMode::blackbox, "blackbox"},
                                                            {LoopMode::whitebox, "whitebox"},
                                                            {LoopMode::dynamic, "dynamic"}};

bool glob(const std::string &pattern, const std::string &text) {
  return fnmatch(pattern.c_str(), text.c_str(), 0) == 0;
}

bool matches(const Rule &rule, const Candidate &c) {
  if (!rule.kinds.empty()) {
    bool any = false;
    for (Kind k : rule.kinds)
      any = any || k == c.kind;
    if (!any) return false;
  }
  if (rule.id && *rule.id != c.id) return false;
  if (!glob(rule.file, c.file) && !glob(rule.file, base_name(c.file))) return false;
  if (!glob(rule.function, c.function)) return false;
  if ((c.kind == Kind::Call || c.kind == Kind::Comm) && !glob(rule.callee, c.callee)) return false;
  if (c.kind == Kind::Loop && (c.depth < rule.min_depth || c.depth > rule.max_depth)) return false;
  return true;
}

} // namespace

SelectionResult parse_selection(const std::string &text, const std::string &name) {
  SelectionResult result;
  result.selection.rules.clear();
  std::istringstream in(text);
  std::string line;
  unsigned line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    auto words = split_words(line);
    if (words.empty()) continue;
    unsigned column = 1;
    auto error = parse_line(words, line_no, result.selection, column);
    if (!error.empty()) {
      result.error = name;
      result.error += ":" + std::to_string(line_no) + ":" + std::to_string(column) + ": ";
      result.error += error;
      return result;
    }
  }
  return result;
}

const char *loop_mode_name(LoopMode mode) {
  for (const auto &[value, name] : kLoopModes)
    if (value == mode) return name;
  return "blackbox";
}

std::optional<LoopMode> parse_loop_mode(std::string_view text) {
  for (const auto &[value, name] : kLoopModes)
    if (text == name) return value;
  return std::nullopt;
}

const char *default_selection_text() {
  return kDefault;
}

bool skipped_by_size_rule(const std::string &reason) {
  static const char *const kReasons[] = {kSmallReason,    kShortLoopReason, kInlineReason,
                                         kBoundedReason,  kInBoundedReason, kNestedReason,
                                         kInNestedReason, kWholeWorkReason};
  for (const char *r : kReasons)
    if (reason.rfind(r, 0) == 0) return true;
  return false;
}

bool skipped_as_whole_work(const std::string &reason) {
  return reason.rfind(kWholeWorkReason, 0) == 0;
}

bool skipped_as_bounded(const std::string &reason) {
  return reason.rfind(kBoundedReason, 0) == 0 || reason.rfind(kNestedReason, 0) == 0;
}

Selection default_selection() {
  return parse_selection(kDefault, "default").selection;
}

void select(const Selection &selection, Candidate &candidate) {
  candidate.selected = false;
  candidate.forced = false;
  for (const Rule &rule : selection.rules) {
    if (!matches(rule, candidate)) continue;
    candidate.selected = rule.include;
    candidate.forced = rule.include && rule.id.has_value();
    if (rule.include && candidate.kind == Kind::Loop) candidate.loop_mode = rule.mode;
  }
  if (candidate.kind == Kind::Comm && !selection.comm) candidate.selected = false;
  if (!candidate.selected) {
    candidate.loop_mode.reset();
    candidate.forced = false;
  }
}

} // namespace idb::instr

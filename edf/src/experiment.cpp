// The meaning half of the parser: parse() and read(), and the checks that turn a
// Document's [PREAMBLE] and [DBLIST] lines into a validated Experiment.
#include "lex.hpp"

#include "idb/input_file.hpp"

#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace idb::edf {

namespace {

constexpr std::array<std::string_view, 11> kKeys{"experiment", "mode",  "application", "analyst",
                                                 "database",   "host",  "port",        "user",
                                                 "password",   "value", "rank"};

struct Checker {
  const Document &doc;
  ParseResult &out;
  std::map<std::string, const Line *> fields; // lower-case key → its line

  bool fail(int line, int column, const std::string &message) {
    out.error = located(doc.path, line, column, message);
    return false;
  }
  void warn(int line, int column, const std::string &message) {
    out.warnings.push_back(located(doc.path, line, column, message));
  }
  const Line *field(std::string_view key) const {
    auto it = fields.find(std::string(key));
    return it == fields.end() ? nullptr : it->second;
  }
  std::string text(std::string_view key) const {
    const Line *l = field(key);
    return l ? l->value : "";
  }
};

// The percent-encoding of a URL part: everything but RFC 3986's unreserved characters.
std::string url_part(std::string_view text) {
  std::string out;
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      static const char *hex = "0123456789ABCDEF";
      out += '%';
      out += hex[u >> 4];
      out += hex[u & 15];
    }
  }
  return out;
}

bool is_url(std::string_view s) {
  return s.starts_with("postgresql://") || s.starts_with("postgres://");
}

// "scheme://user:password@...": a password before the host.
bool url_has_password(std::string_view url) {
  std::size_t start = url.find("://") + 3, at = url.find('@', start);
  std::size_t slash = url.find('/', start);
  if (at == std::string_view::npos || (slash != std::string_view::npos && slash < at)) return false;
  return url.substr(start, at - start).find(':') != std::string_view::npos;
}

bool collect_fields(Checker &c, const Section &preamble) {
  for (const Line &l : preamble.lines) {
    if (l.key.empty()) continue;
    std::string key = lower(l.key);
    if (const Line *first = c.field(key))
      return c.fail(l.line, l.key_column,
                    "key '" + l.key + "' given twice (first on line " +
                        std::to_string(first->line) + ")");
    c.fields[key] = &l;
    bool known = false;
    for (std::string_view k : kKeys)
      known = known || k == key;
    if (!known) c.warn(l.line, l.key_column, "unknown key '" + l.key + "' in [PREAMBLE], kept");
  }
  return true;
}

bool check_port(Checker &c, const Line &l) {
  int port = 0;
  auto [end, ec] = std::from_chars(l.value.data(), l.value.data() + l.value.size(), port);
  if (ec != std::errc() || end != l.value.data() + l.value.size() || port < 1 || port > 65535)
    return c.fail(l.line, l.value_column,
                  "Port takes a number from 1 to 65535, not '" + l.value + "'");
  return true;
}

// Database, or the URL that Host, Port, User, Password and Database make.
bool check_database(Checker &c, Experiment &e) {
  const Line *db = c.field("database");
  if (db) {
    e.database = db->value;
    e.database_at = {db->line, db->value_column};
    if (db->value.empty()) return c.fail(db->line, db->key_column, "Database has no value");
  }
  const Line *host = c.field("host");
  if (!host) {
    for (std::string_view k : {"port", "user", "password"})
      if (const Line *l = c.field(k))
        return c.fail(l->line, l->key_column, "'" + l->key + "' needs Host (a PostgreSQL server)");
    return true;
  }
  if (host->value.empty()) return c.fail(host->line, host->key_column, "Host has no value");
  if (!db || is_url(db->value))
    return c.fail(host->line, host->key_column,
                  "Host needs Database, the name of a database on that server (not a URL)");
  std::string url = "postgresql://";
  if (const Line *user = c.field("user")) url += url_part(user->value);
  if (const Line *pw = c.field("password")) {
    c.warn(pw->line, pw->key_column,
           "a password in the file is readable by anyone who can read the file; "
           "PGPASSWORD or ~/.pgpass is the safe place");
    url += ":" + url_part(pw->value);
  }
  if (c.field("user") || c.field("password")) url += "@";
  bool v6 = host->value.find(':') != std::string::npos;
  url += v6 ? "[" + host->value + "]" : host->value;
  if (const Line *port = c.field("port")) {
    if (!check_port(c, *port)) return false;
    url += ":" + port->value;
  }
  e.database = url + "/" + url_part(db->value);
  e.database_at = {host->line, host->value_column};
  return true;
}

bool check_preamble(Checker &c, const Section &preamble, Experiment &e) {
  if (!collect_fields(c, preamble)) return false;
  const Line *mode = c.field("mode");
  if (!mode) return c.fail(preamble.line, 1, "[PREAMBLE] has no Mode (COALESCE or COMPARE)");
  std::string m = lower(mode->value);
  if (m != "coalesce" && m != "compare")
    return c.fail(mode->line, mode->value_column,
                  "unknown mode '" + mode->value + "' (COALESCE or COMPARE)");
  e.mode = m == "coalesce" ? Mode::coalesce : Mode::compare;
  e.title = c.text("experiment");
  e.application = c.text("application");
  e.analyst = c.text("analyst");
  if (const Line *v = c.field("value")) {
    e.value = analysis::parse_metric(v->value);
    if (!e.value)
      return c.fail(v->line, v->value_column,
                    "unknown value '" + v->value + "' (" + analysis::metric_choices() + ")");
  }
  if (const Line *r = c.field("rank")) {
    e.rank = parse_rank(r->value);
    if (!e.rank)
      return c.fail(r->line, r->value_column,
                    "Rank takes 'all' or a rank, 0 or more, not '" + r->value + "'");
  }
  return check_database(c, e);
}

bool check_dblist(Checker &c, const Section &dblist, Experiment &e) {
  std::map<std::string, int> seen;
  for (const Line &l : dblist.lines) {
    if (l.key.empty()) continue;
    if (auto [it, fresh] = seen.emplace(l.key, l.line); !fresh)
      return c.fail(l.line, l.key_column,
                    "'" + l.key + "' is listed twice (first on line " + std::to_string(it->second) +
                        ")");
    if (is_url(l.key) && url_has_password(l.key))
      c.warn(l.line, l.key_column,
             "a password in the file is readable by anyone who can read the file; "
             "PGPASSWORD or ~/.pgpass is the safe place");
    e.dblist.push_back({l.key, l.value, {l.line, l.key_column}});
  }
  return true;
}

const Section *find(const Document &doc, SectionKind kind) {
  for (const Section &s : doc.sections)
    if (s.kind == kind) return &s;
  return nullptr;
}

bool check(Checker &c, int end_line, Experiment &e) {
  const Section *preamble = find(c.doc, SectionKind::preamble);
  if (!preamble) return c.fail(1, 1, "no [PREAMBLE] section");
  const Section *dblist = find(c.doc, SectionKind::dblist);
  if (!dblist) return c.fail(end_line, 1, "no [DBLIST] section (end of file)");
  if (!check_preamble(c, *preamble, e) || !check_dblist(c, *dblist, e)) return false;
  if (const Section *d = find(c.doc, SectionKind::descr)) e.descr = d->body;
  if (const Section *a = find(c.doc, SectionKind::autoinst)) e.autoinst = with_newlines(a->body);
  return true;
}

} // namespace

ParseResult parse(std::string_view text, const std::string &path) {
  ParseResult out;
  Document doc;
  doc.path = path;
  // A UTF-8 byte-order mark, as some editors write, is kept (in the preface, so a rewrite
  // keeps it) but not read: columns count from after it.
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  bool bom = text.substr(0, kBom.size()) == kBom;
  if (bom) text.remove_prefix(kBom.size());
  std::vector<RawLine> lines = split_lines(text, path, out.error);
  if (!out.error.empty()) return out;
  if (out.error = build_document(lines, doc); !out.error.empty()) return out;
  if (bom) doc.preface.insert(0, kBom);
  int end_line = int(lines.size()) + (lines.empty() || !lines.back().eol.empty() ? 1 : 0);
  Checker c{doc, out, {}};
  if (!check(c, end_line, out.experiment)) return out;
  out.document = std::move(doc);
  return out;
}

ParseResult read(const std::string &path) {
  std::string text;
  if (std::string why = files::read_input_file(path, kMaxFileBytes, text); !why.empty()) {
    ParseResult out;
    out.error = path + ": cannot read: " + why;
    return out;
  }
  return parse(text, path);
}

std::optional<RankChoice> parse_rank(std::string_view text) {
  if (lower(text) == "all") return RankChoice{};
  int rank = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), rank);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || rank < 0)
    return std::nullopt;
  return RankChoice{false, rank};
}

} // namespace idb::edf

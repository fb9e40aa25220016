// Console parameters (console_params.hpp).
#include "console_params.hpp"

#include "idb/queries.hpp"

#include <cctype>
#include <sstream>

namespace idb::gui {

namespace {

std::string trimmed(const std::string &s) {
  std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  std::size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string default_value(const std::string &name, const RunData *run) {
  if (name == "run") return run ? run->label : std::string();
  if (name == "probe")
    return run && !run->summary.probes.empty() ? std::to_string(run->summary.probes[0].id)
                                               : std::string("1");
  if (name == "rank" || name == "thread") return "0";
  if (name == "limit") return "20";
  if (name == "max_ratio") return "0.5";
  if (name == "min_count") return "1000";
  if (name == "max_mean") return "1e-6";
  if (name == "q") return "0.99";
  return {};
}

} // namespace

std::vector<std::string> parameter_names(const std::string &header) {
  std::vector<std::string> names;
  for (const queries::Parameter &p : queries::parse_declarations(header))
    names.push_back(p.name);
  return names;
}

store::KeyValues default_params(const std::vector<std::string> &names, const RunData *run) {
  store::KeyValues params;
  for (const std::string &name : names)
    params.emplace_back(name, default_value(name, run));
  return params;
}

std::string params_text(const store::KeyValues &params) {
  std::string text;
  for (const auto &[key, value] : params)
    text.append(text.empty() ? "" : "; ").append(key).append("=").append(value);
  return text;
}

std::optional<store::KeyValues> parse_params(const std::string &text, std::string &error) {
  store::KeyValues params;
  std::istringstream parts(text);
  for (std::string part; std::getline(parts, part, ';');) {
    part = trimmed(part);
    if (part.empty()) continue;
    auto kv = queries::parse_param(part);
    if (!kv) {
      error = "parameter '" + part + "' is not key=value";
      return std::nullopt;
    }
    params.emplace_back(trimmed(kv->first), trimmed(kv->second));
  }
  return params;
}

} // namespace idb::gui

// `idb-instrument list` as a table or JSON.
#include "cli.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <ostream>

namespace idb::instr {

namespace {

std::string status(const Candidate &c) {
  if (!c.selected) return "-";
  if (!c.skipped.empty()) return "skipped: " + c.skipped;
  if (c.kind != Kind::Loop) return "yes";
  return c.loop_mode ? loop_mode_name(*c.loop_mode) : "";
}

std::string json_string(const std::string &text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

} // namespace

// Columns are as wide as their longest entry, so a long description or location never
// runs into the next column.
void print_table(const std::vector<FileResult> &results, std::ostream &out) {
  std::size_t where_width = 24, description_width = 40;
  for (const FileResult &r : results)
    for (const Candidate &c : r.candidates) {
      std::size_t where =
          c.file.size() + std::to_string(c.line).size() + std::to_string(c.column).size() + 2;
      where_width = std::max(where_width, where + 1);
      description_width = std::max(description_width, c.description.size() + 1);
    }
  const int ww = int(where_width), dw = int(description_width);
  out << std::left << std::setw(11) << "ID" << std::setw(5) << "KIND" << std::setw(6) << "DEPTH"
      << std::setw(ww) << "LOCATION" << std::setw(dw) << "DESCRIPTION"
      << "SELECTED\n";
  for (const FileResult &r : results)
    for (const Candidate &c : r.candidates) {
      std::string where = c.file + ":" + std::to_string(c.line) + ":" + std::to_string(c.column);
      out << std::setw(11) << c.id << std::setw(5) << kind_name(c.kind) << std::setw(6)
          << (c.kind == Kind::Loop ? std::to_string(c.depth) : "") << std::setw(ww) << where
          << std::setw(dw) << c.description << status(c) << "\n";
    }
}

void print_json(const std::vector<FileResult> &results, std::ostream &out) {
  out << "[";
  const char *sep = "\n";
  for (const FileResult &r : results)
    for (const Candidate &c : r.candidates) {
      out << sep << "  {\"id\": " << c.id << ", \"kind\": \"" << kind_name(c.kind)
          << "\", \"description\": " << json_string(c.description)
          << ", \"file\": " << json_string(c.file) << ", \"line\": " << c.line
          << ", \"column\": " << c.column << ", \"function\": " << json_string(c.function);
      if (c.kind == Kind::Loop) out << ", \"depth\": " << c.depth;
      if (c.parent) out << ", \"parent\": " << c.parent;
      if (!c.size.empty()) out << ", \"size\": " << json_string(c.size);
      if (!c.callee.empty()) out << ", \"callee\": " << json_string(c.callee);
      out << ", \"selected\": " << (c.selected ? "true" : "false");
      if (c.loop_mode) out << ", \"mode\": " << json_string(loop_mode_name(*c.loop_mode));
      if (!c.skipped.empty()) out << ", \"skipped\": " << json_string(c.skipped);
      out << "}";
      sep = ",\n";
    }
  out << "\n]\n";
}

} // namespace idb::instr

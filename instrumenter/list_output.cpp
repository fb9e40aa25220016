// `idb-instrument list` as a table or JSON.
#include "cli.hpp"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <iomanip>
#include <map>
#include <ostream>
#include <set>

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

// "Integrate::run" and "run" name the same function to a call site's callee.
std::string last_name(const std::string &name) {
  std::size_t colon = name.rfind("::");
  return colon == std::string::npos ? name : name.substr(colon + 2);
}

} // namespace

const Candidate *dynamic_candidate(const std::vector<FileResult> &results) {
  std::map<int, const Candidate *> by_id;
  std::set<std::string> defined, communicates;
  for (const FileResult &r : results)
    for (const Candidate &c : r.candidates) {
      by_id[c.id] = &c;
      defined.insert(last_name(c.function));
      if (c.kind == Kind::Comm) communicates.insert(last_name(c.function));
    }
  // Functions that make MPI calls through others, to a fixed point.
  for (bool grew = true; grew;) {
    grew = false;
    for (const FileResult &r : results)
      for (const Candidate &c : r.candidates)
        if (c.kind == Kind::Call && communicates.count(last_name(c.callee)) &&
            communicates.insert(last_name(c.function)).second)
          grew = true;
  }
  // How far each function of main's call tree is from main.
  std::map<std::string, int> distance{{"main", 0}};
  std::deque<std::string> next{"main"};
  while (!next.empty()) {
    std::string f = next.front();
    next.pop_front();
    for (const FileResult &r : results)
      for (const Candidate &c : r.candidates)
        if (c.kind == Kind::Call && last_name(c.function) == f &&
            defined.count(last_name(c.callee)) &&
            distance.emplace(last_name(c.callee), distance[f] + 1).second)
          next.push_back(last_name(c.callee));
  }
  // The outermost loop a candidate lies in: its parent chain's last loop.
  auto outermost = [&](const Candidate &c) -> const Candidate * {
    const Candidate *loop = nullptr;
    for (int id = c.parent; id != 0;) {
      auto at = by_id.find(id);
      if (at == by_id.end()) break;
      loop = at->second;
      id = loop->parent;
    }
    return loop;
  };
  // The functions each function calls, for what a loop reaches.
  std::map<std::string, std::set<std::string>> calls;
  for (const FileResult &r : results)
    for (const Candidate &c : r.candidates)
      if (c.kind == Kind::Call && defined.count(last_name(c.callee)))
        calls[last_name(c.function)].insert(last_name(c.callee));
  // Per outermost loop of main's call tree with MPI calls in it: what it reaches (the
  // functions its calls lead to, and its MPI calls), which is most of the program for a
  // time step and little for a set-up loop.
  std::map<const Candidate *, std::set<std::string>> reach;
  for (const FileResult &r : results)
    for (const Candidate &c : r.candidates) {
      if (c.kind != Kind::Call && c.kind != Kind::Comm) continue;
      const Candidate *loop = outermost(c);
      if (!loop || !distance.count(last_name(loop->function))) continue;
      std::set<std::string> &seen = reach[loop];
      std::deque<std::string> todo{c.kind == Kind::Comm ? "MPI " + std::to_string(c.id)
                                                        : last_name(c.callee)};
      while (!todo.empty()) {
        std::string f = todo.front();
        todo.pop_front();
        if (!seen.insert(f).second) continue;
        for (const std::string &g : calls[f])
          todo.push_back(g);
      }
    }
  const Candidate *best = nullptr;
  for (const FileResult &r : results)
    for (const Candidate &c : r.candidates) {
      if (c.kind != Kind::Loop || !reach.count(&c)) continue;
      bool mpi = false;
      for (const std::string &f : reach[&c])
        mpi = mpi || f.rfind("MPI ", 0) == 0 || communicates.count(f);
      if (!mpi) continue;
      auto better = [&](const Candidate *x, const Candidate *y) { // x before y
        if (reach[x].size() != reach[y].size()) return reach[x].size() > reach[y].size();
        return distance[last_name(x->function)] < distance[last_name(y->function)];
      };
      if (!best || better(&c, best)) best = &c;
    }
  return best;
}

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
  const Candidate *step = dynamic_candidate(results);
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
      if (&c == step) out << ", \"dynamic_candidate\": true";
      out << "}";
      sep = ",\n";
    }
  out << "\n]\n";
}

} // namespace idb::instr

// Prelude, registration constructor and manifest (see manifest.hpp).
#include "manifest.hpp"

#include "edits.hpp"

namespace idb::instr {

const char *const kInstrumentedMarker = "/* Instrumented by idb-instrument";

std::string prelude(const std::string &file) {
  return std::string(kInstrumentedMarker) + " from " + file +
         "; edit the original, not this file. */\n#include <idb/probe.h>\n#line 1 \"" +
         c_string(file) + "\"\n";
}

std::string registration(const std::vector<Candidate> &candidates) {
  std::string calls;
  for (const Candidate &c : candidates) {
    if (!placed(c)) continue;
    calls += "  idb_register_probe(" + std::string(kind_macro(c.kind)) + ", " +
             std::to_string(c.id) + ", \"" + c_string(c.description) + "\", \"" + c_string(c.file) +
             "\", " + std::to_string(c.line) + ", \"" + c_string(c.function) + "\");\n";
    if (c.loop_mode == LoopMode::dynamic)
      calls += "  idb_dynamic_probe(" + std::to_string(c.id) + ");\n";
  }
  if (calls.empty()) return "";
  return "\n/* idb-instrument: this file's probes, registered before main runs. */\n"
         "static void idb_register_probes_(void) __attribute__((constructor));\n"
         "static void idb_register_probes_(void) {\n" +
         calls + "}\n";
}

namespace {
std::string field(const std::string &text) {
  std::string out = text;
  for (char &c : out)
    if (c == '\t' || c == '\n') c = ' ';
  return out;
}
} // namespace

std::string manifest_tsv(const std::vector<FileResult> &results) {
  std::string out = "id\tkind\tdescription\tfile\tline\tfunction\n";
  for (const FileResult &r : results)
    for (const Candidate &c : r.candidates)
      if (placed(c))
        out += std::to_string(c.id) + "\t" + kind_name(c.kind) + "\t" + field(c.description) +
               "\t" + field(c.file) + "\t" + std::to_string(c.line) + "\t" + field(c.function) +
               "\n";
  return out;
}

std::string candidate_lines(const std::vector<Candidate> &candidates) {
  std::string out;
  for (const Candidate &c : candidates) {
    std::string status = placed(c) ? "placed" : c.selected ? "skipped: " + c.skipped : "-";
    out += std::to_string(c.id) + "\t" + kind_name(c.kind) + "\t" + field(status) + "\t" +
           field(c.file) + "\t" + std::to_string(c.line) + "\t" + field(c.function) + "\t" +
           field(c.callee) + "\t" + std::to_string(c.depth) + "\t" + std::to_string(c.parent) +
           "\t" + (c.size.empty() ? "-" : c.size) + "\t" + field(c.description) + "\n";
  }
  return out;
}

} // namespace idb::instr

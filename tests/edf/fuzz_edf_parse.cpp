// libFuzzer target for the .edf parser (run_fuzzer.sh builds it with clang and runs it for a
// bounded time). For any input: parsing must not crash or leak; an accepted input must
// write back byte for byte and parse again to the same experiment; and replacing its
// [AUTOINST] selection must keep the file parseable with the new selection in place.
#include "idb/edf.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void check_accepted(const std::string &text, const idb::edf::ParseResult &r) {
  std::string written = idb::edf::write(*r.document);
  check(written == text);
  idb::edf::ParseResult again = idb::edf::parse(written, "fuzz.edf");
  check(again.document && again.experiment.dblist.size() == r.experiment.dblist.size());
  idb::edf::Document doc = *r.document;
  // A selection made of the input's first line: either refused (a header line) or kept.
  std::string selection = text.substr(0, text.find('\n'));
  if (idb::edf::set_autoinst(doc, selection).empty()) {
    idb::edf::ParseResult edited = idb::edf::parse(idb::edf::write(doc), "fuzz.edf");
    check(edited.document.has_value() && edited.experiment.autoinst.has_value());
    check(edited.experiment.dblist.size() == r.experiment.dblist.size());
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  idb::edf::ParseResult r = idb::edf::parse(text, "fuzz.edf");
  check(r.document.has_value() == r.error.empty());
  if (r.document) check_accepted(text, r);
  return 0;
}

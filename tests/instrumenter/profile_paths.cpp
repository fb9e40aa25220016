// Test helper: prints each CFH of a profile as "a;b;c count" lines (the reader's
// paths_text), and with a manifest (idb-instrument's idb-manifest.tsv) checks that every
// probe in it reached the profile's probe table with its description. Exit 1 on any
// mismatch, with the reason on stderr.
#include "idb/profile.hpp"
#include "idb/tree.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

namespace {

int check_manifest(const idb::profile::Profile &profile, const char *path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line); // header
  int bad = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string id, kind, description;
    std::getline(fields, id, '\t');
    std::getline(fields, kind, '\t');
    std::getline(fields, description, '\t');
    const auto *probe = profile.probe(std::stoi(id));
    if (!probe || probe->description != description) {
      std::cerr << "probe " << id << " (" << description << ") is not in the profile as such\n";
      ++bad;
    }
  }
  return bad == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << "usage: profile_paths PROFILE [MANIFEST]\n";
    return 2;
  }
  auto read = idb::profile::read_profile(argv[1]);
  if (!read.profile) {
    std::cerr << "profile_paths: " << read.error << "\n";
    return 1;
  }
  for (const auto &cfh : read.profile->cfhs)
    std::cout << paths_text(*read.profile, cfh);
  return argc > 2 ? check_manifest(*read.profile, argv[2]) : 0;
}

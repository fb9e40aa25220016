#include "idb/output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace idb::files {

namespace {

std::string write_to(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.flush();
  return out ? "" : std::strerror(errno ? errno : EIO);
}

} // namespace

std::string write_output_file(const std::string &path, const std::string &text) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    errno = 0;
    std::string why = write_to(path, text);
    return why.empty() ? "" : "cannot write " + path + ": " + why;
  }
  std::string temp = path + ".tmp." + std::to_string(::getpid());
  errno = 0;
  if (std::string why = write_to(temp, text); !why.empty()) {
    std::remove(temp.c_str());
    return "cannot write " + path + ": " + why;
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::string why = std::strerror(errno);
    std::remove(temp.c_str());
    return "cannot write " + path + ": " + why;
  }
  return "";
}

} // namespace idb::files

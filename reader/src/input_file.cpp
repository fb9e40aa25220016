// Bounded reads of input files (input_file.hpp).
#include "idb/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace idb::files {

namespace {

// What a file that is not a regular one is, for the message.
const char *kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder, not a file";
  if (S_ISFIFO(mode)) return "a FIFO, not a regular file";
  if (S_ISCHR(mode)) return "a character device, not a regular file";
  if (S_ISBLK(mode)) return "a block device, not a regular file";
  if (S_ISSOCK(mode)) return "a socket, not a regular file";
  return "not a regular file";
}

class Descriptor {
public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) close(fd_);
  }
  Descriptor(const Descriptor &) = delete;
  Descriptor &operator=(const Descriptor &) = delete;
  int get() const { return fd_; }

private:
  int fd_;
};

} // namespace

std::string read_input_file(const std::string &path, std::size_t limit, std::string &text) {
  // Non-blocking, so that opening a FIFO without a writer returns at once.
  Descriptor fd(open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (fd.get() < 0) return std::strerror(errno);
  struct stat st {};
  if (fstat(fd.get(), &st) != 0) return std::strerror(errno);
  if (!S_ISREG(st.st_mode)) return kind_of(st.st_mode);
  if (std::size_t(st.st_size) > limit)
    return std::to_string(st.st_size) + " bytes, over the limit of " + std::to_string(limit);
  text.clear();
  text.reserve(std::size_t(st.st_size));
  char chunk[65536];
  for (;;) {
    ssize_t n = read(fd.get(), chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::strerror(errno);
    if (n == 0) break;
    if (text.size() + std::size_t(n) > limit) // it grew while being read
      return "over the limit of " + std::to_string(limit) + " bytes";
    text.append(chunk, std::size_t(n));
  }
  return "";
}

} // namespace idb::files

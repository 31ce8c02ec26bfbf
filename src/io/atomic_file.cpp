#include "footfix/io/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <system_error>

#include "footfix/core/error.h"

namespace footfix {
namespace fs = std::filesystem;

namespace {

fs::path temporary_path_for(const fs::path& path) {
  static std::atomic<unsigned> counter{0};
  return path.parent_path() / ("." + path.filename().string() + ".tmp-" +
                               std::to_string(::getpid()) + "-" + std::to_string(counter++));
}

void sync_file(const fs::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

}  // namespace

void write_file_atomically(const fs::path& path, const std::function<void(std::ostream&)>& write) {
  std::error_code ec;
  fs::path parent = path.parent_path();
  if (!parent.empty() && !fs::exists(parent, ec)) {
    fs::create_directories(parent, ec);
    if (ec) fail(ErrorKind::write, path.string() + ": cannot create directory: " + ec.message());
  }
  fs::path tmp = temporary_path_for(path);
  try {
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      if (!out) fail(ErrorKind::write, path.string() + ": cannot open for writing: " + std::strerror(errno));
      write(out);
      out.flush();
      if (!out) fail(ErrorKind::write, path.string() + ": write failed (disk full?)");
    }
    sync_file(tmp);
    fs::rename(tmp, path, ec);
    if (ec) fail(ErrorKind::write, path.string() + ": cannot rename into place: " + ec.message());
  } catch (...) {
    fs::remove(tmp, ec);
    throw;
  }
}

std::string read_file(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) fail(ErrorKind::read, path.string() + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorKind::read, path.string() + ": cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) fail(ErrorKind::read, path.string() + ": read failed");
  return std::move(ss).str();
}

}  // namespace footfix

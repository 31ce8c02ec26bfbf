// Internal to io/: the temporary files write_file_atomically writes through. Each is created
// exclusively (O_CREAT|O_EXCL|O_NOFOLLOW) under a short unpredictable name
// `.footfix-<pid>-<12 hex>.tmp`, removed on failure, on SIGINT/SIGTERM/SIGHUP (a handler is
// installed on first use where the signal has its default action), and, after SIGKILL, by the
// next run writing into that directory once the process is gone.
#pragma once

#include <filesystem>
#include <streambuf>
#include <vector>

namespace footfix::io_detail {

/// Closes the descriptor and removes the temporary file unless released.
class TemporaryFile {
 public:
  /// Creates the file in `directory`; fd() < 0 and error() = errno on failure.
  explicit TemporaryFile(const std::filesystem::path& directory);
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  int fd() const { return fd_; }
  /// errno of the last failed creation attempt.
  int error() const { return error_; }
  const std::filesystem::path& path() const { return path_; }
  /// Closes the descriptor; returns false with errno set if the close reported an error.
  bool close();
  /// The file was renamed into place: nothing to remove.
  void release() { released_ = true; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  int error_ = 0;
  int slot_ = -1;  ///< in the signal handler's registry
  bool created_ = false;
  bool released_ = false;
};

/// Removes temporaries left in `directory` by runs that were killed (their process is gone).
/// Done once per directory per process.
void remove_stale_temporaries(const std::filesystem::path& directory);

/// An output stream buffer over a file descriptor that keeps the errno of the first failed write.
/// Blocks at least as large as its buffer go to the descriptor directly (what is buffered
/// first), without a copy through the buffer.
class FdBuffer : public std::streambuf {
 public:
  explicit FdBuffer(int fd);
  /// errno of the first failed write, 0 if none.
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  int sync() override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;

 private:
  bool drain();
  /// Writes [p, end) to the descriptor, whole (retrying short writes); false on an error.
  bool write_all(const char* p, const char* end);

  int fd_;
  std::vector<char> buffer_;
  int error_ = 0;
};

}  // namespace footfix::io_detail

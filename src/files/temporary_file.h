// Internal to files/: the temporary files write_file_atomically writes through.
//
// Where the file system has O_TMPFILE (and /proc names descriptors), the file has no name while
// it is written: a killed run leaves nothing behind, and no handler has to clean up. It is
// linked in under the target's name when complete, or, where something is there already, under a
// temporary name beside it that is then renamed over it.
//
// Elsewhere, and for that moment between the link and the rename, the file is named: created
// exclusively (O_CREAT|O_EXCL|O_NOFOLLOW) under a short unpredictable name
// `.footfix-<pid>-<12 hex>.tmp`. Such a file is removed on failure, on SIGINT/SIGTERM/SIGHUP where
// the executable called remove_temporary_files_on_signals(), and, after SIGKILL, by the next run
// writing into that directory once the process is gone.
#pragma once

#include <filesystem>
#include <streambuf>
#include <vector>

namespace footfix::io_detail {

/// A file being written; closed, and removed where it has a name, unless committed.
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
  /// Puts the complete file at `target`, replacing what is there, and closes it. False with
  /// errno set on failure (the destructor then removes the file).
  bool commit(const std::filesystem::path& target);

 private:
  /// Gives the file a fresh temporary name in the directory with `create(path)` (a descriptor,
  /// or -1 with errno set), retrying names that exist.
  template <class Create>
  void create_named(Create create);
  bool close_descriptor();

  std::filesystem::path directory_;
  std::filesystem::path path_;  ///< its name, where it has one
  int fd_ = -1;
  int error_ = 0;
  int slot_ = -1;  ///< in the signal handler's registry
  bool named_ = false;
  bool committed_ = false;
};

/// A test seam: every temporary file of the process gets a name, as where O_TMPFILE is missing.
void use_named_temporaries_only();

/// Installs the SIGINT/SIGTERM/SIGHUP handlers that remove named temporary files being written
/// (remove_temporary_files_on_signals in footfix/files/atomic_file.h).
void remove_named_temporaries_on_signals();

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

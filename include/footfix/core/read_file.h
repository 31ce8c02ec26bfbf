// Reading inputs safely: only regular files (FIFOs, devices, sockets and /proc or /sys files are
// refused without reading), and only up to a size limit checked before reading. Every module that
// reads a file (clips, settings, rig profiles, contacts, terrain) reads it through read_file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace footfix {

/// Largest input file read, in bytes (--max-input-size, MiB). The largest real clips are tens of
/// MB (an FBX with meshes); 256 MiB leaves a wide margin.
constexpr std::uint64_t k_default_max_input_bytes = 256ull << 20;

/// Reads a whole regular file of at most `max_bytes` bytes into a string. Throws Error(read)
/// naming the path for anything else (missing, directory, FIFO, device, /proc file, too large).
std::string read_file(const std::filesystem::path& path, std::uint64_t max_bytes = k_default_max_input_bytes);

/// A regular file opened with read_file's checks (the same errors), read in pieces by the
/// caller: for inputs too large to hold whole as text.
class InputFile {
 public:
  InputFile(const std::filesystem::path& path, std::uint64_t max_bytes = k_default_max_input_bytes);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  /// The size the file had when opened, bytes.
  std::uint64_t size() const { return size_; }
  /// Appends up to `bytes` more bytes of the file to `out` (without growing its capacity past
  /// what they need, and asking for no more than the file holds past what was read; once that
  /// is read, up to 4 KiB, to see its end); returns how many, 0 at the end of the file. Throws
  /// Error(read) when a read fails or the file has grown past max_bytes.
  std::size_t append_to(std::string& out, std::size_t bytes);

 private:
  // One read(2) of up to `bytes` into `into`, counted in read_; returns how many (0: the end).
  std::size_t read_some(char* into, std::size_t bytes);

  std::filesystem::path path_;
  std::uint64_t max_bytes_ = 0, size_ = 0, read_ = 0;
  int fd_ = -1;
};

}  // namespace footfix

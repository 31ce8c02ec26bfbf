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

}  // namespace footfix

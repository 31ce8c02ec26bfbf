// Writing outputs atomically: the content goes to a temporary file beside the target, which is
// renamed over the target only once complete. A failure or a kill midway leaves no partial file.
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>

namespace footfix {

/// Calls `write(stream)` on a temporary file next to `path`, flushes and syncs it, then renames
/// it to `path`. Creates missing parent directories. Throws Error(write) naming the path on any
/// failure, after removing the temporary file.
void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write);

/// Reads a whole file into a string. Throws Error(read) naming the path on failure.
std::string read_file(const std::filesystem::path& path);

}  // namespace footfix

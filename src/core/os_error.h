// Internal to the library (core's read_file, files' writes): errors that carry the OS reason
// (errno), read before anything can change it.
#pragma once

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "footfix/core/error.h"

namespace footfix::io_detail {

inline std::string os_reason(int error) { return std::strerror(error); }

/// Throws Error(kind) "<path>: <what>: <errno's reason>".
[[noreturn]] inline void fail_errno(ErrorKind kind, const std::filesystem::path& path, const char* what) {
  const int error = errno;
  fail(kind, path.string() + ": " + what + ": " + os_reason(error));
}

}  // namespace footfix::io_detail

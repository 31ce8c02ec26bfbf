// Errors footfix reports to its callers. Bad input is not a bug: readers and stages throw an
// Error whose message is already located ("walk.bvh:212: joint 'Hips': expected 6 values,
// found 3"); the CLI maps the kind to an exit code.
#pragma once

#include <stdexcept>
#include <string>

namespace footfix {

enum class ErrorKind {
  usage,    ///< bad command line or settings (exit 2)
  read,     ///< an input file could not be read or parsed (exit 3)
  process,  ///< a clip was read but could not be processed (exit 4)
  write,    ///< an output could not be written (exit 5)
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

[[noreturn]] inline void fail(ErrorKind kind, const std::string& message) { throw Error(kind, message); }

}  // namespace footfix

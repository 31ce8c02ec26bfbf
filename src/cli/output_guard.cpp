#include "output_guard.h"

#include "footfix/core/error.h"

namespace footfix::cli {

void refuse_to_overwrite_input(const std::filesystem::path& input, const std::filesystem::path& output, bool allowed) {
  std::error_code ec;
  bool same = std::filesystem::exists(output, ec) && std::filesystem::equivalent(input, output, ec);
  if (same && !allowed)
    fail(ErrorKind::usage, output.string() + ": refusing to overwrite the input (use --in-place to allow it)");
}

}  // namespace footfix::cli

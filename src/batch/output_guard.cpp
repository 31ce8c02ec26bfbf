#include "footfix/batch/output_guard.h"

#include "footfix/core/error.h"

namespace footfix {

std::filesystem::path real_path(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  if (ec) return path.lexically_normal();
  std::filesystem::path real = std::filesystem::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal() : real;
}

bool is_under(const std::filesystem::path& path, const std::filesystem::path& root) {
  const std::filesystem::path rel = path.lexically_normal().lexically_relative(root.lexically_normal());
  return !rel.empty() && *rel.begin() != "..";
}

std::string overwrite_refusal(const std::filesystem::path& output) {
  return output.string() + ": refusing to overwrite the input (use --overwrite to allow it)";
}

void refuse_to_overwrite_input(const std::filesystem::path& input, const std::filesystem::path& output, bool allowed) {
  if (!allowed && real_path(input) == real_path(output))
    fail(ErrorKind::usage, overwrite_refusal(output));
}

}  // namespace footfix

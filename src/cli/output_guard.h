// Never overwrite a user's input by default.
#pragma once

#include <filesystem>

namespace footfix::cli {

/// Throws Error(usage) when `output` names the same file as `input` and `allowed` is false.
void refuse_to_overwrite_input(const std::filesystem::path& input, const std::filesystem::path& output, bool allowed);

}  // namespace footfix::cli

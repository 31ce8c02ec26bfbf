// Never overwrite a user's input by default, whatever path or symlink leads to it.
#pragma once

#include <filesystem>
#include <string>

namespace footfix {

/// The file a path really names: absolute, symlinks resolved for the part that exists, the rest
/// normalised lexically (works when the output folder does not exist yet).
std::filesystem::path real_path(const std::filesystem::path& path);

/// Whether `path` is `root` or inside it, comparing the paths as written (both normalised).
bool is_under(const std::filesystem::path& path, const std::filesystem::path& root);

/// "<output>: refusing to overwrite the input (use --overwrite to allow it)".
std::string overwrite_refusal(const std::filesystem::path& output);

/// Throws Error(usage) when `output` names the same file as `input` (through symlinks too,
/// whether or not the output exists yet) and `allowed` is false.
void refuse_to_overwrite_input(const std::filesystem::path& input, const std::filesystem::path& output, bool allowed);

}  // namespace footfix

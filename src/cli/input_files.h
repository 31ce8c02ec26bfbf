// Collecting the clips a batch command works on, and where each one's output goes. Shared by the
// commands that take `CLIP...` arguments (annotate, clean).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace footfix::cli {

struct InputFile {
  std::filesystem::path path;      ///< the file to read
  /// Its path below the argument that named it: the file name for a file argument, the path
  /// inside the directory for a directory argument. Outputs under -o DIR mirror it.
  std::filesystem::path relative;
  bool from_directory = false;     ///< found by expanding a directory argument
};

/// Expands `arguments` in order: a file is taken as is; a directory is searched recursively for
/// the files footfix reads (footfix::is_clip_path: .bvh, .fbx), sorted by relative path. A file
/// named twice is kept once. Throws Error(usage) for an argument that does not exist, a file
/// argument footfix does not read, or when nothing is found.
std::vector<InputFile> collect_input_files(const std::vector<std::string>& arguments);

/// Output path of each input: `<stem><suffix>` beside the input when `out_dir` is empty, else
/// `out_dir/<relative dir>/<stem><suffix>`. Throws Error(usage) when two inputs would write the
/// same file.
std::vector<std::filesystem::path> output_paths(const std::vector<InputFile>& inputs,
                                                const std::filesystem::path& out_dir, const std::string& suffix);

}  // namespace footfix::cli

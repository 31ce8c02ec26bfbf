// Reading and writing clips by file extension (.bvh, .fbx). Reading gives the clip in the file's
// own units and axes (ClipSpace::source); pipeline/load_clip.h detects the rig and conventions
// and converts it to the internal frame (meters, Y up).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/io/read_limits.h"

namespace footfix {

/// True for extensions footfix reads (.bvh, .fbx, case-insensitive).
bool is_clip_path(const std::filesystem::path& path);

/// Reads a .bvh or .fbx file (take `take` of an FBX: name or index; empty = the first) in the
/// file's own units and axes. Non-fatal findings are appended to `warnings`. Throws Error(read)
/// for unreadable files and unsupported extensions, and for inputs over `limits`.
Clip read_clip_file(const std::filesystem::path& path, const std::string& take, std::vector<std::string>& warnings,
                    const ReadLimits& limits = {});

/// Writes a clip atomically in the format named by `path`'s extension. FBX output requires a clip
/// read from FBX. Throws Error(write).
void save_clip(const Clip& clip, const std::filesystem::path& path);

}  // namespace footfix

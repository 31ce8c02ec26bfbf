// Reading and writing clips by file extension (.bvh, .fbx), with conventions detected once and
// the clip converted to the internal frame (meters, Y up).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/io/read_limits.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

struct ReadOptions {
  std::optional<double> meters_per_unit;  ///< override unit detection
  std::optional<Axis> up;                 ///< override up-axis detection
  std::string take;                       ///< FBX: animation name or index; empty = first
  const RigProfile* rig_profile = nullptr;
  ReadLimits limits;                      ///< input size, memory, duration, FBX import isolation
};

struct LoadedClip {
  Clip clip;  ///< internal frame
  Rig rig;    ///< legs of clip
  std::vector<std::string> warnings;
};

/// True for extensions footfix reads (.bvh, .fbx, case-insensitive).
bool is_clip_path(const std::filesystem::path& path);

/// Reads a clip, detects its rig and conventions and converts it to the internal frame.
/// Throws Error(read) for unreadable files and Error(process) for clips without legs.
LoadedClip load_clip(const std::filesystem::path& path, const ReadOptions& options = {});

/// Writes a clip atomically in the format named by `path`'s extension. FBX output requires a clip
/// read from FBX. Throws Error(write).
void save_clip(const Clip& clip, const std::filesystem::path& path);

}  // namespace footfix

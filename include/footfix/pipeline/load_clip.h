// Loading a clip for processing: read by file extension (.bvh, .fbx; io/clip_io.h), the rig and
// conventions detected once (rig/leg_rig.h) and the clip converted to the internal frame (meters,
// Y up). The pipeline layer: the one place where io meets rig.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/io/clip_io.h"
#include "footfix/files/read_limits.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

struct ReadOptions {
  std::optional<double> meters_per_unit;  ///< override unit detection
  std::optional<Axis> up;                 ///< override up-axis detection
  /// BVH: frames per second for processing instead of the stated Frame Time (which the written
  /// clip keeps); also turns off the check of the stated rate against the motion. FBX key times
  /// state the rate: ignored there with a warning.
  std::optional<double> fps;
  std::string take;                       ///< FBX: animation name or index; empty = first
  const RigProfile* rig_profile = nullptr;
  ReadLimits limits;                      ///< input size, memory, duration, FBX import isolation
};

struct LoadedClip {
  Clip clip;  ///< internal frame
  Rig rig;    ///< legs of clip
  std::vector<std::string> warnings;
};

/// Reads a clip, detects its rig and conventions and converts it to the internal frame.
/// A BVH whose locomotion clearly contradicts its stated rate (gait_frame_rate, rig/) is processed
/// at the rate its motion implies, with a warning; the written clip keeps the stated Frame Time.
/// Throws Error(read) for unreadable files and Error(process) for clips without legs.
LoadedClip load_clip(const std::filesystem::path& path, const ReadOptions& options = {});

/// load_clip's steps after the read: `loaded.clip` and `loaded.warnings` hold the clip as read
/// from `path` (read_clip_file); its rig and conventions are detected and it is converted. On
/// Error(process) (no legs), `loaded.clip` still holds the clip's joints and frames (possibly
/// converted), so that a caller can describe it without reading the file again.
void prepare_loaded_clip(LoadedClip& loaded, const std::filesystem::path& path, const ReadOptions& options = {});

}  // namespace footfix

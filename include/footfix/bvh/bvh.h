// BVH (Biovision Hierarchy) reading and writing.
//
// Reading keeps everything the file needs to be written back (channel layout and order per
// joint, raw offsets, every raw motion value in double precision) as a BvhSource (internal to
// the bvh module) attached to the clip. The clip itself comes out in the file's own units and
// axes; pipeline/load_clip converts it.
//
// Writing reproduces the file: same joint order, names, offsets, End Sites, channel layout and
// frame time. A joint whose transforms at a frame are unchanged (bit-for-bit equal to what
// reading the raw values gives) is written with its raw values in shortest round-trip form; a
// changed rotation is converted to Euler angles in the joint's own channel order, choosing the
// solution closest to the previous frame's.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/files/read_limits.h"

namespace footfix {

/// True for .bvh (case-insensitive).
bool is_bvh_path(const std::filesystem::path& path);

/// Parses BVH text. `source_name` prefixes messages ("walk.bvh:212: ..."). Returns the clip in
/// the file's units and axes with a BvhSource attached. Non-fatal problems are appended to
/// `warnings`. Throws Error(read) with a located message on malformed input, and for clips whose
/// frames x joints exceed limits.max_memory_bytes (checked before allocating).
Clip parse_bvh(std::string_view text, const std::string& source_name,
               std::vector<std::string>* warnings = nullptr, const ReadLimits& limits = {});

/// parse_bvh on a file's text (read_file's checks, limits.max_input_bytes), read a piece at a
/// time: the motion text is never held whole, only the values parsed from it. `source_name`
/// prefixes messages.
Clip read_bvh_file(const std::filesystem::path& path, const std::string& source_name,
                   std::vector<std::string>* warnings = nullptr, const ReadLimits& limits = {});

/// The channels write_bvh gives a clip read from BVH beyond those of its file, so that the
/// clip's motion can be said. Per joint of the clip as written (End Site joints folded back,
/// see footfix/core/end_site_joints.h); empty for a clip not read from BVH.
struct BvhAddedChannels {
  /// Moved off its OFFSET along an axis without a position channel: written with Xposition
  /// Yposition Zposition first, in place of its position channels.
  std::vector<bool> position;
  /// Turned without rotation channels: written with Zrotation Yrotation Xrotation last.
  std::vector<bool> rotation;
  /// One line naming the joints given channels and their written channels; empty when none is.
  std::vector<std::string> warnings;
};

/// How write_bvh writes lengths.
struct BvhWriteOptions {
  /// The length unit of the text, meters per unit (0.01: centimeters): offsets, End Sites and
  /// position channels are scaled to it. 0 keeps the clip's own (clip.source_frame), whose
  /// unchanged values are then written as read.
  double meters_per_unit = 0;
  /// bvh_added_channels of the clip written, when the caller has it already (to warn first):
  /// write_bvh uses it instead of finding it again. Unset, or not of the clip's shape: write_bvh
  /// finds it.
  std::optional<BvhAddedChannels> added;
};

/// Writes `clip` (internal frame) as BVH text, converting back to clip.source_frame. If the clip
/// came from a BVH file its layout is reused; otherwise a standard layout is made (6 channels on
/// the root and on joints whose translation changes, ZXY... rotation order Z Y X elsewhere).
void write_bvh(const Clip& clip, std::ostream& out, const BvhWriteOptions& options = {});

/// What write_bvh adds to the hierarchy of the BVH file `clip` was read from so that its motion
/// can be written: the joints it turns that the file gives no rotation channels, those it moves
/// along an axis without a position channel, and one warning line naming them.
BvhAddedChannels bvh_added_channels(const Clip& clip);

}  // namespace footfix

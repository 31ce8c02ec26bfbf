// FBX reading (through assimp) and writing (by editing the original document).
//
// Reading: assimp's scene (pivots preserved: `Name_$AssimpFbx$_...` helper nodes) is evaluated
// per frame on a uniform grid at the take's frame rate (mTicksPerSecond), helpers folded into the
// real joint they belong to, and every real node of the skeleton becomes a joint: the nodes that
// are animated or skin bones, their ancestors, and their mesh-less descendants. Joint local
// transforms are rigid: uniform node scales (Blender's x100 armature) are folded into the
// children's translations, so world joint positions are exactly assimp's. The clip comes back in
// the file's units and axes (clip.source_frame is the file's declared UnitScaleFactor and up
// axis) with an FbxSource (internal to the fbx module: the parsed document and per-joint curve
// data) attached.
//
// Writing: the original document is copied; for every joint whose local rotation or translation
// differs (bit for bit) from what reading gave, that component's Lcl Rotation / Lcl Translation
// curves are replaced (one key per frame) or created, honouring the Model's RotationOrder,
// PreRotation, PostRotation, pivots and offsets. Every other node is written back unchanged, in
// the source's flavour (binary stays binary, ASCII stays ASCII).
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/files/read_limits.h"

namespace footfix {

/// FBX KTime units per second.
constexpr std::int64_t k_fbx_ktime_per_second = 46186158000;

/// Names of the takes (animation stacks) in file order. Throws Error(read).
std::vector<std::string> list_fbx_takes(const std::filesystem::path& path, const ReadLimits& limits = {});

/// Names of the takes of the FBX file `clip` was read from, in file order, as read with it (no
/// second read of the file); empty for a clip not read by read_fbx or read_fbx_bytes.
std::vector<std::string> fbx_take_names(const Clip& clip);

/// Reads take `take` (name, or index as decimal digits; empty = the first). Throws Error(read)
/// with "<file>: ..." for unreadable files, files without animation or without a skeleton, and
/// unknown takes. Non-fatal findings (animated or non-uniform scales, tps missing) are appended
/// to `warnings` when it is non-null. Inputs over `limits` are refused before they are imported.
Clip read_fbx(const std::filesystem::path& path, const std::string& take = "",
              std::vector<std::string>* warnings = nullptr, const ReadLimits& limits = {});

/// Parses FBX bytes already in memory; `source_name` names the file in messages.
Clip read_fbx_bytes(const std::string& bytes, const std::string& source_name, const std::string& take = "",
                    std::vector<std::string>* warnings = nullptr, const ReadLimits& limits = {});

/// The flavour write_fbx writes: the source's own, or binary or ASCII whatever the source's.
enum class FbxFormat { keep, binary, ascii };

/// Writes `clip` (internal frame; converted back with clip.source_frame) as an edited copy of
/// the FBX document it was read from, in `format`. Throws Error(write) if the clip has no
/// FbxSource or its joints / frame count no longer match the source, or if the document holds
/// something the other flavour cannot carry.
void write_fbx(const Clip& clip, std::ostream& out, FbxFormat format = FbxFormat::keep);

}  // namespace footfix

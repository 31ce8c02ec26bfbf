// Reading and writing clips by file extension (.bvh, .fbx, .gltf, .glb). Reading gives the clip in the file's
// own units and axes (ClipSpace::source); pipeline/load_clip.h detects the rig and conventions
// and converts it to the internal frame (meters, Y up).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/bvh/bvh.h"
#include "footfix/fbx/fbx.h"
#include "footfix/files/read_limits.h"

namespace footfix {

class AtomicFileGroup;  // footfix/files/atomic_file.h

/// True for extensions footfix reads (.bvh, .fbx, .gltf, .glb, case-insensitive).
bool is_clip_path(const std::filesystem::path& path);

/// Reads a .bvh, .fbx, .gltf or .glb file (take or animation `take`: name or index; empty = the first) in the
/// file's own units and axes. Non-fatal findings are appended to `warnings`. Throws Error(read)
/// for unreadable files and unsupported extensions, and for inputs over `limits`.
Clip read_clip_file(const std::filesystem::path& path, const std::string& take, std::vector<std::string>& warnings,
                    const ReadLimits& limits = {});

/// True when the clip's reader kept what it decoded the clip from (BVH: the raw channel values of
/// every frame; FBX: the local transforms as read, which its writer compares against), so that
/// decode_source_frame can give its frames as read again.
bool has_source_frames(const Clip& clip);

/// Frame `frame` of the clip as its reader decoded it, in the clip's current space (the internal
/// frame after load_clip), bit for bit the transforms the clip held when read, whatever was
/// changed since: written to frame 0 of `into` (a clip of the same skeleton). Lets a caller
/// hand a long clip over to be changed in place and still read the source. Needs
/// has_source_frames(clip).
void decode_source_frame(const Clip& clip, int frame, Clip& into);

/// How save_clip writes each format; the defaults keep the source's units and flavour.
struct SaveOptions {
  BvhWriteOptions bvh;
  FbxFormat fbx = FbxFormat::keep;
  /// glTF: JSON object text stored in the written animation's extras as "footfix" (contacts).
  std::string gltf_extras;
};

/// Writes a clip atomically in the format named by `path`'s extension. FBX output requires a clip
/// read from FBX; a clip read from glTF keeps its container (.glb or .gltf; external buffer files
/// are copied beside an output in another folder, and a patched .gltf may get its own buffer
/// file: all put in place together). Returns the files besides `path` that the written clip
/// needs (a glTF's external buffer files, see save_gltf; none for BVH and FBX). Throws
/// Error(write).
std::vector<std::filesystem::path> save_clip(const Clip& clip, const std::filesystem::path& path,
                                             const SaveOptions& options = {});

/// What writing `clip` to `path` (its format by the extension) adds to the file it was read from
/// so that the clip's motion can be said (bvh_added_channels for .bvh), one warning line each;
/// empty when nothing is. What it found is kept in `options` (BvhWriteOptions::added): writing
/// the clip with them does not look again.
std::vector<std::string> save_warnings(const Clip& clip, const std::filesystem::path& path, SaveOptions& options);

/// save_clip's files, added to `files` (written and synced, not yet in place) for the caller to
/// commit together with others (AtomicFileGroup); returns what save_clip returns.
std::vector<std::filesystem::path> add_clip_files(const Clip& clip, const std::filesystem::path& path,
                                                  const SaveOptions& options, AtomicFileGroup& files);

}  // namespace footfix

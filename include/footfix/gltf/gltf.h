// glTF 2.0 reading (.gltf with embedded or external buffers, .glb) and writing.
//
// Reading: the nodes that an animation targets or a skin names as joints, with their ancestors,
// become the clip's joints (parents before children). glTF is metres and Y up by the
// specification (clip.source_frame is declared so). Node scales are folded into the children's
// translations, so world joint positions are the file's; a scaled root (0.01) comes out in
// metres. One animation is read (name or index, empty = the first), sampled on a uniform grid
// whose rate is the animation's shortest key interval (for evenly spaced keys, their count over
// their span, so frames fall on the keys) (LINEAR, STEP, CUBICSPLINE; float or normalized-integer
// outputs; sparse accessors). A leaf node named "<parent> End Site" that nothing animates, skins
// or meshes is read as its parent's End Site. A matrix node that an animation targets is
// refused. External buffer URIs must name a file in the glTF file's own folder (no "..", no
// absolute path, no symlink out of the folder).
//
// Writing: a clip read from glTF is written as a patch of the original file: the channels of the
// joints whose rotation or translation changed are pointed at new samplers and accessors (one key
// per frame, LINEAR), everything else is kept; an unchanged clip is written back byte for byte.
// The new data are appended to the buffer that holds the animation's key times (that of its first
// sampler): a .glb's BIN chunk, an embedded data: URI buffer (re-embedded), or an external .bin
// file, which becomes a new file (GltfOutput::bin: the original bytes as prefix, the new data
// after them) that the output's buffer names instead. Without such a buffer (or without a name for
// the new file) they go to a new embedded buffer. The replaced samplers, and the accessors and
// buffer views only they used, are reused for the new data in place (no index anywhere else in
// the file changes), so no unused object is left behind (old sparse accessors can free more views
// than the new data fill: those left are removed where they are last, else stay unused); the old
// bytes stay in the buffer. Any other clip is written as a skeleton-only glTF (nodes plus one
// animation; End Sites as static leaf nodes "<joint> End Site").
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/files/read_limits.h"

namespace footfix {

class AtomicFileGroup;  // footfix/files/atomic_file.h

/// True for .gltf and .glb (case-insensitive).
bool is_gltf_path(const std::filesystem::path& path);

/// Reads animation `animation` (name, or index as decimal digits; empty = the first) of a .gltf or
/// .glb file, in metres and Y up. Throws Error(read) "<file>: <where>: ..." for malformed files,
/// files without animation or skeleton, unknown animations and inputs over `limits`.
Clip read_gltf(const std::filesystem::path& path, const std::string& animation = "",
               std::vector<std::string>* warnings = nullptr, const ReadLimits& limits = {});

/// As read_gltf, for the bytes of a file already in memory; `path` names it in messages and its
/// folder is where external buffers are looked for.
Clip read_gltf_bytes(const std::string& bytes, const std::filesystem::path& path, const std::string& animation = "",
                     std::vector<std::string>* warnings = nullptr, const ReadLimits& limits = {});

/// Names of the animations of the glTF file `clip` was read from, in file order ("" for an
/// unnamed one); empty for a clip not read by read_gltf.
std::vector<std::string> gltf_animation_names(const Clip& clip);

/// A glTF file as written: its bytes and, when a patch's new data went to an external buffer, the
/// new buffer file to write beside it.
struct GltfOutput {
  std::string file;
  std::string bin_uri;       ///< the new buffer file's URI, relative to the file's folder; empty: none
  std::string bin;           ///< that file's bytes
  std::string replaced_uri;  ///< the source's buffer URI that bin_uri took the place of
};

/// `clip` as glTF (see write_gltf). `bin_uri` (a relative URI, escaped) names the new buffer file
/// a patch of a file whose animation data lie in an external buffer writes; empty: those new data
/// are embedded instead.
GltfOutput gltf_output(const Clip& clip, bool binary, const std::string& extras, const std::string& bin_uri);

/// Writes `clip` as glTF: binary (.glb) when `binary`, else JSON with embedded buffers. A clip
/// read from glTF is patched (see above) and keeps its source's flavour whatever `binary` says.
/// `extras` (JSON object text, may be empty) is stored as the written animation's `extras`
/// member "footfix". New data of a patch never go to an external file here (embedded instead; see
/// gltf_output). Throws Error(write).
void write_gltf(const Clip& clip, std::ostream& out, bool binary, const std::string& extras = "");

/// Writes `clip` atomically to `path`: .glb binary, else (.gltf) JSON. A clip read from glTF is
/// patched and must go to its source's container (Error(write) otherwise); new data of a patch
/// whose animation lies in an external buffer go to a new buffer file beside `path`
/// ("<stem>.bin", or "<stem>.footfix.bin" where that names one of the source's files), and the
/// source's other external buffer files, and its image files inside its folder, are copied beside
/// an output in another folder unless a file of that name is there. All of them are put in place together, the buffer files first.
/// `extras` as for write_gltf. Returns the external buffer files the written file names (beside
/// `path`, in buffer order; empty where its data are embedded): what must be there with it for the
/// output to be whole. Throws Error(write).
std::vector<std::filesystem::path> save_gltf(const Clip& clip, const std::filesystem::path& path,
                                             const std::string& extras = "");

/// save_gltf's files, added to `files` (written and synced, not yet in place) for the caller to
/// commit together with others; returns what save_gltf returns.
std::vector<std::filesystem::path> add_gltf_files(const Clip& clip, const std::filesystem::path& path,
                                                  const std::string& extras, AtomicFileGroup& files);

}  // namespace footfix

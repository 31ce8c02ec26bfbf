// Internal to fbx/: what an FBX document will cost the importer (assimp), judged from the parsed
// document before assimp sees it, so that hostile files are refused instead of exhausting memory,
// time or the stack.
#pragma once

#include <string>

#include "fbx_document.h"
#include "fbx_key_times.h"
#include "footfix/files/read_limits.h"

namespace footfix::fbx {

/// Deepest chain of Model objects connected to a parent Model accepted (as in the BVH reader);
/// assimp converts the chain recursively and overflows the stack on a few thousand levels.
constexpr int k_max_model_depth = 1024;
/// Bytes assimp holds per animation key while converting a take (1000 takes sharing one curve of
/// 100k keys were measured at 7.2 GB: about 72 per key and take).
constexpr std::uint64_t k_importer_bytes_per_key = 96;

/// Bytes one node of assimp's imported scene costs, with footfix's scene graph over it (an aiNode
/// alone is about 1.2 KB, its name 1 KB of it; a scene of 2^20 nodes was measured at 5.4 GB).
constexpr std::uint64_t k_bytes_per_scene_node = 5 << 10;

/// The most scene nodes an import may make: limits.max_memory_bytes at k_bytes_per_scene_node each.
std::uint64_t max_scene_nodes(const ReadLimits& limits);

/// Throws Error(read) naming `name`: the importer made more than max_scene_nodes(limits) nodes.
[[noreturn]] void fail_too_many_nodes(const std::string& name, const ReadLimits& limits);

/// Throws Error(read) naming `name` when the document's Model hierarchy is deeper than
/// k_max_model_depth (or cyclic), when the keys of all its takes (a curve shared by several
/// takes counts once per take) would need more than limits.max_memory_bytes inside assimp, or
/// when a take or a curve spans more than limits.max_duration_s. A curve's key times are those
/// `key_times` took out of `doc`, else its own.
void check_import_budget(const FbxDocument& doc, const SharedKeyTimes& key_times, const std::string& name,
                         const ReadLimits& limits);

}  // namespace footfix::fbx

// Limits on what reading one input may cost. Inputs come from anyone (a clips folder in a CI
// build, uploads to a service): every limit is checked before the memory or time is spent, and
// an input over one is refused with Error(read) naming the limit and the option that raises it.
#pragma once

#include <cstdint>
#include <string>

#include "footfix/core/read_file.h"  // k_default_max_input_bytes

namespace footfix {

/// Memory one clip may use, in bytes (--max-memory, MiB): the decoded clip and its working copies,
/// estimated from frames x joints (and, for FBX, the keys the importer expands) before allocating.
constexpr std::uint64_t k_default_max_memory_bytes = 2048ull << 20;
/// Longest take read, in seconds (--max-duration): an hour of motion is far beyond any clip.
constexpr double k_default_max_duration_s = 3600.0;
/// CPU time the isolated FBX import may take, in seconds.
constexpr int k_default_import_cpu_s = 120;
/// Wall-clock time the isolated FBX import may take, in seconds: room for its CPU time on a
/// machine busy with other work.
constexpr double k_default_import_wall_s = 300.0;
/// Growth of an FBX import worker's own memory (its private dirty pages) past which it trims its
/// heap, and retires if it is still over, in bytes: several times what the import of a clip of a
/// few MiB uses.
constexpr std::uint64_t k_default_fbx_worker_retire_bytes = 256ull << 20;

struct ReadLimits {
  std::uint64_t max_input_bytes = k_default_max_input_bytes;
  std::uint64_t max_memory_bytes = k_default_max_memory_bytes;
  double max_duration_s = k_default_max_duration_s;
  int import_cpu_s = k_default_import_cpu_s;
  /// Seconds: ends an isolated FBX import that waits without using CPU time (blocked), which
  /// import_cpu_s cannot.
  double import_wall_s = k_default_import_wall_s;
  /// Bytes: an import worker whose own memory (private dirty pages: what it wrote, not what it
  /// shares with the reader it was forked from) has grown by more than this since it started
  /// trims its heap after the import (below it, the heap stays warm for the next import), and
  /// exits if it is still over; the next import then starts a fresh one. 0: a fresh worker for
  /// every import.
  std::uint64_t fbx_worker_retire_bytes = k_default_fbx_worker_retire_bytes;
  /// FBX: run the importer (assimp) in a child process with these limits (address space, CPU
  /// and wall-clock time, all per import), so that a crash, a blow-up or a hang inside it fails
  /// this clip only; the child sends back what the reader needs of the imported scene. The child
  /// is a worker that each reading thread forks at its first FBX import and reuses for the next
  /// ones (a new importer each time), until the thread ends or an import fails other than by
  /// assimp's "cannot read" (the next import then starts a fresh worker). It dies with its
  /// thread and with this process.
  bool isolate_fbx_import = true;
  /// BVH (--repair), instead of refusing the file, with one warning each: fill non-finite motion
  /// values (nan, inf) from the nearest finite values of the same channel (linear, held at the
  /// ends); read the rows present when Frames states more (a cut file, or a writer's wrong
  /// count). Not a limit but what the reader may change; it travels with the limits to every
  /// reader.
  bool repair_bvh = false;
  /// BVH: keep each motion row's text with the clip, so that writing it as BVH copies every value
  /// it leaves unchanged as it was in the file. A read whose clip is never written as BVH turns it
  /// off and saves a copy of the motion text (its size in memory, and the time to make it); such a
  /// clip written as BVH anyway prints those values anew, as it does a clip over 16 MiB of motion.
  /// Not a limit either: it travels with the limits to the BVH reader.
  bool keep_bvh_text = true;
};

/// Bytes the pipeline holds per joint and frame (rotation + translation, 56 bytes, in the source,
/// the decoded clip, the cleaned clip and the working copies of the solve): the basis of the
/// --max-memory estimate.
constexpr std::uint64_t k_bytes_per_joint_frame = 56 * 6;

/// Throws Error(read) "<name>: <frames> frames x <joints> joints needs about N MiB, over the
/// memory limit of M MiB (--max-memory)" when the estimate exceeds limits.max_memory_bytes.
void check_clip_memory(const ReadLimits& limits, std::uint64_t frames, std::uint64_t joints, const std::string& name);

/// "12 s": whole seconds for messages (clamped, so any double converts).
std::string seconds_text(double s);

/// Throws Error(read) "<subject> <verb> <seconds>, over the duration limit of ... (--max-duration)".
/// Every format applies the limit to the take it reads.
[[noreturn]] void fail_over_duration(const std::string& subject, const char* verb, double seconds, const ReadLimits& limits);

}  // namespace footfix

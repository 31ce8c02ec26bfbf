// Per-frame cost of the runtime foot lock for one character (both legs: causal contact
// detection, lock state, leg solve), as an engine would call it: RuntimeLock::update once per
// frame over a long clip, several passes. Prints the median and 95th percentile per
// character-frame (target: <= 5 us) and the number of heap allocations made by update()
// (must be 0).
//
// Usage: bench_runtime_lock [clip] [passes]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <vector>

#include "footfix/pipeline/load_clip.h"
#include "footfix/lock/runtime_lock.h"
#include "footfix/solve/offline_apply.h"

namespace {
std::atomic<long long> g_allocations{0};
}  // namespace

// Counts every heap allocation of the process.
void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

int main(int argc, char** argv) {
  using namespace footfix;
  namespace fs = std::filesystem;
  fs::path path = argc > 1 ? fs::path(argv[1]) : fs::path(FOOTFIX_DATA_DIR) / "clips" / "cmu_01_01_hops_turnaround.bvh";
  const int passes = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  LoadedClip loaded = load_clip(path);
  const Clip& clip = loaded.clip;
  RuntimeLock runtime(clip.skeleton, loaded.rig, {leg_heights(clip, loaded.rig.legs[0]), leg_heights(clip, loaded.rig.legs[1])},
                      RuntimeLockSettings{}, clip.fps);
  const auto joints = static_cast<size_t>(clip.joint_count());
  const double dt = clip.frame_time();

  std::vector<double> ns;
  ns.reserve(static_cast<size_t>(clip.frame_count) * passes);
  long long allocations = 0, locked_frames = 0;
  double checksum = 0;
  auto total_start = std::chrono::steady_clock::now();
  for (int pass = 0; pass < passes; ++pass) {
    runtime.reset();
    for (int f = 0; f < clip.frame_count; ++f) {
      const size_t first = clip.index(f, 0);
      PoseView pose{{clip.rotations.data() + first, joints}, {clip.translations.data() + first, joints}};
      const long long before = g_allocations.load();
      auto start = std::chrono::steady_clock::now();
      const RuntimeFrame& out = runtime.update(pose, dt);
      auto end = std::chrono::steady_clock::now();
      allocations += g_allocations.load() - before;
      ns.push_back(std::chrono::duration<double, std::nano>(end - start).count());
      locked_frames += out.feet[0].locked + out.feet[1].locked;
      checksum += out.rotations[static_cast<size_t>(loaded.rig.legs[0].knee)].w;
    }
  }
  const double total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - total_start).count();
  std::sort(ns.begin(), ns.end());
  const double median_us = ns[ns.size() / 2] / 1000.0, p95_us = ns[ns.size() * 95 / 100] / 1000.0;
  std::printf("runtime lock, one character (%s, %d joints, %d frames at %.0f Hz, %d passes)\n",
              path.filename().c_str(), clip.joint_count(), clip.frame_count, clip.fps, passes);
  std::printf("  per character-frame: median %.2f us, p95 %.2f us, max %.2f us (target <= 5 us): %s\n", median_us, p95_us,
              ns.back() / 1000.0, median_us <= 5.0 ? "met" : "NOT met");
  std::printf("  whole run %.1f ms (%.2f us per frame with the timer calls)\n", total_ms,
              1000.0 * total_ms / static_cast<double>(ns.size()));
  std::printf("  heap allocations inside update(): %lld\n", allocations);
  std::printf("  locked foot-frames: %.1f%% (checksum %.6f)\n", 50.0 * static_cast<double>(locked_frames) / static_cast<double>(ns.size()),
              checksum);
  return allocations == 0 ? 0 : 1;
}

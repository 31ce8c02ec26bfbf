// Per-frame cost of the runtime foot lock for one character (both legs: causal contact
// detection, lock state, leg solve), as an engine would call it: RuntimeLock::update once per
// frame over a long clip, several passes, then over the same generated walk at 30, 60, 144 and
// 480 Hz. Prints the median and 95th percentile per character-frame (target: <= 3 us at every
// rate) and the number of heap allocations made by update() (must be 0); per rate, how far its
// contacts start and end from the 480 Hz walk's (target: within one tick of the rate, plus one
// of 480 Hz for the reference's own ticks); and on generated walks over flat ground, a
// 10-degree slope, stairs up and down and hills, with the terrain as the ground query, the
// contacts' agreement with the walk's ground truth (target: >= 90%) and how deep any foot joint
// goes under the terrain (target: no deeper than the input's, 1 mm tolerance).
//
// Usage: bench_runtime_lock [clip] [passes]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <new>
#include <vector>

#include "bench_main.h"
#include "footfix/contacts/contact_eval.h"
#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/fk.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/lock/lock_clip.h"
#include "footfix/lock/runtime_lock.h"
#include "footfix/lock/stance_heights.h"
#include "footfix/walk/walk.h"

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

namespace {

struct Timing {
  double median_us = 0, p95_us = 0, max_us = 0, whole_us_per_frame = 0;
  long long allocations = 0;
  double locked_share = 0;  ///< locked foot-frames / foot-frames
  double checksum = 0;
};

/// RuntimeLock::update over every frame of `clip`, `passes` times, one timer per call.
Timing time_updates(const footfix::Clip& clip, const footfix::Rig& rig, int passes) {
  using namespace footfix;
  RuntimeLock runtime(clip.skeleton, rig, opening_leg_heights(clip, rig, k_calibration_s), RuntimeLockSettings{}, clip.fps);
  const auto joints = static_cast<size_t>(clip.joint_count());
  const double dt = clip.frame_time();
  std::vector<double> ns;
  ns.reserve(static_cast<size_t>(clip.frame_count) * static_cast<size_t>(passes));
  Timing t;
  long long locked_frames = 0;
  const auto total_start = std::chrono::steady_clock::now();
  for (int pass = 0; pass < passes; ++pass) {
    runtime.reset();
    for (int f = 0; f < clip.frame_count; ++f) {
      const size_t first = clip.index(f, 0);
      PoseView pose{{clip.rotations.data() + first, joints}, {clip.translations.data() + first, joints}};
      const long long before = g_allocations.load();
      auto start = std::chrono::steady_clock::now();
      const RuntimeFrame& out = runtime.update(pose, dt);
      auto end = std::chrono::steady_clock::now();
      t.allocations += g_allocations.load() - before;
      ns.push_back(std::chrono::duration<double, std::nano>(end - start).count());
      locked_frames += out.feet[0].locked + out.feet[1].locked;
      t.checksum += out.rotations[static_cast<size_t>(rig.legs[0].knee)].w;
    }
  }
  const double total_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - total_start).count();
  std::sort(ns.begin(), ns.end());
  t.median_us = ns[ns.size() / 2] / 1000.0;
  t.p95_us = ns[ns.size() * 95 / 100] / 1000.0;
  t.max_us = ns.back() / 1000.0;
  t.whole_us_per_frame = total_us / static_cast<double>(ns.size());
  t.locked_share = 0.5 * static_cast<double>(locked_frames) / static_cast<double>(ns.size());
  return t;
}

/// The largest distance (s) between a contact's start or end in `a` (at fps_a) and the same
/// contact's in `b` (at fps_b), over both feet; infinity when the feet's contact counts differ.
double largest_contact_offset_s(const footfix::LockClipResult& a, double fps_a, const footfix::LockClipResult& b,
                                double fps_b) {
  double largest = 0;
  for (int s = 0; s < 2; ++s) {
    const auto ra = footfix::contact_runs(a.feet[s].contact), rb = footfix::contact_runs(b.feet[s].contact);
    if (ra.size() != rb.size()) return std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < ra.size(); ++i) {
      largest = std::max(largest, std::abs(ra[i].first_frame / fps_a - rb[i].first_frame / fps_b));
      largest = std::max(largest, std::abs((ra[i].last_frame + 1) / fps_a - (rb[i].last_frame + 1) / fps_b));
    }
  }
  return largest;
}

footfix::GroundHit terrain_hit(const void* context, double x, double z) {
  const auto& terrain = *static_cast<const footfix::Terrain*>(context);
  return {terrain.height(x, z), terrain.normal(x, z)};
}

/// The lowest any foot joint (contact joint, heel, foot tip) of `clip` comes above `terrain` (m).
double lowest_above_terrain(const footfix::Clip& clip, const footfix::Rig& rig, const footfix::Terrain& terrain) {
  using namespace footfix;
  double low = std::numeric_limits<double>::infinity();
  for (int f = 0; f < clip.frame_count; ++f)
    for (const LegChain& leg : rig.legs)
      for (const Vec3 p : {joint_world(clip, f, leg.contact_joint()).translation, joint_world(clip, f, leg.heel).translation,
                           foot_tip_world(clip, f, leg)})
        low = std::min(low, p.y - terrain.height(p.x, p.z));
  return low;
}

/// The contacts of generated walks over each walk terrain, locked with the terrain as the ground
/// query, against the walks' ground truth.
void print_terrain_rows() {
  using namespace footfix;
  // The targets: contact agreement with the ground truth, and no foot joint deeper under the
  // terrain than the input's deepest by more than this tolerance (m).
  constexpr double k_min_agreement = 0.90, k_penetration_tolerance_m = 0.001;
  std::printf("\nground (generated walk, 8 s, 60 Hz, the terrain as the ground query):\n");
  for (const char* spec : {"flat", "slope:10", "stairs", "stairs-down", "hills"}) {
    WalkSettings settings;
    settings.gait.duration_s = 8;
    const WalkResult walk = generate_walk(parse_terrain_spec(spec), settings);
    const LockClipResult locked =
        lock_clip(walk.clip, walk.rig, RuntimeLockSettings{}, nullptr, {}, GroundQuery{&terrain_hit, &walk.terrain});
    ContactResult seen = walk.contacts;
    for (int s = 0; s < 2; ++s) seen.feet[s].contact = locked.feet[s].contact;
    const double agreement = contact_agreement(seen, walk.contacts);
    // How deep the foot joints go under the terrain (m, 0 when never under it).
    const double input_depth_m = std::max(0.0, -lowest_above_terrain(walk.clip, walk.rig, walk.terrain));
    const double output_depth_m = std::max(0.0, -lowest_above_terrain(locked.locked, walk.rig, walk.terrain));
    const bool met = agreement >= k_min_agreement && output_depth_m <= input_depth_m + k_penetration_tolerance_m;
    std::printf("  %-11s contact agreement %5.1f%% (>= 90%%), foot joints at most %4.2f mm under the terrain (the "
                "input's %4.2f mm): %s\n",
                spec, 100 * agreement, 1000 * output_depth_m, 1000 * input_depth_m, met ? "met" : "NOT met");
  }
}

}  // namespace

int run(int argc, char** argv) {
  using namespace footfix;
  namespace fs = std::filesystem;
  fs::path path = argc > 1 ? fs::path(argv[1]) : fs::path(FOOTFIX_DATA_DIR) / "clips" / "cmu_01_01_hops_turnaround.bvh";
  const int passes = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  LoadedClip loaded = load_clip(path);
  const Clip& clip = loaded.clip;
  const Timing t = time_updates(clip, loaded.rig, passes);
  std::printf("runtime lock, one character (%s, %d joints, %d frames at %.0f Hz, %d passes)\n",
              path.filename().c_str(), clip.joint_count(), clip.frame_count, clip.fps, passes);
  std::printf("  per character-frame: median %.2f us, p95 %.2f us, max %.2f us (target <= 3 us): %s\n", t.median_us,
              t.p95_us, t.max_us, t.median_us <= 3.0 ? "met" : "NOT met");
  std::printf("  whole run %.2f us per frame with the timer calls\n", t.whole_us_per_frame);
  std::printf("  heap allocations inside update(): %lld\n", t.allocations);
  std::printf("  locked foot-frames: %.1f%% (checksum %.6f)\n", 100 * t.locked_share, t.checksum);

  // The same generated walk (8 s, flat) at four tick rates: the cost per frame must not grow
  // with the rate (the detector's windows are spans of time, updated in O(1)).
  std::printf("\ntick rates (generated flat walk, 8 s):\n");
  long long allocations = t.allocations;
  bool all_met = t.median_us <= 3.0, contacts_met = true;
  constexpr double reference_fps = 480;
  WalkSettings reference_settings;
  reference_settings.fps = reference_fps;
  const WalkResult reference = generate_walk(Terrain{}, reference_settings);
  const LockClipResult reference_locked = lock_clip(reference.clip, reference.rig, RuntimeLockSettings{});
  for (double fps : {30.0, 60.0, 144.0, reference_fps}) {
    WalkSettings settings;
    settings.fps = fps;
    const WalkResult walk = generate_walk(Terrain{}, settings);
    const Timing r = time_updates(walk.clip, walk.rig, passes);
    allocations += r.allocations;
    all_met = all_met && r.median_us <= 3.0;
    // The contacts against the 480 Hz walk's: within one tick of this rate, plus one of the
    // reference's (each run's contact edges fall on its own ticks).
    const double offset_s = largest_contact_offset_s(lock_clip(walk.clip, walk.rig, RuntimeLockSettings{}), fps,
                                                     reference_locked, reference_fps);
    const double tick_s = 1 / fps + 1 / reference_fps;
    contacts_met = contacts_met && offset_s <= tick_s;
    std::printf("  %5.0f Hz: median %.2f us, p95 %.2f us per character-frame, locked foot-frames %.1f%%: %s; "
                "contacts within %.1f ms of 480 Hz's (a tick: %.1f ms)\n",
                fps, r.median_us, r.p95_us, 100 * r.locked_share, r.median_us <= 3.0 ? "met" : "NOT met",
                1000 * offset_s, 1000 * tick_s);
  }
  std::printf("  all rates within 3 us: %s; the same contacts within one tick: %s\n", all_met ? "yes" : "NO",
              contacts_met ? "yes" : "NO");
  print_terrain_rows();
  return allocations == 0 ? 0 : 1;
}

int main(int argc, char** argv) { return footfix::bench::run_main(argc, argv, "[clip] [passes]", run); }

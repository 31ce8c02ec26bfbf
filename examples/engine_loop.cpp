// How an engine would drive the runtime foot lock: build one RuntimeLock for a character, give it
// the ground (a raycast-like query), then every tick move the character's capsule, sample the
// animation at the capsule, call update(pose, dt) and use the corrected pose and lock states.
// Halfway through, the capsule is teleported without a reset(): the lock notices by itself.
// Prints a line per second of animation and, at the end, the cost per update.
//
// Usage: footfix_engine_loop [CLIP.bvh|CLIP.fbx]
//   without a clip: footfix's generated walk over hills, on that terrain;
//   with a clip: the clip on flat ground (no ground query).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <vector>

#include "footfix/lock/runtime_lock.h"
#include "footfix/lock/stance_heights.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/walk/walk.h"

namespace {

// The engine's ground raycast: here the walk's terrain.
footfix::GroundHit terrain_raycast(const void* context, double x_m, double z_m) {
  const auto& terrain = *static_cast<const footfix::Terrain*>(context);
  return {terrain.height(x_m, z_m), terrain.normal(x_m, z_m)};
}

}  // namespace

int main(int argc, char** argv) {
  using namespace footfix;
  if (argc > 2) {
    std::fprintf(stderr, "usage: %s [CLIP]\n", argv[0]);
    return 2;
  }
  try {
    // Loading: the character's skeleton, legs and animation, and the ground.
    Terrain terrain;
    Clip anim;
    Rig rig;
    GroundQuery ground;
    if (argc == 2) {
      LoadedClip loaded = load_clip(argv[1]);
      anim = std::move(loaded.clip);
      rig = loaded.rig;
    } else {
      terrain.kind = TerrainKind::hills;
      WalkResult walk = generate_walk(terrain, WalkSettings{});
      anim = std::move(walk.clip);
      rig = walk.rig;
      ground = {&terrain_raycast, &terrain};
    }
    // Spawn: the calibration from the animation's first second (heights above the ground).
    RuntimeLock lock(anim.skeleton, rig, opening_leg_heights(anim, rig, 1.0, ground), RuntimeLockSettings{}, anim.fps);
    lock.set_ground(ground);

    // The engine's own pose buffers, filled by its animation system every tick. The capsule
    // carries the character: the animation's root motion moves it, and at the teleport tick it
    // jumps 5 m sideways (the pose goes with it).
    std::vector<Quat> rotations(static_cast<size_t>(anim.joint_count()));
    std::vector<Vec3> translations(rotations.size());
    const double dt = anim.frame_time();
    const int ticks_per_report = std::max(1, static_cast<int>(anim.fps));
    const int teleport_tick = anim.frame_count / 2, root = rig.translation_joint;
    Vec3 capsule_offset;
    std::vector<double> update_us;
    update_us.reserve(static_cast<size_t>(anim.frame_count));
    for (int tick = 0; tick < anim.frame_count; ++tick) {
      if (tick == teleport_tick) capsule_offset.x += 5.0;
      for (int j = 0; j < anim.joint_count(); ++j) {  // "sample the animation at the capsule"
        rotations[static_cast<size_t>(j)] = anim.rotation(tick, j);
        translations[static_cast<size_t>(j)] = anim.translation(tick, j);
      }
      if (root >= 0 && anim.skeleton.parents[static_cast<size_t>(root)] < 0)
        translations[static_cast<size_t>(root)] += capsule_offset;
      const auto start = std::chrono::steady_clock::now();
      const RuntimeFrame& out = lock.update({rotations, translations}, dt);
      update_us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
      // "Pose the character": out.rotations / out.translations replace the animation's pose.
      if (out.teleported) std::printf("t=%6.2f s  teleport detected: the lock started again\n", tick * dt);
      if (tick % ticks_per_report == 0) {
        std::printf("t=%6.2f s", tick * dt);
        for (int s = 0; s < 2; ++s) {
          const RuntimeFootState& foot = out.feet[s];
          std::printf("  %s %-6s toe (%5.2f, %5.2f, %5.2f) m", to_string(static_cast<Side>(s)), foot.locked ? "locked" : "free",
                      foot.target_m.x, foot.target_m.y, foot.target_m.z);
        }
        std::printf("  pelvis -%.1f cm\n", 100 * out.pelvis_drop_m);
      }
    }
    std::sort(update_us.begin(), update_us.end());
    std::printf("cost per update (one character): median %.2f us, p95 %.2f us, max %.2f us over %zu ticks\n",
                update_us[update_us.size() / 2], update_us[update_us.size() * 95 / 100], update_us.back(), update_us.size());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}

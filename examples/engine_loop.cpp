// How an engine would drive the runtime foot lock: load a character's clip, build one
// RuntimeLock for the character, then every tick take the animation pose, call update(pose, dt)
// and use the corrected pose and the lock states. Prints a line per second of animation.
//
// Usage: footfix_engine_loop CLIP.bvh|CLIP.fbx
#include <cstdio>
#include <exception>
#include <vector>

#include "footfix/pipeline/load_clip.h"
#include "footfix/lock/runtime_lock.h"
#include "footfix/solve/offline_apply.h"

int main(int argc, char** argv) {
  using namespace footfix;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CLIP\n", argv[0]);
    return 2;
  }
  try {
    // Loading: the character's skeleton and legs, and the lowest its feet go (a calibration an
    // engine would store with the character).
    LoadedClip character = load_clip(argv[1]);
    const Clip& anim = character.clip;
    const std::array<LegHeights, 2> heights{leg_heights(anim, character.rig.legs[0]), leg_heights(anim, character.rig.legs[1])};
    RuntimeLock lock(anim.skeleton, character.rig, heights, RuntimeLockSettings{}, anim.fps);

    // The engine's own pose buffers, filled by its animation system every tick.
    std::vector<Quat> rotations(static_cast<size_t>(anim.joint_count()));
    std::vector<Vec3> translations(rotations.size());
    const double dt = anim.frame_time();
    const int ticks_per_report = static_cast<int>(anim.fps);
    for (int tick = 0; tick < anim.frame_count; ++tick) {
      for (int j = 0; j < anim.joint_count(); ++j) {  // "sample the animation"
        rotations[static_cast<size_t>(j)] = anim.rotation(tick, j);
        translations[static_cast<size_t>(j)] = anim.translation(tick, j);
      }
      const RuntimeFrame& out = lock.update({rotations, translations}, dt);
      // "Pose the character": out.rotations / out.translations replace the animation's pose.
      if (tick % ticks_per_report == 0) {
        std::printf("t=%6.2f s", tick * dt);
        for (int s = 0; s < 2; ++s) {
          const RuntimeFootState& foot = out.feet[s];
          std::printf("  %s %-8s blend %.2f toe (%.2f, %.2f, %.2f) m", to_string(static_cast<Side>(s)),
                      foot.locked ? "locked" : "free", foot.blend_weight, foot.target_m.x, foot.target_m.y, foot.target_m.z);
        }
        std::printf("\n");
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}

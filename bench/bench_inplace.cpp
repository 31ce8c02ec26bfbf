// The in-place (treadmill) instrument, as a benchmark program: every shared root-motion walk
// and run is made to slide (pelvis horizontal motion x1.25 / x0.75 about frame 0, or left as it
// is: x1.00), then made in place by subtracting its root's average horizontal velocity, which
// gives an in-place clip whose true treadmill speed is known. It is cleaned twice: locked in
// world space (--treadmill off, what clean did before treadmills) and with the default
// treadmill detection. Columns:
//   in mm/f     slide of the in-place input's planted toes relative to their best single
//               ground velocity (contacts of the unscaled root-motion clip)
//   out mm/f    the same for the cleaned clip; ratio = out / in (target <= 25%)
//   dev cm      the root's mean horizontal deviation from the in-place input (target <= 5 cm)
//   drift cm    the root's end-to-end drift against the input's (target <= 5 cm)
//   g err       |estimated ground velocity - true one| (m/s): planted feet run back at minus the
//               unscaled clip's average root velocity (the removed one / scale)
// Then the shared in-place Mixamo FBX: first-to-last hips distance, source and cleaned.
//
// Usage: bench_inplace [clip...]
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "footfix/core/fk.h"
#include "footfix/eval/sliding.h"
#include "footfix/eval/treadmill_metrics.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"

namespace fs = std::filesystem;
using namespace footfix;

namespace {

const char* k_walks_and_runs[] = {
    "cmu_07_01_walk.bvh", "cmu3dsmax_131_01_start_walk_stop.bvh", "xia_neutral_01_000_walk.bvh",
    "bandai1_walk_normal_001.bvh", "bandai1_run_active_001.bvh", "bandai1_walk-back_active_001.bvh",
    "bandai2_walk-turn-right_normal_001.bvh", "mixamo_walking_rootmotion_bin7700.fbx",
    "mixamo_walking_rootmotion_ascii7700.fbx",
};

struct Tally {
  int rows = 0, failures = 0;
};

void run_clip(const fs::path& path, Tally& tally) {
  LoadedClip loaded = load_clip(path);
  const Rig& rig = loaded.rig;
  CleanSettings settings;
  const ContactResult reference = detect_contacts(loaded.clip, rig, settings.contacts);
  const ContactMask mask{reference.feet[0].contact, reference.feet[1].contact};
  for (double factor : {1.0, 1.25, 0.75}) {
    Vec3 true_g;
    const Clip input = make_in_place(make_sliding(loaded.clip, rig, factor), rig, &true_g);
    const TreadmillSlide in = treadmill_slide(input, rig, mask);
    for (TreadmillMode mode : {TreadmillMode::off, TreadmillMode::auto_detect}) {
      settings.treadmill.mode = mode;
      CleanResult r;
      try {
        r = clean_clip(input, rig, settings);
      } catch (const std::exception& e) {
        std::printf("%-40s x%.2f %-8s CLEAN FAILED: %s\n", path.filename().c_str(), factor,
                    mode == TreadmillMode::off ? "world" : "auto", e.what());
        ++tally.failures;
        continue;
      }
      const TreadmillSlide out = treadmill_slide(r.cleaned, rig, mask);
      const RootStray stray = root_stray(input, r.cleaned, rig);
      const double ratio = in.mean_mm_per_frame > 0 ? out.mean_mm_per_frame / in.mean_mm_per_frame : 0;
      const bool ok = ratio <= 0.25 && stray.mean_horizontal_deviation_m <= 0.05 &&
                      stray.end_to_end_drift_m <= 0.05;
      const bool judged = mode != TreadmillMode::off;
      std::printf("%-40s x%.2f %-6s %3s %6.2f %6.2f %6.1f%% %6.1f %6.1f %6.3f  %s\n", path.filename().c_str(), factor,
                  judged ? "auto" : "world", r.treadmill ? "on" : "off", in.mean_mm_per_frame, out.mean_mm_per_frame,
                  100 * ratio, 100 * stray.mean_horizontal_deviation_m, 100 * stray.end_to_end_drift_m,
                  length(r.ground_velocity_mps - true_g / factor),
                  judged ? (ok ? "pass" : "FAIL") : (ok ? "(pass)" : "(fail)"));
      if (judged) {
        ++tally.rows;
        tally.failures += ok ? 0 : 1;
      }
    }
  }
}

void mixamo_loop(const fs::path& path) {
  if (!fs::exists(path)) return;
  LoadedClip loaded = load_clip(path);
  const Rig& rig = loaded.rig;
  const int last = loaded.clip.frame_count - 1;
  auto gap = [&](const Clip& c) {
    Vec3 d = joint_world(c, last, rig.translation_joint).translation - joint_world(c, 0, rig.translation_joint).translation;
    return std::hypot(d.x, d.z);
  };
  std::printf("\n%s (in place, %d frames): first-to-last hips distance (X, Z), cm\n", path.filename().c_str(), last + 1);
  std::printf("%-8s %8s %8s %8s %8s %s\n", "mode", "source", "cleaned", "dev cm", "drift cm", "ground velocity m/s");
  for (TreadmillMode mode : {TreadmillMode::off, TreadmillMode::auto_detect}) {
    CleanSettings settings;
    settings.treadmill.mode = mode;
    CleanResult r = clean_clip(loaded.clip, rig, settings);
    RootStray stray = root_stray(loaded.clip, r.cleaned, rig);
    std::printf("%-8s %8.2f %8.2f %8.2f %8.2f %s (%.3f, %.3f)\n", mode == TreadmillMode::off ? "world" : "auto",
                100 * gap(loaded.clip), 100 * gap(r.cleaned), 100 * stray.mean_horizontal_deviation_m,
                100 * stray.end_to_end_drift_m, r.treadmill ? "treadmill" : "still", r.ground_velocity_mps.x,
                r.ground_velocity_mps.z);
  }
}

}  // namespace

int main(int argc, char** argv) {
  fs::path shared = fs::path(FOOTFIX_SHARED_DIR) / "data" / "clips";
  std::vector<fs::path> clips;
  for (int i = 1; i < argc; ++i) clips.emplace_back(argv[i]);
  if (clips.empty())
    for (const char* name : k_walks_and_runs) {
      fs::path p = fs::path(FOOTFIX_DATA_DIR) / "clips" / name;
      if (!fs::exists(p)) p = shared / name;
      if (fs::exists(p)) clips.push_back(p);
    }
  std::printf("%-40s %5s %-6s %3s %6s %6s %7s %6s %6s %6s\n", "clip (made in place)", "scale", "clean", "tm", "in",
              "out", "ratio", "dev", "drift", "g err");
  std::printf("%-40s %5s %-6s %3s %6s %6s %7s %6s %6s %6s\n", "", "", "", "", "mm/f", "mm/f", "", "cm", "cm", "m/s");
  Tally tally;
  for (const auto& c : clips) {
    try {
      run_clip(c, tally);
    } catch (const std::exception& e) {
      std::printf("%-40s READ FAILED: %s\n", c.filename().c_str(), e.what());
      ++tally.failures;
    }
  }
  mixamo_loop(shared / "mixamo_walking_inplace_bin7700.fbx");
  std::printf("\n%d of %d treadmill rows failing (targets: ratio <= 25%%, dev and drift <= 5 cm)\n",
              tally.failures, tally.rows);
  return 0;
}

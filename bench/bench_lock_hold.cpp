// Whether the runtime lock's locked toes stay on their contact points (issue 33, section 1) and
// how hard it pops at each lock and unlock (section 4): every shared locomotion clip through the
// slide protocol (root's horizontal motion x1.00, x1.25, x0.75) and lock_clip with its causal
// detector, then lock_hold over the settled locked foot-frames and lock_event_pops over the
// events. Targets per row: the toe within 1 cm of its contact point in at least 99% of them, and
// no event's toe acceleration over 1.5 x the input's local peak.
//
// Also per row: the share of the foot-frames the lock saw in contact that it locked (a lock that
// lets its toes go early holds them by locking less).
//
// Usage: bench_lock_hold [--events] [--heel-lift X] [clip...]   (default: tests/support/locomotion_clips.h's list)
//   --events: under each row, its events over the pop limit: lock or unlock, side, frame, the
//   ratio and both accelerations, the gap between output and input toe at the event, the input
//   toe's speed there, and how long the event's blend ran (frames until its blend weight is 1).
//   --heel-lift X: RuntimeLockSettings::heel_lift (0 - 1) instead of its default.
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "../tests/support/locomotion_clips.h"
#include "footfix/core/fk.h"
#include "footfix/core/statistics.h"
#include "footfix/eval/sliding.h"
#include "footfix/lock/event_pops.h"
#include "footfix/lock/lock_clip.h"
#include "footfix/pipeline/load_clip.h"

namespace {

/// The events of `pops` over the pop limit, one line each (see --events).
void print_popping_events(const footfix::Clip& input, const footfix::LockClipResult& locked, const footfix::Rig& rig,
                          const footfix::LockEventPops& pops) {
  using namespace footfix;
  const auto frames = static_cast<size_t>(input.frame_count);
  std::array<std::vector<Vec3>, 2> in, out;
  for (int s = 0; s < 2; ++s) {
    in[s].resize(frames);
    out[s].resize(frames);
    joint_trajectory(input, rig.legs[s].contact_joint(), in[s]);
    joint_trajectory(locked.locked, rig.legs[s].contact_joint(), out[s]);
  }
  for (const LockEventPop& e : pops.events) {
    if (e.ratio <= k_event_pop_limit) continue;
    const int s = static_cast<int>(e.side);
    const auto f = static_cast<size_t>(e.frame);
    const double speed = f > 0 ? length(in[s][f] - in[s][f - 1]) * input.fps : 0.0;
    int blend = 0;
    while (f + static_cast<size_t>(blend) < frames && locked.feet[s].blend_weight[f + static_cast<size_t>(blend)] < 1) ++blend;
    std::printf("    %-6s %-5s frame %5d  ratio %4.2f (%5.1f / %5.1f m/s^2)  gap %5.1f cm  input %4.2f m/s  blend %3d frames\n",
                e.lock ? "lock" : "unlock", s == 0 ? "left" : "right", e.frame, e.ratio, e.output_mps2, e.input_mps2,
                100 * length(out[s][f] - in[s][f]), speed, blend);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace footfix;
  namespace fs = std::filesystem;
  std::vector<fs::path> clips;
  bool events = false;
  RuntimeLockSettings settings;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--events")
      events = true;
    else if (std::string(argv[i]) == "--heel-lift" && i + 1 < argc)
      settings.heel_lift = std::stod(argv[++i]);
    else
      clips.emplace_back(argv[i]);
  }
  if (clips.empty())
    for (const char* name : test::k_locomotion_clips) clips.push_back(fs::path(FOOTFIX_SHARED_DIR) / "data" / "clips" / name);
  std::printf("%-40s %6s %7s %8s %8s %9s %-8s %6s %6s %6s %s\n", "clip", "scale", "locked", "settled", "held",
              "max miss", "(>=99%)", "events", "pop md", "worst", "(<=1.5)");
  int rows = 0, met = 0, pop_met = 0;
  double worst_share = 1, worst_miss = 0, worst_pop = 0;
  std::vector<double> pop_medians;
  for (const fs::path& path : clips) {
    LoadedClip loaded;
    try {
      loaded = load_clip(path.string());
    } catch (const std::exception& e) {
      std::printf("%-40s skipped: %s\n", path.filename().c_str(), e.what());
      continue;
    }
    std::vector<double> factors{1.0};
    factors.insert(factors.end(), k_slide_protocol_factors.begin(), k_slide_protocol_factors.end());
    for (double factor : factors) {
      const Clip variant = make_sliding(loaded.clip, loaded.rig, factor);
      const LockClipResult locked = lock_clip(variant, loaded.rig, settings);
      const LockHold hold = lock_hold(locked, loaded.rig);
      const LockEventPops pops = lock_event_pops(variant, locked, loaded.rig);
      const bool ok = hold.held_share() >= 0.99, pop_ok = pops.worst_ratio <= k_event_pop_limit;
      std::printf("%-40s x%5.2f %6.1f%% %8d %7.1f%% %6.1f cm %-8s %6zu %6.2f %6.2f %s\n", path.filename().c_str(),
                  factor, 100 * locked_share_of_contacts(locked), hold.settled_frames, 100 * hold.held_share(),
                  100 * hold.max_miss_m, ok ? "met" : "NOT met",
                  pops.events.size(), pops.median_ratio, pops.worst_ratio, pop_ok ? "met" : "NOT met");
      if (events) print_popping_events(variant, locked, loaded.rig, pops);
      ++rows;
      met += ok ? 1 : 0;
      pop_met += pop_ok ? 1 : 0;
      worst_pop = std::max(worst_pop, pops.worst_ratio);
      pop_medians.push_back(pops.median_ratio);
      worst_share = std::min(worst_share, hold.held_share());
      worst_miss = std::max(worst_miss, hold.max_miss_m);
    }
  }
  std::printf("\nhold: %d of %d rows met; worst held share %.1f%%, largest miss %.1f cm\n", met, rows, 100 * worst_share,
              100 * worst_miss);
  std::printf("pops per event: %d of %d rows met; median of the rows' medians %.2f, worst event %.2f\n", pop_met, rows,
              quantile(pop_medians, 0.5), worst_pop);
  return 0;
}

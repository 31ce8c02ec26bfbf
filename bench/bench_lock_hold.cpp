// Whether the runtime lock's locked toes stay on their contact points (issue 33, section 1) and
// how hard it pops at each lock and unlock (section 4): every shared locomotion clip through the
// slide protocol (root's horizontal motion x1.00, x1.25, x0.75) and lock_clip with its causal
// detector, then lock_hold over the settled locked foot-frames and lock_event_pops over the
// events. Targets per row: the toe within 1 cm of its contact point in at least 99% of them, and
// no event's toe acceleration over 1.5 x the input's local peak.
//
// Usage: bench_lock_hold [clip...]   (default: tests/support/locomotion_clips.h's list)
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "../tests/support/locomotion_clips.h"
#include "footfix/core/statistics.h"
#include "footfix/eval/sliding.h"
#include "footfix/lock/event_pops.h"
#include "footfix/lock/lock_clip.h"
#include "footfix/pipeline/load_clip.h"

int main(int argc, char** argv) {
  using namespace footfix;
  namespace fs = std::filesystem;
  std::vector<fs::path> clips;
  for (int i = 1; i < argc; ++i) clips.emplace_back(argv[i]);
  if (clips.empty())
    for (const char* name : test::k_locomotion_clips) clips.push_back(fs::path(FOOTFIX_SHARED_DIR) / "data" / "clips" / name);
  std::printf("%-40s %6s %8s %8s %9s %-8s %6s %6s %6s %s\n", "clip", "scale", "settled", "held", "max miss", "(>=99%)",
              "events", "pop md", "worst", "(<=1.5)");
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
      const LockClipResult locked = lock_clip(variant, loaded.rig, RuntimeLockSettings{});
      const LockHold hold = lock_hold(locked, loaded.rig);
      const LockEventPops pops = lock_event_pops(variant, locked, loaded.rig);
      const bool ok = hold.held_share() >= 0.99, pop_ok = pops.worst_ratio <= k_event_pop_limit;
      std::printf("%-40s x%5.2f %8d %7.1f%% %6.1f cm %-8s %6zu %6.2f %6.2f %s\n", path.filename().c_str(), factor,
                  hold.settled_frames, 100 * hold.held_share(), 100 * hold.max_miss_m, ok ? "met" : "NOT met",
                  pops.events.size(), pops.median_ratio, pops.worst_ratio, pop_ok ? "met" : "NOT met");
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

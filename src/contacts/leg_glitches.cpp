#include "footfix/contacts/leg_glitches.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace footfix {
namespace {

/// The least turn (rad) away and back that is a glitch: 25 degrees, past what noise of a few
/// degrees gives, and past a real joint's turn in one frame wherever it would also turn back.
constexpr double k_glitch_min_turn_rad = 25 * M_PI / 180;
/// How far back the rotation must come (share of the turn), and how small the steps around the
/// glitch must be (share of the turn).
constexpr double k_glitch_return_share = 0.5;
constexpr double k_glitch_around_share = 1.0 / 3;

double turn(const Clip& clip, int joint, int a, int b) {
  return angle_of(conjugate(clip.rotation(a, joint)) * clip.rotation(b, joint));
}

}  // namespace

std::vector<LegGlitch> find_leg_glitches(const Clip& clip, const Rig& rig) {
  std::vector<LegGlitch> out;
  const int n = clip.frame_count;
  for (const LegChain& leg : rig.legs)
    for (int joint : {leg.hip, leg.knee, leg.heel, leg.toe}) {
      if (joint < 0) continue;
      for (int f = 1; f + 1 < n;) {
        const int before = f - 1;
        // Most frames turn too little to start a glitch: one turn read for them.
        const double away = turn(clip, joint, before, f);
        bool found = false;
        for (int k = 1; k <= 2 && !found && f + k < n && away >= k_glitch_min_turn_rad; ++k) {
          const int after = f + k;
          const double back = turn(clip, joint, f + k - 1, after);
          const double least = std::min(away, back);
          if (least < k_glitch_min_turn_rad) continue;
          if (turn(clip, joint, before, after) > k_glitch_return_share * least) continue;
          // Two frames off hold their offset: a real turn away and back (an undersampled toe
          // flick) moves on between them.
          if (k == 2 && turn(clip, joint, f, f + 1) > k_glitch_around_share * least) continue;
          const double into = before > 0 ? turn(clip, joint, before - 1, before) : 0;
          const double out_of = after + 1 < n ? turn(clip, joint, after, after + 1) : 0;
          if (std::max(into, out_of) > k_glitch_around_share * least) continue;
          out.push_back({joint, f, f + k - 1});
          f += k;
          found = true;
        }
        if (!found) ++f;
      }
    }
  return out;
}

void bridge_leg_glitches(Clip& clip, const std::vector<LegGlitch>& glitches) {
  for (const LegGlitch& g : glitches) {
    const Quat before = clip.rotation(g.first - 1, g.joint), after = clip.rotation(g.last + 1, g.joint);
    const int span = g.last - g.first + 2;
    for (int f = g.first; f <= g.last; ++f)
      clip.rotation(f, g.joint) = slerp(before, after, static_cast<double>(f - g.first + 1) / span);
  }
}

std::string describe_leg_glitches(const std::vector<LegGlitch>& glitches, const Clip& clip) {
  if (glitches.empty()) return "";
  std::vector<int> frames;
  for (const LegGlitch& g : glitches) frames.push_back(g.first);
  std::sort(frames.begin(), frames.end());
  frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
  std::string list;
  constexpr size_t k_listed = 8;
  for (size_t i = 0; i < frames.size() && i < k_listed; ++i) list += (i ? ", " : "") + std::to_string(frames[i]);
  if (frames.size() > k_listed) list += ", ...";
  return std::to_string(glitches.size()) + " tracking glitch" + (glitches.size() == 1 ? "" : "es") +
         " in the legs (a joint turned over " + std::to_string(std::lround(k_glitch_min_turn_rad * 180 / M_PI)) +
         " degrees and straight back within one or two frames; at frame" +
         (frames.size() == 1 ? " " : "s ") + list + ") bridged by interpolation before the clean (" +
         clip.skeleton.names[static_cast<size_t>(glitches.front().joint)] + " first)";
}

std::string bridge_leg_glitches(Clip& clip, const Rig& rig) {
  const std::vector<LegGlitch> glitches = find_leg_glitches(clip, rig);
  bridge_leg_glitches(clip, glitches);
  return describe_leg_glitches(glitches, clip);
}

}  // namespace footfix

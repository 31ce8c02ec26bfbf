#include "footfix/solve/clean.h"

#include <algorithm>
#include <cmath>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"

namespace footfix {
namespace {

constexpr double k_unreached_m = 0.01;

void CheckLegs(const Rig& rig) {
  for (const auto& leg : rig.legs)
    if (!leg.valid()) fail(ErrorKind::process, "clean: the rig has no valid legs");
}

// Per-frame minimum heights of one leg's foot joints, from the input clip while planted: inside
// a contact interval the lowest each joint goes during it; between contacts the lower of the
// neighbouring contacts' values (so stairs keep their levels and feet never go below where the
// source put them when planted). Without any contact, the lowest height over the whole clip.
std::vector<LegHeights> planted_heights(const Clip& clip, const LegChain& leg, const FootContacts& foot) {
  const int frames = clip.frame_count;
  std::vector<Vec3> toe(frames), heel(frames), tip(frames);
  joint_trajectory(clip, leg.contact_joint(), toe);
  joint_trajectory(clip, leg.heel, heel);
  for (int f = 0; f < frames; ++f) tip[f] = foot_tip_world(clip, f, leg);

  auto lowest = [](const std::vector<Vec3>& track, int first, int last) {
    double m = 1e300;
    for (int f = first; f <= last; ++f) m = std::min(m, track[f].y);
    return m;
  };
  std::vector<LegHeights> per_interval;
  for (const auto& iv : foot.intervals)
    per_interval.push_back({std::min(iv.height_m, lowest(toe, iv.first_frame, iv.last_frame)),
                            lowest(heel, iv.first_frame, iv.last_frame), lowest(tip, iv.first_frame, iv.last_frame)});

  std::vector<LegHeights> out(frames);
  if (per_interval.empty()) {
    LegHeights h{lowest(toe, 0, frames - 1), lowest(heel, 0, frames - 1), lowest(tip, 0, frames - 1)};
    std::fill(out.begin(), out.end(), h);
    return out;
  }
  size_t next = 0;
  for (int f = 0; f < frames; ++f) {
    while (next < foot.intervals.size() && foot.intervals[next].last_frame < f) ++next;
    if (next < foot.intervals.size() && foot.intervals[next].first_frame <= f) {
      out[f] = per_interval[next];
      continue;
    }
    const LegHeights* before = next > 0 ? &per_interval[next - 1] : nullptr;
    const LegHeights* after = next < per_interval.size() ? &per_interval[next] : nullptr;
    if (!before) before = after;
    if (!after) after = before;
    out[f] = {std::min(before->toe_min_m, after->toe_min_m), std::min(before->heel_min_m, after->heel_min_m),
              std::min(before->toe_end_min_m, after->toe_end_min_m)};
  }
  return out;
}

OfflineSolveInput solve_input(const Clip& clip, const Rig& rig, const ContactResult& contacts,
                              const std::array<std::vector<LegHeights>, 2>& heights) {
  OfflineSolveInput in;
  in.frame_count = clip.frame_count;
  in.fps = clip.fps;
  in.pelvis_ws.resize(clip.frame_count);
  joint_trajectory(clip, rig.translation_joint, in.pelvis_ws);
  for (int s = 0; s < 2; ++s) {
    const FootContacts& foot = contacts.feet[s];
    in.toe_ws[s].resize(clip.frame_count);
    joint_trajectory(clip, rig.legs[s].contact_joint(), in.toe_ws[s]);
    in.contact[s] = foot.contact;
    in.contact_height_m[s].assign(clip.frame_count, 0.0);
    for (const auto& iv : foot.intervals)
      for (int f = iv.first_frame; f <= iv.last_frame; ++f) in.contact_height_m[s][f] = iv.height_m;
    double lowest = 1e300;
    for (const auto& h : heights[s]) lowest = std::min(lowest, h.toe_min_m);
    in.toe_min_height_m[s] = lowest;
  }
  return in;
}

// Moves `joint` so its world position at `frame` is `target_ws`, through its local translation.
void place_joint(Clip& clip, int frame, int joint, Vec3 target_ws) {
  int parent = clip.skeleton.parents[joint];
  if (parent < 0) {
    clip.translation(frame, joint) = target_ws;
    return;
  }
  Transform p = joint_world(clip, frame, parent);
  clip.translation(frame, joint) = rotate(inverse(p.rotation), target_ws - p.translation);
}

}  // namespace

void CleanSettings::validate() const {
  contacts.validate();
  solve.validate();
  ik.validate();
}

CleanResult clean_clip(const Clip& clip, const Rig& rig, const CleanSettings& settings, const ContactResult* contacts) {
  settings.validate();
  CheckLegs(rig);
  if (clip.frame_count < 1) fail(ErrorKind::process, clip.source_name + ": clip has no frames");
  CleanResult result;
  result.contacts = contacts ? *contacts : detect_contacts(clip, rig, settings.contacts);
  for (const auto& w : result.contacts.warnings) result.warnings.push_back(w);

  std::array<std::vector<LegHeights>, 2> heights;
  for (int s = 0; s < 2; ++s) heights[s] = planted_heights(clip, rig.legs[s], result.contacts.feet[s]);

  OfflineSolveResult solved = solve_offline(solve_input(clip, rig, result.contacts, heights), settings.solve);
  result.solver_iterations = solved.iterations;

  result.cleaned = clip;
  Clip& out = result.cleaned;
  for (int f = 0; f < clip.frame_count; ++f) {
    std::array<double, 2> max_extension{};
    for (int s = 0; s < 2; ++s)
      max_extension[s] = length(joint_world(clip, f, rig.legs[s].heel).translation -
                                joint_world(clip, f, rig.legs[s].hip).translation);
    place_joint(out, f, rig.translation_joint, solved.pelvis_ws[f]);
    for (int s = 0; s < 2; ++s) {
      LegIkResult r = solve_leg(out, f, rig.legs[s], solved.toe_ws[s][f], heights[s][f], max_extension[s], settings.ik);
      if (r.miss_m > k_unreached_m) ++result.unreached_frames[s];
    }
  }
  for (int s = 0; s < 2; ++s)
    if (result.unreached_frames[s] > 0)
      result.warnings.push_back(std::string(to_string(static_cast<Side>(s))) + " foot: target out of reach in " +
                                std::to_string(result.unreached_frames[s]) + " frames (left a little sliding)");
  return result;
}

}  // namespace footfix

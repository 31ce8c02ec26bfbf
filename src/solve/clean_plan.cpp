#include "clean_plan.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include "footfix/contacts/reference_pose.h"
#include "footfix/core/fk.h"
#include "footfix/solve/ground.h"
#include "footfix/solve/pinned_root.h"
#include "footfix/solve/treadmill.h"
#include "clean_stages.h"
#include "loop_wrap.h"

namespace footfix {
namespace {

// The global anchor of the solve on a treadmill, relative to the soft weight like
// OfflineSolveSettings::fast_anchor (see step_onto_treadmill).
constexpr double k_treadmill_path_anchor = 0.05;
// A cycle is wrapped with up to this much of itself (s) around each end.
constexpr double k_loop_wrap_s = 1.0;
// Rounds of the pinned root's carry: from the contacts detected on the pinned clip, then from
// those detected on the clip so carried.
constexpr int k_carry_rounds = 2;

void move_onto_ground(CleanPlan& plan, const Rig& rig) {
  double ground_m = plan.settings.ground.height_m;
  if (plan.settings.ground.mode == GroundMode::auto_detect)
    ground_m = estimate_ground_height(plan.clip(), rig,
                                      plan.contacts() ? *plan.contacts()
                                                      : detect_contacts(plan.clip(), rig, plan.settings.contacts));
  Clip& moved = plan.take_clip();
  for (int f = 0; f < moved.frame_count; ++f) move_body(moved, f, rig.translation_joint, {0.0, -ground_m, 0.0});
  plan.move_contacts_down(ground_m);
  plan.settings.ground.mode = GroundMode::keep;
  plan.steps.push_back(GroundStep{ground_m});
}

// The pops are guarded over the whole clip, frame 0 included, once frame 0 is back (the step
// from frame 0 to the first cleaned frame is the source's plus the clean's correction there):
// what the guard needs of the source is taken now, and the guard is off for frames 1...
void set_reference_frame_aside(CleanPlan& plan, const Rig& rig) {
  const Clip& clip = plan.clip();
  const auto per_frame = static_cast<std::ptrdiff_t>(clip.joint_count());
  ReferenceFrameStep step;
  step.rotations.assign(clip.rotations.begin(), clip.rotations.begin() + per_frame);
  step.translations.assign(clip.translations.begin(), clip.translations.begin() + per_frame);
  step.frame_count = clip.frame_count;
  step.pops = plan.settings.pops;
  step.pop_source = capture_pop_guard_source(clip, rig, plan.settings.pops);
  // In place, the pose vectors keep their capacity: frame 0 goes back in front without a second
  // copy of the clip.
  drop_first_frame(plan.take_clip());
  plan.settings.pops.max_ratio = 0;
  plan.steps.push_back(std::move(step));
}

bool wraps_as_loop(const Clip& clip, const Rig& rig, LoopMode mode) {
  return mode != LoopMode::off && clip.frame_count >= 3 && (mode == LoopMode::on || is_loop(clip, rig));
}

// Up to a second wrapped around each end, so contacts, the solve and the feet see one continuous
// motion across the seam. In place, only the wrapped margins are new memory.
void wrap_around_seam(CleanPlan& plan, const Rig& rig) {
  const Clip& clip = plan.clip();
  LoopStep step;
  step.frame_count = clip.frame_count;
  step.pad = std::min(clip.frame_count - 2, static_cast<int>(std::lround(k_loop_wrap_s * clip.fps)));
  const int root = rig.translation_joint, last = clip.frame_count - 1;
  step.source_rise_m = joint_world(clip, last, root).translation.y - joint_world(clip, 0, root).translation.y;
  step.source = clip.source;
  Clip& work = plan.take_clip();
  work = wrap_loop(std::move(work), rig, step.pad);
  plan.settings.loop = LoopMode::off;
  plan.steps.push_back(std::move(step));
}

// The pinned clip's travel to carry its body with, and the frames its feet stand together
// (feet_planted_together), which every round of the carry counts as planted.
struct PinnedCarry {
  std::vector<Vec3> travel;
  std::vector<std::uint8_t> together;
};

// `contact` (per foot, per frame) with both feet planted where they stand `together`.
std::array<std::vector<std::uint8_t>, 2> planted_or_together(std::array<std::vector<std::uint8_t>, 2> contact,
                                                             const std::vector<std::uint8_t>& together) {
  for (auto& foot : contact)
    for (size_t f = 0; f < foot.size() && f < together.size(); ++f) foot[f] |= together[f];
  return contact;
}

// A pinned root whose feet slide around it, unless a treadmill is asked for (a given ground
// velocity has stepped onto it before the clip is analysed), carried once: a clip too short for
// the carry to move its root still looks pinned afterwards. The feet slide when the travel they
// imply moves as a root does (root_travel_speed, over half-second windows): a clip that goes out
// and back, or whose contacts hold little of each push-off (a jump at a low rate), travels
// although its net ground velocity is small. The travel is read from the detected contacts and
// the frames where both feet stand together (a pinned root's feet planted together move at the
// body's speed, which the detection's speed gate takes for a slide). Returns that travel
// (travel_from_planted_feet) where the root is to be carried, else nothing.
std::optional<PinnedCarry> travel_to_carry(const CleanPlan& plan) {
  const OfflineSolveInput& input = plan.analysis.problem.input;
  const bool carried = std::any_of(plan.steps.begin(), plan.steps.end(),
                                   [](const CleanStep& step) { return std::holds_alternative<CarryStep>(step); });
  if (carried || plan.contacts() || plan.settings.treadmill.mode == TreadmillMode::on || !root_is_pinned(input.pelvis_ws))
    return std::nullopt;
  const double fps = plan.clip().fps;
  const ContactSettings& gates = plan.settings.contacts;
  const auto& feet = plan.analysis.contacts.feet;
  PinnedCarry carry;
  carry.together = feet_planted_together(input.toe_ws, {feet[0].height_above_ground_m, feet[1].height_above_ground_m},
                                         gates.speed_threshold_mps, gates.height_threshold_m, fps);
  carry.travel = travel_from_planted_feet(input.toe_ws, planted_or_together(input.contact, carry.together), fps);
  if (root_travel_speed(carry.travel, fps) < k_treadmill_min_speed_mps) return std::nullopt;
  return carry;
}

// The body given the travel its planted feet imply (the pinned clip's toes, from the contacts
// detected on the pinned clip, then from those detected on the clip so carried: a turn or a stop
// the first detection missed is seen once the body moves; in every round with the frames its
// feet stand together); the carried clip is then cleaned in world space. `first`: the travel from
// the pinned clip's contacts and the frames its feet stand together (travel_to_carry).
void carry_with_planted_feet(CleanPlan& plan, const Rig& rig, PinnedCarry first) {
  const std::array<std::vector<Vec3>, 2> toe_ws = std::move(plan.analysis.problem.input.toe_ws);
  plan.analysis = CleanAnalysis{};
  Clip& carried = plan.take_clip();
  std::vector<Vec3> travel = std::move(first.travel), applied(static_cast<size_t>(carried.frame_count));
  for (int round = 0; round < k_carry_rounds; ++round) {
    if (round > 0) {
      const ContactResult again = detect_contacts(carried, rig, plan.settings.contacts);
      travel = travel_from_planted_feet(
          toe_ws, planted_or_together({again.feet[0].contact, again.feet[1].contact}, first.together), carried.fps);
    }
    for (int f = 0; f < carried.frame_count; ++f) move_body(carried, f, rig.translation_joint, travel[f] - applied[f]);
    std::swap(applied, travel);
  }
  double farthest = 0;
  for (const Vec3& t : applied) farthest = std::max(farthest, std::hypot(t.x, t.z));
  plan.settings.treadmill.mode = TreadmillMode::off;
  plan.steps.push_back(CarryStep{farthest});
}

// Whether the clip is locked on a treadmill, and at which ground velocity (estimated: none is
// given): an in-place clip (no root motion, feet sliding back by design) detected, or a
// treadmill asked for. The estimate is refined on contacts detected again unless they are given.
std::optional<Vec3> treadmill_velocity(const CleanPlan& plan, const Rig& rig) {
  TreadmillDecision treadmill = decide_treadmill(plan.analysis.problem.input, plan.settings.treadmill);
  if (!treadmill.on) return std::nullopt;
  if (plan.contacts()) return treadmill.ground_velocity_mps;
  const Clip& clip = plan.clip();
  const LegTracks* tracked = plan.analysis.tracks_or_null();
  return refine_ground_velocity(clip, rig, plan.settings.contacts, tracked ? *tracked : leg_tracks(clip, rig),
                                treadmill.ground_velocity_mps);
}

// The clip seen from the ground moving at `g`: an ordinary root-motion clip (contacts are
// detected on it as on any walk, planted feet are locked still), whose clean is moved back by
// +g t: planted feet then move at exactly g and the root stays where the source had it.
void step_onto_treadmill(CleanPlan& plan, const Rig& rig, Vec3 g) {
  plan.analysis = CleanAnalysis{};
  CleanSettings& still = plan.settings;
  still.treadmill.mode = TreadmillMode::off;
  still.treadmill.ground_velocity_mps.reset();
  // On the treadmill the root is what the source got right (it stays where the source had it);
  // the input toes in the ground's frame carry the fitted ground velocity's error, so their mean
  // over a contact is no foothold to pull the lock to.
  still.solve.fast_lock_anchor = 0;
  // For the same reason the pelvis keeps its path much more firmly than in world space (where a
  // clip made to slide needs its path changed): the global anchor at k_treadmill_path_anchor
  // instead of fast_anchor's 1e-3 keeps the root's end-to-end drift small on walks and runs made
  // in place (bench_inplace measures it) for a little more treadmill slide.
  still.solve.fast_anchor = std::max(still.solve.fast_anchor, k_treadmill_path_anchor);
  const double fps = plan.clip().fps;
  shift_clip_by_ground_in_place(plan.take_clip(), rig.translation_joint, g, -1);
  plan.steps.push_back(TreadmillStep{g, fps});
}

void undo_clean_step(const GroundStep& step, const Rig&, CleanResult& r) {
  r.ground_offset_m = -step.ground_m;
  r.contacts.ground_offset_m = -step.ground_m;
}

void undo_clean_step(const ReferenceFrameStep& step, const Rig& rig, CleanResult& r) {
  r.cleaned.rotations.insert(r.cleaned.rotations.begin(), step.rotations.begin(), step.rotations.end());
  r.cleaned.translations.insert(r.cleaned.translations.begin(), step.translations.begin(), step.translations.end());
  r.cleaned.frame_count = step.frame_count;
  r.contacts = with_reference_frame_prepended(r.contacts);
  guard_cleaned_pops(r, rig, step.pop_source, step.pops);
  r.contacts.notes.push_back(reference_pose_note("left as it is, frames 1.. cleaned"));
}

/// Frames [first, first + count) of a foot's contacts; intervals rebuilt from the cut runs, each
/// keeping the planted position and height of the interval it came from.
FootContacts cut_contacts(const FootContacts& foot, int first, int count) {
  auto cut = [&](const auto& v) { return std::decay_t<decltype(v)>(v.begin() + first, v.begin() + first + count); };
  FootContacts out = foot;
  out.smoothed = cut(foot.smoothed);
  out.contact = cut(foot.contact);
  out.speed_mps = cut(foot.speed_mps);
  out.effective_speed_mps = cut(foot.effective_speed_mps);
  out.height_above_ground_m = cut(foot.height_above_ground_m);
  out.intervals = contact_runs(out.contact);
  for (auto& iv : out.intervals)
    for (const auto& whole : foot.intervals)
      if (whole.first_frame <= iv.first_frame + first && iv.first_frame + first <= whole.last_frame) {
        iv.planted_position_m = whole.planted_position_m;
        iv.height_m = whole.height_m;
      }
  return out;
}

// The cycle cut back in place; its last frame's legs set to its first frame's and its root
// height to the first's plus the source's rise. The root's travel over the cycle is the cleaned
// one (a clip made to slide travels less, or more, once its feet are locked).
void undo_clean_step(const LoopStep& step, const Rig& rig, CleanResult& r) {
  const int n = step.frame_count, pad = step.pad;
  Clip& cleaned = r.cleaned;
  const int root = rig.translation_joint, parent = cleaned.skeleton.parents[root];
  keep_frames(cleaned, pad, n);
  cleaned.source = step.source;
  for (const auto& leg : rig.legs)
    for (int j : {leg.hip, leg.knee, leg.heel, leg.toe})
      if (j >= 0) cleaned.rotation(n - 1, j) = cleaned.rotation(0, j);
  const Transform parent_first = parent >= 0 ? joint_world(cleaned, 0, parent) : Transform{};
  const Transform parent_last = parent >= 0 ? joint_world(cleaned, n - 1, parent) : Transform{};
  Vec3 last_ws = apply(parent_last, cleaned.translation(n - 1, root));
  last_ws.y = apply(parent_first, cleaned.translation(0, root)).y + step.source_rise_m;
  cleaned.translation(n - 1, root) = rotate(inverse(parent_last.rotation), last_ws - parent_last.translation);
  for (auto& foot : r.contacts.feet) foot = cut_contacts(foot, pad, n);
  if (auto& distance = r.contacts.ground_distance_m; !distance.empty()) {
    const double start = distance[static_cast<size_t>(pad)];
    distance.assign(distance.begin() + pad, distance.begin() + pad + n);
    for (double& d : distance) d -= start;
  }
  r.loop = true;
}

void undo_clean_step(const CarryStep& step, const Rig&, CleanResult& r) {
  char text[240];
  std::snprintf(text, sizeof text,
                "the root never moves horizontally while the planted feet slide (a pinned root): the body was "
                "carried with its planted feet, up to %.2f m from where it stood (--treadmill on keeps it in place)",
                step.farthest_m);
  r.warnings.push_back(text);
}

void undo_clean_step(const TreadmillStep& step, const Rig& rig, CleanResult& r) {
  const Vec3 g = step.ground_velocity_mps;
  shift_clip_by_ground_in_place(r.cleaned, rig.translation_joint, g, +1);
  r.treadmill = true;
  r.ground_velocity_mps = g;
  r.contacts.ground_velocity_mps = g;
  std::vector<Vec3> root_ws(static_cast<size_t>(r.cleaned.frame_count));
  joint_trajectory(r.cleaned, rig.translation_joint, root_ws);
  r.contacts.ground_distance_m = ground_distance_curve(root_ws, g, step.fps);
  // Planted positions as the world sees them: where the foot is at the middle of its contact.
  for (auto& foot : r.contacts.feet)
    for (auto& iv : foot.intervals) iv.planted_position_m += g * (0.5 * (iv.first_frame + iv.last_frame) / step.fps);
}

}  // namespace

CleanPlan::CleanPlan(const Clip& input, Clip* owned, const CleanSettings& clean_settings, const ContactResult* contacts)
    : settings(clean_settings), input_(&input), owned_(owned), caller_contacts_(contacts) {}

Clip& CleanPlan::take_clip() {
  if (!work_) {
    if (owned_)
      work_ = std::move(*owned_);  // the caller's clip is empty from here on
    else
      work_ = *input_;
  }
  return *work_;
}

void CleanPlan::move_contacts_down(double ground_m) {
  if (!contacts()) return;
  ContactResult moved = *contacts();
  moved.ground_height_m -= ground_m;
  for (auto& foot : moved.feet)
    for (auto& in : foot.intervals) {
      in.planted_position_m.y -= ground_m;
      in.height_m -= ground_m;
    }
  moved_contacts_ = std::move(moved);
}

// Each step switches its own mode off, and the checks run again on the clip as it leaves them,
// in the same order: a second rest frame behind the first is set aside too, and a clip the
// treadmill step shifts by (almost) nothing may still show a pinned root.
void plan_clean(CleanPlan& plan, const Rig& rig) {
  for (;;) {
    if (plan.settings.ground.mode != GroundMode::keep) {
      move_onto_ground(plan, rig);
      continue;
    }
    if (!plan.contacts() && starts_with_reference_pose(plan.clip(), rig)) {
      set_reference_frame_aside(plan, rig);
      continue;
    }
    if (!plan.contacts() && wraps_as_loop(plan.clip(), rig, plan.settings.loop)) {
      wrap_around_seam(plan, rig);
      continue;
    }
    // A given ground velocity decides the treadmill alone: the clip is not analysed in world space.
    if (const std::optional<Vec3> given = plan.settings.treadmill.ground_velocity_mps) {
      step_onto_treadmill(plan, rig, {given->x, 0.0, given->z});
      continue;
    }
    // The decisions read the clip's paths and contacts alone: the rest of the solve's problem is
    // made only for the clip that is solved.
    plan.analysis = analyse_for_plan(plan.clip(), rig, plan.settings, plan.contacts());
    if (std::optional<PinnedCarry> carry = travel_to_carry(plan)) {
      carry_with_planted_feet(plan, rig, std::move(*carry));
      continue;
    }
    if (const std::optional<Vec3> g = treadmill_velocity(plan, rig)) {
      step_onto_treadmill(plan, rig, *g);
      continue;
    }
    complete_analysis(plan.analysis, plan.clip(), rig);
    return;
  }
}

void leave_solve_frame(const std::vector<CleanStep>& steps, const Rig& rig, CleanResult& result) {
  for (auto step = steps.rbegin(); step != steps.rend(); ++step)
    std::visit([&](const auto& s) { undo_clean_step(s, rig, result); }, *step);
}

}  // namespace footfix

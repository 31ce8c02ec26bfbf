#include "footfix/walk/walk.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "footfix/walk/humanoid.h"
#include "footfix/walk/pelvis_motion.h"
#include "footfix/walk/walk_body.h"
#include "footfix/walk/walk_metrics.h"
#include "heel_rise.h"
#include "loading_response.h"

namespace footfix {
namespace {

/// A planted foot further than this from its target counts as missed (the leg's limits cannot
/// hold the foot's pose).
constexpr double k_stance_miss_m = 1e-4;
/// Heel rise (degrees) lowered per retry on stairs, and the lowest tried.
constexpr double k_heel_rise_step_deg = 1;
constexpr double k_min_stairs_heel_rise_deg = 20;
/// Largest vertical acceleration of the pelvis (m/s^2) up to 1.3 m/s, and its growth with
/// speed beyond: it rounds the change of legs at each heel strike, whose dip deepens with the
/// step, and leaves the stance leg's arc over mid-stance (v^2 / leg length) as it is, so that leg
/// straightens there. With the pelvis leading the landing leg around each heel strike, that dip
/// is shallow enough for 5; lower bounds bend the mid-stance knee past 10 degrees.
constexpr double k_pelvis_accel_mps2 = 5;
constexpr double k_pelvis_accel_speed_mps = 1.3;
constexpr double k_pelvis_accel_power = 3;
/// Hip-to-ankle distance, as a fraction of thigh + shin, that the heel rise of terminal stance
/// keeps the trailing leg at (its knee about 10 degrees from straight).
constexpr double k_terminal_stance_reach = 0.996;

/// Highest pelvis height at which a hip at `pelvis_xz + hip_rel` still reaches `ankle`.
double max_pelvis_height(Vec3 pelvis_xz, Vec3 hip_rel, Vec3 ankle, double reach) {
  const double dx = pelvis_xz.x + hip_rel.x - ankle.x, dz = pelvis_xz.z + hip_rel.z - ankle.z;
  const double h2 = dx * dx + dz * dz;
  return ankle.y - hip_rel.y + std::sqrt(std::max(0.0, reach * reach - h2));
}

void fill_upper_body(Clip& out, const Clip& source, int frame, bool from_frames) {
  const int n = out.joint_count();
  if (from_frames && source.frame_count > 0) {
    const int f = frame % source.frame_count;
    for (int j = 0; j < n; ++j) {
      out.rotation(frame, j) = source.rotation(f, j);
      out.translation(frame, j) = source.translation(f, j);
    }
  }
}

ContactResult truth_contacts(const Clip& clip, const Rig& rig, const std::array<std::vector<std::uint8_t>, 2>& contact) {
  ContactResult r;
  std::vector<double> heights;
  for (int side = 0; side < 2; ++side) {
    FootContacts& foot = r.feet[side];
    foot.side = static_cast<Side>(side);
    foot.joint = rig.legs[side].contact_joint();
    foot.contact = contact[side];
    foot.smoothed.assign(contact[side].begin(), contact[side].end());
    foot.intervals = contact_runs(foot.contact);
    std::vector<Vec3> traj(clip.frame_count);
    joint_trajectory(clip, foot.joint, traj);
    for (const Vec3& p : traj) heights.push_back(p.y);
    for (ContactInterval& in : foot.intervals) {
      in.planted_position_m = traj[in.first_frame];
      in.height_m = traj[in.first_frame].y;
    }
  }
  std::sort(heights.begin(), heights.end());
  r.ground_height_m = heights[static_cast<size_t>(0.05 * static_cast<double>(heights.size() - 1))];
  return r;
}

}  // namespace

void WalkSettings::validate() const {
  gait.validate();
  if (!std::isfinite(fps) || fps < 10 || fps > 480) fail(ErrorKind::usage, "--fps must be in [10, 480]");
}

WalkResult generate_walk(const Terrain& terrain, const WalkSettings& settings) {
  Clip humanoid = make_humanoid_clip();
  pose_humanoid_upper_body(humanoid, 0);
  const Rig rig = detect_rig(humanoid);
  return generate_walk(humanoid, rig, terrain, settings);
}

namespace {

/// How the pelvis height meets the legs' reach: its acceleration bound as a multiple of the
/// default, and how far below the reach it stays (m); and whether the trailing heel rises on the
/// plan's schedule instead of as the pelvis's path asks (heel_rise.h).
struct PelvisFit {
  double accel_scale = 1;
  double lower_m = 0;
  bool planned_heel_rise = false;
};

/// Tried in turn while a planted foot misses its target: a stiffer pelvis for ground whose reach
/// dips deeper than a step on the level (steep climbs, whose hips would flex past their limit
/// under the rounded dip), then a lower one for a leg whose limits keep it from reaching its
/// bone lengths (a knee that cannot straighten fully); then the same with the heel rising on the
/// plan's schedule, for a skeleton whose joint limits do not hold the lower heel of terminal
/// stance.
constexpr PelvisFit k_pelvis_retries[] = {
    {1.5, 0, false},  {2.25, 0, false}, {3.4, 0, false},  {1, 0.002, false}, {1, 0.004, false}, {1, 0.006, false},
    {1, 0.009, false}, {1, 0.012, false}, {1, 0, true},   {1.5, 0, true},    {2.25, 0, true},   {3.4, 0, true},
    {1, 0.002, true}, {1, 0.004, true}, {1, 0.006, true}, {1, 0.009, true},  {1, 0.012, true}};

/// One walk with the given gait (its toe-off heel rise as given) and pelvis fit. `stance_miss_m`
/// receives the largest IK error of a planted foot.
WalkResult walk_once(const Clip& source, const Rig& rig, const Terrain& terrain, const WalkSettings& settings,
                     const GaitSettings& gait_in, PelvisFit fit, double& stance_miss_m) {
  const Skeleton& skel = source.skeleton;
  if (rig.translation_joint < 0 || rig.pelvis < 0 || !skel.is_ancestor(rig.translation_joint, rig.pelvis))
    fail(ErrorKind::process, "walk: the joint carrying the root motion must be the pelvis or one of its ancestors");
  const WalkBody body = make_walk_body(skel, rig, settings.limits);
  WalkResult result;
  result.terrain = terrain;
  result.rig = rig;
  GaitSettings gait = gait_in;
  gait.leg_length_m = 0.5 * (body.leg_length_m[0] + body.leg_length_m[1]);
  result.plan = plan_gait(gait, terrain, body.feet);
  const GaitPlan& plan = result.plan;

  Clip& clip = result.clip;
  clip.skeleton = skel;
  clip.fps = settings.fps;
  clip.source_frame = source.source_frame;
  clip.source_name = source.source_name;
  const int frames = static_cast<int>(std::floor(settings.gait.duration_s * settings.fps)) + 1;
  clip.resize(frames);
  const int n = clip.joint_count();
  const Quat canon = body.to_canonical();
  const int root = rig.translation_joint;
  // World transform of the root-motion joint's parent: the rest pose of the joints above it.
  Transform above_root;
  for (int a = skel.parents[root]; a >= 0; a = skel.parents[a]) above_root = Transform{Quat{}, skel.rest_offsets[a]} * above_root;

  std::array<LegReach, 2> leg_reach;
  for (int side = 0; side < 2; ++side)
    leg_reach[side] = {length(skel.rest_offsets[rig.legs[side].knee]), length(skel.rest_offsets[rig.legs[side].heel]),
                       k_terminal_stance_reach * body.leg_length_m[side]};
  const bool stairs = terrain.kind == TerrainKind::stairs;

  // Pass 1: feet, upper body, heading and the pelvis height each frame allows: both legs reach
  // their feet, the stance leg with its knee yielding after its heel strike (loading_response.h).
  std::vector<std::array<FootSample, 2>> feet(frames);
  std::vector<Vec3> pelvis(frames);
  std::vector<double> height_cap(frames);
  std::vector<Transform> world(n);
  std::vector<BodyKnot> body_path(frames);
  std::vector<GaitPhase> phases(frames);
  for (int f = 0; f < frames; ++f) {
    body_path[f] = sample_body(plan, f / settings.fps);
    phases[f] = gait_phase(plan, f / settings.fps);
  }
  smooth_body_path(body_path, 0.05 * settings.fps);
  for (int f = 0; f < frames; ++f) {
    const double t = f / settings.fps;
    fill_upper_body(clip, source, f, settings.upper_body_from_frames);
    // Joints above the root-motion joint and between it and the hips keep their rest pose (the
    // legs' limits are relative to it); the root-motion joint takes the heading.
    for (int a = skel.parents[root]; a >= 0; a = skel.parents[a]) {
      clip.rotation(f, a) = Quat{};
      clip.translation(f, a) = skel.rest_offsets[a];
    }
    for (const LegChain& leg : rig.legs)
      for (int a = skel.parents[leg.hip]; a >= 0 && a != root; a = skel.parents[a]) {
        clip.rotation(f, a) = Quat{};
        clip.translation(f, a) = skel.rest_offsets[a];
      }
    const BodyKnot& b = body_path[f];
    const PelvisSway sway = pelvis_sway(plan, phases[f], stairs);
    clip.rotation(f, root) = inverse(above_root.rotation) * axis_angle({0, 1, 0}, b.yaw_rad + sway.rotation_rad) *
                             axis_angle({0, 0, 1}, sway.list_rad) * canon;
    clip.translation(f, root) = {};
    world_pose(clip, f, world);
    const Vec3 pelvis_rel = world[rig.pelvis].translation;
    const Vec3 left{std::cos(b.yaw_rad), 0, -std::sin(b.yaw_rad)};
    const Vec3 ahead{std::sin(b.yaw_rad), 0, std::cos(b.yaw_rad)};
    pelvis[f] = Vec3{b.center.x, b.center.y + body.pelvis_height_m - 0.004, b.center.z} + left * sway.lateral_m +
                ahead * sway.forward_m;
    double cap = pelvis[f].y;
    for (int side = 0; side < 2; ++side) {
      feet[f][side] = sample_foot(plan, static_cast<Side>(side), t, body.feet[side]);
      const Vec3 hip_rel = world[rig.legs[side].hip].translation - pelvis_rel;
      const double span = bent_leg_span_m(leg_reach[side].thigh_m, leg_reach[side].shin_m,
                                          loading_knee_rad(plan, feet[f][side], t, stairs));
      cap = std::min(cap, max_pelvis_height(pelvis[f], hip_rel, feet[f][side].ankle, k_walk_max_reach * span));
    }
    height_cap[f] = cap;
  }
  const double pelvis_accel =
      fit.accel_scale * k_pelvis_accel_mps2 * std::pow(std::max(1.0, gait.speed_mps / k_pelvis_accel_speed_mps), k_pelvis_accel_power);
  for (double& c : height_cap) c -= fit.lower_m;
  const std::vector<double> heights = pelvis_heights(height_cap, settings.fps, pelvis_accel, pelvis_accel);

  // Pass 2: the root's translation and the hips each frame, then the heel rises they ask for.
  std::vector<Vec3> offsets(frames);
  std::array<std::vector<Vec3>, 2> hips{std::vector<Vec3>(frames), std::vector<Vec3>(frames)};
  for (int f = 0; f < frames; ++f) {
    clip.translation(f, root) = {};
    world_pose(clip, f, world);
    offsets[f] = Vec3{pelvis[f].x, heights[f], pelvis[f].z} - world[rig.pelvis].translation;
    for (int side = 0; side < 2; ++side) hips[side][f] = world[rig.legs[side].hip].translation + offsets[f];
  }
  if (!fit.planned_heel_rise) fit_heel_rise(plan, body.feet, hips, leg_reach, feet);

  // Pass 3: root motion, then each leg by IK, warm-started from the previous frame.
  std::array<std::array<Quat, 3>, 2> legs;
  for (int side = 0; side < 2; ++side) {
    legs[side] = {axis_angle(body.limit_frames[side][0].swing_x_axis, -8 * k_deg_to_rad),
                  axis_angle(body.limit_frames[side][1].swing_x_axis, 16 * k_deg_to_rad), Quat{}};
  }
  std::array<std::vector<std::uint8_t>, 2> contact{std::vector<std::uint8_t>(frames), std::vector<std::uint8_t>(frames)};
  long total_iterations = 0;
  for (int f = 0; f < frames; ++f) {
    clip.translation(f, root) = {};
    world_pose(clip, f, world);
    const Vec3 offset = offsets[f];
    clip.translation(f, root) = rotate(inverse(above_root.rotation), offset);
    for (int side = 0; side < 2; ++side) {
      const LegJoints& j = body.joints[side];
      const FootSample& foot = feet[f][side];
      Transform parent = world[skel.parents[j[0]]];
      parent.translation += offset;
      const Transform target{foot.foot_rotation * canon * body.ankle_rest_ws[side], foot.ankle};
      const DlsResult r = solve_leg_dls(body.dls[side], parent, legs[side], target, settings.ik, foot.contact ? 1.0 : 0.1);
      result.max_ik_error_m = std::max(result.max_ik_error_m, r.foot_error_m);
      if (foot.contact) stance_miss_m = std::max(stance_miss_m, r.foot_error_m);
      result.max_ik_iterations = std::max(result.max_ik_iterations, r.iterations);
      total_iterations += r.iterations;
      if (!r.converged) ++result.ik_unconverged;
      for (int k = 0; k < 3; ++k) clip.rotation(f, j[k]) = legs[side][k];
      // Toe: its segment takes the rotation the gait asks for, within the toe's limits.
      const Quat ankle_ws = parent.rotation * legs[side][0] * legs[side][1] * legs[side][2];
      const Quat toe_local = inverse(ankle_ws) * foot.toe_rotation * canon * body.toe_rest_ws[side];
      clip.rotation(f, j[3]) = clamp_to_limit(normalize(toe_local), body.limits[side][3], body.limit_frames[side][3]);
      contact[side][f] = foot.contact ? 1 : 0;
    }
  }
  result.mean_ik_iterations = static_cast<double>(total_iterations) / (2.0 * frames);
  result.contacts = truth_contacts(clip, rig, contact);
  return result;
}

/// The walk with the heel rises and pelvis fits a skeleton holds: on stairs the toe off's heel
/// rise is lowered while a planted foot misses its target, then other pelvis fits are tried,
/// keeping the walk whose planted feet miss least (`stance_miss_m`).
WalkResult walk_fitted(const Clip& source, const Rig& rig, const Terrain& terrain, const WalkSettings& settings,
                       GaitSettings gait, double& stance_miss_m) {
  stance_miss_m = 0;
  WalkResult result = walk_once(source, rig, terrain, settings, gait, PelvisFit{}, stance_miss_m);
  // On a tread the heel rise of push-off is as high as this skeleton's leg can hold within its
  // joint limits: while a planted foot misses its target, the rise is lowered and the walk
  // planned again.
  while (terrain.kind == TerrainKind::stairs && stance_miss_m > k_stance_miss_m &&
         gait.toe_off_deg - k_heel_rise_step_deg >= k_min_stairs_heel_rise_deg) {
    gait.toe_off_deg -= k_heel_rise_step_deg;
    stance_miss_m = 0;
    result = walk_once(source, rig, terrain, settings, gait, PelvisFit{}, stance_miss_m);
  }
  // Then other pelvis fits, keeping the walk whose planted feet miss least.
  for (const PelvisFit& fit : k_pelvis_retries) {
    if (stance_miss_m <= k_stance_miss_m) break;
    double miss = 0;
    WalkResult retry = walk_once(source, rig, terrain, settings, gait, fit, miss);
    if (miss < stance_miss_m) {
      stance_miss_m = miss;
      result = std::move(retry);
    }
  }
  return result;
}

/// walk_fitted, then, where a planted foot still misses, with the heel's slower exit at the lift:
/// for a leg whose joint limits cannot follow the fast one. Keeps the walk that misses less.
WalkResult walk_exit_fitted(const Clip& source, const Rig& rig, const Terrain& terrain, const WalkSettings& settings,
                            const GaitSettings& gait, double& stance_miss_m) {
  WalkResult result = walk_fitted(source, rig, terrain, settings, gait, stance_miss_m);
  if (stance_miss_m > k_stance_miss_m && gait.fast_heel_exit) {
    GaitSettings slow = gait;
    slow.fast_heel_exit = false;
    double miss = 0;
    WalkResult retry = walk_fitted(source, rig, terrain, settings, slow, miss);
    if (miss < stance_miss_m) {
      stance_miss_m = miss;
      result = std::move(retry);
    }
  }
  return result;
}

/// Deepest a sole point may go below the terrain (mm): the IK meets its targets within
/// DlsSettings::tolerance_m (0.01 mm), and a sole point a few centimeters from the ankle within a
/// few times that.
constexpr double k_sole_sink_tolerance_mm = 0.05;
/// GaitSettings::descent_heel_strike_share tried in turn, after the one asked for, while a walk
/// with steps down a stair sinks a sole point deeper than that: a leg reaching far down turns the
/// foot's toes up less far than the plan asks, and the heel it holds back passes through the
/// nosing; the foot lands flatter instead. Largest first: on some flights the smaller ones leave
/// a planted foot short of its foothold (docs/tuning.md).
constexpr double k_descent_heel_strike_retries[] = {0.75, 0.5, 0.25};

/// How far a walk is from meeting the terrain (mm): its deepest sole point below it and its
/// planted feet's largest miss, together.
double terrain_shortfall_mm(const SoleSink& sink, double stance_miss_m) { return sink.depth_mm + 1000 * stance_miss_m; }

}  // namespace

WalkResult generate_walk(const Clip& source, const Rig& rig, const Terrain& terrain, const WalkSettings& settings) {
  settings.validate();
  double stance_miss_m = 0;
  WalkResult result = walk_exit_fitted(source, rig, terrain, settings, settings.gait, stance_miss_m);
  SoleSink sink = deepest_sole_sink(result.clip, rig, terrain, settings.limits);
  // Where a sole point sinks on the way down a stair, the gait adapts its heel strike there,
  // keeping the walk that sinks and misses least.
  if (sink.depth_mm > k_sole_sink_tolerance_mm && result.plan.steps_down_a_stair()) {
    for (double share : k_descent_heel_strike_retries) {
      if (share == settings.gait.descent_heel_strike_share) continue;
      GaitSettings gait = settings.gait;
      gait.descent_heel_strike_share = share;
      double miss = 0;
      WalkResult retry = walk_exit_fitted(source, rig, terrain, settings, gait, miss);
      const SoleSink retry_sink = deepest_sole_sink(retry.clip, rig, terrain, settings.limits);
      if (terrain_shortfall_mm(retry_sink, miss) < terrain_shortfall_mm(sink, stance_miss_m)) {
        result = std::move(retry);
        sink = retry_sink;
        stance_miss_m = miss;
      }
      if (sink.depth_mm <= k_sole_sink_tolerance_mm && stance_miss_m <= k_stance_miss_m) break;
    }
  }
  // Never a silent sink: what the gait could not keep above the terrain is said.
  if (sink.depth_mm > k_sole_sink_tolerance_mm) {
    char msg[240];
    std::snprintf(msg, sizeof msg,
                  "the %s sole sinks %.1f mm into the terrain at x %.2f z %.2f m (%.2f s): this skeleton's legs cannot "
                  "keep the foot above the ground there at this speed and terrain",
                  sink.side == Side::left ? "left" : "right", sink.depth_mm, sink.point.x, sink.point.z,
                  sink.frame / settings.fps);
    result.plan.warnings.emplace_back(msg);
  }
  return result;
}

}  // namespace footfix

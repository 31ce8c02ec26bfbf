#include "footfix/eval/metrics.h"

#include <algorithm>
#include <cmath>
#include <span>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "footfix/core/statistics.h"

namespace footfix {
namespace {

double max_of(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); }

/// Largest per-frame pop of one joint (see ClipMetrics::pop_ratio); updates `best`/`frame`.
void track_pop(const std::vector<double>& src, const std::vector<double>& out, double fps, double& best, int& frame) {
  const int n = static_cast<int>(src.size());
  const std::vector<double> ref = pop_reference_mps2(src, fps);
  for (int f = 1; f + 1 < n; ++f) {
    const double ratio = out[f] / ref[f];
    if (ratio > best) {
      best = ratio;
      frame = f;
    }
  }
}

SlideStats slide_stats(const std::vector<double>& per_frame_m, double fps) {
  SlideStats out;
  out.samples = static_cast<int>(per_frame_m.size());
  if (per_frame_m.empty()) return out;
  double sum = 0;
  for (double v : per_frame_m) sum += v;
  out.mean_mm_per_frame = 1000.0 * sum / static_cast<double>(per_frame_m.size());
  out.p95_mm_per_frame = 1000.0 * quantile(per_frame_m, 0.95);
  out.mean_cm_per_s = out.mean_mm_per_frame * 0.1 * fps;
  out.p95_cm_per_s = out.p95_mm_per_frame * 0.1 * fps;
  return out;
}

/// Horizontal motion of the contact joint from `previous` to `now` (m).
double horizontal_step(const Vec3& now, const Vec3& previous) {
  Vec3 d = now - previous;
  d.y = 0;
  return length(d);
}

/// World position of `joint` in frame 0 of `pose` (joint_trajectory's arithmetic).
Vec3 position(const Clip& pose, int joint) {
  Vec3 p;
  joint_trajectory(pose, joint, std::span<Vec3>(&p, 1));
  return p;
}

/// One foot joint's world track as frames go by: the last two positions, the acceleration per
/// frame (0 at the ends) and the lowest height.
struct FootTrack {
  int leg = 0;
  int joint = -1;  ///< -1: the foot tip (foot_tip_world)
  std::vector<double> accel;
  Vec3 last, before_last;
  double lowest = 1e300;
};

/// What the metrics keep of one clip while its frames go by.
class ClipTrace {
 public:
  ClipTrace(const FrameSource& frames, const Rig& rig, int frame_count) : frames_(frames), rig_(rig) {
    pose.skeleton = *frames.skeleton;
    pose.fps = frames.fps;
    pose.resize(1);
    for (int s = 0; s < 2; ++s) {
      const LegChain& leg = rig.legs[static_cast<size_t>(s)];
      for (int j : pop_tracked_joints(leg))
        tracks.push_back({s, j, std::vector<double>(static_cast<size_t>(frame_count), 0.0), {}, {}, 1e300});
    }
  }

  /// Reads frame f (frames in order from 0) and measures it.
  void next(int f, const ContactMask& contact) {
    frames_.fill(f, pose);
    for (int s = 0; s < 2; ++s) {
      const Vec3 p = position(pose, rig_.legs[static_cast<size_t>(s)].contact_joint());
      const auto& c = contact[static_cast<size_t>(s)];
      if (f >= 1 && f < static_cast<int>(c.size()) && c[f] && c[f - 1])
        slide_m[static_cast<size_t>(s)].push_back(horizontal_step(p, contact_last_[static_cast<size_t>(s)]));
      contact_last_[static_cast<size_t>(s)] = p;
    }
    for (FootTrack& t : tracks) {
      const Vec3 p = pop_tracked_position(pose, 0, rig_.legs[static_cast<size_t>(t.leg)], t.joint);
      if (f >= 2) t.accel[static_cast<size_t>(f - 1)] = acceleration_mps2(t.before_last, t.last, p, pose.fps);
      t.lowest = std::min(t.lowest, p.y);
      t.before_last = t.last;
      t.last = p;
    }
  }

  SlideStats slide() const {
    std::vector<double> both = slide_m[0];
    both.insert(both.end(), slide_m[1].begin(), slide_m[1].end());
    return slide_stats(both, pose.fps);
  }

  Clip pose;  ///< the frame last read, as frame 0
  std::vector<FootTrack> tracks;  ///< per leg: knee, heel, toe (those the rig has), foot tip
  std::array<std::vector<double>, 2> slide_m;  ///< per leg: contact-joint motion per contact frame pair

 private:
  const FrameSource& frames_;
  const Rig& rig_;
  std::array<Vec3, 2> contact_last_;
};

}  // namespace

SlideStats contact_slide(const Clip& clip, const Rig& rig, const ContactMask& contact) {
  std::vector<double> per_frame_m;
  for (int s = 0; s < 2; ++s) {
    int j = rig.legs[s].contact_joint();
    std::vector<Vec3> track(clip.frame_count);
    joint_trajectory(clip, j, track);
    const auto& c = contact[s];
    for (int f = 1; f < clip.frame_count && f < static_cast<int>(c.size()); ++f)
      if (c[f] && c[f - 1]) per_frame_m.push_back(horizontal_step(track[f], track[f - 1]));
  }
  return slide_stats(per_frame_m, clip.fps);
}

FrameSource frames_of(const Clip& clip) {
  return {&clip.skeleton, clip.fps, clip.frame_count, [&clip](int frame, Clip& into) {
            const size_t first = clip.index(frame, 0), joints = static_cast<size_t>(clip.joint_count());
            std::copy_n(clip.rotations.begin() + static_cast<std::ptrdiff_t>(first), joints, into.rotations.begin());
            std::copy_n(clip.translations.begin() + static_cast<std::ptrdiff_t>(first), joints, into.translations.begin());
          }};
}

ClipMetrics compare_clips(const Clip& source, const Clip& cleaned, const Rig& rig, const ContactMask& contact) {
  return compare_frames(frames_of(source), frames_of(cleaned), rig, contact);
}

ClipMetrics compare_frames(const FrameSource& source, const FrameSource& cleaned, const Rig& rig,
                           const ContactMask& contact) {
  if (source.frame_count != cleaned.frame_count || source.skeleton->joint_count() != cleaned.skeleton->joint_count())
    fail(ErrorKind::process, "metrics: the clips differ in frame or joint count");
  const int frames = source.frame_count;
  const int joints = source.skeleton->joint_count();
  ClipTrace src(source, rig, frames), out(cleaned, rig, frames);
  const bool has_pelvis = rig.translation_joint >= 0 && rig.translation_joint < joints;
  std::vector<bool> solved(static_cast<size_t>(joints), false), changed(static_cast<size_t>(joints), false);
  for (int j = 0; j < joints; ++j) {
    bool s = j == rig.translation_joint;
    for (const auto& leg : rig.legs) s = s || j == leg.hip || j == leg.knee || j == leg.heel || j == leg.toe;
    solved[static_cast<size_t>(j)] = s;
  }
  ClipMetrics m;
  std::vector<Transform> ws(static_cast<size_t>(joints)), wc(static_cast<size_t>(joints));
  double sum = 0;
  for (int f = 0; f < frames; ++f) {
    src.next(f, contact);
    out.next(f, contact);
    if (has_pelvis) {
      const double drop = 100.0 * (position(src.pose, rig.translation_joint).y - position(out.pose, rig.translation_joint).y);
      m.max_pelvis_drop_cm = std::max(m.max_pelvis_drop_cm, drop);
    }
    world_pose(src.pose, 0, ws);
    world_pose(out.pose, 0, wc);
    for (int j = 0; j < joints; ++j) {
      double d = 100.0 * length(ws[j].translation - wc[j].translation);
      sum += d;
      m.max_deviation_cm = std::max(m.max_deviation_cm, d);
      if (solved[static_cast<size_t>(j)] || changed[static_cast<size_t>(j)]) continue;
      changed[static_cast<size_t>(j)] =
          angle_of(inverse(src.pose.rotation(0, j)) * out.pose.rotation(0, j)) > k_unchanged_tolerance ||
          length(src.pose.translation(0, j) - out.pose.translation(0, j)) > k_unchanged_tolerance;
    }
  }
  m.source_slide = src.slide();
  m.cleaned_slide = out.slide();
  m.mean_deviation_cm = frames > 0 ? sum / (static_cast<double>(frames) * joints) : 0;
  for (int j = 0; j < joints; ++j)
    if (changed[static_cast<size_t>(j)]) m.changed_non_leg_joints.push_back(source.skeleton->names[j]);

  for (size_t t = 0; t < src.tracks.size(); ++t) {
    const FootTrack &a = src.tracks[t], &b = out.tracks[t];
    m.source_max_leg_accel = std::max(m.source_max_leg_accel, max_of(a.accel));
    m.cleaned_max_leg_accel = std::max(m.cleaned_max_leg_accel, max_of(b.accel));
    track_pop(a.accel, b.accel, source.fps, m.pop_ratio, m.pop_frame);
    if (t == 0 || a.leg != src.tracks[t - 1].leg) continue;  // a leg's first track, the knee, is not a foot joint
    m.max_new_penetration_mm = std::max(m.max_new_penetration_mm, 1000.0 * (a.lowest - b.lowest));
  }
  m.leg_accel_ratio = m.source_max_leg_accel > 0 ? m.cleaned_max_leg_accel / m.source_max_leg_accel : 0;
  return m;
}

}  // namespace footfix

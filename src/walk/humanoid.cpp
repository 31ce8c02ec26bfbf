#include "footfix/walk/humanoid.h"

#include <string>

namespace footfix {

Clip make_humanoid_clip() {
  Clip clip;
  Skeleton& s = clip.skeleton;
  const int hips = s.add_joint("Hips", -1, {0, 0.95, 0});
  for (int side = 0; side < 2; ++side) {
    const double x = side == 0 ? 1.0 : -1.0;
    const std::string p = side == 0 ? "Left" : "Right";
    const int up = s.add_joint(p + "UpLeg", hips, {0.09 * x, -0.05, 0});
    const int leg = s.add_joint(p + "Leg", up, {0, -0.42, 0});
    const int foot = s.add_joint(p + "Foot", leg, {0, -0.40, 0});
    const int toe = s.add_joint(p + "ToeBase", foot, {0, -0.055, 0.13});
    s.end_sites[toe] = Vec3{0, 0, 0.07};
  }
  const int spine = s.add_joint("Spine", hips, {0, 0.10, 0});
  const int spine1 = s.add_joint("Spine1", spine, {0, 0.15, 0});
  const int neck = s.add_joint("Neck", spine1, {0, 0.22, 0});
  const int head = s.add_joint("Head", neck, {0, 0.10, 0});
  s.end_sites[head] = Vec3{0, 0.15, 0};
  for (int side = 0; side < 2; ++side) {
    const double x = side == 0 ? 1.0 : -1.0;
    const std::string p = side == 0 ? "Left" : "Right";
    const int shoulder = s.add_joint(p + "Shoulder", spine1, {0.04 * x, 0.18, 0});
    const int arm = s.add_joint(p + "Arm", shoulder, {0.14 * x, 0, 0});
    const int fore = s.add_joint(p + "ForeArm", arm, {0.28 * x, 0, 0});
    const int hand = s.add_joint(p + "Hand", fore, {0.25 * x, 0, 0});
    s.end_sites[hand] = Vec3{0.08 * x, 0, 0};
  }
  clip.fps = 60;
  clip.source_frame = SourceFrame{1.0, Axis::pos_y};
  clip.source_name = "humanoid";
  clip.resize(1);
  return clip;
}

void pose_humanoid_upper_body(Clip& clip, int frame) {
  for (int side = 0; side < 2; ++side) {
    const double x = side == 0 ? 1.0 : -1.0;
    const int arm = clip.skeleton.find(side == 0 ? "LeftArm" : "RightArm");
    const int fore = clip.skeleton.find(side == 0 ? "LeftForeArm" : "RightForeArm");
    if (arm >= 0) clip.rotation(frame, arm) = axis_angle({0, 0, 1}, -72 * k_deg_to_rad * x);
    if (fore >= 0) clip.rotation(frame, fore) = axis_angle({0, 1, 0}, 12 * k_deg_to_rad * x);
  }
}

}  // namespace footfix

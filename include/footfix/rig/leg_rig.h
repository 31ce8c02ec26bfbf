// Leg rig: which joints are the legs, found from names of known conventions or, for rigs never
// seen before, from the skeleton's structure and geometry. Also detects a source clip's units
// and up axis from the legs' proportions and the motion.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/core/fk.h"

namespace footfix {

enum class Side { left = 0, right = 1 };
const char* to_string(Side s);

/// One leg, as joint indices into the skeleton (-1 when absent).
struct LegChain {
  int hip = -1;      ///< thigh joint: its rotation swings the thigh (e.g. LeftUpLeg)
  int knee = -1;     ///< shin joint (LeftLeg)
  int heel = -1;     ///< ankle / foot joint (LeftFoot)
  int toe = -1;      ///< toe base (LeftToeBase); -1 for rigs without a toe joint
  int toe_end = -1;  ///< a real joint below the toe (Geno's LeftToeBaseEnd); -1 = use end site
  /// Knee bend axis in the knee joint's local frame (unit). Rotating the knee positively about
  /// it bends the leg (moves the ankle backwards). Derived from the clip or from a rig profile.
  Vec3 knee_side_ls{1, 0, 0};

  bool valid() const { return hip >= 0 && knee >= 0 && heel >= 0; }
  /// The joint whose contact with the ground is detected and locked: toe, else heel.
  int contact_joint() const { return toe >= 0 ? toe : heel; }
};

struct Rig {
  int pelvis = -1;             ///< the joint both legs hang from (Hips)
  int translation_joint = -1;  ///< the joint carrying the clip's root motion
  std::array<LegChain, 2> legs;  ///< indexed by Side
  std::vector<std::string> warnings;

  const LegChain& leg(Side s) const { return legs[static_cast<int>(s)]; }
};

/// Explicit joint names and settings for a rig, usually from a JSON rig profile. Empty fields
/// are detected.
struct RigProfile {
  struct Leg {
    std::string hip, knee, heel, toe, toe_end;
    std::optional<Vec3> knee_side_ls;
  };
  std::string pelvis;
  std::string translation_joint;
  std::array<Leg, 2> legs;
  std::optional<double> meters_per_unit;
  std::optional<Axis> up;
};

/// World position of the tip below the contact joint (toe-end): the toe_end joint, else the
/// contact joint's end site, else the contact joint itself.
Vec3 foot_tip_world(const Clip& clip, int frame, const LegChain& leg);

/// The foot tip as a point for point_trajectories: the toe_end joint, else the contact joint's
/// end site (or the joint itself).
JointPoint foot_tip_point(const Clip& clip, const LegChain& leg);

/// Finds the legs. Throws Error(process) if no two legs can be found. Works in any units and
/// axes (call it on the source-space clip to detect conventions, or on the internal clip).
/// `profile` names override detection. Also derives knee side axes from the clip.
Rig detect_rig(const Clip& clip, const RigProfile* profile = nullptr);

/// detect_rig's joints alone: the pelvis, the translation joint and each leg's chain and side,
/// without the knee side axes (left at their default) and without warnings. What
/// detect_source_frame needs of a clip before it is converted (the knee axes are in the knee's
/// local frame, which the conversion changes). Throws as detect_rig.
Rig find_legs(const Clip& clip, const RigProfile* profile = nullptr);

/// find_legs for a clip as read (no End Site joints yet), carrying legs without a toe joint to
/// their End Sites. When a leg has no toe joint (or no legs are found), the End Sites of the
/// clip's leaf joints become joints (add_end_site_joints, core/end_site_joints.h) and the legs
/// are found again; if each leg then has a toe joint or ends in an End Site joint below the
/// joint it ended in before, `clip` keeps those joints and those legs are returned: the End Site
/// is the leg's toe (a leg without toe joint) or its ankle (a leg without foot joint either),
/// and so its contact point. Otherwise `clip` is unchanged and find_legs's result (or its
/// error) is returned.
Rig find_legs_reaching_end_sites(Clip& clip, const RigProfile* profile = nullptr);

/// Source frame of a clip still in its file's frame. When the file declares it
/// (source_clip.source_frame_declared, FBX) that frame is kept and only checked. Otherwise the
/// unit scale comes from the leg length among the plausible units, ties broken by the file's
/// own hint (the naming convention of a known source tool: CMU, Bandai Namco, Mixamo), else the
/// one closest to a typical adult leg (0.85 m); the up axis comes from the motion (pelvis above
/// the feet). Appends a warning naming --unit-scale to `warnings` when two or more units are
/// plausible and no hint decides, or when no unit (or the declared one) gives a plausible leg.
/// Appends a warning naming --up to `up_warnings` when the up axis is detected and the body's
/// mean up leans more than 30 degrees off every axis.
SourceFrame detect_source_frame(const Clip& source_clip, const Rig& rig,
                                std::vector<std::string>* warnings = nullptr,
                                std::vector<std::string>* up_warnings = nullptr);

/// Reads a rig profile JSON file. Throws Error(read) with a located message.
RigProfile read_rig_profile(const std::string& path);

/// Parses rig profile JSON text; `path` names it in messages. Throws Error(read) like
/// read_rig_profile.
RigProfile parse_rig_profile(const std::string& text, const std::string& path);

}  // namespace footfix

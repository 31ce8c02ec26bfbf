// A clip's leg positions, every frame, computed once for the stages of a clean that read them
// (contact detection, planted heights, the solve's input, the reach pass, the pop guard's
// source, the IK's heel offsets) instead of each walking the same joint chains again.
#pragma once

#include <array>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/rig/leg_rig.h"

namespace footfix {

/// One leg's world positions (model space, the clip's units: meters for an internal clip), one
/// per frame.
struct LegTrack {
  std::vector<Vec3> hip, knee, heel;
  std::vector<Vec3> toe;  ///< LegChain::toe's; empty when the leg has no toe joint
  std::vector<Vec3> tip;  ///< the foot tip (foot_tip_point)
  /// The contact joint's (LegChain::contact_joint: the toe, else the heel).
  const std::vector<Vec3>& contact() const { return toe.empty() ? heel : toe; }
};

/// World positions of the joints a clean reads, every frame of one clip, all composed in one
/// pass (point_trajectories: world_pose's positions to the bit). A stage given them computes
/// exactly what it computes from the clip alone (positions_of gives the same positions).
struct LegTracks {
  int pelvis_joint = -1, root_joint = -1;
  std::array<LegChain, 2> chains;  ///< the legs tracked
  std::vector<Vec3> pelvis;  ///< Rig::pelvis's (else the translation joint's, else joint 0's)
  std::vector<Vec3> root;    ///< Rig::translation_joint's; empty when that is the pelvis joint
  std::array<LegTrack, 2> legs;  ///< indexed by Side

  /// The translation joint's positions.
  const std::vector<Vec3>& root_positions() const { return root.empty() ? pelvis : root; }
  /// Whether these can be `clip`'s tracks for these joints (the same frame count and joints); a
  /// stage given tracks reads them only then.
  bool match(const Clip& clip, int translation_joint, const std::array<LegChain, 2>& legs) const;
  bool match(const Clip& clip, const Rig& rig) const;
};

/// The joint whose positions LegTracks::pelvis holds for `rig`: its pelvis, else its translation
/// joint, else joint 0.
int tracked_pelvis_joint(const Rig& rig);

/// `clip`'s leg tracks for `rig` (whose legs must be valid). Memory: 10 to 12 positions a frame.
LegTracks leg_tracks(const Clip& clip, const Rig& rig);

/// `joint`'s positions in every frame of `clip`: `*tracked` where given (a LegTracks' track of
/// that joint), else point_trajectories' computed into `own` (the same values either way).
const std::vector<Vec3>& positions_of(const Clip& clip, int joint, const std::vector<Vec3>* tracked,
                                      std::vector<Vec3>& own);
/// The same for `leg`'s foot tip (foot_tip_point).
const std::vector<Vec3>& tip_positions_of(const Clip& clip, const LegChain& leg, const std::vector<Vec3>* tracked,
                                          std::vector<Vec3>& own);

}  // namespace footfix

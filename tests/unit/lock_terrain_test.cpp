// The runtime lock on uneven ground (issue 33, section 2): footfix's own walks over a slope,
// stairs and hills, locked with the terrain as the ground query an engine would give. Contacts
// agree with the walks' ground truth, and no foot joint goes deeper into the terrain than the
// input's does.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "footfix/contacts/contact_eval.h"
#include "footfix/core/fk.h"
#include "footfix/lock/lock_clip.h"
#include "footfix/walk/walk.h"

namespace footfix {
namespace {

GroundHit terrain_hit(const void* context, double x, double z) {
  const Terrain& terrain = *static_cast<const Terrain*>(context);
  return {terrain.height(x, z), terrain.normal(x, z)};
}

double contact_agreement_of(const LockClipResult& r, const WalkResult& walk) {
  ContactResult seen = walk.contacts;
  for (int s = 0; s < 2; ++s) seen.feet[s].contact = r.feet[s].contact;
  return contact_agreement(seen, walk.contacts);
}

/// The lowest height above the terrain any of the feet's joints (contact joint, heel, tip)
/// reaches in `clip`, per joint kind.
std::array<double, 3> lowest_above_terrain(const Clip& clip, const Rig& rig, const Terrain& terrain) {
  std::array<double, 3> low{1e300, 1e300, 1e300};
  for (int f = 0; f < clip.frame_count; ++f)
    for (const LegChain& leg : rig.legs) {
      const Vec3 points[3] = {joint_world(clip, f, leg.contact_joint()).translation, joint_world(clip, f, leg.heel).translation,
                              foot_tip_world(clip, f, leg)};
      for (int k = 0; k < 3; ++k) low[k] = std::min(low[k], points[k].y - terrain.height(points[k].x, points[k].z));
    }
  return low;
}

TEST(LockTerrain, ContactsAndClampsFollowTheQueriedGround) {
  for (const char* spec : {"slope:10", "stairs", "hills"}) {
    WalkSettings settings;
    settings.gait.duration_s = 8;
    const WalkResult walk = generate_walk(parse_terrain_spec(spec), settings);
    const GroundQuery ground{&terrain_hit, &walk.terrain};
    const LockClipResult blind = lock_clip(walk.clip, walk.rig, RuntimeLockSettings{});
    const LockClipResult seeing = lock_clip(walk.clip, walk.rig, RuntimeLockSettings{}, nullptr, {}, ground);
    const double before = contact_agreement_of(blind, walk), after = contact_agreement_of(seeing, walk);
    EXPECT_GE(after, 0.90) << spec << " (without the query: " << before << ")";
    const auto input_low = lowest_above_terrain(walk.clip, walk.rig, walk.terrain);
    const auto output_low = lowest_above_terrain(seeing.locked, walk.rig, walk.terrain);
    // (Without the query the clamps stay at the opening's heights, and the foot tip goes deeper
    // than the input's where the ground rises.)
    const char* names[3] = {"contact joint", "heel", "foot tip"};
    for (int k = 0; k < 3; ++k)
      EXPECT_GE(output_low[k], input_low[k] - 0.001) << spec << " " << names[k] << ": input " << input_low[k];
  }
}

}  // namespace
}  // namespace footfix

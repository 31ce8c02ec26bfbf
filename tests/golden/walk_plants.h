// Where a cleaned clip plants the toes of a generated walk, contact by contact: for each true
// contact of the walk (of at least k_min_frames frames), how far the cleaned toe moves within the
// contact (hold) and how far it stands from a reference foothold (the true one, or the true one
// carried along by a known change of the body's path). Horizontal distances (X, Z), meters.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "footfix/core/fk.h"
#include "footfix/walk/walk.h"
#include "support/world_distance.h"

namespace footfix::test {

struct PlantedContact {
  int side = 0;
  int first_frame = 0, last_frame = 0;
  double hold_m = 0;        ///< largest distance of the toe from its mid-contact position
  double mid_offset_m = 0;  ///< mid-contact toe to the reference foothold
  Vec3 mid_offset{};        ///< mid-contact toe minus the reference foothold (y = 0)
  double max_offset_m = 0;  ///< largest distance of the toe from the reference foothold
};

/// The reference foothold of true contact `in` of leg `side`.
using FootholdOf = std::function<Vec3(int side, const ContactInterval& in)>;

/// Contacts shorter than this many frames are skipped; the first and last k_trim_frames frames
/// of each contact (touch-down and lift-off blending) are left out of hold and max offset.
constexpr int k_min_contact_frames = 10;
constexpr int k_trim_frames = 3;

inline std::vector<PlantedContact> planted_contacts(const WalkResult& walk, const Clip& cleaned,
                                                    const FootholdOf& foothold) {
  std::vector<PlantedContact> out;
  std::vector<Vec3> toe(static_cast<size_t>(cleaned.frame_count));
  for (int side = 0; side < 2; ++side) {
    joint_trajectory(cleaned, walk.rig.legs[side].toe, toe);
    for (const ContactInterval& in : walk.contacts.feet[side].intervals) {
      if (in.last_frame - in.first_frame < k_min_contact_frames) continue;
      PlantedContact c{side, in.first_frame, in.last_frame};
      const Vec3 mid = toe[(in.first_frame + in.last_frame) / 2];
      const Vec3 hold = foothold(side, in);
      c.mid_offset_m = horizontal_distance(mid, hold);
      c.mid_offset = Vec3{mid.x - hold.x, 0, mid.z - hold.z};
      for (int f = in.first_frame + k_trim_frames; f <= in.last_frame - k_trim_frames; ++f) {
        c.hold_m = std::max(c.hold_m, horizontal_distance(toe[f], mid));
        c.max_offset_m = std::max(c.max_offset_m, horizontal_distance(toe[f], hold));
      }
      out.push_back(c);
    }
  }
  return out;
}

/// The largest value of `field` over `contacts` (0 when empty).
inline double worst(const std::vector<PlantedContact>& contacts, double PlantedContact::*field) {
  double w = 0;
  for (const PlantedContact& c : contacts) w = std::max(w, c.*field);
  return w;
}

/// The median of `field` over `contacts` (0 when empty).
inline double median(const std::vector<PlantedContact>& contacts, double PlantedContact::*field) {
  std::vector<double> v;
  for (const PlantedContact& c : contacts) v.push_back(c.*field);
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

}  // namespace footfix::test

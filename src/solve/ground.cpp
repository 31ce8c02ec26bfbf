#include "footfix/solve/ground.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "footfix/core/statistics.h"
#include "footfix/rig/leg_tracks.h"

namespace footfix {
namespace {

// Without any contact, the ground is this quantile of the feet's lowest points over every frame
// (the 5th percentile: a few frames below the floor, a glitch, do not decide).
constexpr double k_ground_lowest_quantile = 0.05;

}  // namespace

void GroundSettings::validate() const {
  if (!std::isfinite(height_m) || std::abs(height_m) > 1000)
    fail(ErrorKind::usage, "ground: height_m must be a finite height within 1000 m, got " + std::to_string(height_m));
}

double estimate_ground_height(const Clip& clip, const Rig& rig, const ContactResult& contacts) {
  const LegTracks tracks = leg_tracks(clip, rig);
  std::vector<double> per_contact, every_frame;
  for (int s = 0; s < 2; ++s) {
    const LegTrack& leg = tracks.legs[s];
    std::vector<double> lowest(leg.heel.size());
    for (size_t f = 0; f < lowest.size(); ++f)
      lowest[f] = std::min({leg.heel[f].y, leg.contact()[f].y, leg.tip[f].y});
    every_frame.insert(every_frame.end(), lowest.begin(), lowest.end());
    for (const ContactInterval& in : contacts.feet[s].intervals)
      per_contact.push_back(quantile(std::vector<double>(lowest.begin() + in.first_frame, lowest.begin() + in.last_frame + 1), 0.5));
  }
  if (!per_contact.empty()) return quantile(std::move(per_contact), 0.5);
  return every_frame.empty() ? 0.0 : quantile(std::move(every_frame), k_ground_lowest_quantile);
}

}  // namespace footfix

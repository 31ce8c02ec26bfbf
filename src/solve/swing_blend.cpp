#include "solve/swing_blend.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "footfix/contacts/detect_contacts.h"

namespace footfix {
namespace {

/// Replaces the horizontal correction of frames strictly between p and q by the cubic Hermite
/// curve from (d[p], velocity vp) to (d[q], velocity vq); velocities in meters per frame.
void hermite_between(int p, Vec3 vp, int q, Vec3 vq, const std::vector<Vec3>& d, const std::vector<Vec3>& input,
                     std::vector<Vec3>& target) {
  const double span = q - p;
  for (int i = p + 1; i < q; ++i) {
    const double u = (i - p) / span, u2 = u * u, u3 = u2 * u;
    const Vec3 c = d[p] * (2 * u3 - 3 * u2 + 1) + vp * (span * (u3 - 2 * u2 + u)) + d[q] * (3 * u2 - 2 * u3) +
                   vq * (span * (u3 - u2));
    target[i].x = input[i].x + c.x;
    target[i].z = input[i].z + c.z;
  }
}

}  // namespace

void blend_swing_corrections(const OfflineSolveInput& input, double blend_s, OfflineSolveResult& result) {
  const int n = input.frame_count;
  const int blend = static_cast<int>(std::lround(blend_s * input.fps));
  if (blend < 2 || n < 4) return;
  for (int leg = 0; leg < 2; ++leg) {
    const std::vector<uint8_t>& contact = input.contact[leg];
    std::vector<Vec3>& target = result.toe_ws[leg];
    std::vector<Vec3> d(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) d[i] = target[i] - input.toe_ws[leg][i];
    auto central = [&](int i) { return (d[i + 1] - d[i - 1]) * 0.5; };
    const std::vector<ContactInterval> runs = contact_runs(contact);
    for (size_t k = 0; k < runs.size(); ++k) {
      // After the release: from the contact's last frame into the swing (half of it at most
      // when another contact follows).
      const int last = runs[k].last_frame;
      int span = k + 1 < runs.size() ? std::min(blend, (runs[k + 1].first_frame - last) / 2) : blend;
      if (last >= 1 && span >= 2 && last + span + 1 < n)
        hermite_between(last, d[last] - d[last - 1], last + span, central(last + span), d, input.toe_ws[leg], target);
      // Before the onset: from the swing into the contact's first frame.
      const int first = runs[k].first_frame;
      span = k > 0 ? std::min(blend, (first - runs[k - 1].last_frame) / 2) : blend;
      if (first + 1 < n && span >= 2 && first - span - 1 >= 0)
        hermite_between(first - span, central(first - span), first, d[first + 1] - d[first], d, input.toe_ws[leg], target);
    }
  }
}

}  // namespace footfix

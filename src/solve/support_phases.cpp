#include "support_phases.h"

#include <algorithm>

#include "footfix/contacts/detect_contacts.h"

namespace footfix {
namespace {

bool stands_together(const ContactInterval& run, const std::vector<ContactInterval>& other_foot) {
  for (const ContactInterval& o : other_foot) {
    const int overlap = std::min(run.last_frame, o.last_frame) - std::max(run.first_frame, o.first_frame) + 1;
    const int shorter = std::min(run.last_frame - run.first_frame, o.last_frame - o.first_frame) + 1;
    if (overlap > 0 && overlap >= k_together_overlap * shorter) return true;
  }
  return false;
}

}  // namespace

std::vector<double> together_flight_edges(const std::array<std::vector<std::uint8_t>, 2>& contact, int frames) {
  const std::array<std::vector<ContactInterval>, 2> runs{contact_runs(contact[0]), contact_runs(contact[1])};
  auto planted = [&](int leg, int f) { return f < static_cast<int>(contact[leg].size()) && contact[leg][f]; };
  auto together_at = [&](int leg, int f) {
    for (const ContactInterval& r : runs[leg])
      if (r.first_frame <= f && f <= r.last_frame) return stands_together(r, runs[1 - leg]);
    return false;
  };
  std::vector<double> edges;
  for (int f = 1; f < frames; ++f) {
    const bool before = planted(0, f - 1) || planted(1, f - 1), now = planted(0, f) || planted(1, f);
    if (before == now) continue;
    const int stance = before ? f - 1 : f;
    if ((planted(0, stance) && together_at(0, stance)) || (planted(1, stance) && together_at(1, stance)))
      edges.push_back(f - 0.5);
  }
  return edges;
}

}  // namespace footfix

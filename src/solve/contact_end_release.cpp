#include "contact_end_release.h"

#include <algorithm>
#include <cmath>

namespace footfix {
namespace {

/// The frames of contact `in` up to which its ends may be released: at most `margin_frames` in
/// from each end, and never its middle frame.
struct EndLimits {
  int first = 0;  ///< frames before this one may be released from the start
  int last = 0;   ///< frames after this one may be released from the end
};
EndLimits end_limits(const ContactInterval& in, int margin_frames) {
  const int middle = (in.first_frame + in.last_frame) / 2;
  return {std::min(middle, in.first_frame + margin_frames), std::max(middle, in.last_frame - margin_frames)};
}

}  // namespace

int noisy_end_margin_frames(const ContactResult& contacts, double fps) {
  return static_cast<int>(std::ceil(k_noisy_end_margin_sigmas * contacts.denoise_sigma_s * fps));
}

bool release_unreachable_contact_ends(ContactResult& contacts, const std::array<std::vector<double>, 2>& needed_drop_m,
                                      int margin_frames, double max_drop_m) {
  bool released = false;
  for (int s = 0; s < 2; ++s) {
    FootContacts& foot = contacts.feet[s];
    const std::vector<double>& needed = needed_drop_m[s];
    if (needed.size() != foot.contact.size()) continue;
    for (ContactInterval& in : foot.intervals) {
      const EndLimits limit = end_limits(in, margin_frames);
      // The innermost frame within each margin that needs more: it goes with every frame outside it.
      int release_to = in.first_frame - 1, release_from = in.last_frame + 1;
      for (int f = in.first_frame; f < limit.first; ++f)
        if (needed[f] > max_drop_m) release_to = f;
      for (int f = in.last_frame; f > limit.last; --f)
        if (needed[f] > max_drop_m) release_from = f;
      int first = in.first_frame, last = in.last_frame;
      while (first <= release_to) foot.contact[first++] = 0;
      while (last >= release_from) foot.contact[last--] = 0;
      released |= first != in.first_frame || last != in.last_frame;
      in.first_frame = first;
      in.last_frame = last;
    }
  }
  return released;
}

bool release_short_swing_ends(ContactResult& contacts, double min_swing_frames, int margin_frames) {
  bool released = false;
  for (FootContacts& foot : contacts.feet) {
    std::vector<ContactInterval>& runs = foot.intervals;
    // Each contact's limits from its frames as detected: a contact shortened at one swing keeps
    // the same limits at the other.
    std::vector<EndLimits> limits;
    for (const ContactInterval& in : runs) limits.push_back(end_limits(in, margin_frames));
    for (size_t r = 1; r < runs.size(); ++r) {
      ContactInterval& before = runs[r - 1];
      ContactInterval& after = runs[r];
      bool release_before = true;
      while (after.first_frame - before.last_frame < min_swing_frames) {
        const bool can_before = before.last_frame > limits[r - 1].last;
        const bool can_after = after.first_frame < limits[r].first;
        if (!can_before && !can_after) break;
        if (can_before && (release_before || !can_after))
          foot.contact[static_cast<size_t>(before.last_frame--)] = 0;
        else
          foot.contact[static_cast<size_t>(after.first_frame++)] = 0;
        release_before = !release_before;
        released = true;
      }
    }
  }
  return released;
}

}  // namespace footfix

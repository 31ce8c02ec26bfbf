#include "contact_end_release.h"

#include <algorithm>
#include <cmath>

namespace footfix {

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
      const int middle = (in.first_frame + in.last_frame) / 2;
      const int first_limit = std::min(middle, in.first_frame + margin_frames);
      const int last_limit = std::max(middle, in.last_frame - margin_frames);
      int first = in.first_frame, last = in.last_frame;
      while (first < first_limit && needed[first] > max_drop_m) foot.contact[first++] = 0;
      while (last > last_limit && needed[last] > max_drop_m) foot.contact[last--] = 0;
      released |= first != in.first_frame || last != in.last_frame;
      in.first_frame = first;
      in.last_frame = last;
    }
  }
  return released;
}

}  // namespace footfix

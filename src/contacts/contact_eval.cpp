#include "footfix/contacts/contact_eval.h"

#include <algorithm>

namespace footfix {

double contact_agreement(const ContactResult& a, const ContactResult& b) {
  size_t same = 0, total = 0;
  for (int s = 0; s < 2; ++s) {
    const auto& ca = a.feet[s].contact;
    const auto& cb = b.feet[s].contact;
    size_t common = std::min(ca.size(), cb.size());
    for (size_t f = 0; f < common; ++f) same += ca[f] == cb[f] ? 1 : 0;
    total += std::max(ca.size(), cb.size());
  }
  return total ? static_cast<double>(same) / static_cast<double>(total) : 1.0;
}

double contact_fraction(const FootContacts& foot) {
  if (foot.contact.empty()) return 0.0;
  size_t on = static_cast<size_t>(std::count(foot.contact.begin(), foot.contact.end(), 1));
  return static_cast<double>(on) / static_cast<double>(foot.contact.size());
}

int alternation_breaks(const ContactResult& r) {
  std::vector<std::pair<int, int>> starts;
  for (int s = 0; s < 2; ++s)
    for (const auto& in : r.feet[s].intervals)
      if (in.first_frame > 0) starts.push_back({in.first_frame, s});
  std::sort(starts.begin(), starts.end());
  int breaks = 0;
  for (size_t i = 1; i < starts.size(); ++i) breaks += starts[i].second == starts[i - 1].second ? 1 : 0;
  return breaks;
}

}  // namespace footfix

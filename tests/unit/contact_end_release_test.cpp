// Releasing contact end frames the leg cannot hold (release_unreachable_contact_ends): an end
// frame the leg can hold goes with frames inside it, within the margin, that it cannot, so the
// contact stays one run; frames past the margin stay planted.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "solve/contact_end_release.h"

namespace footfix {
namespace {

// One foot planted on frames [first, last] of `frames`, the other never.
ContactResult one_contact(int frames, int first, int last) {
  ContactResult contacts;
  for (FootContacts& foot : contacts.feet) foot.contact.assign(static_cast<size_t>(frames), 0);
  FootContacts& foot = contacts.feet[0];
  for (int f = first; f <= last; ++f) foot.contact[static_cast<size_t>(f)] = 1;
  ContactInterval run;
  run.first_frame = first;
  run.last_frame = last;
  foot.intervals.push_back(run);
  return contacts;
}

TEST(ContactEndRelease, AnEndFrameGoesWithTheFramesInsideItThatNeedMore) {
  constexpr int frames = 30, first = 5, last = 24, margin = 4;
  constexpr double max_drop_m = 0.01;
  ContactResult contacts = one_contact(frames, first, last);
  std::array<std::vector<double>, 2> needed{std::vector<double>(frames, 0.0), std::vector<double>(frames, 0.0)};
  // The last frame needs nothing, the two before it too much; the first frame needs too much, the
  // one after it nothing, and one past the margin too much.
  needed[0][last - 1] = needed[0][last - 2] = 0.03;
  needed[0][first] = 0.03;
  needed[0][first + margin + 1] = 0.03;
  ASSERT_TRUE(release_unreachable_contact_ends(contacts, needed, margin, max_drop_m));
  const FootContacts& foot = contacts.feet[0];
  ASSERT_EQ(foot.intervals.size(), 1u);
  EXPECT_EQ(foot.intervals[0].first_frame, first + 1);
  EXPECT_EQ(foot.intervals[0].last_frame, last - 3);
  for (int f = 0; f < frames; ++f)
    EXPECT_EQ(foot.contact[static_cast<size_t>(f)], f >= first + 1 && f <= last - 3 ? 1 : 0) << "frame " << f;
}

TEST(ContactEndRelease, AContactWhoseEndsNeedNothingIsKept) {
  ContactResult contacts = one_contact(20, 3, 15);
  const std::array<std::vector<double>, 2> needed{std::vector<double>(20, 0.0), std::vector<double>(20, 0.0)};
  EXPECT_FALSE(release_unreachable_contact_ends(contacts, needed, 4, 0.01));
  EXPECT_EQ(contacts.feet[0].intervals[0].first_frame, 3);
  EXPECT_EQ(contacts.feet[0].intervals[0].last_frame, 15);
}

}  // namespace
}  // namespace footfix

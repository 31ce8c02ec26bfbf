// release_short_swing_ends (solve/contact_end_release.h): a swing shorter than the solve's short
// swing between two contacts is widened into the contacts' ends, alternately, within the margin,
// and each contact keeps its middle frame; longer swings are left alone.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../src/solve/contact_end_release.h"

namespace footfix {
namespace {

/// Contacts of both feet from one character a frame ('#' planted), the same for both.
ContactResult contacts_of(const std::string& frames) {
  ContactResult c;
  for (FootContacts& foot : c.feet) {
    for (char ch : frames) foot.contact.push_back(ch == '#' ? 1 : 0);
    foot.intervals = contact_runs(foot.contact);
  }
  return c;
}

std::string frames_of(const FootContacts& foot) {
  std::string s;
  for (std::uint8_t v : foot.contact) s += v ? '#' : '.';
  return s;
}

TEST(ShortSwingRelease, AShortSwingIsWidenedAlternatelyIntoBothContacts) {
  ContactResult c = contacts_of("##########....##########");
  // Earlier contact's last frame 9, later one's first 14: 5 apart; 9 apart wanted.
  EXPECT_TRUE(release_short_swing_ends(c, 9, 5));
  for (const FootContacts& foot : c.feet) {
    EXPECT_EQ(frames_of(foot), "########........########");
    ASSERT_EQ(foot.intervals.size(), 2u);
    EXPECT_EQ(foot.intervals[0].last_frame, 7);
    EXPECT_EQ(foot.intervals[1].first_frame, 16);
  }
}

TEST(ShortSwingRelease, NoMoreThanTheMarginAndTheMiddleFrameIsKept) {
  ContactResult margin = contacts_of("##########....##########");
  EXPECT_TRUE(release_short_swing_ends(margin, 20, 1));
  EXPECT_EQ(frames_of(margin.feet[0]), "#########......#########");
  ContactResult middle = contacts_of("###....###");
  EXPECT_TRUE(release_short_swing_ends(middle, 20, 5));
  EXPECT_EQ(frames_of(middle.feet[0]), "##......##");
}

TEST(ShortSwingRelease, LongSwingsAreLeftAlone) {
  ContactResult c = contacts_of("#####........#####");
  EXPECT_FALSE(release_short_swing_ends(c, 9, 5));
  EXPECT_EQ(frames_of(c.feet[0]), "#####........#####");
}

}  // namespace
}  // namespace footfix

// Support phases from contacts: the take-offs and landings of feet that stood together (a
// two-feet jump) are told from the support passing from one foot to the other (a walk, a run).
#include "solve/support_phases.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace footfix {
namespace {

/// Contacts drawn per frame, '#' planted.
std::array<std::vector<std::uint8_t>, 2> drawn(const std::string& left, const std::string& right) {
  std::array<std::vector<std::uint8_t>, 2> contact;
  for (char c : left) contact[0].push_back(c == '#');
  for (char c : right) contact[1].push_back(c == '#');
  return contact;
}

TEST(SupportPhases, TwoFeetJumpTakesOffAndLandsTogether) {
  // The left foot's contact ends before the right's and it lands a frame later: still one stance
  // of both feet on each side of the flight.
  const auto contact = drawn("#######........#######",
                             "#########.....########");
  EXPECT_EQ(together_flight_edges(contact, 22), (std::vector<double>{8.5, 13.5}));
}

TEST(SupportPhases, RunAndWalkFootChangesAreNoTogetherEdges) {
  const auto run = drawn("#####.......#####.......",
                         "........####.......####.");
  EXPECT_TRUE(together_flight_edges(run, 24).empty());
  const auto walk = drawn("######......######....",
                          "....#######.....######");
  EXPECT_TRUE(together_flight_edges(walk, 22).empty());
}

TEST(SupportPhases, OneFootHopsAreNoTogetherEdges) {
  const auto hops = drawn("#####.....#####.....####",
                          "........................");
  EXPECT_TRUE(together_flight_edges(hops, 24).empty());
}

}  // namespace
}  // namespace footfix

// nearest_name: the "did you mean" of commands, options and settings keys.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../src/core/nearest_name.h"

namespace footfix {
namespace {

const std::vector<std::string> k_names{"clean", "annotate", "inspect", "speed_threshold_mps", "contacts"};

TEST(NearestName, TyposFindTheirName) {
  EXPECT_EQ(nearest_name("claen", k_names), "clean");              // two neighbours swapped
  EXPECT_EQ(nearest_name("anotate", k_names), "annotate");         // a letter left out
  EXPECT_EQ(nearest_name("speed_treshold_mps", k_names), "speed_threshold_mps");
  EXPECT_EQ(nearest_name("contact", k_names), "contacts");
  EXPECT_EQ(did_you_mean("inspekt", k_names), " (did you mean 'inspect'?)");
}

TEST(NearestName, FarWordsGetNoSuggestion) {
  EXPECT_EQ(nearest_name("walk", k_names), "");
  EXPECT_EQ(nearest_name("", k_names), "");
  EXPECT_EQ(did_you_mean("zzzzzzzz", k_names), "");
}

TEST(NearestName, AHostileKeyOfAMegabyteGetsNoSuggestion) {
  // A settings or contacts file may hold a key of any length; it is compared by its length first.
  std::string key(1 << 20, 'c');
  key.replace(0, 5, "clean");
  EXPECT_EQ(nearest_name(key, k_names), "");
}

}  // namespace
}  // namespace footfix

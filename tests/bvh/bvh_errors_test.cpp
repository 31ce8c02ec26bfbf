// Malformed BVH input: each case must throw Error(read) with a located message, never crash.
#include <gtest/gtest.h>

#include <random>

#include "bvh_test_text.h"
#include "footfix/core/error.h"
#include "footfix/bvh/bvh.h"

namespace footfix {
namespace {

using test::k_small_bvh;
using test::replaced;

// Parses `text` as "bad.bvh" and expects Error(read) whose message is exactly `expected`.
void expect_error(const std::string& text, const std::string& expected) {
  try {
    parse_bvh(text, "bad.bvh");
    ADD_FAILURE() << "no error; expected: " << expected;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::read);
    EXPECT_EQ(std::string(e.what()), expected);
  }
}

const std::string k_row1 = "1 2 3 0 0 0 10 20 30";

TEST(BvhErrors, EmptyOrNoHierarchy) {
  expect_error("", "bad.bvh:1: empty file (no HIERARCHY)");
  expect_error(" \r\n\t\n", "bad.bvh:3: empty file (no HIERARCHY)");
  expect_error(replaced(k_small_bvh, "HIERARCHY\n", "\n"), "bad.bvh:2: not a BVH file: it does not start with HIERARCHY");
}

TEST(BvhErrors, MissingMotion) {
  expect_error(k_small_bvh.substr(0, k_small_bvh.find("MOTION")), "bad.bvh:16: missing MOTION after the hierarchy");
  expect_error(replaced(k_small_bvh, "MOTION", "MOTON"), "bad.bvh:16: expected MOTION after the hierarchy, found 'MOTON'");
}

TEST(BvhErrors, TruncatedHierarchy) {
  expect_error(k_small_bvh.substr(0, k_small_bvh.find("  }\n}")),
               "bad.bvh:14: truncated hierarchy: end of file inside joint 'Leg'");
  expect_error(replaced(k_small_bvh, "  }\n}\n", "  }\n"), "bad.bvh:15: truncated hierarchy: MOTION inside joint 'Hips'");
  expect_error("HIERARCHY\n", "bad.bvh:2: truncated hierarchy: no ROOT");
  expect_error("HIERARCHY\nROOT Hips\n", "bad.bvh:3: truncated hierarchy: no '{' for joint 'Hips'");
  expect_error(replaced(k_small_bvh, "    OFFSET 1 -2 0\n", ""), "bad.bvh:13: joint 'Leg' has no OFFSET");
  expect_error(replaced(k_small_bvh, "OFFSET 1 -2 0", "OFFSET 1 -2 zero"),
               "bad.bvh:8: joint 'Leg': bad OFFSET value 'zero' (need a finite number)");
}

TEST(BvhErrors, UnknownKeyword) {
  expect_error(replaced(k_small_bvh, "CHANNELS 3", "CHANELS 3"), "bad.bvh:9: unknown keyword 'CHANELS' in joint 'Leg'");
  expect_error(replaced(k_small_bvh, "      OFFSET 0 -3 0\n", "      OFFSET 0 -3 0\n      CHANNELS 0\n"),
               "bad.bvh:13: unknown keyword 'CHANNELS' in End Site of joint 'Leg'");
}

TEST(BvhErrors, RootInsideAJoint) {
  // Several skeletons are read one after another (BvhRead.SeveralSkeletons), not one inside another.
  expect_error(replaced(k_small_bvh, "  JOINT Leg\n", "  ROOT Leg\n"),
               "bad.bvh:6: ROOT inside joint 'Hips' (a skeleton's block must close before the next ROOT)");
  expect_error(replaced(k_small_bvh, "MOTION\n", "ROOT Hips\n{\n  OFFSET 0 0 0\n}\nMOTION\n"),
               "bad.bvh:16: duplicate joint name 'Hips'");
}

TEST(BvhErrors, DuplicateJointNames) {
  expect_error(replaced(k_small_bvh, "JOINT Leg", "JOINT Hips"), "bad.bvh:6: duplicate joint name 'Hips'");
  expect_error(replaced(k_small_bvh, "JOINT Leg", "JOINT  "), "bad.bvh:6: joint without a name");
}

TEST(BvhErrors, BadChannels) {
  expect_error(replaced(k_small_bvh, "CHANNELS 3", "CHANNELS 7"), "bad.bvh:9: joint 'Leg': bad CHANNELS count '7' (need 0 to 6)");
  expect_error(replaced(k_small_bvh, "CHANNELS 3", "CHANNELS -1"), "bad.bvh:9: joint 'Leg': bad CHANNELS count '-1' (need 0 to 6)");
  expect_error(replaced(k_small_bvh, "CHANNELS 3", "CHANNELS three"),
               "bad.bvh:9: joint 'Leg': bad CHANNELS count 'three' (need 0 to 6)");
  expect_error(replaced(k_small_bvh, "3 Zrotation Xrotation Yrotation", "3 Zrotation Xrotation Wrotation"),
               "bad.bvh:9: joint 'Leg': bad channel name 'Wrotation' (CHANNELS 3 lists 2 valid names)");
  // A count larger than the names given, with none: the next keyword is no channel.
  expect_error(replaced(k_small_bvh, "CHANNELS 3 Zrotation Xrotation Yrotation", "CHANNELS 3"),
               "bad.bvh:10: joint 'Leg': bad channel name 'End' (CHANNELS 3 lists 0 valid names)");
  expect_error(replaced(k_small_bvh, "3 Zrotation Xrotation Yrotation", "3 Zrotation Xrotation Zrotation"),
               "bad.bvh:9: joint 'Leg': repeated channel 'Zrotation'");
  expect_error(replaced(k_small_bvh, "CHANNELS 3 Zrotation Xrotation Yrotation", "CHANNELS 2 Zrotation Xrotation"),
               "bad.bvh:9: joint 'Leg': 2 rotation channels (need 0 or 3)");
  expect_error(replaced(k_small_bvh, "    CHANNELS 3 Zrotation Xrotation Yrotation\n",
                        "    CHANNELS 3 Zrotation Xrotation Yrotation\n    CHANNELS 0\n"),
               "bad.bvh:10: joint 'Leg' has two CHANNELS lines");
}

TEST(BvhErrors, WrongValueCountOnARow) {
  expect_error(replaced(k_small_bvh, k_row1, "1 2 3"), "bad.bvh:19: joint 'Hips': expected 6 values, found 3 (row has 3 of 9)");
  expect_error(replaced(k_small_bvh, k_row1, "1 2 3 0 0 0 10"),
               "bad.bvh:19: joint 'Leg': expected 3 values, found 1 (row has 7 of 9)");
  expect_error(replaced(k_small_bvh, "-10 -20 -30", "-10 -20 -30 40 50"), "bad.bvh:20: expected 9 values, found 11");
  // A short row with a row after it is damage (a short last row is a cut: dropped, with a warning).
  expect_error(replaced(k_small_bvh, "4 5 6 90", "4 5 6") + "1 1 1 1 1 1 1 1 1\n",
               "bad.bvh:20: joint 'Leg': expected 3 values, found 2 (row has 8 of 9)");
}

TEST(BvhErrors, NonNumericAndNonFiniteValues) {
  expect_error(replaced(k_small_bvh, "10 20 30", "10 abc 30"), "bad.bvh:19: joint 'Leg': bad number 'abc'");
  expect_error(replaced(k_small_bvh, "10 20 30", "10 2O 30"), "bad.bvh:19: joint 'Leg': bad number '2O'");
  // "2,5" is a decimal comma (tests/cli/bvh_writers_cli_test.cpp); values joined by commas are not.
  expect_error(replaced(k_small_bvh, "1 2 3", "1 2,5,0 3"), "bad.bvh:19: joint 'Hips': bad number '2,5,0'");
  for (const char* bad : {"nan", "NaN", "inf", "-inf", "1e999", "-1e400"})
    expect_error(replaced(k_small_bvh, "-20", bad), std::string("bad.bvh:20: joint 'Leg': non-finite value '") + bad + "' (--repair fills it from its channel)");
}

TEST(BvhErrors, FrameTime) {
  for (const char* bad : {"0", "-0.5", "nan", "inf", "abc", ""})
    expect_error(replaced(k_small_bvh, "Frame Time: 0.5", std::string("Frame Time: ") + bad),
                 std::string("bad.bvh:18: bad Frame Time '") + bad + "' (need a finite number > 0)");
  // A line that is neither the frame time nor a row (rows straight after Frames are read at an
  // assumed rate, tests/cli/bvh_variants_cli_test.cpp).
  expect_error(replaced(k_small_bvh, "Frame Time: 0.5", "Frame Rate: 2"), "bad.bvh:18: missing 'Frame Time:', found 'Frame Rate: 2'");
}

TEST(BvhErrors, FramesCount) {
  // No Frames line reads every row (tests/cli/bvh_variants_cli_test.cpp), and so does a count
  // that disagrees with the rows (BvhRead.AFramesCountThatDisagreesReadsEveryCompleteRow); a
  // second one, or no row at all, is an error.
  expect_error(replaced(k_small_bvh, "Frames: 2\n", "Frames: 2\nFrames: 2\n"), "bad.bvh:18: a second 'Frames:' line, 'Frames: 2'");
  expect_error(replaced(k_small_bvh, "Frame Time: 0.5\n", "Frame Time: 0.5\nframe time 0.5\n"),
               "bad.bvh:19: a second 'Frame Time:' line, 'frame time 0.5'");
  expect_error(k_small_bvh.substr(0, k_small_bvh.find("Frames: 2")) + "Frame Time: 0.5\n\n", "bad.bvh:18: no motion rows after MOTION");
  expect_error(replaced(k_small_bvh, "Frames: 2", "Frames: -2"), "bad.bvh:17: negative Frames count '-2'");
  const std::string no_rows = k_small_bvh.substr(0, k_small_bvh.find("1 2 3"));
  expect_error(replaced(no_rows, "Frames: 2", "Frames: 0"), "bad.bvh:17: no frames (Frames: 0)");
  expect_error(no_rows, "bad.bvh:19: no motion rows after MOTION");
  // A word is a writer's placeholder and reads every row (tests/cli/bvh_writers_cli_test.cpp); a
  // count that starts as a number and is damaged is not.
  expect_error(replaced(k_small_bvh, "Frames: 2", "Frames: 2wo"), "bad.bvh:17: bad Frames count '2wo'");
  expect_error(replaced(k_small_bvh, "Frames: 2", "Frames: 99999999999"), "bad.bvh:17: Frames count '99999999999' is too large");
}

TEST(BvhErrors, AbsurdFramesNeverAllocated) {
  // 2e9 frames x 9 values would be 144 GB of doubles; the text holds 46 bytes of motion, so at
  // most 2 rows are allocated, and the rows found are read against the count.
  std::vector<std::string> warnings;
  const Clip clip = parse_bvh(replaced(k_small_bvh, "Frames: 2", "Frames: 2000000000"), "bad.bvh", &warnings);
  EXPECT_EQ(clip.frame_count, 2);
  EXPECT_EQ(warnings, std::vector<std::string>{"Frames: 2000000000 at line 17, 2 complete rows read"});
  // Many channel-less joints: few motion bytes, but a transform per joint and frame.
  std::string text = "HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 1 Xposition\n";
  for (int i = 0; i < 200; ++i) text += "JOINT J" + std::to_string(i) + "\n{\nOFFSET 0 0 0\n}\n";
  text += "}\nMOTION\nFrames: 40000\nFrame Time: 0.1\n";
  for (int i = 0; i < 40000; ++i) text += "0\n";
  expect_error(text, "bad.bvh:810: 40000 frames x 201 joints is more than the file can describe");
}

TEST(BvhErrors, NestingDeeperThan1024) {
  std::string text = "HIERARCHY\nROOT J0\n{\nOFFSET 0 0 0\n";
  for (int i = 1; i < 100000; ++i) text += "JOINT J" + std::to_string(i) + "\n{\nOFFSET 0 1 0\n";
  expect_error(text, "bad.bvh:3074: hierarchy nested deeper than 1024 levels");
}

TEST(BvhErrors, NoChannelsAtAll) {
  expect_error("HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\n}\nMOTION\nFrames: 1\nFrame Time: 1\n\n",
               "bad.bvh:6: the hierarchy declares no CHANNELS, so there is no motion");
}

TEST(BvhErrors, EveryPrefixAndRandomMutationsFailCleanly) {
  // Each prefix either parses or throws Error(read). Those that parse hold the first row whole
  // (from the one ending "10 20 3", still 9 values); a second row cut short is dropped.
  size_t parsed = 0;
  for (size_t n = 0; n <= k_small_bvh.size(); ++n) {
    try {
      parse_bvh(k_small_bvh.substr(0, n), "prefix.bvh");
      ++parsed;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::read);
    }
  }
  EXPECT_EQ(parsed, k_small_bvh.size() - (k_small_bvh.find("10 20 30") + 7) + 1);
  std::mt19937 rng(1234);
  const std::string alphabet = "{}\n\r\t -+.e0123456789ROOTJOINTEndSiteOFFSETCHANNELSMOTIONFrames:Xrotation";
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text = k_small_bvh;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0: text[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: text.erase(at, 1 + rng() % 8); break;
        default: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
      }
      if (text.empty()) text = "x";
    }
    try {
      parse_bvh(text, "mutated.bvh");
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::read);
      EXPECT_EQ(std::string(e.what()).rfind("mutated.bvh:", 0), 0u) << e.what();
    }
  }
}

}  // namespace
}  // namespace footfix

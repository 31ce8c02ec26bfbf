// Shared by the BVH tests: a small valid BVH text (line numbers matter to the error tests) and
// helpers to edit it.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace footfix::test {

// Line numbers:      1            2            3      4
inline const std::string k_small_bvh =
    "HIERARCHY\n"
    "ROOT Hips\n"
    "{\n"
    "  OFFSET 0 0 0\n"
    "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"  // 5
    "  JOINT Leg\n"                                                               // 6
    "  {\n"                                                                       // 7
    "    OFFSET 1 -2 0\n"                                                         // 8
    "    CHANNELS 3 Zrotation Xrotation Yrotation\n"                              // 9
    "    End Site\n"                                                              // 10
    "    {\n"                                                                     // 11
    "      OFFSET 0 -3 0\n"                                                       // 12
    "    }\n"                                                                     // 13
    "  }\n"                                                                       // 14
    "}\n"                                                                         // 15
    "MOTION\n"                                                                    // 16
    "Frames: 2\n"                                                                 // 17
    "Frame Time: 0.5\n"                                                           // 18
    "1 2 3 0 0 0 10 20 30\n"                                                      // 19
    "4 5 6 90 0 0 -10 -20 -30\n";                                                 // 20

/// `text` with the first occurrence of `from` replaced by `to`; fails the test if absent.
inline std::string replaced(const std::string& text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "test text lacks '" << from << "'";
  if (at == std::string::npos) return text;
  return text.substr(0, at) + to + text.substr(at + from.size());
}

}  // namespace footfix::test

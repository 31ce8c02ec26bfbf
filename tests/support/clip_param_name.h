// GoogleTest parameter names for tests run once per clip file: the file name with every
// character that is not a letter or digit made '_' ("bandai1_walk-back.bvh" -> "bandai1_walk_back_bvh").
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <string>

namespace footfix::test {

inline std::string clip_param_name(const testing::TestParamInfo<const char*>& info) {
  std::string n = info.param;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

}  // namespace footfix::test

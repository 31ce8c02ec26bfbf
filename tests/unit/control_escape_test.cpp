// escape_for_console and json_for_console: control characters and the CI runners' log commands.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "control_escape.h"

namespace footfix::cli {
namespace {

TEST(ControlEscape, ControlCharactersBecomeVisible) {
  EXPECT_EQ(escape_for_console("a\nb\tc\x1b[31m\x7f"), "a\\nb\\tc\\e[31m\\x7f");
  EXPECT_EQ(escape_for_console("bad\xff"), "bad\\xff");
  EXPECT_EQ(escape_for_console("LeftToe"), "LeftToe");
  EXPECT_EQ(escape_for_console("mixamorig:Hips a::b"), "mixamorig:Hips a::b");
}

TEST(ControlEscape, BreaksEveryDoubleHash) {
  EXPECT_EQ(escape_for_console("x##[set-output name=v]y"), "x#\\x23[set-output name=v]y");
  EXPECT_EQ(escape_for_console("##vso[task.setvariable]"), "#\\x23vso[task.setvariable]");
  EXPECT_EQ(escape_for_console("###"), "#\\x23#");
  EXPECT_EQ(escape_for_console("####"), "#\\x23#\\x23");
  // Control characters between the hashes cannot rebuild the form either.
  EXPECT_EQ(escape_for_console("#\x01#["), "#\\x01#[");
}

TEST(ControlEscape, BreaksALeadingDoubleColonAfterWhitespace) {
  EXPECT_EQ(escape_for_console("::stop-commands::x"), "\\x3a:stop-commands::x");
  EXPECT_EQ(escape_for_console("   ::error::x"), "   \\x3a:error::x");
  // .NET's TrimStart() also removes Unicode spaces: U+00A0, U+2003, U+3000.
  EXPECT_EQ(escape_for_console("\xc2\xa0\xe2\x80\x83\xe3\x80\x80::x"), "\xc2\xa0\xe2\x80\x83\xe3\x80\x80\\x3a:x");
  // A tab or newline before it is escaped to visible text, which the runner does not trim.
  EXPECT_EQ(escape_for_console("\n::x"), "\\n::x");
  EXPECT_EQ(escape_for_console("a ::x"), "a ::x");
}

TEST(ControlEscape, JsonKeepsItsValue) {
  const nlohmann::json value = {{"name##[x]", "##vso[y] ## ::z"}};
  const std::string text = json_for_console(value.dump(2));
  EXPECT_EQ(text.find("##"), std::string::npos) << text;
  EXPECT_EQ(nlohmann::json::parse(text), value);
}

}  // namespace
}  // namespace footfix::cli

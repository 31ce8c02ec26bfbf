// printable (messages) on hand-written byte strings.
#include <gtest/gtest.h>

#include "footfix/core/text.h"

namespace footfix {
namespace {

TEST(Text, PrintableEscapesControlsAndInvalidBytes) {
  EXPECT_EQ(printable("LeftToe"), "LeftToe");
  EXPECT_EQ(printable("a\nb\x1b[31m"), "a\\x0ab\\x1b[31m");
  EXPECT_EQ(printable("x\x7fy"), "x\\x7fy");
  EXPECT_EQ(printable("\xc2\x9b" "2J"), "\\xc2\\x9b2J");        // C1 CSI, UTF-8 encoded
  EXPECT_EQ(printable("Toe\xff" "Base"), "Toe\\xffBase");       // invalid byte
  EXPECT_EQ(printable("\xe6\xad\xa9"), "\xe6\xad\xa9");          // valid UTF-8 kept
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");                // overlong '/'
  EXPECT_EQ(printable("a\\b"), "a\\\\b");
  EXPECT_EQ(printable("abcdef", 3), "abc...");
}

}  // namespace
}  // namespace footfix

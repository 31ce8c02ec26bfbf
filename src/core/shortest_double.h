// Internal to the library: the shortest text that reads back to the same double, byte for byte
// what std::to_chars(first, last, value) writes, several times faster on the short decimals
// motion files hold ("-17.3198", "0.000153", "90").
#pragma once

namespace footfix {

/// Room write_shortest needs: the longest shortest round-trip double ("-2.2250738585072014e-308")
/// is 24 characters.
constexpr int k_shortest_double_chars = 32;

/// Writes `value` at `first` exactly as std::to_chars(first, first + k_shortest_double_chars,
/// value) does (the fewest significant digits that read back bit-identical, then %f or %e,
/// whichever is shorter, %f on a tie; "-0", "inf", "nan" as it writes them) and returns the end.
/// Values of the form m / 10^k (m < 2^50 and k <= 22 once trailing zeros are dropped) are
/// written directly; anything else goes to std::to_chars.
char* write_shortest(char* first, double value);

/// The same text as write_shortest, found another way: faster for values that need 16 or 17
/// significant digits (computed ones, such as angles from a rotation), slower for short decimals.
char* write_shortest_long(char* first, double value);

}  // namespace footfix

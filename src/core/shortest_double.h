// Internal to the library: the shortest text that reads back to the same double, byte for byte
// what std::to_chars(first, last, value) writes, several times faster on the short decimals
// motion files hold ("-17.3198", "0.000153", "90").
#pragma once

namespace footfix {

/// Room the writers below need at `first`: the longest shortest round-trip double
/// ("-2.2250738585072014e-308") is 24 characters, and they copy digits in fixed-size blocks
/// (no library call), which may leave scratch bytes past the text's end, within this room.
constexpr int k_shortest_double_chars = 64;

/// Writes `value` at `first` exactly as std::to_chars(first, first + k_shortest_double_chars,
/// value) does (the fewest significant digits that read back bit-identical, then %f or %e,
/// whichever is shorter, %f on a tie; "-0", "inf", "nan" as it writes them) and returns the end.
/// Values of the form m / 10^k (m < 2^50 and k <= 22 once trailing zeros are dropped) are
/// written directly; anything else goes to std::to_chars.
char* write_shortest(char* first, double value);

/// Text that reads back to exactly `value`, for computed values (not always the shortest): the
/// nearest decimal with 17 significant digits (trailing zeros dropped), found in exact integer
/// arithmetic, in write_shortest's notation; std::to_chars for 0 and values under 1e-10 or from
/// 1e15 on. Faster than std::to_chars.
char* write_round_trip(char* first, double value);

/// The most fraction digits write_decimals writes.
constexpr int k_max_fixed_decimals = 14;

/// `value` with `decimals` fraction digits, trailing zeros (and a bare point) dropped, in plain
/// notation ("-17.3198", "0", "-0", "90"): the text reads back to exactly `value` when `value`
/// was read from a decimal with at most `decimals` fraction digits and at most 15 digits in all
/// (a correctly rounded m / 10^k). Falls back to write_shortest where the rounded text would not
/// stay within 15 digits (|value| 10^decimals >= 10^14) or `decimals` is outside
/// [0, k_max_fixed_decimals]. The text then reads back through the 15-digit fast path again.
char* write_decimals(char* first, double value, int decimals);

}  // namespace footfix

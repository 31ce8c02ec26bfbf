#include "shortest_double.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace footfix {
namespace {

// Powers of ten that are exact doubles.
constexpr double k_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                              1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
constexpr int k_max_exact_pow10 = 22;
// 10^e for e = -12 .. 16, at [e + k_pow10_signed_offset] (the negative ones rounded).
constexpr int k_pow10_signed_offset = 12;
constexpr double k_pow10_signed[] = {1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3,
                                     1e-2,  1e-1,  1e0,   1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,   1e9,   1e10,  1e11, 1e12, 1e13, 1e14, 1e15, 1e16};
// Scaled values stay below 2^50 (see write_shortest).
constexpr double k_scaled_limit = 0x1p50;

constexpr char k_digit_pairs[] =
    "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
    "5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

// Writes the 8 decimal digits of m (< 10^8, leading zeros included) so that they end at `end`:
// four independent pairs (32-bit arithmetic), not a chain of divisions.
[[gnu::always_inline]] inline void eight_digits_before(char* end, std::uint32_t m) {
  const std::uint32_t high = m / 10000, low = m % 10000;
  std::memcpy(end - 8, k_digit_pairs + 2 * (high / 100), 2);
  std::memcpy(end - 6, k_digit_pairs + 2 * (high % 100), 2);
  std::memcpy(end - 4, k_digit_pairs + 2 * (low / 100), 2);
  std::memcpy(end - 2, k_digit_pairs + 2 * (low % 100), 2);
}

// Writes the decimal digits of m (> 0) so that they end at `end`; returns where they start.
// Computed values' 17 digits go 8 at a time (eight_digits_before), the rest a pair at a time.
char* digits_before(char* end, std::uint64_t m) {
  while (m >= 100000000) {
    eight_digits_before(end, static_cast<std::uint32_t>(m % 100000000));
    m /= 100000000;
    end -= 8;
  }
  while (m >= 100) {
    const std::uint64_t pair = m % 100;
    m /= 100;
    end -= 2;
    std::memcpy(end, k_digit_pairs + 2 * pair, 2);
  }
  if (m >= 10) {
    end -= 2;
    std::memcpy(end, k_digit_pairs + 2 * m, 2);
  } else {
    *--end = static_cast<char>('0' + m);
  }
  return end;
}

// write_decimals' text for m < 10^8 and decimals < 8: m's 8 digits (leading zeros included) at
// once, its digit count and the fraction's trailing zeros from the zero bytes of those 8 digits
// as a word (the first digit in the lowest byte), no loop.
char* write_short_decimal(char* out, std::uint32_t m, int decimals) {
  char digits[24] = {};
  eight_digits_before(digits + 8, m);
  std::uint64_t word = 0;
  std::memcpy(&word, digits, 8);
  word ^= 0x3030303030303030;  // '0' bytes become 0
  const int leading_zeros = word == 0 ? 8 : std::countr_zero(word) / 8;
  const int trailing_zeros = word == 0 ? 8 : std::countl_zero(word) / 8;
  const int count = std::max(8 - leading_zeros, decimals + 1);  // digits written, point aside
  const char* d = digits + 8 - count;
  const int whole = count - decimals, fraction = decimals - std::min(trailing_zeros, decimals);
  // Fixed-size copies: the bytes past each part's end are overwritten by what follows or lie
  // within k_shortest_double_chars of `out`.
  std::memcpy(out, d, 8);
  out += whole;
  if (fraction == 0) return out;
  *out = '.';
  std::memcpy(out + 1, d + whole, 8);
  return out + 1 + fraction;
}

char* by_to_chars(char* first, double value) {
  return std::to_chars(first, first + k_shortest_double_chars, value).ptr;
}

// Drops up to `k` trailing decimal zeros of m, lowering k by as many.
void drop_trailing_zeros(std::uint64_t& m, int& k) {
  while (k >= 8 && m % 100000000 == 0) {
    m /= 100000000;
    k -= 8;
  }
  struct Step {
    int digits;
    std::uint64_t power;
  };
  for (const Step step : {Step{4, 10000}, Step{2, 100}, Step{1, 10}})
    if (k >= step.digits && m % step.power == 0) {
      m /= step.power;
      k -= step.digits;
    }
}

// Fewest digits when at most ~15 suffice. Let K be the largest power with a 10^K < 2^50 (K <= 22,
// so 10^K is exact). If some decimal m0 / 10^k0 with k0 <= K reads back as a (a is its correctly
// rounded value), then a 10^K is within a 10^K 2^-52 < 1/4 of the integer X = m0 10^(K - k0), so
// rounding a 10^K gives X, and dropping X's trailing zeros gives the smallest such k0 and its m0
// (an m0 ending in 0 would allow k0 - 1). Any other decimal that reads back as a differs from
// m0 / 10^k0 by less than a's spacing (< 10^-K / 4): with no more fraction digits it would be
// m0 / 10^k0 itself, with more it has more significant digits. So m0 / 10^k0 holds the fewest
// significant digits, as to_chars's. The check X / 10^K == a (one correctly rounded division of
// exact values, what reading the text back computes, and the same value as m0 / 10^k0) confirms
// the premise. On failure no decimal with at most K fraction digits reads back as a, and k = K.
bool short_decimal(double a, int e2, std::uint64_t& m, int& k) {
  // a < 2^(e2 + 1); 1233 / 4096 is just under log10(2), so 10^K <= 2^(49 - e2).
  k = std::min(((49 - e2) * 1233) >> 12, k_max_exact_pow10);
  m = static_cast<std::uint64_t>(static_cast<std::int64_t>(a * k_pow10[k] + 0.5));
  if (m == 0 || static_cast<double>(static_cast<std::int64_t>(m)) / k_pow10[k] != a) return false;
  drop_trailing_zeros(m, k);
  return true;
}

__extension__ using Uint128 = unsigned __int128;

constexpr std::uint64_t k_max_pow5 = 27;  // 5^27 < 2^63
constexpr auto k_pow5 = [] {
  std::array<std::uint64_t, k_max_pow5 + 1> p{};
  p[0] = 1;
  for (size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 5;
  return p;
}();

// Fewest digits when short_decimal found none with at most `min_k` - 1 fraction digits (16 or 17
// significant digits), in exact integer arithmetic. a = M 2^e, so a 10^k = M 5^k / 2^s with
// s = -(e + k); a decimal N / 10^k reads back as a when it lies within half a spacing (2^(e-1))
// of a, i.e. when 2 |N 2^s - M 5^k| < 5^k (or = for an even M: the tie reads back to the even
// mantissa). The first k from min_k with such an N gives the fewest digits (none of them ends in
// 0, or k - 1 would have had it); among several, to_chars takes the one closest to a. Returns
// false where this cannot decide (subnormals, powers of two whose lower spacing is half the
// upper, two equally close candidates, a 10^k outside the exact range): to_chars then decides.
bool long_decimal(std::uint64_t bits, int min_k, std::uint64_t& m, int& k) {
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  if (biased == 0 || fraction == 0) return false;
  const std::uint64_t mantissa = fraction | (std::uint64_t{1} << 52);
  const int e = biased - 1075;
  const bool even = (mantissa & 1) == 0;
  for (k = min_k; k <= min_k + 2; ++k) {
    const int s = -(e + k);
    if (k < 0 || k > static_cast<int>(k_max_pow5) || s < 1 || s > 120) return false;
    const Uint128 pow5 = k_pow5[static_cast<size_t>(k)];
    const Uint128 scaled = static_cast<Uint128>(mantissa) * pow5;
    const Uint128 unit = static_cast<Uint128>(1) << s;
    const Uint128 floor = scaled >> s, remainder = scaled & (unit - 1);
    bool found = false, tie = false;
    Uint128 best_distance = 0;
    for (int d = -1; d <= 2; ++d) {
      if (d < 0 && floor == 0) continue;
      // |(floor + d) 2^s - scaled|
      const Uint128 distance = d <= 0 ? static_cast<Uint128>(-d) * unit + remainder : static_cast<Uint128>(d) * unit - remainder;
      if (!(2 * distance < pow5 || (even && 2 * distance == pow5))) continue;
      if (!found || distance < best_distance) {
        m = static_cast<std::uint64_t>(d < 0 ? floor - 1 : floor + static_cast<Uint128>(d));
        best_distance = distance;
        tie = false;
        found = true;
      } else if (distance == best_distance) {
        tie = true;
      }
    }
    if (found) return !tie;
  }
  return false;
}

// m / 10^k (m > 0, with no trailing zero when k > 0) as to_chars writes it: %f or %e, whichever
// is shorter, %f on a tie.
// Digits are copied 32 bytes at a time (fixed-size copies, no library call): the scratch bytes
// past the text stay within k_shortest_double_chars of `out` - 1 (a sign).
char* write_decimal(char* out, std::uint64_t m, int k) {
  char digits[64];
  char* const digits_end = digits + 32;
  std::memset(digits_end, 0, 32);
  const char* d = digits_before(digits_end, m);
  const int count = static_cast<int>(digits_end - d);
  const int exponent = count - 1 - k;  // = d.ddd * 10^exponent
  int significant = count;
  while (significant > 1 && d[significant - 1] == '0') --significant;  // integers only
  const int exponent_abs = exponent < 0 ? -exponent : exponent;
  const int fixed_chars = k == 0 ? count : exponent >= 0 ? count + 1 : k + 2;
  const int scientific_chars = significant + (significant > 1 ? 1 : 0) + 2 + (exponent_abs >= 100 ? 3 : 2);
  if (fixed_chars <= scientific_chars) {
    if (k == 0) {
      std::memcpy(out, d, 32);
      return out + count;
    }
    if (exponent >= 0) {
      const int whole = exponent + 1;
      std::memcpy(out, d, 32);
      out[whole] = '.';
      std::memcpy(out + whole + 1, d + whole, 32);
      return out + count + 1;
    }
    *out++ = '0';
    *out++ = '.';
    for (int z = 0; z < -exponent - 1; ++z) *out++ = '0';
    std::memcpy(out, d, 32);
    return out + count;
  }
  *out++ = d[0];
  if (significant > 1) {
    *out++ = '.';
    std::memcpy(out, d + 1, static_cast<size_t>(significant - 1));
    out += significant - 1;
  }
  *out++ = 'e';
  *out++ = exponent < 0 ? '-' : '+';
  if (exponent_abs >= 100) {
    *out++ = static_cast<char>('0' + exponent_abs / 100);
    std::memcpy(out, k_digit_pairs + 2 * (exponent_abs % 100), 2);
  } else {
    std::memcpy(out, k_digit_pairs + 2 * exponent_abs, 2);
  }
  return out + 2;
}

constexpr std::uint64_t k_ten_to_16 = 10000000000000000;

// write_decimal's text for a 17-digit m with no trailing zero and decimal exponent `exponent`
// in [-4, 15], where the plain notation is the shorter (or as short): its first digit and two
// groups of 8 (eight_digits_before), then the point put in, or "0." and zeros put before.
char* write_seventeen_digits(char* out, std::uint64_t m, int exponent) {
  char digits[32] = {};
  const std::uint64_t rest = m % k_ten_to_16;
  digits[0] = static_cast<char>('0' + m / k_ten_to_16);
  eight_digits_before(digits + 9, static_cast<std::uint32_t>(rest / 100000000));
  eight_digits_before(digits + 17, static_cast<std::uint32_t>(rest % 100000000));
  // Fixed-size copies: the bytes past the text stay within k_shortest_double_chars of `out`.
  if (exponent >= 0) {
    const int whole = exponent + 1;
    std::memcpy(out, digits, 16);
    out[whole] = '.';
    std::memcpy(out + whole + 1, digits + whole, 16);
    return out + 18;
  }
  std::memcpy(out, "0.000", 5);
  out += 1 - exponent;  // "0." and -exponent - 1 zeros
  std::memcpy(out, digits, 17);
  return out + 17;
}

}  // namespace

char* write_shortest(char* first, double value) {
  const double a = std::fabs(value);
  if (!(a < k_scaled_limit)) return by_to_chars(first, value);  // large, inf, nan
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(value);
  char* out = first;
  if (bits >> 63) *out++ = '-';
  if (a == 0) {
    *out++ = '0';
    return out;
  }
  std::uint64_t m = 0;
  int k = 0;
  if (short_decimal(a, static_cast<int>((bits >> 52) & 0x7ff) - 1023, m, k) || long_decimal(bits, k + 1, m, k))
    return write_decimal(out, m, k);
  return by_to_chars(first, value);
}

char* write_round_trip(char* first, double value) {
  const double a = std::fabs(value);
  if (!(a >= 1e-10 && a < 1e15)) return by_to_chars(first, value);  // 0, tiny, large, inf, nan
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(value);
  const int biased = static_cast<int>((bits >> 52) & 0x7ff);
  const std::uint64_t mantissa = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
  const int e2 = biased - 1023;  // a = mantissa 2^(e2 - 52), 2^e2 <= a < 2^(e2 + 1)
  // floor(log10(a)) (1233 / 4096 is just under log10(2), the shift rounds down for negative e2
  // too, and the table's inexact negative powers can only leave it one less): k fraction digits
  // give 17 significant digits (18 in that case, as exact).
  int e10 = (e2 * 1233) >> 12;
  if (a >= k_pow10_signed[e10 + 1 + k_pow10_signed_offset]) ++e10;
  int k = 16 - e10;                // 2 .. 27 for 1e-10 <= a < 1e15
  const int s = 52 - e2 - k;       // a 10^k = mantissa 5^k / 2^s, 1 <= s <= 60 here
  if (k < 0 || k > static_cast<int>(k_max_pow5) || s < 1 || s > 120) return by_to_chars(first, value);
  // The decimal with k fraction digits nearest to a (ties to even): with 17 significant digits
  // or more it lies within half a spacing of a, so it reads back as a.
  const Uint128 scaled = static_cast<Uint128>(mantissa) * k_pow5[static_cast<size_t>(k)];
  std::uint64_t m = static_cast<std::uint64_t>(scaled >> s);
  const Uint128 remainder = scaled & ((static_cast<Uint128>(1) << s) - 1), half = static_cast<Uint128>(1) << (s - 1);
  if (remainder > half || (remainder == half && (m & 1))) ++m;
  char* out = first;
  if (bits >> 63) *out++ = '-';
  if (m % 10 != 0 && m >= k_ten_to_16 && m < 10 * k_ten_to_16 && k <= 20 && k >= 1)
    return write_seventeen_digits(out, m, 16 - k);
  if (m % 10 == 0) drop_trailing_zeros(m, k);
  return write_decimal(out, m, k);
}

char* write_decimals(char* first, double value, int decimals) {
  if (decimals < 0 || decimals > k_max_fixed_decimals) return write_shortest(first, value);
  const double scaled = std::fabs(value) * k_pow10[decimals];
  // value = m / 10^f (1 + d), |d| <= 2^-53, f <= decimals: scaled is within m' 2^-52 < 1/4 of
  // m' = m 10^(decimals - f) < 10^14 (10^decimals is exact), so rounding it gives m'.
  if (!(scaled < 1e14)) return write_shortest(first, value);  // also nan
  const std::uint64_t m = static_cast<std::uint64_t>(scaled + 0.5);
  char* out = first;
  if (std::signbit(value)) *out++ = '-';
  if (m < 100000000 && decimals < 8) return write_short_decimal(out, static_cast<std::uint32_t>(m), decimals);
  // m's digits, zero-padded to at least decimals + 1, then the point put before the last
  // `decimals` and the fraction's trailing zeros (and a bare point) dropped. Both parts are
  // copied 16 bytes at a time (fixed-size copies, no library call): the bytes past a part's end
  // are overwritten by what follows, and stay within k_shortest_double_chars of `first` (m <
  // 10^14: 14 digits at most).
  char digits[48];
  char* const digits_end = digits + 32;
  std::memset(digits_end - 16, '0', 16);
  std::memset(digits_end, 0, 16);
  const char* d = m == 0 ? digits_end - 1 : digits_before(digits_end, m);
  d = std::min<const char*>(d, digits_end - decimals - 1);
  const size_t whole = static_cast<size_t>(digits_end - d - decimals);
  std::memcpy(out, d, 16);
  out += whole;
  const char* fraction_end = digits_end;
  while (fraction_end != digits_end - decimals && fraction_end[-1] == '0') --fraction_end;
  const size_t fraction = static_cast<size_t>(fraction_end - (digits_end - decimals));
  if (fraction == 0) return out;
  *out = '.';
  std::memcpy(out + 1, digits_end - decimals, 16);
  return out + 1 + fraction;
}

}  // namespace footfix

#include "shortest_double.h"

#include <algorithm>
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
// Scaled values stay below 2^50 (see write_shortest).
constexpr double k_scaled_limit = 0x1p50;

constexpr char k_digit_pairs[] =
    "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
    "5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

// Writes the decimal digits of m (> 0) so that they end at `end`; returns where they start.
char* digits_before(char* end, std::uint64_t m) {
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

}  // namespace

// Why the direct path is exact. Let K be the largest power with |v| 10^K < 2^50. If some decimal
// m0 / 10^k0 with k0 <= K reads back as v (v is its correctly rounded value), then v 10^K is
// within |v| 10^K 2^-52 < 1/4 of the integer X = m0 10^(K - k0), so rounding v 10^K gives X, and
// dropping X's trailing zeros gives the smallest such k0 and its m0 (an m0 ending in 0 would
// allow k0 - 1). Any other decimal that reads back as v differs from m0 / 10^k0 by less than
// v's spacing (< 10^-K / 4): with no more fraction digits it would be m0 / 10^k0 itself, with
// more it has more significant digits. So m0 / 10^k0 holds the fewest significant digits, as
// to_chars's, and the check m0 / 10^k0 == v (one correctly rounded division of exact values,
// what reading the text back computes) confirms the premise; when it fails, to_chars decides.
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
  // a < 2^(e2 + 1); 1233 / 4096 is just under log10(2), so 10^K <= 2^(49 - e2).
  const int e2 = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  int k = std::min(((49 - e2) * 1233) >> 12, k_max_exact_pow10);
  std::uint64_t m = static_cast<std::uint64_t>(a * k_pow10[k] + 0.5);
  if (m == 0) return by_to_chars(first, value);
  drop_trailing_zeros(m, k);
  if (static_cast<double>(m) / k_pow10[k] != a) return by_to_chars(first, value);

  char digits[24];
  char* const digits_end = digits + sizeof digits;
  const char* d = digits_before(digits_end, m);
  const int count = static_cast<int>(digits_end - d);
  const int exponent = count - 1 - k;  // a = d.ddd * 10^exponent
  int significant = count;
  while (significant > 1 && d[significant - 1] == '0') --significant;  // integers only: k > 0 ends in 1-9
  const int exponent_abs = exponent < 0 ? -exponent : exponent;
  const int fixed_chars = k == 0 ? count : exponent >= 0 ? count + 1 : k + 2;
  const int scientific_chars = significant + (significant > 1 ? 1 : 0) + 2 + (exponent_abs >= 100 ? 3 : 2);
  if (fixed_chars <= scientific_chars) {
    if (k == 0) {
      std::memcpy(out, d, static_cast<size_t>(count));
      return out + count;
    }
    if (exponent >= 0) {
      const int whole = exponent + 1;
      std::memcpy(out, d, static_cast<size_t>(whole));
      out[whole] = '.';
      std::memcpy(out + whole + 1, d + whole, static_cast<size_t>(count - whole));
      return out + count + 1;
    }
    *out++ = '0';
    *out++ = '.';
    for (int z = 0; z < -exponent - 1; ++z) *out++ = '0';
    std::memcpy(out, d, static_cast<size_t>(count));
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

}  // namespace footfix

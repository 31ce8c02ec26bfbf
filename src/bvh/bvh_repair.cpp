#include "bvh_repair.h"

#include <cmath>

#include "bvh_text.h"

namespace footfix::bvh_detail {

void NonFiniteValues::add(int column, long line) {
  long& first = first_line_[static_cast<size_t>(column)];
  if (first == 0) first = line;
  if (count_ == 0) first_ = line;
  if (line != last_) ++lines_;
  last_ = line;
  ++count_;
}

std::string NonFiniteValues::warning() const {
  return "line " + std::to_string(first_) + ": repaired " + std::to_string(count_) + " non-finite value" +
         (count_ == 1 ? "" : "s") + " on " + std::to_string(lines_) + " motion line" + (lines_ == 1 ? "" : "s") +
         " (--repair): each interpolated linearly from the nearest finite values of its channel";
}

int fill_non_finite(std::vector<double>& values, size_t rows, int per_row, std::vector<std::uint8_t>& decimals) {
  const size_t stride = static_cast<size_t>(per_row);
  constexpr size_t k_none = static_cast<size_t>(-1);
  int unrepairable = -1;
  for (size_t c = 0; c < stride; ++c) {
    auto at = [&](size_t row) -> double& { return values[row * stride + c]; };
    size_t previous = k_none;  // the last finite row so far
    bool changed = false;
    for (size_t r = 0; r < rows; ++r) {
      if (!std::isfinite(at(r))) continue;
      for (size_t g = previous == k_none ? 0 : previous + 1; g < r; ++g) {
        const double t = previous == k_none ? 1.0 : static_cast<double>(g - previous) / static_cast<double>(r - previous);
        at(g) = previous == k_none ? at(r) : at(previous) + t * (at(r) - at(previous));
        changed = true;
      }
      previous = r;
    }
    if (previous == k_none) {
      if (rows > 0 && unrepairable < 0) unrepairable = static_cast<int>(c);
      continue;
    }
    for (size_t g = previous + 1; g < rows; ++g, changed = true) at(g) = at(previous);  // held after the last
    if (changed) decimals[c] = k_not_plain_decimal;
  }
  return unrepairable;
}

}  // namespace footfix::bvh_detail

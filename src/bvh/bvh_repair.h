// Internal to bvh/: the non-finite motion values of a BVH file (nan, inf, 1e999) that reading
// with repair on (ReadLimits::repair_bvh, --repair) fills from the finite values of the
// same channel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace footfix::bvh_detail {

/// Where the non-finite values of a motion block are, as the parser meets them.
class NonFiniteValues {
 public:
  explicit NonFiniteValues(int values_per_row) : first_line_(static_cast<size_t>(values_per_row), 0) {}

  /// Value `column` of a row on text line `line` (lines met in increasing order) is not finite.
  void add(int column, long line);
  long count() const { return count_; }
  /// Line of column `column`'s first non-finite value; 0 when it has none.
  long first_line(int column) const { return first_line_[static_cast<size_t>(column)]; }

  /// "line 212: repaired 3 non-finite values on 2 motion lines, each interpolated from ..."
  std::string warning() const;

 private:
  std::vector<long> first_line_;
  long count_ = 0, lines_ = 0, first_ = 0, last_ = 0;
};

/// Replaces every NaN of `values` (`rows` rows of `per_row`) by linear interpolation between the
/// nearest finite values of its column (held at the ends) and marks those columns' decimals
/// k_not_plain_decimal (written back in shortest round-trip form). Returns the first column with
/// no finite value at all (left as is), or -1.
int fill_non_finite(std::vector<double>& values, size_t rows, int per_row, std::vector<std::uint8_t>& decimals);

}  // namespace footfix::bvh_detail

#include "nearest_name.h"

#include <algorithm>

namespace footfix {
namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

/// A swap of two neighbours ("claen") counts as one edit, not two.
size_t transposition_aware_distance(const std::string& a, const std::string& b) {
  size_t best = edit_distance(a, b);
  for (size_t i = 0; i + 1 < a.size(); ++i) {
    std::string swapped = a;
    std::swap(swapped[i], swapped[i + 1]);
    if (swapped == b) best = std::min<size_t>(best, 1);
  }
  return best;
}

}  // namespace

std::string nearest_name(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = std::max<size_t>(2, word.size() / 3) + 1;
  for (const auto& c : candidates) {
    size_t d = transposition_aware_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string near = nearest_name(word, candidates);
  return near.empty() ? "" : " (did you mean '" + near + "'?)";
}

}  // namespace footfix

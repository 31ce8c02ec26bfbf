// How far detected contacts agree with reference ones, frame by frame. Header-only, shared by
// tests and bench/.
#pragma once

#include <cstdint>
#include <vector>

#include "footfix/eval/metrics.h"

namespace footfix::test {

/// Share of `reference`'s contact frames (both legs) that `detected` also has; 1 without any.
inline double contact_recall(const ContactMask& detected, const ContactMask& reference) {
  int both = 0, total = 0;
  for (int s = 0; s < 2; ++s)
    for (size_t f = 0; f < reference[s].size() && f < detected[s].size(); ++f) {
      total += reference[s][f];
      both += reference[s][f] && detected[s][f];
    }
  return total > 0 ? static_cast<double>(both) / total : 1.0;
}

/// F1 of one leg's `detected` contact frames against its `truth`.
inline double contact_f1(const std::vector<std::uint8_t>& detected, const std::vector<std::uint8_t>& truth) {
  int tp = 0, fp = 0, fn = 0;
  for (size_t f = 0; f < truth.size() && f < detected.size(); ++f) {
    tp += detected[f] && truth[f];
    fp += detected[f] && !truth[f];
    fn += !detected[f] && truth[f];
  }
  return tp == 0 ? 0.0 : 2.0 * tp / (2.0 * tp + fp + fn);
}

}  // namespace footfix::test

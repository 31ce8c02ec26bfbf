// The banded Cholesky's compact mode (long systems: only a declared pattern of A stored, the
// factor recomputed from checkpoints) against its dense mode: the same solution to the bit, on
// random patterned matrices and on the fast offline solve of a real clip; its refusals; the
// pattern's entries kept and put back after a factor.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

#include "../../src/solve/banded_spd.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "footfix/solve/offline_solve.h"
#include "solve/clean_problem.h"
#include "support/paths.h"

namespace footfix {
namespace {

using detail::BandedSpd;

/// Sets the compact threshold for the test's scope.
class CompactAbove {
 public:
  explicit CompactAbove(std::size_t doubles) : previous_(BandedSpd::set_compact_above_doubles(doubles)) {}
  ~CompactAbove() { BandedSpd::set_compact_above_doubles(previous_); }
  CompactAbove(const CompactAbove&) = delete;
  CompactAbove& operator=(const CompactAbove&) = delete;

 private:
  std::size_t previous_;
};

// A period-3 pattern in a band of 7: each unknown with the next ones of its group of 3, and with
// itself 3 and 6 unknowns on (the solver's shape, smaller).
BandedSpd::Pattern small_pattern() { return {{0, 1, 2, 3, 6}, {0, 1, 3, 6}, {0, 3, 6}}; }

// Fills `m` with a random diagonally dominant (so positive definite) matrix on the pattern.
void fill_random(BandedSpd& m, const BandedSpd::Pattern& pattern, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::mt19937 copy = rng;
  for (int j = 0; j < m.size(); ++j)
    for (int offset : pattern[j % pattern.size()])
      if (j + offset < m.size()) m.add(j + offset, j, offset == 0 ? 20 + u(copy) : u(copy));
  rng = copy;
}

TEST(BandedSpdCompact, SolvesLikeTheDenseBandToTheBit) {
  const BandedSpd::Pattern pattern = small_pattern();
  for (int n : {1, 2, 7, 50, 1000, 4099}) {
    SCOPED_TRACE(testing::Message() << "n " << n);
    std::mt19937 rng(n);
    BandedSpd dense(n, 6, pattern);
    ASSERT_FALSE(dense.compact());
    BandedSpd compact = [&] {
      CompactAbove all(0);
      return BandedSpd(n, 6, pattern);
    }();
    ASSERT_TRUE(compact.compact());
    std::mt19937 same = rng;
    fill_random(dense, pattern, rng);
    fill_random(compact, pattern, same);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<double> b(n);
    for (double& v : b) v = u(rng);
    std::vector<double> x_dense = b, x_compact = b;
    ASSERT_TRUE(dense.factor_solve(x_dense));
    ASSERT_TRUE(compact.factor_solve(x_compact));
    for (int i = 0; i < n; ++i) ASSERT_EQ(x_compact[i], x_dense[i]) << "x[" << i << "]";
    // Compact mode keeps A: a second solve gives the same answer.
    std::vector<double> again = b;
    ASSERT_TRUE(compact.factor_solve(again));
    EXPECT_EQ(again, x_compact);
  }
}

// keep_pattern_entries() / restore_pattern_entries(): a dense band factored in place (its fill-in
// nonzero) and put back a part at a time solves as the first time, to the bit; a compact one too.
TEST(BandedSpdCompact, RestoresThePatternEntriesAfterAFactor) {
  const BandedSpd::Pattern pattern = small_pattern();
  for (bool compact : {false, true}) {
    SCOPED_TRACE(testing::Message() << "compact " << compact);
    const int n = 601;
    std::mt19937 rng(7);
    CompactAbove threshold(compact ? 0 : BandedSpd::compact_above_doubles());
    BandedSpd m(n, 6, pattern);
    ASSERT_EQ(m.compact(), compact);
    fill_random(m, pattern, rng);
    m.keep_pattern_entries();
    std::vector<double> b(n, 1.0), first = b;
    ASSERT_TRUE(m.factor_solve(first));
    if (compact) {
      m.restore_pattern_entries(0, n);
    } else {
      for (int from = 0; from < n; from += 3 * 7) m.restore_pattern_entries(from, std::min(n, from + 3 * 7));
    }
    std::vector<double> second = b;
    ASSERT_TRUE(m.factor_solve(second));
    EXPECT_EQ(second, first);
  }
}

TEST(BandedSpdCompact, UsesLessMemoryThanTheBandWhenLarge) {
  CompactAbove all(0);
  BandedSpd compact(900, 6, small_pattern());
  EXPECT_TRUE(compact.compact());
  BandedSpd no_pattern(900, 6);
  EXPECT_FALSE(no_pattern.compact());  // nothing to compact without a pattern
}

TEST(BandedSpdCompact, RefusesEntriesOutsideThePatternAndMatricesNotPositiveDefinite) {
  CompactAbove all(0);
  BandedSpd m(30, 6, small_pattern());
  EXPECT_THROW(m.add(5, 0, 1.0), std::logic_error);  // offset 5 is not in column 0's pattern
  EXPECT_THROW(m.add(0, 5, 1.0), std::logic_error);  // nor seen from the upper side
  EXPECT_NO_THROW(m.add(3, 0, 1.0));
  std::vector<double> b(30, 1.0);
  EXPECT_FALSE(m.factor_solve(b));  // zero diagonal: not positive definite
  EXPECT_THROW(BandedSpd(30, 6, {{0, 7}}), std::invalid_argument);
}

// The fast offline solve of a real clip in compact mode: its assembly stays inside the pattern
// it declares, and its result is the dense mode's to the bit. Run with and without the reach
// limit, whose terms couple each frame's pelvis with its toes.
void expect_compact_matches_dense(bool reach_limit) {
  LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  ContactResult contacts = detect_contacts(loaded.clip, loaded.rig, ContactSettings{});
  LegIkSettings ik;
  ik.reach_to_straight = reach_limit;
  CleanProblem problem = prepare_clean_problem(loaded.clip, loaded.rig, contacts, ik);
  ASSERT_EQ(problem.input.reach_m[0].empty(), !reach_limit);
  OfflineSolveSettings settings;
  if (reach_limit) use_reach_limit(settings);
  const OfflineSolveResult dense = solve_offline(problem.input, settings);
  OfflineSolveResult compact;
  {
    CompactAbove all(0);
    compact = solve_offline(problem.input, settings);
  }
  ASSERT_GT(dense.iterations, 0);
  EXPECT_EQ(compact.iterations, dense.iterations);
  ASSERT_EQ(compact.pelvis_ws.size(), dense.pelvis_ws.size());
  for (size_t f = 0; f < dense.pelvis_ws.size(); ++f) {
    ASSERT_EQ(compact.pelvis_ws[f], dense.pelvis_ws[f]) << "frame " << f;
    for (int s = 0; s < 2; ++s) ASSERT_EQ(compact.toe_ws[s][f], dense.toe_ws[s][f]) << "frame " << f;
  }
}

TEST(BandedSpdCompact, OfflineSolveOfARealClipMatchesTheDenseMode) { expect_compact_matches_dense(false); }

TEST(BandedSpdCompact, ReachLimitedSolveOfARealClipMatchesTheDenseMode) {
  expect_compact_matches_dense(true);
}

}  // namespace
}  // namespace footfix

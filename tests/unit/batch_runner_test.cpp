// The CLI's batch runner in-process: every exception of one clip, footfix's or not, is caught
// and recorded for that clip, and the other clips still run.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

#include "../../src/cli/batch.h"

namespace footfix::cli {
namespace {

TEST(BatchRunner, EveryExceptionFailsOnlyItsClip) {
  std::vector<BatchItem> items(5);
  for (size_t i = 0; i < items.size(); ++i) items[i].input = "clip" + std::to_string(i) + ".bvh";
  std::atomic<int> ran{0};
  std::vector<size_t> reported;
  auto outcomes = run_batch(
      items, 2,
      [&](const BatchItem&, size_t i) {
        ++ran;
        if (i == 0) throw 42;  // not a std::exception
        if (i == 1) throw std::out_of_range("vector");
        if (i == 2) fail(ErrorKind::process, "no legs");
      },
      [&](size_t i, const ItemOutcome&) { reported.push_back(i); });
  EXPECT_EQ(ran.load(), 5);
  EXPECT_EQ(reported.size(), 5u);
  ASSERT_EQ(outcomes.size(), 5u);
  EXPECT_FALSE(outcomes[0].ok);
  EXPECT_EQ(outcomes[0].exit_code, 70);
  EXPECT_NE(outcomes[0].message.find("clip0.bvh: internal error"), std::string::npos) << outcomes[0].message;
  EXPECT_EQ(outcomes[1].exit_code, 70);
  EXPECT_NE(outcomes[1].message.find("vector"), std::string::npos);
  EXPECT_EQ(outcomes[2].exit_code, 4);
  EXPECT_TRUE(outcomes[3].ok && outcomes[4].ok);
  EXPECT_EQ(summarize_batch(items, outcomes, "done", {}), 70);  // the most severe failure
}

TEST(BatchRunner, ExitCodesRankBySeverity) {
  EXPECT_EQ(most_severe_exit_code(k_exit_read, k_exit_check_failed), k_exit_check_failed);
  EXPECT_EQ(most_severe_exit_code(k_exit_check_failed, k_exit_write), k_exit_check_failed);
  EXPECT_EQ(most_severe_exit_code(k_exit_internal, k_exit_check_failed), k_exit_internal);
  EXPECT_EQ(most_severe_exit_code(k_exit_usage, k_exit_ok), k_exit_usage);
  EXPECT_EQ(most_severe_exit_code(k_exit_process, k_exit_read), k_exit_process);
}

}  // namespace
}  // namespace footfix::cli

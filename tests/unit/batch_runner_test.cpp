// The batch runner (footfix/batch/run_batch.h) in-process: every exception of one clip, footfix's
// or not, is caught and recorded for that clip, and the other clips still run; a stop starts no
// further item.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>

#include "footfix/batch/run_batch.h"
#include "footfix/core/error.h"

namespace footfix {
namespace {

std::vector<BatchItem> numbered_items(size_t count) {
  std::vector<BatchItem> items(count);
  for (size_t i = 0; i < items.size(); ++i) items[i].input = "clip" + std::to_string(i) + ".bvh";
  return items;
}

TEST(BatchRunner, EveryExceptionFailsOnlyItsClip) {
  const std::vector<BatchItem> items = numbered_items(5);
  std::atomic<int> ran{0};
  std::vector<size_t> reported, finished_counts;
  RunBatchHooks hooks;
  hooks.after_each = [&](size_t i, const ItemOutcome&, size_t finished) {
    reported.push_back(i);
    finished_counts.push_back(finished);
  };
  auto outcomes = run_batch(
      items, 2,
      [&](const BatchItem&, size_t i) {
        ++ran;
        if (i == 0) throw 42;  // not a std::exception
        if (i == 1) throw std::out_of_range("vector");
        if (i == 2) fail(ErrorKind::process, "no legs");
      },
      hooks);
  EXPECT_EQ(ran.load(), 5);
  EXPECT_EQ(reported.size(), 5u);
  EXPECT_EQ(finished_counts, (std::vector<size_t>{1, 2, 3, 4, 5}));
  ASSERT_EQ(outcomes.size(), 5u);
  EXPECT_FALSE(outcomes[0].ok);
  EXPECT_EQ(outcomes[0].exit_code, 70);
  EXPECT_NE(outcomes[0].message.find("clip0.bvh: internal error"), std::string::npos) << outcomes[0].message;
  EXPECT_EQ(outcomes[1].exit_code, 70);
  EXPECT_NE(outcomes[1].message.find("vector"), std::string::npos);
  EXPECT_EQ(outcomes[2].exit_code, 4);
  EXPECT_TRUE(outcomes[3].ok && outcomes[4].ok);
  EXPECT_EQ(most_severe_outcome(outcomes), 70);  // the most severe failure
}

TEST(BatchRunner, StopStartsNoFurtherItem) {
  const std::vector<BatchItem> items = numbered_items(6);
  std::atomic<bool> stop{false};
  std::vector<size_t> ran;
  RunBatchHooks hooks;
  hooks.stop = [&] { return stop.load(); };
  hooks.between_items = [&](size_t finished) {
    if (finished == 2) stop = true;
  };
  run_batch(items, 1, [&](const BatchItem&, size_t i) { ran.push_back(i); }, hooks);
  EXPECT_EQ(ran, (std::vector<size_t>{0, 1}));
}

TEST(BatchRunner, RefusedItemFailsWithoutRunning) {
  std::vector<BatchItem> items = numbered_items(2);
  items[1].refusal = "clip1.bvh: would overwrite an input";
  std::vector<size_t> ran;
  auto outcomes = run_batch(items, 1, [&](const BatchItem&, size_t i) { ran.push_back(i); });
  EXPECT_EQ(ran, (std::vector<size_t>{0}));
  EXPECT_EQ(outcomes[1].exit_code, k_exit_write);
  EXPECT_EQ(outcomes[1].message, items[1].refusal);
}

TEST(BatchRunner, ExitCodesRankBySeverity) {
  EXPECT_EQ(most_severe_exit_code(k_exit_read, k_exit_check_failed), k_exit_check_failed);
  EXPECT_EQ(most_severe_exit_code(k_exit_check_failed, k_exit_write), k_exit_check_failed);
  EXPECT_EQ(most_severe_exit_code(k_exit_internal, k_exit_check_failed), k_exit_internal);
  EXPECT_EQ(most_severe_exit_code(k_exit_usage, k_exit_ok), k_exit_usage);
  EXPECT_EQ(most_severe_exit_code(k_exit_process, k_exit_read), k_exit_process);
}

}  // namespace
}  // namespace footfix

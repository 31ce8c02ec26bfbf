// Running the items of a planned batch (plan_batch.h) on worker threads: items are independent,
// a failed item does not stop the others, and each item's outcome does not depend on the number
// of threads. Nothing is printed: the caller hears of each finished item through hooks.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "footfix/batch/exit_codes.h"
#include "footfix/batch/plan_batch.h"

namespace footfix {

struct ItemOutcome {
  bool ok = true;
  int exit_code = k_exit_ok;
  std::string message;  ///< error message when !ok
};

struct RunBatchHooks {
  /// After each item, one call at a time: its index, its outcome and how many items have finished
  /// (this one included). Its exceptions are passed to `hook_error` and do not stop the batch.
  std::function<void(std::size_t index, const ItemOutcome& outcome, std::size_t finished)> after_each;
  /// Asked before each item is taken: once it returns true, no further item starts (items under
  /// way finish). May be called from several threads at once.
  std::function<bool()> stop;
  /// After after_each, outside its lock, on the thread that ran the item, before it takes the
  /// next one; `finished` as above. A test stops a batch at a known point here.
  std::function<void(std::size_t finished)> between_items;
  /// Told the message of an exception thrown by after_each.
  std::function<void(const std::string& message)> hook_error;
};

/// Runs `work(item, index)` for every item on `jobs` threads (at least one, at most one per
/// item). An item with a refusal, or whose output folder resolved through symbolic links just
/// before the work leaves its output_root, fails with a write error (exit 5) without running.
/// Every exception of one item is caught and recorded (footfix::Error -> its exit code, anything
/// else -> internal error 70, the message naming the input). Returns outcomes in item order; an
/// item never started (hooks.stop) keeps a default outcome.
std::vector<ItemOutcome> run_batch(const std::vector<BatchItem>& items, int jobs,
                                   const std::function<void(const BatchItem&, std::size_t index)>& work,
                                   const RunBatchHooks& hooks = {});

/// The most severe exit code of the failed outcomes (most_severe_exit_code), k_exit_ok when none failed.
int most_severe_outcome(const std::vector<ItemOutcome>& outcomes);

}  // namespace footfix

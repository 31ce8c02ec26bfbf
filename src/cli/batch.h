// Running a planned batch (footfix/batch/plan_batch.h) for the commands that take files and
// directories: runs clips in parallel, keeps going past bad clips, and summarises.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <functional>
#include <string>
#include <vector>

#include "exit_codes.h"
#include "footfix/batch/plan_batch.h"

namespace footfix::cli {

/// Logs a planning note (plan_batch, expand_inputs) at its level.
void log_plan_note(NoteLevel level, const std::string& text);

/// Prints the plan to stdout ("input -> output [+ companion]"), for --dry-run.
void print_plan(const std::vector<BatchItem>& items);

struct ItemOutcome {
  bool ok = true;
  int exit_code = k_exit_ok;
  std::string message;  ///< error message when !ok
};

/// Runs `work(item)` for every item on `jobs` threads (items are independent; the result of each
/// does not depend on the thread count). An item with a refusal, or whose output folder resolved
/// through symbolic links just before the work leaves its output_root, fails with a write error
/// (exit 5) without running. Every exception of one item is caught and recorded
/// (footfix::Error -> its exit code, anything else -> internal error 70); the rest go on.
/// `after_each(index, outcome)`, if set, runs after each item, one call at a time. Shows a
/// progress line on a terminal. Returns outcomes in item order.
/// On SIGINT or SIGTERM: logs "interrupted by SIGTERM: n of N clips finished", calls
/// `on_interrupt(signal name, n)` (no after_each runs from then on) and ends the process by the
/// signal (see interrupt.h).
std::vector<ItemOutcome> run_batch(const std::vector<BatchItem>& items, int jobs,
                                   const std::function<void(const BatchItem&, size_t index)>& work,
                                   const std::function<void(size_t index, const ItemOutcome&)>& after_each = {},
                                   const std::function<void(const std::string& signal, size_t finished)>& on_interrupt = {});

/// What the end-of-batch summary tells besides the outcomes.
struct BatchTotals {
  double seconds = 0;    ///< the batch's wall-clock time
  size_t unchanged = 0;  ///< clips that succeeded without work (clean --incremental: unchanged, skipped)
};

/// Seconds from `start` to now.
double seconds_since(std::chrono::steady_clock::time_point start);

/// Logs, for a batch of several clips or one that failed, "N clips: M <verb>[, U unchanged], K
/// failed in T s" and each failure; returns 0 or the most severe failure's exit code (see
/// most_severe_exit_code).
int summarize_batch(const std::vector<BatchItem>& items, const std::vector<ItemOutcome>& outcomes, const char* verb,
                    const BatchTotals& totals);

}  // namespace footfix::cli

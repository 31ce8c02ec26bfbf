// The console side of a planned batch (footfix/batch/plan_batch.h, run_batch.h) for the commands
// that take files and directories: planning notes, the --dry-run plan, the progress line, the
// interrupt watch, and the end-of-batch summary.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "footfix/batch/plan_batch.h"
#include "footfix/batch/run_batch.h"

namespace footfix::cli {

/// Logs a planning note (plan_batch, expand_inputs) at its level.
void log_plan_note(NoteLevel level, const std::string& text);

/// Prints the plan to stdout ("input -> output [+ companion]"), for --dry-run.
void print_plan(const std::vector<BatchItem>& items);

/// run_batch (footfix/batch/run_batch.h) with a progress line on a terminal. On SIGINT or
/// SIGTERM: logs "interrupted by SIGTERM: n of N clips finished" and ends the process by the
/// signal (see interrupt.h).
std::vector<ItemOutcome> run_console_batch(const std::vector<BatchItem>& items, int jobs,
                                           const std::function<void(const BatchItem&, size_t index)>& work);

/// Draws the progress line for a batch of `total` items (nothing for a single item).
void show_batch_progress(size_t finished, size_t total, const BatchItem& item);

/// The test hook of interrupt.h: after `finished` items, sends the process SIGTERM when
/// FOOTFIX_TEST_INTERRUPT_AFTER says so, and waits there for the signal to end it.
void stop_here_for_test(size_t finished);

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

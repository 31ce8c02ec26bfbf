// Ctrl-C, or a CI job's SIGTERM at its timeout, during a batch: a watcher thread receives the
// signal, lets the command record what had finished (the command stops its batch, so that no
// clip is being recorded then, and none after), and ends the process by that same signal: the
// exit status still says it was killed, and the files module's handler removes the temporary
// files of the outputs being written. Process-wide policy: it belongs to the executable, and
// the library's batch only offers the stop (footfix/batch/clean_batch.h).
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <thread>

#include <signal.h>

namespace footfix::cli {

class InterruptWatch {
 public:
  /// Blocks SIGINT and SIGTERM in the calling thread (threads it starts from now on inherit
  /// that) and starts the watcher. On either signal the watcher calls `on_signal(signal)`, which
  /// must leave nothing more to be recorded, and ends the process by the signal.
  explicit InterruptWatch(std::function<void(int signal)> on_signal);
  /// Stops the watcher and restores the calling thread's signal mask: a signal pending or sent
  /// from then on acts as it would without the watch.
  ~InterruptWatch();
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;

 private:
  void watch();

  std::function<void(int)> on_signal_;
  sigset_t signals_{}, previous_mask_{};
  std::atomic<bool> stop_{false};
  std::thread watcher_;
};

/// "SIGINT", "SIGTERM", or "signal N".
std::string signal_name(int signal);

/// Test hook: the number of finished clips after which a batch sends itself SIGTERM, read from
/// FOOTFIX_TEST_INTERRUPT_AFTER; 0 when unset. A test stops a batch at a known point with it.
std::size_t test_interrupt_after();

}  // namespace footfix::cli

#include "batch.h"

#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <mutex>

#include "console.h"
#include "interrupt.h"

namespace footfix::cli {
namespace fs = std::filesystem;

void log_plan_note(NoteLevel level, const std::string& text) {
  if (level == NoteLevel::error) spdlog::error("{}", text);
  else if (level == NoteLevel::warning) spdlog::warn("{}", text);
  else spdlog::info("{}", text);
}

void print_plan(const std::vector<BatchItem>& items) {
  for (const auto& item : items) {
    std::string line = escape_for_console(item.input) + " -> " + escape_for_console(item.output);
    if (!item.companion.empty()) line += " + " + escape_for_console(item.companion);
    if (!item.refusal.empty()) line += "  [fails: " + escape_for_console(item.refusal) + "]";
    std::printf("%s\n", line.c_str());
  }
  std::printf("dry run: %zu clip%s planned, nothing written\n", items.size(), items.size() == 1 ? "" : "s");
}

void show_batch_progress(size_t finished, size_t total, const BatchItem& item) {
  if (total > 1) progress_update(finished, total, fs::path(item.input).filename().string());
}

void stop_here_for_test(size_t finished) {
  static const size_t interrupt_after = test_interrupt_after();
  if (finished != interrupt_after) return;
  ::kill(::getpid(), SIGTERM);
  for (;;) ::pause();  // the watcher ends the process
}

std::vector<ItemOutcome> run_console_batch(const std::vector<BatchItem>& items, int jobs,
                                           const std::function<void(const BatchItem&, size_t)>& work) {
  std::mutex lock;  // held from a signal until the process ends: nothing more is shown
  size_t done = 0;
  RunBatchHooks hooks;
  hooks.after_each = [&](size_t index, const ItemOutcome&, size_t finished) {
    std::lock_guard<std::mutex> hold(lock);
    done = finished;
    show_batch_progress(finished, items.size(), items[index]);
  };
  hooks.between_items = stop_here_for_test;
  hooks.hook_error = [](const std::string& message) { spdlog::error("{}", message); };
  InterruptWatch watch([&](int signal) {
    lock.lock();
    spdlog::error("interrupted by {}: {} of {} finished", signal_name(signal), done, counted(items.size(), "clip"));
  });
  auto outcomes = run_batch(items, jobs, work, hooks);
  progress_end();
  return outcomes;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int summarize_batch(const std::vector<BatchItem>& items, const std::vector<ItemOutcome>& outcomes, const char* verb,
                    const BatchTotals& totals) {
  size_t failed = 0;
  for (const ItemOutcome& outcome : outcomes) failed += !outcome.ok;
  if (items.size() > 1 || failed > 0) {
    const size_t done = items.size() - failed - totals.unchanged;
    const std::string unchanged = totals.unchanged > 0 ? ", " + std::to_string(totals.unchanged) + " unchanged" : "";
    spdlog::info("{}: {} {}{}, {} failed in {:.1f} s", counted(items.size(), "clip"), done, verb, unchanged, failed,
                 totals.seconds);
  }
  for (const ItemOutcome& outcome : outcomes)
    if (!outcome.ok) spdlog::error("failed: {}", outcome.message);
  return most_severe_outcome(outcomes);
}

}  // namespace footfix::cli

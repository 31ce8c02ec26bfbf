#include "batch.h"

#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>

#include "console.h"
#include "footfix/core/error.h"
#include "footfix/pipeline/load_clip.h"
#include "interrupt.h"
#include "footfix/batch/output_guard.h"

namespace footfix::cli {
namespace fs = std::filesystem;

namespace {

/// Throws Error(write) when an output of `item`, its folder resolved through symbolic links, is
/// not inside the item's output_root resolved the same way (a link under -o that leaves it).
void refuse_outputs_leaving_root(const BatchItem& item) {
  if (!item.output_root) return;
  const fs::path root = real_path(*item.output_root);
  for (const std::string* text : {&item.output, &item.companion}) {
    if (text->empty()) continue;
    const fs::path out(*text);
    const fs::path folder = real_path(out.parent_path().empty() ? fs::path(".") : out.parent_path());
    if (!is_under(folder, root))
      fail(ErrorKind::write, *text + ": refusing to write: its folder leads through a symbolic link to " +
                                 folder.string() + ", outside -o " + item.output_root->string());
  }
}

}  // namespace

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

std::vector<ItemOutcome> run_batch(const std::vector<BatchItem>& items, int jobs,
                                   const std::function<void(const BatchItem&, size_t)>& work,
                                   const std::function<void(size_t, const ItemOutcome&)>& after_each,
                                   const std::function<void(const std::string&, size_t)>& on_interrupt) {
  std::vector<ItemOutcome> outcomes(items.size());
  std::atomic<size_t> next{0};
  size_t done = 0;
  std::mutex done_mutex;
  const bool progress = items.size() > 1;
  const size_t interrupt_after = test_interrupt_after();
  auto worker = [&] {
    for (size_t i; (i = next++) < items.size();) {
      try {
        if (!items[i].refusal.empty()) fail(ErrorKind::write, items[i].refusal);
        refuse_outputs_leaving_root(items[i]);
        work(items[i], i);
      } catch (const Error& e) {
        outcomes[i] = {false, exit_code_for(e.kind()), e.what()};
      } catch (const std::exception& e) {
        outcomes[i] = {false, k_exit_internal, items[i].input + ": internal error: " + e.what()};
      } catch (...) {
        outcomes[i] = {false, k_exit_internal, items[i].input + ": internal error: unknown exception"};
      }
      size_t finished = 0;
      {
        std::lock_guard<std::mutex> lock(done_mutex);
        finished = ++done;
        if (after_each) {
          try {
            after_each(i, outcomes[i]);
          } catch (const std::exception& e) {
            spdlog::error("{}", e.what());
          }
        }
        if (progress) progress_update(done, items.size(), fs::path(items[i].input).filename().string());
      }
      if (finished == interrupt_after) {
        ::kill(::getpid(), SIGTERM);
        for (;;) ::pause();  // the watcher ends the process
      }
    }
  };
  InterruptWatch watch(done_mutex, [&](int signal) {
    spdlog::error("interrupted by {}: {} of {} finished", signal_name(signal), done, counted(items.size(), "clip"));
    if (on_interrupt) on_interrupt(signal_name(signal), done);
  });
  int threads = std::clamp(jobs, 1, static_cast<int>(std::max<size_t>(1, items.size())));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  progress_end();
  return outcomes;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int summarize_batch(const std::vector<BatchItem>& items, const std::vector<ItemOutcome>& outcomes, const char* verb,
                    const BatchTotals& totals) {
  size_t failed = 0;
  int code = k_exit_ok;
  for (size_t i = 0; i < items.size(); ++i) {
    if (outcomes[i].ok) continue;
    ++failed;
    code = most_severe_exit_code(code, outcomes[i].exit_code);
  }
  if (items.size() > 1 || failed > 0) {
    const size_t done = items.size() - failed - totals.unchanged;
    const std::string unchanged = totals.unchanged > 0 ? ", " + std::to_string(totals.unchanged) + " unchanged" : "";
    spdlog::info("{}: {} {}{}, {} failed in {:.1f} s", counted(items.size(), "clip"), done, verb, unchanged, failed,
                 totals.seconds);
  }
  for (size_t i = 0; i < items.size(); ++i)
    if (!outcomes[i].ok) spdlog::error("failed: {}", outcomes[i].message);
  return code;
}

}  // namespace footfix::cli

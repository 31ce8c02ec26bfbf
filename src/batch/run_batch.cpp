#include "footfix/batch/run_batch.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <thread>

#include "footfix/batch/output_guard.h"
#include "footfix/core/error.h"

namespace footfix {
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

/// Runs one item, turning every exception into its outcome.
ItemOutcome run_item(const BatchItem& item, std::size_t index,
                     const std::function<void(const BatchItem&, std::size_t)>& work) {
  try {
    if (!item.refusal.empty()) fail(ErrorKind::write, item.refusal);
    refuse_outputs_leaving_root(item);
    work(item, index);
  } catch (const Error& e) {
    return {false, exit_code_for(e.kind()), e.what()};
  } catch (const std::exception& e) {
    return {false, k_exit_internal, item.input + ": internal error: " + e.what()};
  } catch (...) {
    return {false, k_exit_internal, item.input + ": internal error: unknown exception"};
  }
  return {};
}

}  // namespace

std::vector<ItemOutcome> run_batch(const std::vector<BatchItem>& items, int jobs,
                                   const std::function<void(const BatchItem&, std::size_t)>& work,
                                   const RunBatchHooks& hooks) {
  std::vector<ItemOutcome> outcomes(items.size());
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::mutex done_mutex;
  auto worker = [&] {
    while (!(hooks.stop && hooks.stop())) {
      const std::size_t i = next++;
      if (i >= items.size()) break;
      outcomes[i] = run_item(items[i], i, work);
      std::size_t finished = 0;
      {
        std::lock_guard<std::mutex> lock(done_mutex);
        finished = ++done;
        if (hooks.after_each) {
          try {
            hooks.after_each(i, outcomes[i], finished);
          } catch (const std::exception& e) {
            if (hooks.hook_error) hooks.hook_error(e.what());
          }
        }
      }
      if (hooks.between_items) hooks.between_items(finished);
    }
  };
  const int threads = std::clamp(jobs, 1, static_cast<int>(std::max<std::size_t>(1, items.size())));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  return outcomes;
}

int most_severe_outcome(const std::vector<ItemOutcome>& outcomes) {
  int code = k_exit_ok;
  for (const ItemOutcome& outcome : outcomes)
    if (!outcome.ok) code = most_severe_exit_code(code, outcome.exit_code);
  return code;
}

}  // namespace footfix

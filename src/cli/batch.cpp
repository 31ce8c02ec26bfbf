#include "batch.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>

#include "footfix/core/error.h"
#include "footfix/io/clip_io.h"

namespace footfix::cli {
namespace fs = std::filesystem;

namespace {

fs::path with_suffix(const fs::path& path, const OutputPlan& plan, bool next_to_input) {
  fs::path out = path;
  std::string ext = plan.new_extension.empty() ? path.extension().string() : plan.new_extension;
  std::string stem = path.stem().string();
  if (next_to_input && !plan.in_place) stem += plan.suffix;
  out.replace_filename(stem + ext);
  return out;
}

bool looks_like_file(const std::string& output) { return is_clip_path(output); }

}  // namespace

std::vector<BatchItem> plan_batch(const std::vector<std::string>& inputs, const OutputPlan& plan) {
  std::vector<BatchItem> items;
  const bool to_file = !plan.output.empty() && looks_like_file(plan.output);
  for (const auto& input : inputs) {
    fs::path in(input);
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      if (to_file) fail(ErrorKind::usage, "-o " + plan.output + ": a directory input needs an output directory");
      if (plan.output.empty() && !plan.in_place)
        fail(ErrorKind::usage, input + ": a directory input needs -o OUTPUT_DIR (or --in-place)");
      // Outputs written inside the input tree are not inputs of a later run (idempotent re-runs).
      fs::path skip = plan.output.empty() ? fs::path() : fs::weakly_canonical(plan.output, ec);
      std::vector<fs::path> found;
      for (fs::recursive_directory_iterator it(in, fs::directory_options::skip_permission_denied, ec), end;
           !ec && it != end; it.increment(ec)) {
        if (!skip.empty() && it->is_directory(ec) && fs::weakly_canonical(it->path(), ec) == skip) {
          it.disable_recursion_pending();
          continue;
        }
        if (it->is_regular_file(ec) && is_clip_path(it->path())) found.push_back(it->path());
      }
      if (ec) fail(ErrorKind::read, input + ": cannot list directory: " + ec.message());
      std::sort(found.begin(), found.end());
      for (const auto& f : found) {
        fs::path out = plan.output.empty() ? with_suffix(f, plan, true)
                                           : with_suffix(fs::path(plan.output) / fs::relative(f, in), plan, false);
        items.push_back({f, out});
      }
    } else if (fs::exists(in, ec)) {
      fs::path out = plan.output.empty() ? with_suffix(in, plan, true)
                     : to_file           ? fs::path(plan.output)
                                         : with_suffix(fs::path(plan.output) / in.filename(), plan, false);
      items.push_back({in, out});
    } else {
      fail(ErrorKind::read, input + ": no such file or directory");
    }
  }
  if (to_file && items.size() > 1) fail(ErrorKind::usage, "-o " + plan.output + ": several inputs need an output directory");
  return items;
}

fs::path contacts_json_path(const fs::path& clip_output) {
  fs::path p = clip_output;
  p.replace_extension(".contacts.json");
  return p;
}

std::vector<ItemOutcome> run_batch(const std::vector<BatchItem>& items, int jobs, bool quiet,
                                   const std::function<void(const BatchItem&, size_t)>& work) {
  std::vector<ItemOutcome> outcomes(items.size());
  std::atomic<size_t> next{0}, done{0};
  std::mutex progress_mutex;
  const bool progress = !quiet && ::isatty(STDERR_FILENO) && items.size() > 1;
  auto worker = [&] {
    for (size_t i; (i = next++) < items.size();) {
      try {
        work(items[i], i);
      } catch (const Error& e) {
        outcomes[i] = {false, exit_code_for(e.kind()), e.what()};
      } catch (const std::exception& e) {
        outcomes[i] = {false, k_exit_internal, items[i].input.string() + ": internal error: " + e.what()};
      }
      size_t n = ++done;
      if (progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        std::fprintf(stderr, "\r[%zu/%zu] %s\033[K", n, items.size(), items[i].input.filename().c_str());
        if (n == items.size()) std::fprintf(stderr, "\n");
      }
    }
  };
  int threads = std::clamp(jobs, 1, static_cast<int>(std::max<size_t>(1, items.size())));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  return outcomes;
}

int summarize_batch(const std::vector<BatchItem>& items, const std::vector<ItemOutcome>& outcomes, const char* verb) {
  int failed = 0, code = k_exit_ok;
  for (size_t i = 0; i < items.size(); ++i) {
    if (outcomes[i].ok) continue;
    if (failed++ == 0) code = outcomes[i].exit_code;
  }
  if (items.size() > 1 || failed > 0)
    spdlog::info("{} clips: {} {}, {} failed", items.size(), items.size() - failed, verb, failed);
  for (size_t i = 0; i < items.size(); ++i)
    if (!outcomes[i].ok) spdlog::error("failed: {}", outcomes[i].message);
  return code;
}

}  // namespace footfix::cli

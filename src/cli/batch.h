// Batch processing for commands that take files and directories: expands inputs, maps each to
// its outputs, runs clips in parallel, keeps going past bad clips, and summarises.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "command.h"

namespace footfix::cli {

struct BatchItem {
  std::filesystem::path input;
  /// Output path without the extension policy applied: for directory inputs the mirrored path
  /// under the output directory, for a file input the output path chosen by the command.
  std::filesystem::path output;
};

/// How inputs map to outputs.
struct OutputPlan {
  std::string output;         ///< -o value; empty = next to the input
  std::string suffix;         ///< added to the stem when writing next to the input (".clean")
  bool in_place = false;      ///< write over the input (no suffix)
  std::string new_extension;  ///< ".bvh" to change the format; empty = keep the input's
};

/// Expands files and directories (recursively, clip extensions only, sorted) into items.
/// An output directory inside an input directory is not searched. Throws Error(read) for a
/// missing input and Error(usage) for a directory without -o (unless in place) or several
/// inputs with a file-like -o.
std::vector<BatchItem> plan_batch(const std::vector<std::string>& inputs, const OutputPlan& plan);

/// `<output without extension>.contacts.json`.
std::filesystem::path contacts_json_path(const std::filesystem::path& clip_output);

struct ItemOutcome {
  bool ok = true;
  int exit_code = k_exit_ok;
  std::string message;  ///< error message when !ok
};

/// Runs `work(item)` for every item on `jobs` threads (items are independent; the result of each
/// does not depend on the thread count). Errors of one item (footfix::Error -> its exit code,
/// other exceptions -> internal) are caught and recorded; the rest go on. Shows a progress line
/// on a terminal unless `quiet`. Returns outcomes in item order.
std::vector<ItemOutcome> run_batch(const std::vector<BatchItem>& items, int jobs, bool quiet,
                                   const std::function<void(const BatchItem&, size_t index)>& work);

/// Logs "N clips: M ok, K failed" and each failure; returns 0 or the first failure's exit code.
int summarize_batch(const std::vector<BatchItem>& items, const std::vector<ItemOutcome>& outcomes, const char* verb);

}  // namespace footfix::cli

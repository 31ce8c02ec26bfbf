// Splitting a batch over CI runners: `--shard K/N` keeps the inputs whose stable hash falls in
// shard K of N. The hash is of each input's path relative to the input it was found under (a
// directory argument, or the file's own name for a file argument), written with '/', so the
// partition does not depend on the checkout location, on the other files, or on the platform:
// adding a clip moves no other clip to another shard.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "footfix/batch/plan_batch.h"

namespace footfix {

/// Shard `index` (1-based) of `count`.
struct ShardSpec {
  int index = 1;
  int count = 1;
};

/// Reads the environment (getenv-like; returns nullptr when unset).
using EnvLookup = std::function<const char*(const char*)>;

/// Parses "K/N" (1 <= K <= N) or "auto" (GitLab's CI_NODE_INDEX / CI_NODE_TOTAL, both 1-based;
/// also accepted: FOOTFIX_SHARD_INDEX / FOOTFIX_SHARD_TOTAL). Throws Error(usage) with a message
/// naming what is wrong, e.g. "auto" outside CI.
ShardSpec parse_shard(const std::string& text, const EnvLookup& env);

/// The shard (1..count) of an input whose path relative to its input root is `relative_path`.
int shard_of(std::string_view relative_path, int count);

/// `input` relative to the first of `roots` (command-line inputs) that contains it, with '/';
/// a file given directly is keyed by its file name.
std::string shard_key(const std::filesystem::path& input, const std::vector<std::string>& roots);

/// Indices (ascending) of the `found` inputs (files expanded from the command-line `roots`) that
/// belong to shard `spec`. Each input's shard depends only on its key (see shard_key).
std::vector<std::size_t> shard_members(const std::vector<std::filesystem::path>& found,
                                       const std::vector<std::string>& roots, ShardSpec spec);

/// The items of a planned batch (inputs expanded from `roots`) that belong to shard `spec`, in order.
std::vector<BatchItem> shard_items(const std::vector<BatchItem>& items, const std::vector<std::string>& roots,
                                   ShardSpec spec);

}  // namespace footfix

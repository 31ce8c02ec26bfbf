#include "footfix/batch/shard.h"

#include <charconv>
#include <cstdlib>

#include "footfix/core/error.h"
#include "batch/stable_hash.h"

namespace footfix {
namespace fs = std::filesystem;

namespace {

int parse_positive(std::string_view text, const std::string& what) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1)
    fail(ErrorKind::usage, what + ": expected a positive integer, got '" + std::string(text) + "'");
  return value;
}

ShardSpec checked(ShardSpec spec, const std::string& what) {
  if (spec.index > spec.count)
    fail(ErrorKind::usage, what + ": shard " + std::to_string(spec.index) + " of " + std::to_string(spec.count) +
                               " does not exist (K must be 1..N)");
  return spec;
}

ShardSpec from_env(const EnvLookup& env, const char* index_name, const char* total_name) {
  const char* index = env(index_name);
  const char* total = env(total_name);
  if (index == nullptr || total == nullptr) return {0, 0};
  std::string what = std::string("--shard auto (") + index_name + "=" + index + ", " + total_name + "=" + total + ")";
  return checked({parse_positive(index, what), parse_positive(total, what)}, what);
}

}  // namespace

ShardSpec parse_shard(const std::string& text, const EnvLookup& env) {
  if (text == "auto") {
    ShardSpec spec = from_env(env, "CI_NODE_INDEX", "CI_NODE_TOTAL");
    if (spec.count == 0) spec = from_env(env, "FOOTFIX_SHARD_INDEX", "FOOTFIX_SHARD_TOTAL");
    if (spec.count == 0)
      fail(ErrorKind::usage,
           "--shard auto: CI_NODE_INDEX and CI_NODE_TOTAL are not set (GitLab sets them for jobs with "
           "'parallel: N'); outside GitLab CI use --shard K/N");
    return spec;
  }
  auto slash = text.find('/');
  if (slash == std::string::npos) fail(ErrorKind::usage, "--shard: expected K/N or auto, got '" + text + "'");
  std::string what = "--shard " + text;
  std::string_view view(text);
  return checked({parse_positive(view.substr(0, slash), what), parse_positive(view.substr(slash + 1), what)}, what);
}

int shard_of(std::string_view relative_path, int count) {
  if (count <= 1) return 1;
  return static_cast<int>(stable_hash(relative_path) % static_cast<std::uint64_t>(count)) + 1;
}

std::string shard_key(const fs::path& input, const std::vector<std::string>& roots) {
  std::error_code ec;
  for (const auto& root : roots) {
    fs::path r(root);
    if (!fs::is_directory(r, ec)) continue;
    fs::path rel = input.lexically_relative(r);
    if (!rel.empty() && *rel.begin() != "..") return rel.generic_string();
  }
  return input.filename().generic_string();
}

std::vector<std::size_t> shard_members(const std::vector<fs::path>& found, const std::vector<std::string>& roots,
                                       ShardSpec spec) {
  std::vector<std::size_t> members;
  for (std::size_t i = 0; i < found.size(); ++i)
    if (shard_of(shard_key(found[i], roots), spec.count) == spec.index) members.push_back(i);
  return members;
}

std::vector<BatchItem> shard_items(const std::vector<BatchItem>& items, const std::vector<std::string>& roots,
                                   ShardSpec spec) {
  std::vector<std::filesystem::path> found;
  found.reserve(items.size());
  for (const auto& item : items) found.push_back(item.input);
  std::vector<BatchItem> mine;
  for (std::size_t i : shard_members(found, roots, spec)) mine.push_back(items[i]);
  return mine;
}

}  // namespace footfix

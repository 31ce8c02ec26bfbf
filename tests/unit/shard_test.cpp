#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "footfix/core/error.h"
#include "footfix/batch/shard.h"

namespace footfix::cli {
namespace {
namespace fs = std::filesystem;

// A clip library on disk: `count` files spread over nested folders.
struct Library {
  fs::path root;
  std::vector<fs::path> files;
  Library(int count, const std::string& name)
      : root(fs::temp_directory_path() / ("footfix_shard_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(root);
    for (int i = 0; i < count; ++i) add("set" + std::to_string(i % 4) + "/take_" + std::to_string(i) + ".bvh");
  }
  ~Library() { fs::remove_all(root); }
  fs::path add(const std::string& relative) {
    fs::path p = root / relative;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "x";
    files.push_back(p);
    return p;
  }
};

TEST(Shard, EveryInputInExactlyOneShardForOneToFiveShards) {
  Library lib(37, "cover");
  std::vector<std::string> roots{lib.root.string()};
  for (int n = 1; n <= 5; ++n) {
    std::vector<int> times(lib.files.size(), 0);
    for (int k = 1; k <= n; ++k) {
      auto members = shard_members(lib.files, roots, {k, n});
      // Balanced enough to be worth splitting: every shard gets at least a third of its share.
      EXPECT_GE(members.size(), lib.files.size() / static_cast<std::size_t>(n) / 3) << "shard " << k << "/" << n;
      for (std::size_t i : members) ++times.at(i);
    }
    for (std::size_t i = 0; i < times.size(); ++i) EXPECT_EQ(times[i], 1) << lib.files[i] << " N=" << n;
  }
}

TEST(Shard, AddingAClipMovesNoOtherClip) {
  Library lib(30, "grow");
  std::vector<std::string> roots{lib.root.string()};
  auto assignment = [&](int n) {
    std::map<fs::path, int> shard;
    for (int k = 1; k <= n; ++k)
      for (std::size_t i : shard_members(lib.files, roots, {k, n})) shard[lib.files[i]] = k;
    return shard;
  };
  std::map<int, std::map<fs::path, int>> before;
  for (int n = 2; n <= 5; ++n) before[n] = assignment(n);
  lib.add("set0/aaa_new_first.bvh");
  lib.add("zzz/new_last.bvh");
  lib.files.insert(lib.files.begin(), lib.files.back());  // order of the list does not matter either
  lib.files.pop_back();
  for (int n = 2; n <= 5; ++n) {
    auto after = assignment(n);
    EXPECT_EQ(after.size(), before[n].size() + 2);
    for (const auto& [file, shard] : before[n]) EXPECT_EQ(after.at(file), shard) << file << " N=" << n;
  }
}

TEST(Shard, PartitionDoesNotDependOnWhereTheLibraryIs) {
  Library lib(20, "moved");
  fs::path moved = lib.root.string() + "_moved";
  fs::remove_all(moved);
  fs::copy(lib.root, moved, fs::copy_options::recursive);
  std::vector<fs::path> moved_files;
  for (const auto& f : lib.files) moved_files.push_back(moved / f.lexically_relative(lib.root));
  for (int k = 1; k <= 3; ++k)
    EXPECT_EQ(shard_members(lib.files, {lib.root.string()}, {k, 3}), shard_members(moved_files, {moved.string()}, {k, 3}));
  fs::remove_all(moved);
}

TEST(Shard, ParsesKOfN) {
  auto no_env = [](const char*) -> const char* { return nullptr; };
  ShardSpec s = parse_shard("2/3", no_env);
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.count, 3);
  for (const char* bad : {"0/3", "4/3", "a/b", "3", "1/0", "-1/2", "1/2x", ""}) {
    try {
      parse_shard(bad, no_env);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::usage) << bad;
    }
  }
}

TEST(Shard, AutoReadsGitLabVariablesAndFailsClearlyOutsideCi) {
  auto gitlab = [](const char* name) -> const char* {
    if (std::strcmp(name, "CI_NODE_INDEX") == 0) return "3";
    if (std::strcmp(name, "CI_NODE_TOTAL") == 0) return "4";
    return nullptr;
  };
  ShardSpec s = parse_shard("auto", gitlab);
  EXPECT_EQ(s.index, 3);
  EXPECT_EQ(s.count, 4);
  try {
    parse_shard("auto", [](const char*) -> const char* { return nullptr; });
    ADD_FAILURE() << "auto accepted outside CI";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("CI_NODE_INDEX"), std::string::npos) << e.what();
  }
  auto broken = [](const char* name) -> const char* { return std::strcmp(name, "CI_NODE_INDEX") == 0 ? "5" : "4"; };
  EXPECT_THROW(parse_shard("auto", broken), Error);
}

TEST(Shard, KeyIsThePathRelativeToItsInputRoot) {
  Library lib(1, "key");
  lib.add("sub/a.bvh");
  EXPECT_EQ(shard_key(lib.root / "sub" / "a.bvh", {lib.root.string()}), "sub/a.bvh");
  EXPECT_EQ(shard_key(lib.root / "sub" / "a.bvh", {"/nonexistent", lib.root.string()}), "sub/a.bvh");
  // A file given directly is keyed by its name.
  EXPECT_EQ(shard_key(fs::path("/somewhere/else/b.fbx"), {"/somewhere/else/b.fbx"}), "b.fbx");
}

}  // namespace
}  // namespace footfix::cli

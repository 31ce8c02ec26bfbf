// Outputs put in place together: an AtomicFileGroup writes every file before any is in place and
// leaves no part of a group behind when one cannot be put in place; a CommitGate's close() waits
// for a commit under way and refuses any after.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "footfix/batch/commit_gate.h"
#include "footfix/core/error.h"
#include "footfix/core/read_file.h"
#include "footfix/files/atomic_file.h"
#include "support/run_cli.h"

namespace footfix {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> visible_files(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(AtomicFileGroup, NothingIsInPlaceUntilCommitThenEverything) {
  const fs::path dir = test::fresh_temp_dir("file_group_commit");
  std::ofstream(dir / "b.txt") << "old";
  {
    AtomicFileGroup files;
    files.add(dir / "a.txt", [](std::ostream& out) { out << "first"; });
    files.add(dir / "b.txt", [](std::ostream& out) { out << "second"; });
    EXPECT_EQ(files.paths(), (std::vector<fs::path>{dir / "a.txt", dir / "b.txt"}));
    EXPECT_FALSE(fs::exists(dir / "a.txt"));
    EXPECT_EQ(read_file(dir / "b.txt"), "old");
    files.commit();
  }
  EXPECT_EQ(read_file(dir / "a.txt"), "first");
  EXPECT_EQ(read_file(dir / "b.txt"), "second");
  EXPECT_EQ(visible_files(dir), (std::vector<std::string>{"a.txt", "b.txt"})) << "temporary files left";
}

TEST(AtomicFileGroup, AGroupNotCommittedLeavesNothing) {
  const fs::path dir = test::fresh_temp_dir("file_group_dropped");
  {
    AtomicFileGroup files;
    files.add(dir / "a.txt", [](std::ostream& out) { out << "first"; });
  }
  EXPECT_EQ(visible_files(dir), std::vector<std::string>{});
}

TEST(AtomicFileGroup, AFileThatCannotGoInPlaceTakesBackTheOnesBeforeIt) {
  const fs::path dir = test::fresh_temp_dir("file_group_failed");
  AtomicFileGroup files;
  files.add(dir / "clip.bvh", [](std::ostream& out) { out << "clip"; });
  files.add(dir / "clip.contacts.json", [](std::ostream& out) { out << "{}"; });
  // A non-empty folder where the second file goes: no file can be renamed over it.
  fs::create_directories(dir / "clip.contacts.json" / "taken");
  EXPECT_THROW(files.commit(), Error);
  EXPECT_FALSE(fs::exists(dir / "clip.bvh")) << "a clip left without its contacts";
  EXPECT_EQ(visible_files(dir), std::vector<std::string>{"clip.contacts.json"});
}

TEST(CommitGate, CloseWaitsForTheCommitUnderWayAndRefusesLaterOnes) {
  CommitGate gate;
  std::atomic<bool> closed{false};
  std::thread closer;
  bool closed_during_commit = true;
  const bool ran = gate.pass([&] {
    closer = std::thread([&] {
      gate.close();
      closed = true;
    });
    // The closer has had ample time to return if it did not wait for this commit.
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    closed_during_commit = closed.load();
  });
  closer.join();
  EXPECT_TRUE(ran);
  EXPECT_FALSE(closed_during_commit) << "close() returned while a commit was under way";
  EXPECT_TRUE(closed.load());
  bool ran_after = false;
  EXPECT_FALSE(gate.pass([&] { ran_after = true; }));
  EXPECT_FALSE(ran_after);
}

}  // namespace
}  // namespace footfix

// Replays every malformed input (tests/data/bad) and every fuzzer finding kept as a regression
// case (tests/fuzz/crashers/<target>/) through the code the fuzz targets exercise, in process:
// each must be accepted or rejected with footfix::Error, never anything else. Run under the
// sanitizer build (FOOTFIX_SANITIZE=ON) this also replays the memory errors the fuzzers found.
// Every target replays at least one file (a renamed folder or a wrong extension would otherwise
// make a replay loop run zero times and pass); a crashers folder counts every file but dotfiles.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "footfix/files/atomic_file.h"
#include "contacts/contacts_json.h"
#include "footfix/fbx/fbx.h"
#include "fbx/fbx_document.h"  // internal to io, not installed
#include "footfix/rig/leg_rig.h"
#include "fuzz/bvh_pipeline.h"
#include "fuzz/fbx_pipeline.h"
#include "fuzz/gltf_pipeline.h"
#include "fuzz/settings_pipeline.h"
#include "support/paths.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> files_in(const fs::path& dir, const std::string& extension = "") {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().filename().string()[0] != '.' &&
        (extension.empty() || e.path().extension() == extension))
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

const fs::path k_tests_dir = FOOTFIX_TESTS_DIR;

std::vector<fs::path> crashers(const std::string& target) { return files_in(k_tests_dir / "fuzz" / "crashers" / target); }

/// Files of tests/data/bad whose name starts with `prefix` and ends with `extension`.
std::vector<fs::path> bad_files(const std::string& prefix, const std::string& extension) {
  std::vector<fs::path> out;
  for (const auto& p : files_in(k_tests_dir / "data" / "bad", extension))
    if (p.filename().string().rfind(prefix, 0) == 0) out.push_back(p);
  return out;
}

TEST(FuzzRegression, BadBvhFilesAreRejectedCleanly) {
  int rejected = 0;
  auto files = files_in(k_tests_dir / "data" / "bad", ".bvh");
  ASSERT_GE(files.size(), 30u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    fuzz::BvhOutcome outcome{};
    EXPECT_NO_THROW(outcome = fuzz::run_bvh_pipeline(read_file(path)));
    rejected += outcome != fuzz::BvhOutcome::round_tripped ? 1 : 0;
  }
  // Only the three valid-but-degenerate cases (one frame, names alike, non-UTF-8 name) and the
  // three whose Frames count disagrees with their rows (truncated_motion, truncated_row,
  // absurd_frame_count: their complete rows are read) get through.
  EXPECT_EQ(rejected, static_cast<int>(files.size()) - 6);
}

TEST(FuzzRegression, BvhCrashersAreRejectedCleanly) {
  // The target's crashers (a 3-frame clip whose pinned root the clean carried again and again:
  // a hang) plus the malformed BVH files (the fuzzer's seeds), all through the fuzz target's
  // pipeline.
  std::vector<fs::path> files = crashers("bvh");
  for (const auto& p : bad_files("", ".bvh")) files.push_back(p);
  int replayed = 0;
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    EXPECT_NO_THROW(fuzz::run_bvh_pipeline(read_file(path)));
    ++replayed;
  }
  EXPECT_GE(replayed, 1);
}

TEST(FuzzRegression, RigProfileCrashersAreHandled) {
  int replayed = 0;
  for (const auto& path : crashers("rig_profile")) {
    SCOPED_TRACE(path.string());
    try {
      parse_rig_profile(read_file(path), path.string());
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::read) << e.what();
    }
    ++replayed;
  }
  EXPECT_GE(replayed, 1);
}

// Settings the fuzz target (or a review) found harmful: out-of-range doubles converted to int,
// kernels of hundreds of MB, iteration counts of hours, singular solver weights. Each must now
// be refused as a usage error naming the key; the malformed settings files of tests/data/bad
// must be refused too, and the fuzz target's seeds must go through detection and the solve.
TEST(FuzzRegression, SettingsCrashersAreRefusedAsUsageErrors) {
  std::vector<fs::path> files = crashers("settings");
  for (const auto& p : bad_files("settings_", ".json")) files.push_back(p);
  int replayed = 0;
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    const std::string text = read_file(path);
    fuzz::SettingsOutcome outcome = fuzz::SettingsOutcome::cleaned;
    EXPECT_NO_THROW(outcome = fuzz::run_settings_pipeline(text));
    EXPECT_NE(outcome, fuzz::SettingsOutcome::cleaned);
    nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (!doc.is_discarded()) {
      try {
        clean_settings_from_json(doc, path.string());
        ADD_FAILURE() << "accepted";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::usage) << e.what();
        EXPECT_EQ(std::string(e.what()).rfind(path.string() + ":", 0), 0u) << e.what();
      }
    }
    ++replayed;
  }
  EXPECT_GE(replayed, 6);
  int seeds = 0;
  for (const auto& path : files_in(k_tests_dir / "fuzz" / "seeds" / "settings")) {
    SCOPED_TRACE(path.string());
    fuzz::SettingsOutcome outcome{};
    EXPECT_NO_THROW(outcome = fuzz::run_settings_pipeline(read_file(path)));
    EXPECT_EQ(outcome, fuzz::SettingsOutcome::cleaned);
    ++seeds;
  }
  EXPECT_GE(seeds, 2);
}

TEST(FuzzRegression, BadRigProfilesFailWithLocatedReadErrors) {
  std::vector<fs::path> files;
  for (const auto& p : files_in(k_tests_dir / "data" / "bad", ".json"))
    if (p.filename().string().rfind("profile_", 0) == 0 && p.filename() != "profile_unknown_joint.json")
      files.push_back(p);  // (the unknown joint is valid JSON: a process error, tested by the CLI)
  ASSERT_EQ(files.size(), 5u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    try {
      parse_rig_profile(read_file(path), path.string());
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::read);
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(path.string() + ":", 0), 0u) << message;
      EXPECT_NE(message.find(": rig profile: "), std::string::npos) << message;
    }
  }
}

TEST(FuzzRegression, BadContactsFilesFailWithReadErrors) {
  std::vector<fs::path> files = crashers("contacts_json");
  for (const auto& p : bad_files("contacts_", ".json")) files.push_back(p);
  ASSERT_GE(files.size(), 3u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    try {
      parse_contacts_json(read_file(path), path.string());
      ADD_FAILURE() << "accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::read) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind(path.string() + ":", 0), 0u) << e.what();
    }
  }
}

// Malformed FBX (tests/data/bad/*.fbx) and FBX fuzz crashers: the document parser and the clip
// reader must reject them with a read error naming the file (the CLI side is in
// tests/cli/bad_input_fault_test.cpp).
TEST(FuzzRegression, BadFbxFilesAreRejectedCleanly) {
  std::vector<fs::path> files = files_in(k_tests_dir / "data" / "bad", ".fbx");
  ASSERT_EQ(files.size(), 4u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    const std::string bytes = read_file(path);
    for (int reader = 0; reader < 2; ++reader) {
      try {
        if (reader == 0)
          parse_fbx_document(bytes, path.string());
        else
          read_fbx_bytes(bytes, path.string());
        ADD_FAILURE() << "reader " << reader << " accepted it";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::read) << e.what();
        EXPECT_EQ(std::string(e.what()).rfind(path.string() + ":", 0), 0u) << e.what();
      }
    }
  }
}

// FBX fuzz findings (crashers/fbx) and the malformed FBX files: each is either read (then the
// clip has joints and frames) or refused with a read error naming the file, by both readers.
// fuzz_gltf's findings: a file whose animation has two channels on one node and path read, and
// the patch of one left the other in charge (a joint 14 mm off its edit). Each must now be
// refused by the reader or round-trip its edit; a finding throws PipelineFinding.
TEST(FuzzRegression, GltfCrashersAreHandled) {
  int replayed = 0;
  for (const auto& path : crashers("gltf")) {
    SCOPED_TRACE(path.string());
    fuzz::GltfOutcome outcome{};
    EXPECT_NO_THROW(outcome = fuzz::run_gltf_edit_round_trip(read_file(path), ReadLimits{}));
    EXPECT_EQ(outcome, fuzz::GltfOutcome::rejected_by_reader);
    ++replayed;
  }
  EXPECT_GE(replayed, 1);
}

TEST(FuzzRegression, FbxCrashersAreHandled) {
  std::vector<fs::path> files = crashers("fbx");
  for (const auto& p : bad_files("fbx_", ".fbx")) files.push_back(p);
  int replayed = 0;
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    const std::string bytes = read_file(path);
    try {
      FbxDocument doc = parse_fbx_document(bytes, path.string());
      EXPECT_FALSE(doc.roots.empty());
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::read) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind(path.string() + ":", 0), 0u) << e.what();
    }
    try {
      Clip clip = read_fbx_bytes(bytes, path.string());
      EXPECT_GT(clip.joint_count(), 0);
      EXPECT_GT(clip.frame_count, 0);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::read) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind(path.string() + ":", 0), 0u) << e.what();
    }
    EXPECT_NO_THROW(fuzz::run_fbx_document_round_trip(bytes));  // what fuzz_fbx runs
    EXPECT_NO_THROW(fuzz::run_fbx_edit_round_trip(bytes, ReadLimits{}));
    ++replayed;
  }
  EXPECT_GE(replayed, 1);
}

// fuzz_fbx's seeds (the shared FBX clips under 512 KB, as scripts/fuzz.sh picks them): each one
// goes all the way through the target's edit round trip, so the patcher's curve path is what the
// fuzzer mutates from. The edit finds both legs (on the Mixamo walks; the first joints stand in on
// a skeleton without legs) and moves some joint by more than 2 cm; written and read back, every
// joint is within the pipeline's tolerance (1 mm plus 1e-6 of the extent).
TEST(FuzzRegression, FbxSeedsGoThroughTheEditRoundTrip) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  ReadLimits limits;
  limits.isolate_fbx_import = false;  // as in the fuzz target
  int seeds = 0, legged = 0;
  for (const auto& path : files_in(shared_clips_dir(), ".fbx")) {
    if (fs::file_size(path) > 524288) continue;
    SCOPED_TRACE(path.string());
    const std::string bytes = read_file(path);
    const Clip clip = fuzz::read_internal(bytes, path.string(), limits);
    const fuzz::FbxEdit edit = fuzz::pick_edited_joints(clip);
    ASSERT_FALSE(edit.rotated.empty());
    legged += edit.rotated.size() == 4 ? 1 : 0;  // hip and knee of both legs, found by rig detection
    for (int j : edit.rotated) EXPECT_GT(j, 0);
    EXPECT_GE(edit.moved, 0);
    Clip edited = clip;
    fuzz::apply_edit(edited, edit);
    EXPECT_GT(common_world_distance(clip, edited), 0.02) << "the edit does not move the legs";
    fuzz::FbxOutcome outcome{};
    EXPECT_NO_THROW(outcome = fuzz::run_fbx_edit_round_trip(bytes, limits));
    EXPECT_EQ(outcome, fuzz::FbxOutcome::round_tripped);
    ++seeds;
  }
  EXPECT_EQ(seeds, 4);
  EXPECT_EQ(legged, 3);  // the three Mixamo walks; assimp's own skeleton sample has no legs
}

}  // namespace
}  // namespace footfix::test

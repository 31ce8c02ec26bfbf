// `footfix annotate` end to end: the real executable on real clips in a temporary tree.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "footfix/core/math.h"
#include "footfix/files/atomic_file.h"
#include "footfix/io/clip_io.h"
#include "footfix/pipeline/load_clip.h"
#include "contacts/contacts_json.h"
#include "support/capture_noise.h"
#include "support/paths.h"
#include "support/run_cli.h"
#include "unit/contacts_json_schema.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;

using test::quoted;
using test::run_footfix;
using test::RunResult;

/// in/a/walk.bvh, in/b/deep/walk_copy.bvh, in/notes.txt; returns the tree's root.
fs::path make_tree(const std::string& name) {
  fs::path root = fs::temp_directory_path() / ("footfix_annotate_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "in" / "a");
  fs::create_directories(root / "in" / "b" / "deep");
  fs::copy_file(test::data_clip("cmu_07_01_walk.bvh"), root / "in" / "a" / "walk.bvh");
  fs::copy_file(test::data_clip("cmu_07_01_walk.bvh"), root / "in" / "b" / "deep" / "walk_copy.bvh");
  std::ofstream(root / "in" / "notes.txt") << "not a clip\n";
  return root;
}

TEST(AnnotateCli, DirectoryInputMirrorsTheTreeUnderOutput) {
  fs::path root = make_tree("mirror");
  RunResult r = run_footfix("annotate " + quoted(root / "in") + " -o " + quoted(root / "out"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::exists(root / "out" / "a" / "walk.contacts.json")) << r.output;
  EXPECT_TRUE(fs::exists(root / "out" / "b" / "deep" / "walk_copy.contacts.json")) << r.output;
  EXPECT_FALSE(fs::exists(root / "out" / "notes.contacts.json"));
  // The output is a valid contacts file for the clip, and matches the schema.
  ContactsDocument doc = read_contacts_json(root / "out" / "a" / "walk.contacts.json");
  EXPECT_EQ(doc.source, "walk.bvh");
  EXPECT_EQ(doc.frame_count, 317);
  EXPECT_NEAR(doc.source_frame.meters_per_unit, 0.056444, 1e-6);
  EXPECT_EQ(doc.joint_names[0], "LeftToeBase");
  EXPECT_GE(doc.result.foot(Side::left).intervals.size(), 2u);
  auto schema = nlohmann::json::parse(read_file(fs::path(FOOTFIX_SCHEMA_DIR) / "contacts.schema.json"));
  auto errors = test::SchemaValidator::validate(
      schema, nlohmann::json::parse(read_file(root / "out" / "a" / "walk.contacts.json")));
  EXPECT_TRUE(errors.empty()) << errors.front();
}

TEST(AnnotateCli, ATrackingGlitchDoesNotSplitAContact) {
  // The walk at 30 Hz, and a copy whose left heel turns 46 degrees off for one frame in the
  // middle of a contact (a depth camera losing the foot): annotate bridges the glitch, as clean
  // does, and finds the walk's own contacts, with one warning.
  fs::path root = make_tree("glitch");
  const LoadedClip loaded = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  Clip clip = test::resampled(loaded.clip, 30);
  clip.source = nullptr;  // written in the standard layout, from the transforms
  save_clip(clip, root / "in" / "walk.bvh");
  ASSERT_EQ(run_footfix("annotate " + quoted(root / "in" / "walk.bvh")).exit_code, 0);
  const ContactsDocument clean = read_contacts_json(root / "in" / "walk.contacts.json");
  const auto& contact = clean.result.foot(Side::left).intervals.at(1);
  const int frame = (contact.first_frame + contact.last_frame) / 2, heel = loaded.rig.legs[0].heel;
  clip.rotation(frame, heel) = clip.rotation(frame, heel) * axis_angle(Vec3{1, 0, 0}, 0.8);
  save_clip(clip, root / "in" / "glitch.bvh");
  RunResult r = run_footfix("annotate " + quoted(root / "in" / "glitch.bvh"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("1 tracking glitch in the legs"), std::string::npos) << r.output;
  const ContactsDocument glitched = read_contacts_json(root / "in" / "glitch.contacts.json");
  for (Side side : {Side::left, Side::right}) {
    const auto& a = clean.result.foot(side).intervals;
    const auto& b = glitched.result.foot(side).intervals;
    ASSERT_EQ(a.size(), b.size()) << to_string(side);
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].first_frame, b[i].first_frame) << to_string(side) << " contact " << i;
      EXPECT_EQ(a[i].last_frame, b[i].last_frame) << to_string(side) << " contact " << i;
    }
  }
}

TEST(AnnotateCli, WithoutOutputWritesBesideTheInput) {
  fs::path root = make_tree("beside");
  RunResult r = run_footfix("annotate " + quoted(root / "in" / "a" / "walk.bvh"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::exists(root / "in" / "a" / "walk.contacts.json"));
  EXPECT_FALSE(fs::exists(root / "in" / "b" / "deep" / "walk_copy.contacts.json"));
}

TEST(AnnotateCli, SingleFileMayNameAJsonOutput) {
  fs::path root = make_tree("single");
  RunResult r = run_footfix("annotate " + quoted(root / "in" / "a" / "walk.bvh") + " -o " + quoted(root / "x" / "mine.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::exists(root / "x" / "mine.json"));
  r = run_footfix("annotate " + quoted(root / "in") + " -o " + quoted(root / "y.json"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("a directory input needs an output directory"), std::string::npos) << r.output;
}

TEST(AnnotateCli, SettingsFileAndOptionsAreUsedOptionsWinning) {
  fs::path root = make_tree("settings");
  // The same settings file as clean --settings.
  std::ofstream(root / "s.json") << R"({"contacts": {"height_threshold_m": 0.2, "speed_threshold_mps": 0.3}, "solve": {"solver": "fast"}})";
  RunResult r = run_footfix("annotate " + quoted(root / "in" / "a" / "walk.bvh") + " --settings " +
                            quoted(root / "s.json") + " --speed-threshold 0.35 -o " + quoted(root / "o.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ContactsDocument doc = read_contacts_json(root / "o.json");
  EXPECT_EQ(doc.settings.height_threshold_m, 0.2);
  EXPECT_EQ(doc.settings.speed_threshold_mps, 0.35);
  EXPECT_EQ(doc.settings.majority_window_s, 5.0 / 60.0);
  RunResult cleaned = run_footfix("clean " + quoted(root / "in" / "a" / "walk.bvh") + " --settings " +
                                  quoted(root / "s.json") + " -o " + quoted(root / "c.bvh"));
  ASSERT_EQ(cleaned.exit_code, 0) << cleaned.output;
  EXPECT_EQ(read_contacts_json(root / "c.contacts.json").settings.height_threshold_m, 0.2);
  // The older flat shape is still read, with a deprecation warning.
  std::ofstream(root / "flat.json") << R"({"height_threshold_m": 0.15})";
  r = run_footfix("annotate " + quoted(root / "in" / "a" / "walk.bvh") + " --settings " + quoted(root / "flat.json") +
                  " -o " + quoted(root / "f.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("warning: "), std::string::npos) << r.output;
  EXPECT_EQ(read_contacts_json(root / "f.json").settings.height_threshold_m, 0.15);
}

TEST(AnnotateCli, BadSettingsAreUsageErrors) {
  fs::path root = make_tree("bad_settings");
  std::string clip = quoted(root / "in" / "a" / "walk.bvh");
  RunResult r = run_footfix("annotate " + clip + " --speed-threshold -0.5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("speed_threshold_mps must be in [0.01, 5], got -0.5"), std::string::npos) << r.output;
  r = run_footfix("annotate " + clip + " --majority-window-s 0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("majority_window_s must be > 0"), std::string::npos) << r.output;
  std::ofstream(root / "typo.json") << R"({"speed_treshold_mps": 0.3})";
  r = run_footfix("annotate " + clip + " --settings " + quoted(root / "typo.json"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("unknown contact setting 'speed_treshold_mps'"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(root / "in" / "a" / "walk.contacts.json"));  // nothing written
  r = run_footfix("annotate " + quoted(root / "missing.bvh"));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.output.find("no such file or directory"), std::string::npos) << r.output;
}

TEST(AnnotateCli, BadClipIsReportedAndTheBatchGoesOn) {
  fs::path root = make_tree("bad_clip");
  std::ofstream(root / "in" / "a" / "broken.bvh") << "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n";
  RunResult r = run_footfix("annotate " + quoted(root / "in") + " -o " + quoted(root / "out"));
  EXPECT_EQ(r.exit_code, 3) << r.output;  // read failure class
  EXPECT_NE(r.output.find("broken.bvh"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("3 clips: 2 annotated, 1 failed"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(root / "out" / "a" / "walk.contacts.json"));
  EXPECT_TRUE(fs::exists(root / "out" / "b" / "deep" / "walk_copy.contacts.json"));
  EXPECT_FALSE(fs::exists(root / "out" / "a" / "broken.contacts.json"));
}

}  // namespace
}  // namespace footfix

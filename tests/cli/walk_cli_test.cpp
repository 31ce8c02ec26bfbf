// `footfix walk` end to end: the real executable writes a normal BVH (it round-trips through
// `convert`, `inspect` finds its legs, `annotate` recovers its contacts), the ground-truth
// contacts in the footfix-contacts format, the terrain and footsteps, and prints the figures.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "footfix/core/fk.h"
#include "footfix/files/atomic_file.h"
#include "footfix/pipeline/load_clip.h"
#include "contacts/contacts_json.h"
#include "support/text_search.h"
#include "support/paths.h"
#include "support/run_cli.h"
#include "unit/contacts_json_schema.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;

using test::quoted;
using test::run_footfix;

using test::contains;

TEST(WalkCli, WritesClipContactsTerrainAndPrintsTheFigures) {
  const fs::path dir = test::fresh_temp_dir("walk_cli_outputs");
  const auto r = run_footfix("walk --terrain stairs --duration 6 --fps 50 --seed 3 -o " + quoted(dir / "w.bvh"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* line : {"stance slide max", "penetration max", "IK target error max", "joint-limit violations 0",
                           "knee flips             0", "alternation breaks     0"})
    EXPECT_TRUE(contains(r.output, line)) << line << "\n" << r.output;
  ASSERT_TRUE(fs::exists(dir / "w.bvh"));
  // Contacts: valid against the schema, one per clip frame.
  const auto contacts = nlohmann::json::parse(read_file(dir / "w.contacts.json"));
  const auto schema = nlohmann::json::parse(read_file(fs::path(FOOTFIX_SCHEMA_DIR) / "contacts.schema.json"));
  const auto errors = test::SchemaValidator::validate(schema, contacts);
  EXPECT_TRUE(errors.empty()) << (errors.empty() ? "" : errors.front());
  const ContactsDocument doc = read_contacts_json(dir / "w.contacts.json");
  EXPECT_EQ(doc.frame_count, 301);
  EXPECT_DOUBLE_EQ(doc.fps, 50);
  EXPECT_GE(doc.result.feet[0].intervals.size(), 4u);
  // Terrain and footsteps.
  const auto terrain = nlohmann::json::parse(read_file(dir / "w.terrain.json"));
  const auto walk_schema = nlohmann::json::parse(read_file(fs::path(FOOTFIX_SCHEMA_DIR) / "terrain_walk.schema.json"));
  const auto walk_errors = test::SchemaValidator::validate(walk_schema, terrain);
  EXPECT_TRUE(walk_errors.empty()) << (walk_errors.empty() ? "" : walk_errors.front());
  EXPECT_EQ(terrain["format"], "footfix-walk-terrain");
  EXPECT_EQ(terrain["terrain"]["kind"], "stairs");
  std::vector<std::string> states;
  for (const auto& s : terrain["footsteps"]) states.push_back(s["state"].get<std::string>());
  ASSERT_GE(states.size(), 6u);
  EXPECT_EQ(states[0], "IDLE");
  EXPECT_EQ(states[2], "START");
  EXPECT_EQ(states[3], "RIGHT GO");
  EXPECT_TRUE(states.back() == "LEFT STOP" || states.back() == "RIGHT STOP");
  fs::remove_all(dir);
}

TEST(WalkCli, OutputIsANormalBvh) {
  const fs::path dir = test::fresh_temp_dir("walk_cli_bvh");
  ASSERT_EQ(run_footfix("walk --terrain hills --path turn:60 --duration 4 -o " + quoted(dir / "w.bvh")).exit_code, 0);
  const auto converted = run_footfix("convert " + quoted(dir / "w.bvh") + " " + quoted(dir / "c.bvh"));
  ASSERT_EQ(converted.exit_code, 0) << converted.output;
  const LoadedClip a = load_clip(dir / "w.bvh"), b = load_clip(dir / "c.bvh");
  ASSERT_EQ(a.clip.frame_count, b.clip.frame_count);
  ASSERT_EQ(a.clip.joint_count(), b.clip.joint_count());
  std::vector<Transform> wa(a.clip.joint_count()), wb(b.clip.joint_count());
  double worst = 0;
  for (int f = 0; f < a.clip.frame_count; ++f) {
    world_pose(a.clip, f, wa);
    world_pose(b.clip, f, wb);
    for (int j = 0; j < a.clip.joint_count(); ++j) worst = std::max(worst, length(wa[j].translation - wb[j].translation));
  }
  EXPECT_LT(worst, 1e-6);
  const auto inspect = run_footfix("inspect " + quoted(dir / "w.bvh"));
  ASSERT_EQ(inspect.exit_code, 0) << inspect.output;
  EXPECT_TRUE(contains(inspect.output, "left  leg: hip LeftUpLeg > knee LeftLeg > heel LeftFoot > toe LeftToeBase")) << inspect.output;
  EXPECT_TRUE(contains(inspect.output, "right leg: hip RightUpLeg")) << inspect.output;
  fs::remove_all(dir);
}

TEST(WalkCli, AnnotateRecoversTheGroundTruth) {
  const fs::path dir = test::fresh_temp_dir("walk_cli_annotate");
  ASSERT_EQ(run_footfix("walk --terrain slope:8 --fps 30 -o " + quoted(dir / "w.bvh")).exit_code, 0);
  ASSERT_EQ(run_footfix("annotate " + quoted(dir / "w.bvh") + " -o " + quoted(dir / "detected.json")).exit_code, 0);
  const ContactsDocument truth = read_contacts_json(dir / "w.contacts.json");
  const ContactsDocument detected = read_contacts_json(dir / "detected.json");
  long tp = 0, wrong = 0;
  for (int side = 0; side < 2; ++side)
    for (int f = 0; f < truth.frame_count; ++f) {
      const bool t = truth.result.feet[side].contact[f], d = detected.result.feet[side].contact[f];
      tp += t && d;
      wrong += t != d;
    }
  const double f1 = 2.0 * static_cast<double>(tp) / static_cast<double>(2 * tp + wrong);
  EXPECT_GT(f1, 0.95);
  fs::remove_all(dir);
}

TEST(WalkCli, GivenSkeletonAndLimitsProfile) {
  const fs::path dir = test::fresh_temp_dir("walk_cli_skeleton");
  const auto r = run_footfix("walk --skeleton " + quoted(test::data_clip("cmu_07_01_walk.bvh")) + " --limits " +
                             quoted(fs::path(FOOTFIX_DATA_DIR) / "walk" / "human_limits.json") + " --duration 4 --check -o " +
                             quoted(dir / "cmu.bvh"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const LoadedClip source = load_clip(test::data_clip("cmu_07_01_walk.bvh"));
  const LoadedClip walked = load_clip(dir / "cmu.bvh");
  EXPECT_EQ(walked.clip.skeleton.names, source.clip.skeleton.names);
  EXPECT_EQ(walked.rig.legs[0].toe, source.rig.legs[0].toe);
  // A profile too tight to walk in: the IK misses its targets and --check says so.
  std::ofstream(dir / "stiff.json") << R"({"knee": {"swing_x_deg": [0, 4]}})";
  const auto stiff = run_footfix("walk --limits " + quoted(dir / "stiff.json") + " --duration 3 --check -o " + quoted(dir / "s.bvh"));
  EXPECT_EQ(stiff.exit_code, 6) << stiff.output;
  fs::remove_all(dir);
}

TEST(WalkCli, CheckNamesTheFailingFigureAndQuietPrintsNothing) {
  const fs::path dir = test::fresh_temp_dir("walk_cli_check");
  // A full turn in 8 s at 1.3 m/s needs more than 20 degrees a step: the plan warns.
  const auto turn = run_footfix("walk --path turn:360 --duration 8 --speed 1.3 --check -o " + quoted(dir / "t.bvh"));
  EXPECT_EQ(turn.exit_code, 6) << turn.output;
  EXPECT_TRUE(contains(turn.output, "over its goal: plan warnings")) << turn.output;
  EXPECT_TRUE(contains(turn.output, "of the 360 degrees asked")) << turn.output;
  EXPECT_TRUE(contains(turn.output, "sole penetration max")) << turn.output;
  const auto ok = run_footfix("walk --duration 4 --check -o " + quoted(dir / "ok.bvh"));
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_TRUE(contains(ok.output, "plan warnings          0")) << ok.output;
  const auto quiet = run_footfix("-q walk --duration 4 -o " + quoted(dir / "q.bvh"));
  EXPECT_EQ(quiet.exit_code, 0);
  EXPECT_EQ(quiet.output, "");
  EXPECT_TRUE(fs::exists(dir / "q.bvh"));
  fs::remove_all(dir);
}

TEST(WalkCli, BadOptionsAreUsageErrors) {
  const fs::path dir = test::fresh_temp_dir("walk_cli_bad");
  std::ofstream(dir / "bad.json") << R"({"knee": {"swing_x_deg": [10, 5]}})";
  const std::string out = " -o " + quoted(dir / "w.bvh");
  EXPECT_EQ(run_footfix("walk --terrain volcano" + out).exit_code, 2);
  EXPECT_EQ(run_footfix("walk --terrain slope:60" + out).exit_code, 2);
  EXPECT_EQ(run_footfix("walk --path zigzag" + out).exit_code, 2);
  EXPECT_EQ(run_footfix("walk --speed 5" + out).exit_code, 2);
  EXPECT_EQ(run_footfix("walk --fps 2" + out).exit_code, 2);
  EXPECT_EQ(run_footfix("walk -o " + quoted(dir / "w.txt")).exit_code, 2);
  const auto limits = run_footfix("walk --limits " + quoted(dir / "bad.json") + out);
  EXPECT_EQ(limits.exit_code, 2);
  EXPECT_TRUE(contains(limits.output, "bad.json: knee.swing_x_deg: min 10 is greater than max 5")) << limits.output;
  EXPECT_EQ(run_footfix("walk --skeleton " + quoted(dir / "missing.bvh") + out).exit_code, 3);
  EXPECT_FALSE(fs::exists(dir / "w.bvh"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace footfix

// clean_one (batch/clean_one.h): one clip from file to files, and the report entry it returns
// checked against what was written.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "footfix/batch/clean_one.h"
#include "footfix/core/error.h"
#include "footfix/core/read_file.h"
#include "support/paths.h"
#include "support/run_cli.h"

namespace footfix {
namespace {
namespace fs = std::filesystem;

constexpr int k_walk_frames = 317;  // "Frames:" of data/clips/cmu_07_01_walk.bvh

TEST(CleanOne, ReportsWhatItWrote) {
  const fs::path dir = test::fresh_temp_dir("clean_one");
  const CleanOneOutputs out{dir / "walk.bvh", dir / "walk.contacts.json"};
  CleanOneSettings settings;
  settings.plot = true;
  const ClipReport report = clean_one(test::data_clip("cmu_07_01_walk.bvh"), out, settings);
  EXPECT_EQ(report.status, ClipStatus::ok);
  EXPECT_EQ(report.output, out.clip.string());
  EXPECT_EQ(report.contacts, out.contacts.string());
  ASSERT_TRUE(report.time_s.has_value());
  EXPECT_GT(*report.time_s, 0.0);
  EXPECT_EQ(report.frames, k_walk_frames);
  EXPECT_FALSE(report.ground_offset_m.has_value()) << "the ground is kept unless asked";
  ASSERT_TRUE(report.metrics.has_value());
  EXPECT_GT(source_slide(report), 10.0) << "the walk slides before";
  EXPECT_LT(residual_slide(report), 1.0) << "and barely after";

  // The contacts file names the clip beside it and holds the contacts the entry counts.
  const nlohmann::json contacts = nlohmann::json::parse(read_file(out.contacts));
  EXPECT_EQ(contacts.at("cleaned_clip"), "walk.bvh");
  EXPECT_EQ(report.contact_count, contacts.at("feet")[0].at("intervals").size() + contacts.at("feet")[1].at("intervals").size());
  EXPECT_GT(report.contact_count, 0u);
  EXPECT_EQ(load_clip(out.clip).clip.frame_count, k_walk_frames);

  ASSERT_TRUE(report.plot.has_value());
  EXPECT_EQ(report.plot->frames, k_walk_frames);
  ASSERT_EQ(report.plot->feet.size(), 2u);
  EXPECT_EQ(report.plot->feet[0].contacts.size() + report.plot->feet[1].contacts.size(), report.contact_count);
  EXPECT_TRUE(report.plot->motion.has_value());

  // Without the plot, and with the ground moved: the move is reported.
  settings.plot = false;
  settings.clean.ground.mode = GroundMode::auto_detect;
  const ClipReport grounded = clean_one(test::data_clip("cmu_07_01_walk.bvh"), out, settings);
  EXPECT_FALSE(grounded.plot.has_value());
  EXPECT_EQ(grounded.frames, 0) << "the frame count comes with the plot";
  ASSERT_TRUE(grounded.ground_offset_m.has_value());
  EXPECT_NE(*grounded.ground_offset_m, 0.0);
  fs::remove_all(dir);
}

TEST(CleanOne, LeavesNoClipWithoutItsContacts) {
  const fs::path dir = test::fresh_temp_dir("clean_one_contacts");
  std::ofstream(dir / "file") << "not a folder";
  const CleanOneOutputs out{dir / "walk.bvh", dir / "file" / "walk.contacts.json"};
  EXPECT_THROW(clean_one(test::data_clip("cmu_07_01_walk.bvh"), out, {}), Error);
  EXPECT_FALSE(fs::exists(out.clip)) << "the clip was written and left without its contacts";
  fs::remove_all(dir);
}

TEST(CleanOne, AClosedGateLeavesItsOutputsUnwritten) {
  const fs::path dir = test::fresh_temp_dir("clean_one_gate");
  CommitGate gate;
  gate.close();  // a batch's stop came first
  const CleanOneOutputs out{dir / "walk.bvh", dir / "walk.contacts.json", &gate};
  EXPECT_THROW(clean_one(test::data_clip("cmu_07_01_walk.bvh"), out, {}), Error);
  EXPECT_TRUE(fs::is_empty(dir)) << "outputs or temporary files written after the stop";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace footfix

// `footfix clean` end to end: the real executable on real clips, real files on disk.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

#include "footfix/files/atomic_file.h"
#include "footfix/bvh/bvh.h"
#include "contacts/contacts_json.h"
#include "support/paths.h"
#include "support/run_cli.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using test::quoted;
using test::run_footfix;

TEST(CleanCli, CleansOneFileIntoAnOutputDirectory) {
  fs::path dir = test::fresh_temp_dir("clean_one");
  auto r = run_footfix("clean " + quoted(test::data_clip("cmu_07_01_walk.bvh")) + " -o " + quoted(dir / "out") +
                       " --report " + quoted(dir / "report.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_TRUE(fs::exists(dir / "out" / "cmu_07_01_walk.bvh")) << r.output;
  ContactsDocument contacts = read_contacts_json(dir / "out" / "cmu_07_01_walk.contacts.json");
  EXPECT_EQ(contacts.frame_count, 317);
  Clip cleaned = parse_bvh(read_file(dir / "out" / "cmu_07_01_walk.bvh"), "cleaned");
  EXPECT_EQ(cleaned.frame_count, 317);
  EXPECT_EQ(cleaned.joint_count(), 31);
  auto report = nlohmann::json::parse(read_file(dir / "report.json"));
  ASSERT_EQ(report["clips"].size(), 1u);
  const auto& m = report["clips"][0]["metrics"];
  EXPECT_EQ(report["clips"][0]["status"], "ok");
  EXPECT_LT(m["slide_cleaned"]["mean_mm_per_frame"].get<double>(), 0.5 * m["slide_source"]["mean_mm_per_frame"].get<double>());
  EXPECT_TRUE(m["non_leg_joints_unchanged"].get<bool>());
  fs::remove_all(dir);
}

TEST(CleanCli, DefaultOutputIsBesideTheInputAndNeverOverwritesIt) {
  fs::path dir = test::fresh_temp_dir("clean_beside");
  fs::copy_file(test::data_clip("cmu_07_01_walk.bvh"), dir / "walk.bvh");
  std::string before = read_file(dir / "walk.bvh");
  auto r = run_footfix("clean " + quoted(dir / "walk.bvh"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::exists(dir / "walk.clean.bvh"));
  EXPECT_TRUE(fs::exists(dir / "walk.clean.contacts.json"));
  EXPECT_EQ(read_file(dir / "walk.bvh"), before);
  auto refused = run_footfix("clean " + quoted(dir / "walk.bvh") + " -o " + quoted(dir / "walk.bvh"));
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("refusing to overwrite the input"), std::string::npos) << refused.output;
  EXPECT_EQ(read_file(dir / "walk.bvh"), before);
  fs::remove_all(dir);
}

TEST(CleanCli, BatchGoesOnPastABadClipAndOutputDoesNotDependOnJobs) {
  fs::path dir = test::fresh_temp_dir("clean_batch");
  fs::create_directories(dir / "in" / "sub");
  fs::copy_file(test::data_clip("cmu_07_01_walk.bvh"), dir / "in" / "walk.bvh");
  fs::copy_file(test::data_clip("cmu3dsmax_131_01_start_walk_stop.bvh"), dir / "in" / "sub" / "start_stop.bvh");
  std::ofstream(dir / "in" / "broken.bvh") << "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0\n";
  auto one = run_footfix("clean " + quoted(dir / "in") + " -o " + quoted(dir / "out1") + " --jobs 1");
  EXPECT_EQ(one.exit_code, 3) << one.output;
  EXPECT_NE(one.output.find("broken.bvh"), std::string::npos) << one.output;
  EXPECT_NE(one.output.find("3 clips: 2 cleaned, 1 failed"), std::string::npos) << one.output;
  EXPECT_FALSE(fs::exists(dir / "out1" / "broken.bvh"));
  auto two = run_footfix("clean " + quoted(dir / "in") + " -o " + quoted(dir / "out2") + " --jobs 2");
  EXPECT_EQ(two.exit_code, 3) << two.output;
  for (const char* rel : {"walk.bvh", "walk.contacts.json", "sub/start_stop.bvh", "sub/start_stop.contacts.json"}) {
    ASSERT_TRUE(fs::exists(dir / "out1" / rel)) << rel;
    EXPECT_EQ(read_file(dir / "out1" / rel), read_file(dir / "out2" / rel)) << rel;
  }
  fs::remove_all(dir);
}

TEST(CleanCli, CheckFailsWithCode6AndNamesTheClip) {
  fs::path dir = test::fresh_temp_dir("clean_check");
  auto strict = run_footfix("clean " + quoted(test::data_clip("cmu_07_01_walk.bvh")) + " -o " + quoted(dir) +
                            " --check --max-slide 0.001");
  EXPECT_EQ(strict.exit_code, 6) << strict.output;
  EXPECT_NE(strict.output.find("error: check failed: "), std::string::npos);
  EXPECT_NE(strict.output.find("cmu_07_01_walk.bvh"), std::string::npos);
  auto lenient = run_footfix("clean " + quoted(test::data_clip("cmu_07_01_walk.bvh")) + " -o " + quoted(dir) +
                             " --check --max-slide 50");
  EXPECT_EQ(lenient.exit_code, 0) << lenient.output;
  fs::remove_all(dir);
}

TEST(CleanCli, BadSettingsAreUsageErrors) {
  fs::path dir = test::fresh_temp_dir("clean_settings");
  std::ofstream(dir / "s.json") << R"({"solve": {"soft_factor": 2}})";
  auto r = run_footfix("clean " + quoted(test::data_clip("cmu_07_01_walk.bvh")) + " -o " + quoted(dir / "out") +
                       " --settings " + quoted(dir / "s.json"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("soft_factor"), std::string::npos) << r.output;
  auto neg = run_footfix("clean " + quoted(test::data_clip("cmu_07_01_walk.bvh")) + " -o " + quoted(dir / "out") +
                         " --speed-threshold -1");
  EXPECT_EQ(neg.exit_code, 2) << neg.output;
  auto solver = run_footfix("clean " + quoted(test::data_clip("cmu_07_01_walk.bvh")) + " --solver magic");
  EXPECT_EQ(solver.exit_code, 2) << solver.output;
  EXPECT_FALSE(fs::exists(dir / "out"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace footfix

// `footfix clean` on the shared in-place Mixamo walk, through the real binary: locked on a
// treadmill and cleaned as a loop by default (ground velocity in the contacts JSON and the
// report), or in world space with --treadmill off (and --loop off), or at a given
// --ground-velocity.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "footfix/files/atomic_file.h"
#include "contacts/contacts_json.h"
#include "support/paths.h"
#include "support/run_cli.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using test::quoted;
using test::run_footfix;

struct CleanRun {
  nlohmann::json clip_report;
  ContactsDocument contacts;
};

CleanRun clean_in_place(const fs::path& dir, const std::string& options) {
  fs::path in = test::shared_clips_dir() / "mixamo_walking_inplace_bin7700.fbx";
  auto r = run_footfix("clean " + quoted(in) + " -o " + quoted(dir / "out") + " --report " + quoted(dir / "report.json") +
                       " --format bvh " + options);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  CleanRun run;
  run.clip_report = nlohmann::json::parse(read_file(dir / "report.json"))["clips"][0];
  run.contacts = read_contacts_json(dir / "out" / "mixamo_walking_inplace_bin7700.contacts.json");
  return run;
}

TEST(CleanTreadmillCli, InPlaceWalkIsLockedOnATreadmillByDefault) {
  FOOTFIX_REQUIRE_SHARED_CLIPS();
  fs::path dir = test::fresh_temp_dir("clean_treadmill");
  CleanRun on = clean_in_place(dir, "");
  ASSERT_TRUE(on.clip_report["treadmill"].get<bool>()) << on.clip_report.dump();
  EXPECT_TRUE(on.clip_report["loop"].get<bool>());  // the Mixamo walk is a cycle
  auto g = on.clip_report["ground_velocity_mps"].get<std::vector<double>>();
  ASSERT_EQ(g.size(), 3u);
  EXPECT_LT(g[2], -1.0);  // Mixamo walks along +Z: the ground runs back at over 1 m/s
  ASSERT_TRUE(on.contacts.result.ground_velocity_mps.has_value());
  EXPECT_NEAR(on.contacts.result.ground_velocity_mps->z, g[2], 1e-9);
  // Measured against the moving ground, the cleaned clip slides less than the source.
  const auto& m = on.clip_report["metrics"];
  EXPECT_LT(m["slide_cleaned"]["mean_mm_per_frame"].get<double>(), 0.5 * m["slide_source"]["mean_mm_per_frame"].get<double>());

  CleanRun off = clean_in_place(dir, "--treadmill off --loop off");
  EXPECT_FALSE(off.clip_report["treadmill"].get<bool>());
  EXPECT_FALSE(off.clip_report["loop"].get<bool>());
  EXPECT_FALSE(off.contacts.result.ground_velocity_mps.has_value());

  CleanRun given = clean_in_place(dir, "--ground-velocity 0.25,-1.5");
  ASSERT_TRUE(given.clip_report["treadmill"].get<bool>());
  EXPECT_EQ(given.clip_report["ground_velocity_mps"].get<std::vector<double>>(), (std::vector<double>{0.25, 0.0, -1.5}));

  auto bad = run_footfix("clean " + quoted(test::shared_clips_dir() / "mixamo_walking_inplace_bin7700.fbx") + " -o " +
                         quoted(dir / "bad") + " --treadmill sometimes");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace footfix

// The contacts JSON as clean and annotate write it, for engines: version 2, times beside frames,
// the stated frame time, coordinate frames in the file, clean's warnings and cleaned clip; and
// names that are not UTF-8 still give valid JSON everywhere.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_test_helpers.h"
#include "unit/contacts_json_schema.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::contains;
using test::run_footfix_bounded;

TEST(ContactsV2Cli, CleanWritesTimesFrameTimeCoordinatesAndTheCleanedClip) {
  test::TempDir dir;
  std::string walk = test::copy_walk(dir / "walk.bvh");
  auto r = run_footfix_bounded({"clean", walk, "-o", (dir / "fixed.bvh").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = read_file(dir / "fixed.contacts.json");
  json doc = json::parse(text);
  EXPECT_EQ(doc["version"], 2);
  EXPECT_EQ(doc["cleaned_clip"], "fixed.bvh");
  EXPECT_TRUE(doc["warnings"].is_array());
  EXPECT_EQ(doc["clip"]["fps"], 120.0);
  EXPECT_EQ(doc["clip"]["frame_time_s"], 0.0083333);  // as the BVH states it
  EXPECT_NE(text.find("\"frame_time_s\": 0.0083333,"), std::string::npos);
  EXPECT_EQ(doc["coordinates"]["position"]["meters_per_unit"], 0.056444);
  EXPECT_EQ(doc["coordinates"]["position_m"]["up_axis"], "+y");
  const json& first = doc["feet"][0]["intervals"][0];
  EXPECT_NEAR(first["start_time_s"].get<double>(), first["first_frame"].get<int>() * 0.0083333, 1e-6);
  EXPECT_NEAR(first["end_time_s"].get<double>(), first["last_frame"].get<int>() * 0.0083333, 1e-6);
  EXPECT_EQ(text.find("00000000"), std::string::npos) << "a rounded value printed unrounded";
  auto schema = json::parse(read_file(fs::path(FOOTFIX_SCHEMA_DIR) / "contacts.schema.json"));
  auto errors = test::SchemaValidator::validate(schema, doc);
  EXPECT_TRUE(errors.empty()) << errors.front();
}

TEST(ContactsV2Cli, NamesThatAreNotUtf8GiveValidJsonEverywhere) {
  test::TempDir dir;
  std::string text = read_file(test::data_clip("cmu_07_01_walk.bvh"));
  text.replace(text.find("LeftToeBase"), 11, "LeftToe\xff" "Base");
  test::write_text(dir / "in" / "bad\xff.bvh", text);
  auto r = run_footfix_bounded({"clean", (dir / "in").string(), "-o", (dir / "out").string(), "--report",
                                (dir / "r.json").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "bad\\xff.bvh")) << r.err;
  json report = json::parse(read_file(dir / "r.json"));
  EXPECT_EQ(report["clips"][0]["status"], "ok");
  json contacts = json::parse(read_file(dir / "out" / "bad\xff.contacts.json"));
  EXPECT_EQ(contacts["feet"][0]["joint"], "LeftToe\xef\xbf\xbd" "Base");
  auto inspect = run_footfix_bounded({"inspect", (dir / "in").string(), "--json"});
  EXPECT_EQ(inspect.exit_code, 0) << inspect.err;
  EXPECT_TRUE(json::accept(inspect.out));
}

TEST(ContactsV2Cli, AnnotateAndCleanFollowTheSameDirectoryRule) {
  test::TempDir dir;
  test::copy_walk(dir / "in" / "walk.bvh");
  for (const char* command : {"annotate", "clean"}) {
    auto r = run_footfix_bounded({command, (dir / "in").string()});
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.err;
    EXPECT_TRUE(contains(r.err, "a directory input needs -o OUTPUT_DIR")) << r.err;
  }
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"in", "in/walk.bvh"}));
}

}  // namespace
}  // namespace footfix

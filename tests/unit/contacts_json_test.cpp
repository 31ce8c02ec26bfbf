// The contacts JSON format: write-then-read round trips through real files, the JSON Schema, and
// located errors for malformed files.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "footfix/core/error.h"
#include "footfix/files/atomic_file.h"
#include "contacts/contacts_json.h"
#include "unit/contacts_json_schema.h"
#include "unit/contacts_synthetic.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path temp_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("footfix_contacts_json_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

json load_schema() { return json::parse(read_file(fs::path(FOOTFIX_SCHEMA_DIR) / "contacts.schema.json")); }

struct Annotated {
  test::SyntheticClip s;
  ContactResult result;
};

Annotated annotate_synthetic() {
  Annotated a{test::make_synthetic_walk(test::SyntheticGait{}), {}};
  a.s.clip.source_name = "/some/dir/walk.bvh";
  a.s.clip.source_frame = {0.01, Axis::pos_z};  // a centimeter, Z-up source file
  a.result = detect_contacts(a.s.clip, a.s.rig, ContactSettings{});
  return a;
}

std::string write_to_string(const Annotated& a, const ContactSettings& settings = {}) {
  std::ostringstream out;
  write_contacts_json(a.s.clip, a.result, settings, out);
  return out.str();
}

TEST(ContactsJson, RoundTripsThroughAFile) {
  Annotated a = annotate_synthetic();
  ContactSettings settings;
  settings.height_threshold_m = 0.12;
  fs::path file = temp_dir("roundtrip") / "walk.contacts.json";
  write_file_atomically(file, [&](std::ostream& out) { write_contacts_json(a.s.clip, a.result, settings, out); });
  ContactsDocument doc = read_contacts_json(file);
  EXPECT_EQ(doc.source, "walk.bvh");
  EXPECT_EQ(doc.frame_count, a.s.clip.frame_count);
  EXPECT_EQ(doc.fps, 60.0);
  EXPECT_EQ(doc.source_frame.meters_per_unit, 0.01);
  EXPECT_EQ(doc.source_frame.up, Axis::pos_z);
  EXPECT_EQ(doc.settings.height_threshold_m, 0.12);
  EXPECT_EQ(doc.generator_version, FOOTFIX_VERSION);
  EXPECT_EQ(doc.joint_names[0], "LeftToeBase");
  EXPECT_EQ(doc.joint_names[1], "RightToeBase");
  EXPECT_EQ(doc.result.ground_height_m, a.result.ground_height_m);
  for (int s = 0; s < 2; ++s) {
    const auto& want = a.result.feet[s];
    const auto& got = doc.result.feet[s];
    EXPECT_EQ(got.contact, want.contact);
    ASSERT_EQ(got.smoothed.size(), want.smoothed.size());
    for (size_t f = 0; f < want.smoothed.size(); ++f) EXPECT_NEAR(got.smoothed[f], want.smoothed[f], 0.5e-4);
    ASSERT_EQ(got.intervals.size(), want.intervals.size());
    for (size_t i = 0; i < want.intervals.size(); ++i) {
      EXPECT_EQ(got.intervals[i].first_frame, want.intervals[i].first_frame);
      EXPECT_EQ(got.intervals[i].last_frame, want.intervals[i].last_frame);
      EXPECT_EQ(got.intervals[i].planted_position_m, want.intervals[i].planted_position_m);
      EXPECT_EQ(got.intervals[i].height_m, want.intervals[i].height_m);
    }
  }
}

TEST(ContactsJson, PositionsAreWrittenInTheClipsOwnUnitsAndAxes) {
  Annotated a = annotate_synthetic();
  json doc = json::parse(write_to_string(a));
  // Left foot, second stance: internal (0.1, 0.03, 1.2) m. The source is Z-up centimeters:
  // internal (x, y, z) is source (x, -z, y) / 0.01 = (10, -120, 3).
  const json& in = doc["feet"][0]["intervals"][1];
  EXPECT_NEAR(in["position_m"][0].get<double>(), 0.1, 1e-9);
  EXPECT_NEAR(in["position_m"][2].get<double>(), 1.2, 1e-9);
  EXPECT_NEAR(in["position"][0].get<double>(), 10.0, 1e-6);
  EXPECT_NEAR(in["position"][1].get<double>(), -120.0, 1e-6);
  EXPECT_NEAR(in["position"][2].get<double>(), 3.0, 1e-6);
  EXPECT_EQ(doc["clip"]["up_axis"], "+z");
  EXPECT_EQ(doc["format"], "footfix-contacts");
  EXPECT_EQ(doc["version"], 2);
  EXPECT_EQ(doc["coordinates"]["position"]["up_axis"], "+z");
  EXPECT_EQ(doc["coordinates"]["position"]["meters_per_unit"], 0.01);
  EXPECT_EQ(doc["coordinates"]["position_m"]["up_axis"], "+y");
  EXPECT_EQ(doc["coordinates"]["position_m"]["units"], "m");
}

TEST(ContactsJson, IntervalsCarryTimesAndTheHeaderTheStatedFrameTime) {
  Annotated a = annotate_synthetic();
  a.s.clip.fps = 1.0 / 0.0083333;  // a BVH "Frame Time: 0.0083333"
  json doc = json::parse(write_to_string(a));
  EXPECT_EQ(doc["clip"]["fps"], 120.0);
  EXPECT_EQ(doc["clip"]["frame_time_s"], 0.0083333);
  const json& in = doc["feet"][0]["intervals"][1];
  int first = in["first_frame"].get<int>(), last = in["last_frame"].get<int>();
  EXPECT_NEAR(in["start_time_s"].get<double>(), first * 0.0083333, 1e-6);
  EXPECT_NEAR(in["end_time_s"].get<double>(), last * 0.0083333, 1e-6);
  EXPECT_GT(in["end_time_s"].get<double>(), in["start_time_s"].get<double>());
}

TEST(ContactsJson, RoundedValuesArePrintedRounded) {
  Annotated a = annotate_synthetic();
  a.result.feet[0].smoothed[0] = 0.32929999;  // rounds to 0.3293, whose nearest double prints long by default
  a.result.ground_height_m = 0.1 + 0.2;       // not rounded: written exactly, shortest form
  std::string text = write_to_string(a);
  EXPECT_NE(text.find("[0.3293,"), std::string::npos) << text.substr(0, 2000);
  EXPECT_EQ(text.find("0.32930000000000004"), std::string::npos);
  EXPECT_NE(text.find("\"ground_height_m\": 0.30000000000000004"), std::string::npos);
  EXPECT_EQ(json::parse(text)["ground_height_m"].get<double>(), 0.1 + 0.2);
}

TEST(ContactsJson, CleanRecordsItsWarningsAndTheCleanedClip) {
  Annotated a = annotate_synthetic();
  CleanedClipInfo info{"walk.bvh", {"left knee is never clearly bent"}};
  std::ostringstream out;
  write_contacts_json(a.s.clip, a.result, {}, out, &info);
  json doc = json::parse(out.str());
  EXPECT_EQ(doc["cleaned_clip"], "walk.bvh");
  EXPECT_EQ(doc["warnings"], json::array({"left knee is never clearly bent"}));
  EXPECT_TRUE(test::SchemaValidator::validate(load_schema(), doc).empty());
  EXPECT_EQ(parse_contacts_json(out.str(), "w.contacts.json").cleaned_clip, "walk.bvh");
}

TEST(ContactsJson, Version1FilesAreStillRead) {
  Annotated a = annotate_synthetic();
  json doc = json::parse(write_to_string(a));
  doc["version"] = 1;
  doc.erase("coordinates");
  doc["clip"].erase("frame_time_s");
  for (auto& foot : doc["feet"])
    for (auto& in : foot["intervals"]) {
      in.erase("start_time_s");
      in.erase("end_time_s");
    }
  ContactsDocument read = parse_contacts_json(doc.dump(), "v1.contacts.json");
  EXPECT_EQ(read.frame_count, a.s.clip.frame_count);
  EXPECT_DOUBLE_EQ(read.frame_time_s, 1.0 / 60.0);
  EXPECT_EQ(read.result.feet[0].intervals.size(), a.result.feet[0].intervals.size());
}

TEST(ContactsJson, InvalidUtf8NamesAreReplacedNotFatal) {
  Annotated a = annotate_synthetic();
  a.s.clip.skeleton.names[a.result.feet[0].joint] = "LeftToe\xff" "Base";
  std::string text = write_to_string(a);
  json doc = json::parse(text);
  EXPECT_EQ(doc["feet"][0]["joint"], "LeftToe\xef\xbf\xbd" "Base");
}

TEST(ContactsJson, OutputValidatesAgainstTheSchema) {
  Annotated a = annotate_synthetic();
  auto errors = test::SchemaValidator::validate(load_schema(), json::parse(write_to_string(a)));
  EXPECT_TRUE(errors.empty()) << errors.front();
}

TEST(ContactsJson, SchemaValidatorCatchesBrokenDocuments) {
  Annotated a = annotate_synthetic();
  json schema = load_schema();
  json doc = json::parse(write_to_string(a));
  json missing = doc;
  missing.erase("feet");
  auto errors = test::SchemaValidator::validate(schema, missing);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "$: missing required 'feet'");
  json bad = doc;
  bad["feet"][1]["side"] = "middle";
  bad["feet"][0]["contact"][3] = 2;
  bad["feet"][0]["intervals"][0]["position"] = json::array({1, 2});
  bad["settings"]["speed_threshold_mps"] = 0;
  bad["extra"] = true;
  errors = test::SchemaValidator::validate(schema, bad);
  EXPECT_EQ(errors.size(), 5u);
  json unsupported = {{"type", "object"}, {"patternProperties", json::object()}};
  EXPECT_EQ(test::SchemaValidator::validate(unsupported, json::object()).size(), 1u);
}

std::string read_error(const std::string& text) {
  try {
    parse_contacts_json(text, "w.contacts.json");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::read);
    return e.what();
  }
  return "no error";
}

TEST(ContactsJson, MalformedFilesGiveLocatedErrors) {
  Annotated a = annotate_synthetic();
  json good = json::parse(write_to_string(a));
  const int frames = a.s.clip.frame_count;

  EXPECT_EQ(read_error("{\n  \"format\": \"footfix-contacts\",\n  \"version\": 1,,\n}").substr(0, 22), "w.contacts.json:3:16: ");
  json j = good;
  j["version"] = 3;
  EXPECT_EQ(read_error(j.dump()), "w.contacts.json: version: unsupported version 3 (this footfix reads 1 to 2)");
  j = good;
  j["format"] = "other";
  EXPECT_EQ(read_error(j.dump()), "w.contacts.json: format: expected \"footfix-contacts\"");
  j = good;
  j["feet"][1]["intervals"][0]["last_frame"] = frames + 5;
  EXPECT_EQ(read_error(j.dump()), "w.contacts.json: feet[1].intervals[0].last_frame: " + std::to_string(frames + 5) +
                                      " is outside [" + std::to_string(j["feet"][1]["intervals"][0]["first_frame"].get<int>()) +
                                      ", " + std::to_string(frames - 1) + "]");
  j = good;
  j["feet"][0]["contact"].erase(0);
  EXPECT_EQ(read_error(j.dump()), "w.contacts.json: feet[0].contact: expected " + std::to_string(frames) +
                                      " entries, found " + std::to_string(frames - 1));
  j = good;
  j["feet"][0]["smoothed"][7] = 1.5;
  EXPECT_EQ(read_error(j.dump()), "w.contacts.json: feet[0].smoothed[7]: expected a number in [0, 1]");
  j = good;
  j["feet"][1]["side"] = "left";
  EXPECT_EQ(read_error(j.dump()), "w.contacts.json: feet[1].side: 'left' appears twice");
  j = good;
  j["settings"]["majority_window_s"] = -1;
  EXPECT_NE(read_error(j.dump()).find("majority_window_s must be > 0"), std::string::npos);
  j = good;
  j["clip"].erase("fps");
  EXPECT_EQ(read_error(j.dump()), "w.contacts.json: clip: missing 'fps'");
  j = good;
  j["feet"][0]["intervals"].erase(0);
  EXPECT_EQ(read_error(j.dump()), "w.contacts.json: feet[0].intervals: do not match the runs of 'contact'");
  EXPECT_THROW(read_contacts_json("/nonexistent/x.contacts.json"), Error);
}

}  // namespace
}  // namespace footfix

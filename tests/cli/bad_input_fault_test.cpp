// The malformed-input corpus (tests/data/bad/, made by make_bad.py) through the real `footfix`
// binary: every case must end, within a time bound, with its exit code (read 3, process 4), a
// message on stderr located as "<file>:<line>:" where the fault has a line, and no output file
// (nor a leftover temporary file) in the output folder.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli/run_footfix.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

constexpr int k_read = 3, k_process = 4;
const auto k_input_bound = std::chrono::seconds(20);

fs::path bad_dir() { return fs::path(FOOTFIX_TESTS_DIR) / "data" / "bad"; }

struct BadCase {
  const char* file;
  int exit_code;
  const char* message;  ///< substring expected on stderr
  int line;             ///< expected "<file>:<line>:" prefix; 0 = message names the file only
};

// Lines refer to the files make_bad.py writes: the hierarchy takes lines 1-63, MOTION is line
// 64, Frames: 65, Frame Time: 66, motion rows from 67.
const BadCase k_cases[] = {
    {"empty.bvh", k_read, "empty file (no HIERARCHY)", 1},
    {"whitespace_only.bvh", k_read, "empty file (no HIERARCHY)", 0},
    {"truncated_hierarchy.bvh", k_read, "truncated hierarchy: end of file inside joint 'RightLeg'", 36},
    {"binary_garbage.bvh", k_read, "not a BVH file (a PNG image)", 1},
    {"nul_in_motion.bvh", k_read, "bad number", 67},
    {"nan_value.bvh", k_read, "non-finite value 'nan'", 69},
    {"inf_value.bvh", k_read, "non-finite value '-inf'", 68},
    {"overflow_value.bvh", k_read, "non-finite value '1e400'", 70},
    {"nan_offset.bvh", k_read, "bad OFFSET value 'nan'", 0},
    {"bad_number.bvh", k_read, "bad number '12..5'", 67},
    {"overflow_frame_count.bvh", k_read, "is too large", 65},
    {"negative_frame_count.bvh", k_read, "negative Frames count '-4'", 65},
    {"zero_frames.bvh", k_read, "no frames (Frames: 0)", 65},
    {"zero_frame_time.bvh", k_read, "bad Frame Time '0'", 66},
    {"negative_frame_time.bvh", k_read, "bad Frame Time '-0.0333333'", 66},
    {"nan_frame_time.bvh", k_read, "bad Frame Time 'nan'", 66},
    {"absurd_frame_time.bvh", k_read, "Frame Time '1e300' is out of range", 66},
    {"tiny_frame_time.bvh", k_read, "Frame Time '1e-300' is out of range", 66},
    {"cyclic_names.bvh", k_read, "duplicate joint name 'LeftUpLeg'", 0},
    {"duplicate_root_name.bvh", k_read, "duplicate joint name 'Hips'", 0},
    {"two_roots.bvh", k_read, "duplicate joint name 'Hips'", 64},
    {"no_channels.bvh", k_read, "declares no CHANNELS", 0},
    {"too_many_values.bvh", k_read, "expected 33 values, found 34", 68},
    {"unbalanced_braces.bvh", k_read, "MOTION inside joint 'Hips'", 63},
    {"missing_motion.bvh", k_read, "missing MOTION after the hierarchy", 0},
    {"single_leg.bvh", k_process, "no legs found", 0},
    {"zero_length_bones.bvh", k_process, "no legs found", 0},
    // FBX messages locate by byte offset (binary) or line (ASCII) after the file name.
    {"fbx_bad_offset.fbx", k_read, "offset 27: node end offset 4294967040 out of range", 0},
    {"fbx_magic_only.fbx", k_read, "offset 27: missing top-level null record (truncated file?)", 0},
    {"fbx_ascii_truncated.fbx", k_read, "line 4: unterminated string", 0},
    {"fbx_ascii_nul.fbx", k_read, "line 2: NUL byte in an ASCII FBX file", 0},
};

std::string case_name(const testing::TestParamInfo<BadCase>& info) {
  std::string name = fs::path(info.param.file).stem().string();
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
}

void expect_located_failure(const BoundedRun& r, const BadCase& c) {
  EXPECT_FALSE(r.timed_out) << "took longer than the bound";
  EXPECT_EQ(r.signal, 0) << r.err;
  EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
  EXPECT_NE(r.err.find(c.message), std::string::npos) << "stderr: " << r.err;
  const std::string where = (bad_dir() / c.file).string() + (c.line ? ":" + std::to_string(c.line) + ":" : ":");
  EXPECT_NE(r.err.find(where), std::string::npos) << "expected '" << where << "' in stderr: " << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
}

class BadInput : public testing::TestWithParam<BadCase> {};

TEST_P(BadInput, InspectFailsWithLocatedMessage) {
  const BadCase& c = GetParam();
  BoundedRun r = run_footfix_bounded({"inspect", (bad_dir() / c.file).string()}, k_input_bound);
  expect_located_failure(r, c);
  // A clip read without legs still shows its joint tree, so that a --rig profile can be written.
  if (c.exit_code == k_process)
    EXPECT_NE(r.out.find("joints:\n    Hips\n"), std::string::npos) << r.out;
  else
    EXPECT_EQ(r.out, "");
}

TEST_P(BadInput, ConvertFailsAndWritesNothing) {
  const BadCase& c = GetParam();
  TempDir out;
  BoundedRun r = run_footfix_bounded({"convert", (bad_dir() / c.file).string(), (out / "out.bvh").string()}, k_input_bound);
  expect_located_failure(r, c);
  EXPECT_TRUE(out.entries().empty()) << "left " << out.entries().front();
}

TEST_P(BadInput, CleanFailsAndWritesNothing) {
  const BadCase& c = GetParam();
  TempDir out;
  BoundedRun r = run_footfix_bounded({"clean", (bad_dir() / c.file).string(), "-o", out.path().string()}, k_input_bound);
  expect_located_failure(r, c);
  EXPECT_NE(r.err.find("failed: " + (bad_dir() / c.file).string()), std::string::npos) << r.err;
  EXPECT_TRUE(out.entries().empty()) << "left " << out.entries().front();
}

TEST_P(BadInput, LockFailsAndWritesNothing) {
  const BadCase& c = GetParam();
  TempDir out;
  BoundedRun r = run_footfix_bounded({"lock", (bad_dir() / c.file).string(), "-o", out.path().string()}, k_input_bound);
  expect_located_failure(r, c);
  EXPECT_NE(r.err.find("failed: " + (bad_dir() / c.file).string()), std::string::npos) << r.err;
  EXPECT_TRUE(out.entries().empty()) << "left " << out.entries().front();
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadInput, testing::ValuesIn(k_cases), case_name);

// Files whose Frames count disagrees with their rows (a cut file, a last row cut mid-way), and
// the warning they are read with: their complete rows, as Blender's importer reads them.
const std::pair<const char*, const char*> k_count_cases[] = {
    {"truncated_motion.bvh", "Frames: 4 at line 65, 2 complete rows read"},
    {"truncated_row.bvh", "Frames: 4 at line 65, 3 complete rows read; a partial row at line 70 was dropped"},
    {"absurd_frame_count.bvh", "Frames: 2000000000 at line 65, 4 complete rows read"},
};

TEST(BadInputCounts, CountsThatDisagreeWithTheRowsReadTheCompleteRows) {
  for (const auto& [file, warning] : k_count_cases) {
    SCOPED_TRACE(file);
    BoundedRun r = run_footfix_bounded({"inspect", (bad_dir() / file).string()}, k_input_bound);
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE((r.out + r.err).find(warning), std::string::npos) << r.out << r.err;
  }
}

// Rig profiles (--rig) that cannot be used, with a good clip.
const BadCase k_profile_cases[] = {
    {"profile_not_json.json", k_read, "rig profile: not valid JSON", 1},
    {"profile_wrong_type.json", k_read, "left.hip must be a string", 0},
    {"profile_bad_axis.json", k_read, "left.knee_side_axis must be a non-zero vector", 0},
    {"profile_not_utf8.json", k_read, "rig profile: not valid JSON (parse error at line 1, column 14: syntax error while parsing value - invalid string: ill-formed UTF-8 byte", 1},
    {"profile_unknown_joint.json", k_process, "hip joint 'NoSuchJoint' not in the skeleton", -1},
    {"profile_number_overflow.json", k_read, "rig profile: not valid JSON ([json.exception.out_of_range.406] number overflow parsing '1e999')", 0},
};

class BadProfile : public testing::TestWithParam<BadCase> {};

TEST_P(BadProfile, ConvertFailsAndWritesNothing) {
  const BadCase& c = GetParam();
  TempDir out;
  BoundedRun r = run_footfix_bounded({"convert", (bad_dir() / "one_frame.bvh").string(), (out / "out.bvh").string(),
                             "--rig", (bad_dir() / c.file).string()},
                            k_input_bound);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
  EXPECT_NE(r.err.find(c.message), std::string::npos) << "stderr: " << r.err;
  // Profile read errors name the profile; a joint missing from the clip names the clip.
  const fs::path named = c.line < 0 ? bad_dir() / "one_frame.bvh" : bad_dir() / c.file;
  const std::string where = named.string() + (c.line > 0 ? ":" + std::to_string(c.line) + ":" : ":");
  EXPECT_NE(r.err.find(where), std::string::npos) << "expected '" << where << "' in stderr: " << r.err;
  EXPECT_TRUE(out.entries().empty());
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadProfile, testing::ValuesIn(k_profile_cases), case_name);

// Clean settings files (`clean --settings`): bad values and invalid JSON (located by line and
// column) are usage errors (2).
const BadCase k_settings_cases[] = {
    {"settings_iterations_overflow.json", 2, "solve: reference_iterations must be an integer in [1, 100000], got 4294967297", 0},
    {"settings_not_json.json", 2, "not valid JSON at line 1, column 32", 0},
    {"settings_unknown_key.json", 2, "unknown contact setting 'speed_threshold'", 0},
};

class BadSettings : public testing::TestWithParam<BadCase> {};

TEST_P(BadSettings, CleanAndLockFailAndWriteNothing) {
  const BadCase& c = GetParam();
  for (const char* command : {"clean", "lock"}) {
    SCOPED_TRACE(command);
    TempDir out;
    BoundedRun r = run_footfix_bounded({command, (bad_dir() / "one_frame.bvh").string(), "-o", out.path().string(),
                                        "--settings", (bad_dir() / c.file).string()},
                                       k_input_bound);
    expect_located_failure(r, c);
    EXPECT_TRUE(out.entries().empty());
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadSettings, testing::ValuesIn(k_settings_cases), case_name);

// Contacts files (`metrics --contacts`); a line of 0 here means the message has no line.
const BadCase k_contacts_cases[] = {
    {"contacts_truncated.contacts.json", k_read, ":33:5: JSON syntax error", 0},
    {"contacts_number_overflow.contacts.json", k_read, "not valid JSON ([json.exception.out_of_range.406] number overflow parsing '1e999')", 0},
    {"contacts_interval_outside.contacts.json", k_read, "feet[1].intervals[0].last_frame: 400 is outside [6, 39]", 0},
};

class BadContacts : public testing::TestWithParam<BadCase> {};

TEST_P(BadContacts, MetricsFailsWithLocatedMessage) {
  const BadCase& c = GetParam();
  const std::string clip = (bad_dir() / "one_frame.bvh").string();
  BoundedRun r = run_footfix_bounded({"metrics", clip, clip, "--contacts", (bad_dir() / c.file).string()}, k_input_bound);
  expect_located_failure(r, c);
  // A clip read without legs still shows its joint tree, so that a --rig profile can be written.
  if (c.exit_code == k_process)
    EXPECT_NE(r.out.find("joints:\n    Hips\n"), std::string::npos) << r.out;
  else
    EXPECT_EQ(r.out, "");
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadContacts, testing::ValuesIn(k_contacts_cases), case_name);

// Files in tests/data/bad with their own tests elsewhere (valid but degenerate inputs).
const std::set<std::string> k_valid_cases = {"one_frame.bvh", "names_alike.bvh", "non_utf8_name.bvh"};

TEST(BadCorpus, EveryFileHasAnExpectedOutcome) {
  std::set<std::string> listed = k_valid_cases;
  for (const auto& c : k_cases) listed.insert(c.file);
  for (const auto& c : k_profile_cases) listed.insert(c.file);
  for (const auto& c : k_contacts_cases) listed.insert(c.file);
  for (const auto& c : k_settings_cases) listed.insert(c.file);
  for (const auto& c : k_count_cases) listed.insert(c.first);
  int files = 0;
  for (const auto& entry : fs::directory_iterator(bad_dir())) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".py") continue;
    ++files;
    EXPECT_TRUE(listed.count(name)) << name << " has no expected exit code and message";
  }
  EXPECT_EQ(files, static_cast<int>(listed.size())) << "a listed case file is missing from " << bad_dir();
}

}  // namespace
}  // namespace footfix::test

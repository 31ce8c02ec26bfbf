// Faults that are made by the test rather than committed (a 50 MB line, 10000 nested joints, a
// directory or a missing path given as a clip, outputs that cannot be written) and valid but
// degenerate clips from tests/data/bad, all through the real `footfix` binary.
#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/run_footfix.h"
#include "footfix/files/atomic_file.h"
#include "footfix/bvh/bvh.h"
#include "support/paths.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

constexpr int k_ok = 0, k_read = 3, k_process = 4, k_write = 5;
const auto k_generated_bound = std::chrono::seconds(30);

fs::path bad(const std::string& name) { return fs::path(FOOTFIX_TESTS_DIR) / "data" / "bad" / name; }

void write_checked(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  ASSERT_TRUE(out.good()) << path;
}

void expect_failure(const BoundedRun& r, int exit_code, const std::string& located, const std::string& message) {
  EXPECT_FALSE(r.timed_out) << "took longer than the bound";
  EXPECT_EQ(r.signal, 0) << r.err;
  EXPECT_EQ(r.exit_code, exit_code) << r.err;
  EXPECT_NE(r.err.find(located), std::string::npos) << "expected '" << located << "' in stderr: " << r.err;
  EXPECT_NE(r.err.find(message), std::string::npos) << "expected '" << message << "' in stderr: " << r.err;
}

// A chain of `depth` nested joints, each with three rotation channels, and two frames.
std::string nested_chain(int depth) {
  std::string text = "HIERARCHY\nROOT j0\n{\nOFFSET 0 1 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n";
  for (int j = 1; j < depth; ++j)
    text += "JOINT j" + std::to_string(j) + "\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n";
  text += "End Site\n{\nOFFSET 0 1 0\n}\n";
  for (int j = 0; j < depth; ++j) text += "}\n";
  text += "MOTION\nFrames: 2\nFrame Time: 0.033333\n";
  std::string row = "0 0 0";
  for (int v = 3; v < 3 * depth + 3; ++v) row += " 1";
  return text + row + "\n" + row + "\n";
}

TEST(GeneratedFault, FiftyMegabyteMotionLineFailsQuickly) {
  TempDir dir;
  std::string text = read_file(bad("one_frame.bvh"));
  const size_t row = text.rfind("Frame Time:");
  text = text.substr(0, text.find('\n', row) + 1);  // keep the header, drop the row
  text.reserve(text.size() + 50'000'010);
  for (int i = 0; i < 25'000'000; ++i) text += "1 ";
  text += "\n";
  write_checked(dir / "huge_line.bvh", text);
  TempDir out;
  BoundedRun r = run_footfix_bounded({"convert", (dir / "huge_line.bvh").string(), (out / "o.bvh").string()}, k_generated_bound);
  expect_failure(r, k_read, (dir / "huge_line.bvh").string() + ":67:", "expected 33 values, found 25000000");
  EXPECT_TRUE(out.entries().empty());
}

TEST(GeneratedFault, FiftyMegabyteNameLineFailsQuickly) {
  TempDir dir;
  write_checked(dir / "huge_name.bvh", "HIERARCHY\nROOT " + std::string(50'000'000, 'A') + "\n{\n");
  BoundedRun r = run_footfix_bounded({"inspect", (dir / "huge_name.bvh").string()}, k_generated_bound);
  expect_failure(r, k_read, (dir / "huge_name.bvh").string() + ":4:", "truncated hierarchy");
  // The message quotes names shortened, never the whole 50 MB.
  EXPECT_LT(r.err.size(), 4096u);
}

TEST(GeneratedFault, TenThousandNestedJointsAreRefused) {
  TempDir dir;
  write_checked(dir / "deep.bvh", nested_chain(10000));
  TempDir out;
  BoundedRun r = run_footfix_bounded({"convert", (dir / "deep.bvh").string(), (out / "o.bvh").string()}, k_generated_bound);
  // JOINT j1024 (nesting 1025) is on line 4 * 1024 + 2: 5 header lines, then 4 lines per joint.
  expect_failure(r, k_read, (dir / "deep.bvh").string() + ":4098:", "nested deeper than 1024 levels");
  EXPECT_TRUE(out.entries().empty());
}

TEST(GeneratedFault, ThousandNestedJointsWithoutLegsEndInAProcessError) {
  // Under the nesting cap the file parses; every later stage must cope with the depth.
  TempDir dir;
  write_checked(dir / "chain.bvh", nested_chain(1000));
  TempDir out;
  BoundedRun r = run_footfix_bounded({"convert", (dir / "chain.bvh").string(), (out / "o.bvh").string()}, k_generated_bound);
  expect_failure(r, k_process, (dir / "chain.bvh").string() + ":", "no legs found");
  EXPECT_TRUE(out.entries().empty());
}

TEST(GeneratedFault, DirectoryGivenAsClip) {
  TempDir dir;
  fs::create_directory(dir / "walk.bvh");
  TempDir out;
  BoundedRun r = run_footfix_bounded({"convert", (dir / "walk.bvh").string(), (out / "o.bvh").string()}, k_generated_bound);
  expect_failure(r, k_read, (dir / "walk.bvh").string() + ":", "is a directory");
  EXPECT_TRUE(out.entries().empty());
}

TEST(GeneratedFault, DirectoryGivenAsFbxClip) {
  TempDir dir;
  fs::create_directory(dir / "walk.fbx");
  TempDir out;
  BoundedRun r = run_footfix_bounded({"convert", (dir / "walk.fbx").string(), (out / "o.bvh").string()}, k_generated_bound);
  expect_failure(r, k_read, (dir / "walk.fbx").string() + ":", "is a directory");
  EXPECT_TRUE(out.entries().empty());
}

TEST(GeneratedFault, MissingClip) {
  TempDir dir, out;
  BoundedRun r = run_footfix_bounded({"convert", (dir / "nope.bvh").string(), (out / "o.bvh").string()}, k_generated_bound);
  expect_failure(r, k_read, (dir / "nope.bvh").string() + ":", "cannot open file");
  EXPECT_TRUE(out.entries().empty());
}

TEST(GeneratedFault, UnsupportedExtension) {
  TempDir dir, out;
  fs::copy_file(bad("one_frame.bvh"), dir / "clip.txt");
  BoundedRun r = run_footfix_bounded({"convert", (dir / "clip.txt").string(), (out / "o.bvh").string()}, k_generated_bound);
  expect_failure(r, k_read, (dir / "clip.txt").string() + ":", "unsupported file type '.txt'");
  EXPECT_TRUE(out.entries().empty());
}

TEST(OutputFault, ParentIsAFile) {
  TempDir out;
  write_checked(out / "blocker", "not a directory");
  BoundedRun r = run_footfix_bounded({"convert", bad("one_frame.bvh").string(), (out / "blocker" / "o.bvh").string()}, k_generated_bound);
  expect_failure(r, k_write, (out / "blocker" / "o.bvh").string() + ":", "cannot open for writing: Not a directory");
  EXPECT_EQ(out.entries(), std::vector<std::string>{"blocker"});
}

TEST(OutputFault, OutputIsADirectory) {
  TempDir out;
  fs::create_directory(out / "o.bvh");
  BoundedRun r = run_footfix_bounded({"convert", bad("one_frame.bvh").string(), (out / "o.bvh").string()}, k_generated_bound);
  expect_failure(r, k_write, (out / "o.bvh").string() + ":", "cannot put into place");
  EXPECT_EQ(out.entries(), std::vector<std::string>{"o.bvh"}) << "temporary file left behind";
}

TEST(OutputFault, ReadOnlyDirectory) {
  const bool root = ::geteuid() == 0;
  if (root && !can_run_unprivileged()) GTEST_SKIP() << "running as root and user nobody cannot run footfix on the test data here: permissions do not stop root";
  TempDir out;
  fs::create_directory(out / "ro");
  fs::permissions(out / "ro", fs::perms::owner_read | fs::perms::owner_exec | fs::perms::others_read |
                                  fs::perms::others_exec);
  const std::vector<std::string> args = {"convert", bad("one_frame.bvh").string(), (out / "ro" / "o.bvh").string()};
  BoundedRun r = root ? run_footfix_unprivileged(args, k_generated_bound) : run_footfix_bounded(args, k_generated_bound);
  expect_failure(r, k_write, (out / "ro" / "o.bvh").string() + ":", "cannot open for writing: Permission denied");
  EXPECT_EQ(out.entries(), std::vector<std::string>{"ro"});
}

TEST(OutputFault, MissingOutputDirectoryIsCreated) {
  TempDir out;
  const fs::path target = out / "a" / "b" / "o.bvh";
  BoundedRun r = run_footfix_bounded({"convert", bad("one_frame.bvh").string(), target.string()}, k_generated_bound);
  EXPECT_EQ(r.exit_code, k_ok) << r.err;
  EXPECT_EQ(out.entries(), (std::vector<std::string>{"a", "a/b", "a/b/o.bvh"}));
}

// Valid but degenerate inputs: a result, not an error, and nothing non-finite.
TEST(DegenerateInput, OneFrameClipConverts) {
  TempDir out;
  BoundedRun r = run_footfix_bounded({"convert", bad("one_frame.bvh").string(), (out / "o.bvh").string()}, k_generated_bound);
  ASSERT_EQ(r.exit_code, k_ok) << r.err;
  Clip clip = parse_bvh(read_file(out / "o.bvh"), "o.bvh");
  EXPECT_EQ(clip.frame_count, 1);
  EXPECT_EQ(clip.joint_count(), 10);
  EXPECT_EQ(read_file(out / "o.bvh").find("nan"), std::string::npos);
}

TEST(DegenerateInput, NamesDifferingOnlyByCaseKeepTheRealLegs) {
  BoundedRun r = run_footfix_bounded({"inspect", "--json", bad("names_alike.bvh").string()}, k_generated_bound);
  ASSERT_EQ(r.exit_code, k_ok) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc[0]["legs"]["left"]["knee"], "LeftLeg");
  EXPECT_EQ(doc[0]["legs"]["right"]["knee"], "RightLeg");
}

TEST(DegenerateInput, NonUtf8JointNameIsReportedNotFatal) {
  BoundedRun r = run_footfix_bounded({"inspect", "--json", bad("non_utf8_name.bvh").string()}, k_generated_bound);
  ASSERT_EQ(r.exit_code, k_ok) << r.err;
  auto doc = nlohmann::json::parse(r.out);  // valid JSON: bad bytes replaced by U+FFFD
  EXPECT_EQ(doc[0]["joint_count"], 10);
  EXPECT_EQ(doc[0]["joints"][9]["name"], "Sp\xEF\xBF\xBDine\xEF\xBF\xBD");
  TempDir out;
  r = run_footfix_bounded({"convert", bad("non_utf8_name.bvh").string(), (out / "o.bvh").string()}, k_generated_bound);
  ASSERT_EQ(r.exit_code, k_ok) << r.err;
  EXPECT_NE(read_file(out / "o.bvh").find("JOINT Sp\xFFine\xC3\n"), std::string::npos) << "name bytes not kept";
}

}  // namespace
}  // namespace footfix::test

// Finding 1 (secrets leak through error messages): clips that are not clips, among them links
// to /proc/self/environ with a secret in the child's environment and copies of such content in
// regular files. Every message names the format or says "not a BVH/FBX file"; the secret appears
// nowhere (stdout, stderr, the report JSON, the HTML page, the JUnit XML); the batch goes on.
// (--follow-symlinks: the links point outside the folder, which a folder walk otherwise skips.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cli/run_footfix.h"
#include "support/paths.h"
#include "support/security_checks.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

TEST(SecurityLeak, ErrorMessagesNameTheFormatAndNeverEchoContent) {
  TempDir dir;
  const fs::path clips = dir / "clips";
  fs::create_directories(clips);
  fs::create_symlink("/proc/self/environ", clips / "a_env.bvh");
  fs::create_symlink("/proc/self/environ", clips / "a_env_f.fbx");
  const std::string environ_copy = k_secret_env + std::string(1, '\0') + "PATH=/usr/bin" + std::string(1, '\0');
  write_bytes(clips / "b_environ_copy.bvh", environ_copy);
  write_bytes(clips / "b_environ_copy_f.fbx", environ_copy);
  write_bytes(clips / "c_text.bvh", k_secret_env + "\nHIERARCHY\n");
  write_bytes(clips / "c_text_f.fbx", k_secret_env + "\n");
  write_bytes(clips / "c_text_node.fbx", "SECRET_TOKEN: \"" + k_secret_value + "\"\n");
  write_bytes(clips / "d_zip.bvh", std::string("PK\x03\x04", 4) + k_secret_env);
  write_bytes(clips / "e_utf16.bvh", std::string("\xff\xfeH\0I\0", 6) + k_secret_env);
  write_bytes(clips / "f_gltf.fbx", "glTF" + k_secret_env);
  write_bytes(clips / "g_fbx_binary.bvh", std::string("Kaydara FBX Binary  \0", 21) + k_secret_env);
  fs::copy_file(data_clip("cmu_07_01_walk.bvh"), clips / "z_walk.bvh");

  const fs::path report = dir / "report.json";
  const fs::path html = dir / "report.html";
  const fs::path junit = dir / "junit.xml";
  LimitedRunOptions options;
  options.env = {k_secret_env};
  options.bound = std::chrono::seconds(60);
  LimitedRun r = run_footfix_limited({"clean", clips.string(), "-o", (dir / "out").string(), "--report", report.string(),
                                     "--html", html.string(), "--junit", junit.string(), "--follow-symlinks"},
                                    options);
  expect_bounded(r, 300);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  expect_no_secret(r.out, "stdout");
  expect_no_secret(r.err, "stderr");
  const std::string report_text = read_bytes(report);
  expect_no_secret(report_text, "the report");
  const std::string html_text = read_bytes(html);
  const std::string junit_text = read_bytes(junit);
  expect_no_secret(html_text, "the HTML report");
  expect_no_secret(junit_text, "the JUnit XML");
  EXPECT_TRUE(fs::exists(dir / "out" / "z_walk.bvh")) << "the batch stopped at a hostile file";

  const nlohmann::json doc = nlohmann::json::parse(report_text);
  std::map<std::string, std::string> errors;
  for (const auto& clip : doc["clips"])
    if (clip.contains("error")) errors[fs::path(clip["input"].get<std::string>()).filename().string()] = clip["error"];
  const std::map<std::string, std::string> expected = {
      {"a_env.bvh", "a /proc or /sys file, not a clip"},
      {"a_env_f.fbx", "a /proc or /sys file, not a clip"},
      {"b_environ_copy.bvh", "not a BVH file (binary data)"},
      {"b_environ_copy_f.fbx", "not an FBX file (binary data)"},
      {"c_text.bvh", "not a BVH file: it does not start with HIERARCHY"},
      {"c_text_f.fbx", "not an FBX file: expected 'Name:'"},
      {"c_text_node.fbx", "not an FBX file (no Objects section)"},
      {"d_zip.bvh", "not a BVH file (a ZIP archive)"},
      {"e_utf16.bvh", "not a BVH file (UTF-16 text)"},
      {"f_gltf.fbx", "not an FBX file (a binary glTF file)"},
      {"g_fbx_binary.bvh", "not a BVH file (a binary FBX file)"},
  };
  EXPECT_EQ(errors.size(), expected.size());
  for (const auto& [name, text] : expected) {
    ASSERT_TRUE(errors.count(name)) << name << " not reported as failed";
    EXPECT_NE(errors[name].find(text), std::string::npos) << name << ": " << errors[name];
    EXPECT_NE(r.err.find(name), std::string::npos) << name << " not named on the console";
    EXPECT_NE(html_text.find(name), std::string::npos) << name << " not listed in the HTML report";
    EXPECT_NE(junit_text.find(name), std::string::npos) << name << " not a JUnit test case";
  }
}

TEST(SecurityLeak, ContactsJsonErrorsDoNotQuoteTheFile) {
  TempDir dir;
  write_bytes(dir / "c.contacts.json", "\"" + k_secret_value + "\n");  // nlohmann would quote it
  const std::string walk = data_clip("cmu_07_01_walk.bvh").string();
  LimitedRun r = run_footfix_limited({"metrics", walk, walk, "--contacts", (dir / "c.contacts.json").string()});
  expect_bounded(r, 200);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("JSON syntax error"), std::string::npos) << r.err;
  expect_no_secret(r.err, "stderr");
  expect_no_secret(r.out, "stdout");
}

TEST(SecurityLeak, JointNamesAreQuotedEscapedAndCut) {
  // A joint name is file content too: it may be quoted (bounded, control bytes escaped), never
  // a raw prefix of the file.
  TempDir dir;
  std::string text = read_bytes(data_clip("cmu_07_01_walk.bvh"));
  const std::string name = "\x1b]0;pwned\x07" + std::string(80, 'x');
  const std::size_t at = text.find("JOINT LeftUpLeg");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 15, "JOINT " + name + "\n{\nOFFSET nan 0 0\n}\nJOINT LeftUpLeg");
  write_bytes(dir / "named.bvh", text);
  LimitedRun r = run_footfix_limited({"inspect", (dir / "named.bvh").string()});
  expect_bounded(r, 200);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("x1b]0;pwned"), std::string::npos) << "joint name not quoted: " << r.err;
  EXPECT_EQ(r.err.find(std::string(60, 'x')), std::string::npos) << "name not cut: " << r.err;
}

}  // namespace
}  // namespace footfix::test

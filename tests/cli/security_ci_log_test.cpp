// Security round 2, finding 1 (CI log injection): names and paths from contributed files must not
// reach a CI log as a runner command. GitHub's runner obeys `::command::` at the start of a line
// (after trimming whitespace) and `##[command]` anywhere in it; Azure Pipelines obeys `##vso[`
// anywhere. Every command is run through the binary on clips whose file names and joint names
// carry those forms (and newlines), and no line of its output may hold one.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cctype>
#include <sstream>

#include "cli/run_footfix.h"
#include "support/paths.h"
#include "support/security_checks.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

const std::string k_github_name = "walk##[set-output name=verdict]pass.bvh";
const std::string k_azure_name = "run##VSO[task.setvariable variable=verdict]pass.bvh";
const std::string k_newline_name = "x\n::add-mask::secret\n  ::error file=a::boom.bvh";
// Joint names: one that an indented tree line would start with, one in the older form.
const std::string k_tree_joint = "::stop-commands::x";
const std::string k_bracket_joint = "##[warning]joint";

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// The runner command a line of `text` would carry, or "" when none.
std::string ci_command_in(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::size_t first = line.find_first_not_of(" \t\r\f\v");
    if (first != std::string::npos && line.compare(first, 2, "::") == 0) return line;
    const std::string l = lower(line);
    if (l.find("##[") != std::string::npos || l.find("##vso[") != std::string::npos) return line;
  }
  return "";
}

void expect_no_ci_command(const LimitedRun& r, const std::string& what) {
  expect_bounded(r, 300);
  EXPECT_EQ(ci_command_in(r.out), "") << what << ": a runner command on stdout";
  EXPECT_EQ(ci_command_in(r.err), "") << what << ": a runner command on stderr";
}

/// The bundled walk with two non-leg joints renamed to hostile names; `nudge` adds that many degrees
/// to the first channel of the renamed Head in every frame (a changed non-leg joint for metrics).
std::string hostile_walk(double nudge) {
  std::string text = read_bytes(data_clip("cmu_07_01_walk.bvh"));
  const auto rename = [&](const std::string& from, const std::string& to) {
    std::size_t at = text.find("JOINT " + from + "\n");
    if (at == std::string::npos) at = text.find("JOINT " + from + "\r");
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at + 6, from.size(), to);
  };
  rename("Head", k_tree_joint);
  rename("Neck1", k_bracket_joint);
  if (nudge == 0) return text;
  // The Head's first channel: channels are listed in hierarchy order.
  std::istringstream in(text);
  std::ostringstream out;
  int column = 0, head_column = -1;
  bool in_motion = false, after_head = false;
  int header_lines_left = 0;
  for (std::string line; std::getline(in, line);) {
    if (!in_motion) {
      if (line.find("JOINT " + k_tree_joint) != std::string::npos) after_head = true;
      std::size_t ch = line.find("CHANNELS");
      if (ch != std::string::npos) {
        if (after_head && head_column < 0) head_column = column;
        column += std::stoi(line.substr(ch + 8));
      }
      if (line.rfind("MOTION", 0) == 0) {
        in_motion = true;
        header_lines_left = 2;  // Frames:, Frame Time:
      }
      out << line << "\n";
      continue;
    }
    if (header_lines_left > 0) {
      --header_lines_left;
      out << line << "\n";
      continue;
    }
    std::istringstream values(line);
    std::vector<double> v;
    for (double x; values >> x;) v.push_back(x);
    if (v.empty()) continue;
    v[static_cast<std::size_t>(head_column)] += nudge;
    for (std::size_t i = 0; i < v.size(); ++i) out << (i ? " " : "") << v[i];
    out << "\n";
  }
  EXPECT_GE(head_column, 0);
  return out.str();
}

class SecurityCiLog : public testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_ / "in");
    for (const auto& name : {k_github_name, k_azure_name, k_newline_name}) write_bytes(dir_ / "in" / name, hostile_walk(0));
    write_bytes(dir_ / "nudged.bvh", hostile_walk(5.0));
  }
  fs::path in(const std::string& name) const { return dir_ / "in" / name; }
  TempDir dir_;
};

TEST_F(SecurityCiLog, EscaperBreaksEveryForm) {
  // The checker itself sees each form (so the tests below can fail).
  EXPECT_NE(ci_command_in("  ::stop-commands::x"), "");
  EXPECT_NE(ci_command_in("a ##[set-output name=v]x"), "");
  EXPECT_NE(ci_command_in("a ##VSO[task.complete]"), "");
  EXPECT_EQ(ci_command_in("a: b :: c # [ ]"), "");
}

TEST_F(SecurityCiLog, InspectTextAndJson) {
  for (const auto& name : {k_github_name, k_azure_name, k_newline_name}) {
    expect_no_ci_command(run_footfix_limited({"inspect", in(name).string()}), "inspect");
    LimitedRun r = run_footfix_limited({"inspect", "--json", in(name).string()});
    expect_no_ci_command(r, "inspect --json");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    // The JSON still carries the names exactly.
    nlohmann::json doc = nlohmann::json::parse(r.out);
    EXPECT_NE(doc.dump().find(k_bracket_joint), std::string::npos);
  }
  expect_no_ci_command(run_footfix_limited({"inspect", (dir_ / "in").string()}), "inspect DIR");
}

TEST_F(SecurityCiLog, CleanAnnotateLockConvert) {
  const std::string in_dir = (dir_ / "in").string();
  expect_no_ci_command(run_footfix_limited({"clean", in_dir, "-o", (dir_ / "dry").string(), "--dry-run"}), "clean -n");
  expect_no_ci_command(run_footfix_limited({"clean", in_dir, "-o", (dir_ / "out").string(), "-v", "--check",
                                            "--max-slide", "0.001", "--report", (dir_ / "r.json").string()}),
                       "clean -v --check");
  expect_no_ci_command(run_footfix_limited({"annotate", in_dir, "-o", (dir_ / "ann").string(), "-v"}), "annotate");
  expect_no_ci_command(run_footfix_limited({"lock", in_dir, "-o", (dir_ / "lock").string(), "-v"}), "lock");
  expect_no_ci_command(run_footfix_limited({"convert", in(k_github_name).string(), (dir_ / "c.bvh").string(), "-v"}),
                       "convert");
  expect_no_ci_command(run_footfix_limited({"report", (dir_ / "r.json").string(), "--html",
                                            (dir_ / "r.html").string(), "-v"}),
                       "report");
}

TEST_F(SecurityCiLog, CompareTextAndJson) {
  const std::string in_dir = (dir_ / "in").string();
  LimitedRunOptions slow;
  slow.bound = std::chrono::seconds(120);
  expect_no_ci_command(run_footfix_limited({"compare", in_dir}, slow), "compare");
  LimitedRun r = run_footfix_limited({"compare", in_dir, "--json"}, slow);
  expect_no_ci_command(r, "compare --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(nlohmann::json::accept(r.out));
}

TEST_F(SecurityCiLog, MetricsNamesChangedJoints) {
  const std::string source = in(k_github_name).string(), nudged = (dir_ / "nudged.bvh").string();
  LimitedRun r = run_footfix_limited({"metrics", source, nudged});
  expect_no_ci_command(r, "metrics");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("CHANGED"), std::string::npos) << r.out;  // the hostile joint names are printed
  r = run_footfix_limited({"metrics", source, nudged, "--json"});
  expect_no_ci_command(r, "metrics --json");
  nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_NE(doc.dump().find(k_tree_joint), std::string::npos) << r.out;
}

}  // namespace
}  // namespace footfix::test

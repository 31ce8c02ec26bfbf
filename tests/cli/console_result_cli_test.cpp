// What the console says by default, through the real binary: one line per clip with its result
// (clean: contact slide p95 before -> after and the contacts, as in the report; annotate:
// contacts; lock: locks), a batch summary with the time, an incremental re-run said once, and
// counts in the singular where they are one.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <optional>
#include <sstream>

#include "cli/cli_test_helpers.h"

namespace footfix {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::contains;
using test::run_footfix_bounded;

/// The lines of `text` that contain `part`.
std::vector<std::string> lines_with(const std::string& text, const std::string& part) {
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (contains(line, part)) found.push_back(line);
  return found;
}

/// The figures of a clip's result line "...IN -> OUT: contact slide p95 A -> B cm/s, N contacts"
/// (IN and OUT empty where the line names one path only).
struct ResultLine {
  std::string input, output;
  double before = 0, after = 0;
  unsigned contacts = 0;
};
std::optional<ResultLine> parse_result(const std::string& line, const std::string& prefix) {
  const std::string figures = ": contact slide p95 ";
  const size_t at = line.find(figures);
  if (line.rfind(prefix, 0) != 0 || at == std::string::npos) return std::nullopt;
  ResultLine r;
  const std::string paths = line.substr(prefix.size(), at - prefix.size());
  const size_t arrow = paths.find(" -> ");
  if (arrow != std::string::npos) r.input = paths.substr(0, arrow), r.output = paths.substr(arrow + 4);
  char rest[32] = {};
  if (std::sscanf(line.c_str() + at + figures.size(), "%lf -> %lf cm/s, %u contacts%31s", &r.before, &r.after, &r.contacts,
                  rest) != 3)
    return std::nullopt;
  return r;
}

/// Whether `text` has a batch summary line "info: SUMMARY in T s" with T a number with one decimal.
bool has_summary(const std::string& text, const std::string& summary) {
  const std::string start = "info: " + summary + " in ";
  for (const std::string& line : lines_with(text, start)) {
    double seconds = -1;
    char unit[8] = {}, rest[8] = {};
    if (line.rfind(start, 0) == 0 && std::sscanf(line.c_str() + start.size(), "%lf %7s%7s", &seconds, unit, rest) == 2 &&
        seconds >= 0 && std::string(unit) == "s")
      return true;
  }
  return false;
}

TEST(ConsoleResultCli, CleanPrintsEachClipsSlideAndContactsAndASummary) {
  test::TempDir dir;
  for (const char* name : {"a", "b"}) test::copy_walk(dir / "in" / (std::string(name) + ".bvh"));
  const fs::path report = dir / "r.json";
  auto r = run_footfix_bounded({"clean", (dir / "in").string(), "-o", (dir / "out").string(), "--report", report.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(read_file(report));
  auto lines = lines_with(r.err, "info: cleaned ");
  ASSERT_EQ(lines.size(), 2u) << r.err;
  for (const std::string& line : lines) {
    const std::optional<ResultLine> m = parse_result(line, "info: cleaned ");
    ASSERT_TRUE(m.has_value()) << line;
    const json* clip = nullptr;
    for (const json& c : doc["clips"])
      if (c["input"] == m->input) clip = &c;
    ASSERT_NE(clip, nullptr) << line;
    EXPECT_EQ((*clip)["output"], m->output);
    EXPECT_NEAR(m->before, (*clip)["metrics"]["slide_source"]["p95_cm_per_s"].get<double>(), 0.006) << line;
    EXPECT_NEAR(m->after, (*clip)["metrics"]["slide_cleaned"]["p95_cm_per_s"].get<double>(), 0.006) << line;
    EXPECT_GT(m->before, m->after) << line;
    EXPECT_EQ(m->contacts, (*clip)["contact_count"].get<size_t>()) << line;
    EXPECT_GE(m->contacts, 4u) << line;
  }
  EXPECT_TRUE(has_summary(r.err, "2 clips: 2 cleaned, 0 failed")) << r.err;
  EXPECT_FALSE(contains(r.err, "debug:")) << r.err;

  auto quiet = run_footfix_bounded({"clean", (dir / "in").string(), "-o", (dir / "q").string(), "-q"});
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
}

TEST(ConsoleResultCli, IncrementalReRunSaysOnceThatItSkipped) {
  test::TempDir dir;
  for (const char* name : {"a", "b", "c"}) test::copy_walk(dir / "in" / (std::string(name) + ".bvh"));
  const std::vector<std::string> args{"clean", (dir / "in").string(), "-o", (dir / "out").string(), "--incremental"};
  auto first = run_footfix_bounded(args);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_TRUE(contains(first.err, "info: 3 clips: 3 cleaned, 0 failed in ")) << first.err;
  auto again = run_footfix_bounded(args);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(contains(again.err, "info: 3 clips: 0 cleaned, 3 unchanged, 0 failed in ")) << again.err;
  EXPECT_EQ(lines_with(again.err, "info: unchanged, skipped ").size(), 3u) << again.err;
  bool skipped_a = false;
  for (const std::string& line : lines_with(again.err, "info: unchanged, skipped ")) {
    const std::optional<ResultLine> m = parse_result(line, "info: unchanged, skipped ");
    skipped_a = skipped_a || (m && line.find("a.bvh: contact slide p95 ") != std::string::npos);
  }
  EXPECT_TRUE(skipped_a) << again.err;
  EXPECT_FALSE(contains(again.err, "info: cleaned ")) << again.err;
  EXPECT_EQ(lines_with(again.err, "unchanged").size(), 4u) << "one summary, one line per clip: " << again.err;
}

TEST(ConsoleResultCli, OneFailedClipIsOneClip) {
  test::TempDir dir;
  const std::string bad = test::write_text(dir / "bad.bvh", "HIERARCHY\nROOT Hips\n{\n");
  auto r = run_footfix_bounded({"clean", bad, "-o", (dir / "out").string() + "/"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_TRUE(contains(r.err, "info: 1 clip: 0 cleaned, 1 failed in ")) << r.err;
  EXPECT_FALSE(contains(r.err, "1 clips")) << r.err;
}

TEST(ConsoleResultCli, CheckCountsInTheSingular) {
  test::TempDir dir;
  const std::string walk = test::copy_walk(dir / "walk.bvh");
  auto pass = run_footfix_bounded({"clean", walk, "-o", (dir / "p.bvh").string(), "--check"});
  EXPECT_EQ(pass.exit_code, 0) << pass.err;
  EXPECT_TRUE(contains(pass.err, "info: check passed: 1 clip at or under 5 cm/s")) << pass.err;
  auto fail = run_footfix_bounded({"clean", walk, "-o", (dir / "f.bvh").string(), "--max-slide", "0.0001"});
  EXPECT_EQ(fail.exit_code, 6) << fail.err;
  EXPECT_TRUE(contains(fail.err, "error: check failed: 1 of 1 clip over 0.0001 cm/s")) << fail.err;
}

/// The counts of the line of `text` that starts with `prefix`, names `output` and ends
/// ": N WORD (L left, R right)": {N, L, R}, or nothing.
std::optional<std::array<int, 3>> found_counts(const std::string& text, const std::string& prefix, const std::string& output,
                                               const std::string& word) {
  for (const std::string& line : lines_with(text, prefix)) {
    const size_t at = line.find(output + ": ");
    if (line.rfind(prefix, 0) != 0 || at == std::string::npos) continue;
    std::array<int, 3> n{};
    char found_word[16] = {}, rest[8] = {};
    if (std::sscanf(line.c_str() + at + output.size() + 2, "%d %15s (%d left, %d right)%7s", &n[0], found_word, &n[1], &n[2],
                    rest) == 4 &&
        word == found_word)
      return n;
  }
  return std::nullopt;
}

TEST(ConsoleResultCli, AnnotateAndLockPrintWhatTheyFound) {
  test::TempDir dir;
  const std::string walk = test::copy_walk(dir / "walk.bvh");
  auto r = run_footfix_bounded({"annotate", walk, "-o", (dir / "c.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto contacts_found = found_counts(r.err, "info: annotated ", "c.json", "contacts");
  ASSERT_TRUE(contacts_found.has_value()) << r.err;
  const auto [total, left, right] = *contacts_found;
  EXPECT_EQ(total, left + right);
  const json contacts = json::parse(read_file(dir / "c.json"));
  EXPECT_EQ(static_cast<size_t>(left), contacts["feet"][0]["intervals"].size()) << r.err;
  EXPECT_EQ(static_cast<size_t>(right), contacts["feet"][1]["intervals"].size()) << r.err;
  EXPECT_GE(left, 2) << r.err;

  r = run_footfix_bounded({"lock", walk, "-o", (dir / "l.bvh").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto locks_found = found_counts(r.err, "info: locked ", "l.bvh", "locks");
  ASSERT_TRUE(locks_found.has_value()) << r.err;
  const json lock = json::parse(read_file(dir / "l.lock.json"));
  int locks[2] = {0, 0};
  for (int side = 0; side < 2; ++side) {
    const json& locked = lock["feet"][side]["locked"];
    for (size_t f = 0; f < locked.size(); ++f) locks[side] += locked[f] == 1 && (f == 0 || locked[f - 1] == 0);
  }
  EXPECT_EQ((*locks_found)[1], locks[0]);
  EXPECT_EQ((*locks_found)[2], locks[1]);
  EXPECT_GE(locks[0], 2);
}

}  // namespace
}  // namespace footfix

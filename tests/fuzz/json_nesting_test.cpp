// The JSON readers of files a contributor can write, fed deep nesting and mutations (security
// round 2, acceptance): the incremental manifest (Manifest::load), a report given to `report
// merge` (read_report, merge_reports) and a contacts file (parse_contacts_json; and `metrics
// --contacts` through the binary). From a valid document of each, written by a real run:
// - every value position (the root, each object member, each array's first element) replaced by
//   arrays or objects nested 10, 63, 64, 65, 1000 and 200,000 deep;
// - 300 truncations and mutations (fixed seed).
// Each must end in an accepted document or a footfix::Error (a warning, for the manifest) that
// names the file, and a line and column for a syntax or nesting error; nothing nested past 64
// levels is accepted; every case within a time bound, the whole run within a memory budget.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <random>

#include "cli/run_footfix.h"
#include "contacts/contacts_json.h"
#include "footfix/core/error.h"
#include "footfix/batch/incremental.h"
#include "footfix/batch/report_merge.h"
#include "support/paths.h"
#include "support/security_checks.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int k_depths[] = {10, 63, 64, 65, 1000, 200000};
constexpr int k_max_nesting = 64;  // core/json_text.h
constexpr int k_mutations = 300;
constexpr auto k_case_bound = std::chrono::seconds(2);

/// Arrays ('[') or objects ('{"k":') nested `depth` deep around a 0.
std::string nested(int depth, bool objects) {
  std::string s;
  s.reserve(static_cast<std::size_t>(depth) * 6 + 1);
  for (int i = 0; i < depth; ++i) s += objects ? "{\"k\":" : "[";
  s += "0";
  for (int i = 0; i < depth; ++i) s += objects ? '}' : ']';
  return s;
}

/// What a reader made of a text: accepted, or the error (warning) it gave.
struct Outcome {
  bool accepted = false;
  std::string error;
};

/// A reader under test: reads `text` as the file `path`; throws nothing but footfix::Error.
using Reader = std::function<Outcome(const std::string& text, const fs::path& path)>;

Outcome read_manifest(const std::string& text, const fs::path& path) {
  write_bytes(path, text);
  const Manifest m = Manifest::load(path.parent_path());
  return {m.warning().empty(), m.warning()};
}

Outcome read_and_merge_report(const std::string& text, const fs::path& path) {
  write_bytes(path, text);
  try {
    const NamedReport report = read_report(path.string());
    std::vector<std::string> warnings;
    merge_reports({report, report}, warnings);
    return {true, ""};
  } catch (const Error& e) {
    return {false, e.what()};
  }
}

Outcome read_contacts(const std::string& text, const fs::path& path) {
  try {
    parse_contacts_json(text, path.string());
    return {true, ""};
  } catch (const Error& e) {
    return {false, e.what()};
  }
}

/// The valid documents, written by one `clean --incremental --report` of the bundled walk.
struct Documents {
  std::string manifest, report, contacts;
};

const Documents& documents() {
  static const Documents docs = [] {
    static TempDir dir;
    const BoundedRun r = run_footfix_bounded({"clean", data_clip("cmu_07_01_walk.bvh").string(), "-o",
                                              (dir / "out").string() + "/", "--report", (dir / "r.json").string(),
                                              "--incremental"},
                                             std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return Documents{read_bytes(dir / "out" / ".footfix-manifest.json"), read_bytes(dir / "r.json"),
                     read_bytes(dir / "out" / "cmu_07_01_walk.contacts.json")};
  }();
  return docs;
}

/// JSON pointers to every value position of `doc` (arrays: the first element only), with the
/// number of arrays and objects around each.
void positions(const json& doc, const json::json_pointer& at, int around, std::vector<std::pair<json::json_pointer, int>>& out) {
  out.emplace_back(at, around);
  if (doc.is_object())
    for (const auto& [key, value] : doc.items()) positions(value, at / key, around + 1, out);
  else if (doc.is_array() && !doc.empty())
    positions(doc.front(), at / 0, around + 1, out);
}

/// `doc` as text with the value at `at` replaced by `text`.
std::string with_value_at(json doc, const json::json_pointer& at, const std::string& text) {
  const std::string hole = "\u0001hole\u0001";
  doc[at] = hole;
  std::string s = doc.dump();
  const std::string quoted = json(hole).dump();
  s.replace(s.find(quoted), quoted.size(), text);
  return s;
}

/// Whether an error message locates the problem: the file, and a line for syntax and nesting.
void expect_located(const Outcome& o, const fs::path& path, const std::string& what) {
  EXPECT_NE(o.error.find(path.string()), std::string::npos) << what << ": the error names no file: " << o.error;
  const bool in_the_text = o.error.find("nested deeper") != std::string::npos ||
                           o.error.find("not valid JSON") != std::string::npos || o.error.find("syntax error") != std::string::npos;
  if (in_the_text && o.error.find("out of range") == std::string::npos && o.error.find("out_of_range") == std::string::npos) {
    EXPECT_NE(o.error.find("line"), std::string::npos) << what << ": no line in: " << o.error;
  }
}

/// Runs `reader` on `text`; checks the time bound, that nothing escapes but footfix::Error, and
/// that a failure is located.
Outcome run_case(const Reader& reader, const std::string& text, const fs::path& path, const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  Outcome o;
  try {
    o = reader(text, path);
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": escaped as " << typeid(e).name() << ": " << e.what();
    return o;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, k_case_bound) << what;
  if (!o.accepted) expect_located(o, path, what);
  return o;
}

long peak_rss_mib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

void fuzz_nesting(const Reader& reader, const std::string& valid, const fs::path& path) {
  const json doc = json::parse(valid);
  std::vector<std::pair<json::json_pointer, int>> at;
  positions(doc, json::json_pointer(), 0, at);
  ASSERT_GT(at.size(), 10u);
  for (const auto& [pointer, around] : at)
    for (int depth : k_depths)
      for (bool objects : {false, true}) {
        const std::string what = path.filename().string() + " at '" + pointer.to_string() + "', " +
                                 std::to_string(depth) + " deep " + (objects ? "objects" : "arrays");
        const Outcome o = run_case(reader, with_value_at(doc, pointer, nested(depth, objects)), path, what);
        if (around + depth > k_max_nesting) {
          EXPECT_FALSE(o.accepted) << what;
          EXPECT_NE(o.error.find("nested deeper than 64 levels at line 1, column"), std::string::npos) << what << ": " << o.error;
        }
      }
}

/// `valid` truncated, with bytes changed, brackets inserted, a range deleted or repeated.
std::string mutated(const std::string& valid, std::mt19937& rng) {
  std::string s = valid;
  auto offset = [&] { return std::uniform_int_distribution<std::size_t>(0, s.size())(rng); };
  static const std::string k_bytes = "[]{}\",:0123456789-+.eE\\ntfu \x01\xff";
  switch (rng() % 5) {
    case 0: s.resize(offset()); break;
    case 1:
      for (int n = 1 + static_cast<int>(rng() % 8); n-- > 0 && !s.empty();)
        s[std::min(offset(), s.size() - 1)] = k_bytes[rng() % k_bytes.size()];
      break;
    case 2: s.insert(offset(), std::string(1 + rng() % 100000, rng() % 2 ? '[' : '{')); break;
    case 3: {
      const std::size_t from = offset();
      s.erase(from, rng() % 200);
      break;
    }
    default: {
      const std::size_t from = offset();
      s.insert(offset(), s.substr(from, rng() % 2000));
      break;
    }
  }
  return s;
}

void fuzz_mutations(const Reader& reader, const std::string& valid, const fs::path& path) {
  std::mt19937 rng(36);
  for (int i = 0; i < k_mutations; ++i) run_case(reader, mutated(valid, rng), path, path.filename().string() + " mutation " + std::to_string(i));
}

struct Target {
  const char* name;
  Reader reader;
  const std::string Documents::*valid;
  const char* file;
};

const Target k_targets[] = {
    {"manifest", read_manifest, &Documents::manifest, ".footfix-manifest.json"},
    {"report", read_and_merge_report, &Documents::report, "report.json"},
    {"contacts", read_contacts, &Documents::contacts, "walk.contacts.json"},
};

TEST(JsonNestingFuzz, ReadersRefuseDeepNestingInEveryPosition) {
  for (const Target& t : k_targets) {
    TempDir dir;
    fuzz_nesting(t.reader, documents().*t.valid, dir / t.file);
  }
  EXPECT_LT(peak_rss_mib(), 250 * k_rss_budget_factor);
}

TEST(JsonNestingFuzz, ReadersSurviveTruncationsAndMutations) {
  for (const Target& t : k_targets) {
    TempDir dir;
    fuzz_mutations(t.reader, documents().*t.valid, dir / t.file);
  }
  EXPECT_LT(peak_rss_mib(), 250 * k_rss_budget_factor);
}

// Through the binary: `metrics --contacts` with the contacts file nested at its root, in its
// feet and in a foot's per-frame array, each depth: a located error (exit 3), no crash, bounded.
TEST(JsonNestingFuzz, MetricsContactsThroughTheBinary) {
  TempDir dir;
  const std::string clip = data_clip("cmu_07_01_walk.bvh").string();
  const json doc = json::parse(documents().contacts);
  const fs::path path = dir / "walk.contacts.json";
  for (const char* at : {"", "/feet", "/feet/0/smoothed"})
    for (int depth : k_depths)
      for (bool objects : {false, true}) {
        const std::string what = std::string("at '") + at + "', " + std::to_string(depth) + (objects ? " objects" : " arrays");
        write_bytes(path, with_value_at(doc, json::json_pointer(at), nested(depth, objects)));
        const LimitedRun r = run_footfix_limited({"metrics", clip, clip, "--contacts", path.string()});
        expect_bounded(r, 250);
        EXPECT_EQ(r.exit_code, 3) << what << ": " << r.err;
        EXPECT_NE(r.err.find(path.string()), std::string::npos) << what << ": " << r.err;
        if (depth > k_max_nesting) {
          EXPECT_NE(r.err.find("nested deeper than 64 levels at line 1"), std::string::npos) << what << ": " << r.err;
        }
      }
}

}  // namespace
}  // namespace footfix::test

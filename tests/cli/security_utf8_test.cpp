// Finding 7 (non-UTF-8 names lose the report): a file named `bad\xff.bvh` holding a joint named
// `LeftToe\xffBase` is cleaned, and every JSON footfix writes (the report, the contacts JSON,
// inspect --json) stays valid JSON, with U+FFFD for the invalid byte.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/run_footfix.h"
#include "support/paths.h"
#include "support/security_checks.h"

namespace footfix::test {
namespace {

namespace fs = std::filesystem;

TEST(SecurityUtf8, NonUtf8NamesKeepEveryJsonValid) {
  TempDir dir;
  fs::create_directories(dir / "in");
  std::string text = read_bytes(data_clip("cmu_07_01_walk.bvh"));
  for (std::size_t at; (at = text.find("LeftToeBase")) != std::string::npos;) text.replace(at, 11, "LeftToe\xff" "Base");
  const std::string name = "bad\xff.bvh";
  write_bytes(dir / "in" / name, text);

  LimitedRun r = run_footfix_limited({"clean", (dir / "in").string(), "-o", (dir / "out").string(), "--report",
                                      (dir / "report.json").string(), "-q"});
  expect_bounded(r, 300);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json report, contacts;
  ASSERT_NO_THROW(report = nlohmann::json::parse(read_bytes(dir / "report.json")));
  EXPECT_EQ(report["clips"][0]["status"], "ok");
  EXPECT_NE(report["clips"][0]["input"].get<std::string>().find("bad\xEF\xBF\xBD.bvh"), std::string::npos);
  ASSERT_TRUE(fs::exists(dir / "out" / "bad\xff.contacts.json")) << "the cleaned clip lost its contacts JSON";
  ASSERT_NO_THROW(contacts = nlohmann::json::parse(read_bytes(dir / "out" / "bad\xff.contacts.json")));
  EXPECT_NE(contacts.dump().find("LeftToe\xEF\xBF\xBD" "Base"), std::string::npos) << contacts.dump();

  r = run_footfix_limited({"inspect", "--json", (dir / "in" / name).string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(nlohmann::json::accept(r.out)) << r.out;
}

}  // namespace
}  // namespace footfix::test

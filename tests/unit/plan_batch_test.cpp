// plan_batch's notes (batch/plan_batch.h): what the walk skips and each problem of a refused
// plan reach the caller's PlanNotes, in order, and nothing is printed by the library itself.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "footfix/batch/plan_batch.h"
#include "footfix/core/error.h"
#include "support/run_cli.h"

namespace footfix {
namespace {
namespace fs = std::filesystem;

struct Notes {
  std::vector<std::pair<NoteLevel, std::string>> lines;
  PlanNotes sink() {
    return [this](NoteLevel level, const std::string& text) { lines.emplace_back(level, text); };
  }
};

TEST(PlanBatch, SkippedOutputsAreToldAsAnInfoNote) {
  const fs::path dir = test::fresh_temp_dir("plan_notes");
  for (const char* name : {"in/a.bvh", "in/a.clean.bvh", "in/b.locked.bvh"}) {
    fs::create_directories((dir / name).parent_path());
    std::ofstream(dir / name) << "not read while planning";
  }
  OutputPlan plan;
  plan.output = (dir / "out").string() + "/";
  Notes notes;
  const std::vector<BatchItem> items = plan_batch({(dir / "in").string()}, plan, notes.sink());
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(fs::path(items[0].input).filename(), "a.bvh");
  ASSERT_EQ(notes.lines.size(), 1u);
  EXPECT_EQ(notes.lines[0].first, NoteLevel::info);
  EXPECT_NE(notes.lines[0].second.find(": skipped 2 clips named as footfix's outputs (*.clean.*, *.locked.*)"),
            std::string::npos)
      << notes.lines[0].second;
  fs::remove_all(dir);
}

TEST(PlanBatch, EveryProblemOfARefusedPlanIsAnErrorNote) {
  const fs::path dir = test::fresh_temp_dir("plan_refused");
  for (const char* name : {"x/walk.bvh", "y/walk.bvh"}) {
    fs::create_directories((dir / name).parent_path());
    std::ofstream(dir / name) << "not read while planning";
  }
  OutputPlan plan;
  plan.output = (dir / "out").string() + "/";
  plan.finish_item = [](BatchItem& item) { item.companion = contacts_json_path(item.output).string(); };
  Notes notes;
  EXPECT_THROW(plan_batch({(dir / "x/walk.bvh").string(), (dir / "y/walk.bvh").string()}, plan, notes.sink()), Error);
  ASSERT_EQ(notes.lines.size(), 2u) << "the clip and its contacts file collide";
  for (const auto& [level, text] : notes.lines) {
    EXPECT_EQ(level, NoteLevel::error);
    EXPECT_EQ(text.rfind("output collision: ", 0), 0u) << text;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace footfix

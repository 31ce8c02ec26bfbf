// The clean batch (footfix/batch/clean_batch.h) in-process: clips cleaned on workers, the report
// written as they finish and marked complete at the end, a stop that records what had finished
// and starts nothing more, and --incremental's second run skipping unchanged clips. Nothing is
// printed: what the command line prints comes through the callbacks, checked here.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <mutex>

#include "footfix/batch/clean_batch.h"
#include "footfix/batch/incremental.h"
#include "footfix/core/read_file.h"
#include "support/paths.h"
#include "support/run_cli.h"

namespace footfix {
namespace {
namespace fs = std::filesystem;

/// Three bundled clips planned into `dir`, each with its contacts file.
std::vector<BatchItem> three_clips(const fs::path& dir) {
  std::vector<BatchItem> items;
  for (const char* name : {"cmu_01_01_hops_turnaround.bvh", "cmu_07_01_walk.bvh", "cmu3dsmax_131_01_start_walk_stop.bvh"}) {
    BatchItem item;
    item.input = test::data_clip(name).string();
    item.output = (dir / name).string();
    item.companion = contacts_json_path(item.output).string();
    items.push_back(item);
  }
  return items;
}

TEST(CleanBatch, CleansRecordsAndFinishesTheReport) {
  const fs::path dir = test::fresh_temp_dir("clean_batch_run");
  CleanBatchSettings settings;
  settings.jobs = 2;
  settings.check = true;
  settings.one.max_slide_cm_s = 5.0;
  settings.report = dir / "report.json";
  settings.keep_clips = true;
  std::mutex mutex;
  std::vector<std::string> done;
  std::vector<size_t> progress;
  CleanBatchCallbacks callbacks;
  callbacks.clip_done = [&](const BatchItem& item, const ClipReport& clip) {
    std::lock_guard<std::mutex> lock(mutex);
    EXPECT_EQ(clip.status, ClipStatus::ok);
    done.push_back(item.input);
  };
  callbacks.progress = [&](size_t finished, size_t total, const BatchItem&) {
    EXPECT_EQ(total, 3u);
    progress.push_back(finished);
  };
  const std::vector<BatchItem> items = three_clips(dir);
  CleanBatch batch(items, settings, callbacks);
  const CleanBatchResult result = batch.run();

  EXPECT_FALSE(result.stopped);
  EXPECT_EQ(done.size(), 3u);
  EXPECT_EQ(progress, (std::vector<size_t>{1, 2, 3}));
  ASSERT_TRUE(result.report.summary.counts.has_value());
  EXPECT_EQ(result.report.summary.counts->clips, 3);
  EXPECT_EQ(result.report.summary.counts->ok, 3);
  EXPECT_EQ(result.report.summary.counts->check_passed + result.report.summary.counts->check_failed, 3);
  ASSERT_EQ(result.report.clips.size(), 3u);
  for (size_t i = 0; i < items.size(); ++i) {
    EXPECT_EQ(result.report.clips[i].input, items[i].input) << "entries in item order";
    EXPECT_NE(result.report.clips[i].check, CheckResult::none) << "--check gives each cleaned clip a verdict";
    EXPECT_TRUE(result.report.clips[i].plot.has_value()) << "kept entries carry the pages' plots";
    EXPECT_TRUE(fs::exists(items[i].output) && fs::exists(items[i].companion));
  }

  const nlohmann::json report = nlohmann::json::parse(read_file(dir / "report.json"));
  EXPECT_EQ(report.at("summary").at("complete"), true);
  EXPECT_EQ(report.at("summary").at("clips"), 3);
  EXPECT_EQ(report.at("clips").size(), 3u);
  EXPECT_FALSE(fs::exists(dir / "report.json.journal")) << "the journal is removed once the report is complete";
}

TEST(CleanBatch, StopRecordsWhatFinishedAndStartsNothingMore) {
  const fs::path dir = test::fresh_temp_dir("clean_batch_stop");
  CleanBatchSettings settings;
  settings.jobs = 1;
  settings.report = dir / "report.json";
  settings.keep_clips = true;
  CleanBatch* self = nullptr;
  StoppedBatch stopped;
  CleanBatchCallbacks callbacks;
  callbacks.between_clips = [&](size_t finished) {
    if (finished == 1) stopped = self->stop("SIGINT");
  };
  const std::vector<BatchItem> items = three_clips(dir);
  CleanBatch batch(items, settings, callbacks);
  self = &batch;
  const CleanBatchResult result = batch.run();

  EXPECT_TRUE(result.stopped);
  EXPECT_FALSE(result.report.summary.counts.has_value()) << "a stopped run is not summarised";
  EXPECT_TRUE(stopped.recorded);
  EXPECT_EQ(stopped.finished, 1u);
  ASSERT_EQ(stopped.report.clips.size(), 1u);
  EXPECT_EQ(stopped.report.clips[0].input, items[0].input);
  EXPECT_FALSE(stopped.report.summary.complete);
  EXPECT_EQ(stopped.report.summary.interrupted, "SIGINT");
  EXPECT_TRUE(fs::exists(items[0].output));
  EXPECT_FALSE(fs::exists(items[1].output)) << "no clip starts after the stop";
  EXPECT_FALSE(fs::exists(items[2].output));
  EXPECT_FALSE(batch.stop("SIGTERM").recorded) << "a second stop records nothing";

  const nlohmann::json report = nlohmann::json::parse(read_file(dir / "report.json"));
  EXPECT_EQ(report.at("summary").at("complete"), false);
  EXPECT_EQ(report.at("summary").at("interrupted"), "SIGINT");
  EXPECT_EQ(report.at("summary").at("clips_done"), 1);
  EXPECT_EQ(report.at("summary").at("clips_planned"), 3);
  EXPECT_EQ(report.at("clips").size(), 1u);
  EXPECT_FALSE(fs::exists(dir / "report.json.journal"));
}

TEST(CleanBatch, IncrementalSecondRunSkipsUnchangedClips) {
  const fs::path dir = test::fresh_temp_dir("clean_batch_incremental");
  CleanBatchSettings settings;
  settings.jobs = 2;
  settings.incremental = IncrementalSettings{dir.string(), {test::data_clip("").string()}, "|format="};
  std::vector<std::string> notes;
  CleanBatchCallbacks callbacks;
  callbacks.notes = [&](NoteLevel, const std::string& text) { notes.push_back(text); };
  const std::vector<BatchItem> items = three_clips(dir);
  const CleanBatchResult first = CleanBatch(items, settings, callbacks).run();
  EXPECT_EQ(first.unchanged, 0u);
  ASSERT_EQ(first.report.clips.size(), 3u) << "the manifest needs every clip's entry";
  EXPECT_TRUE(fs::exists(dir / k_manifest_name));

  const CleanBatchResult second = CleanBatch(items, settings, callbacks).run();
  EXPECT_EQ(second.unchanged, 3u);
  for (const ClipReport& clip : second.report.clips) EXPECT_EQ(clip.status, ClipStatus::skipped);
  EXPECT_TRUE(notes.empty()) << notes.front();

  settings.incremental->decided_by = "|format=bvh";  // another output format: every clip redone
  EXPECT_EQ(CleanBatch(items, settings, callbacks).run().unchanged, 0u);
}

}  // namespace
}  // namespace footfix

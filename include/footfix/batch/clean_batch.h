// Cleaning a planned batch (plan_batch.h): clean_one on worker threads, the --report journal
// written as clips finish (crash-safe: each finished clip is on disk at once), --check's verdicts,
// --incremental's skipped clips and manifest, and a stop that records what had finished. Nothing
// is printed: the command line hears of clips and notes through callbacks and prints them, and
// turns a signal into stop() (process-wide policy such as signal handlers stays with it).
#pragma once

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "footfix/batch/clean_one.h"
#include "footfix/batch/clip_report.h"
#include "footfix/batch/commit_gate.h"
#include "footfix/batch/plan_batch.h"
#include "footfix/batch/run_batch.h"

namespace footfix {

class IncrementalRun;
class ReportJournal;

/// --incremental: skip clips whose input, settings and footfix version are unchanged since the
/// last run into the same output directory (the manifest, incremental.h, is kept there).
struct IncrementalSettings {
  std::string output_dir;           ///< where the outputs and the manifest are
  std::vector<std::string> inputs;  ///< the command's inputs (an output directory inside one is not trusted)
  /// Everything besides the clean settings and the input bytes that decides a clip's outputs
  /// (read options, output format, a rig profile's content hash), as text.
  std::string decided_by;
};

struct CleanBatchSettings {
  /// How each clip is read, cleaned and written; `one.max_slide_cm_s` is --check's threshold.
  /// `one.plot` is set by the batch (plot series where a report, page or manifest keeps them).
  CleanOneSettings one;
  int jobs = 1;                          ///< worker threads
  bool check = false;                    ///< --check: a verdict per cleaned clip against one.max_slide_cm_s
  std::filesystem::path report;          ///< the --report file (and its journal); empty: none
  bool keep_clips = false;               ///< return every clip's entry (for pages), not only the counts
  std::optional<IncrementalSettings> incremental;
};

struct CleanBatchCallbacks {
  /// A clip cleaned, or skipped as unchanged (status skipped), with its entry (input, output and
  /// every cleaned field set); from its worker thread, several at a time.
  std::function<void(const BatchItem& item, const ClipReport& clip)> clip_done;
  /// After each clip is recorded (in the report, one call at a time): how many have finished of
  /// how many, and the last one.
  std::function<void(std::size_t finished, std::size_t total, const BatchItem& item)> progress;
  /// Between clips, on the thread that ran the last one, outside the lock (run_batch.h).
  std::function<void(std::size_t finished)> between_clips;
  /// Warnings: the manifest not trusted or unreadable, the journal not writable, a failed record.
  PlanNotes notes;
};

struct CleanBatchResult {
  std::vector<ItemOutcome> outcomes;            ///< per item
  std::vector<double> residual_p95_cm_s;        ///< per item: the cleaned (or skipped) clip's contact slide, cm/s
  std::size_t unchanged = 0;                    ///< clips skipped by --incremental
  /// The summary as the report has it (with the counts and the exit code), and the clips' entries
  /// in item order when keep_clips.
  ReportDocument report;
  bool stopped = false;  ///< stop() was called: nothing was summarised or finished
};

/// What stop() recorded.
struct StoppedBatch {
  bool recorded = false;  ///< false when the batch had already finished (or stopped)
  std::size_t finished = 0;  ///< clips finished when it stopped
  /// The clips that finished (with keep_clips), under a summary marked incomplete and
  /// interrupted by the reason: what the pages of a stopped run show.
  ReportDocument report;
  bool manifest_saved = false;  ///< --incremental: the finished clips were recorded, so a rerun resumes
};

class CleanBatch {
 public:
  /// With --incremental, opens the manifest at once (its notes go to callbacks.notes).
  CleanBatch(std::vector<BatchItem> items, CleanBatchSettings settings, CleanBatchCallbacks callbacks);
  ~CleanBatch();
  CleanBatch(const CleanBatch&) = delete;
  CleanBatch& operator=(const CleanBatch&) = delete;

  const std::vector<BatchItem>& items() const { return items_; }

  /// Cleans every item and, unless stopped, writes the report marked complete and saves the
  /// manifest. Call once.
  CleanBatchResult run();

  /// From any thread (a signal watcher): no clip starts, puts its outputs in place or is recorded
  /// from now on; writes the --report of the clips finished so far, marked incomplete and
  /// interrupted by `reason`, and saves the manifest with them. First waits for the clips whose
  /// outputs are being put in place (CommitGate), so that when it returns every clip's outputs
  /// are all there or none is; clips still being cleaned then end without writing and are not
  /// recorded; run() returns with `stopped`. Waits while a clip is being recorded or the run is
  /// finishing.
  StoppedBatch stop(const std::string& reason);

 private:
  void work(const BatchItem& item, std::size_t index);
  void record(std::size_t index, const ItemOutcome& outcome, std::size_t finished);
  CheckResult check_result(std::size_t index, bool ok) const;

  std::vector<BatchItem> items_;
  CleanBatchSettings settings_;
  CleanBatchCallbacks callbacks_;
  std::unique_ptr<IncrementalRun> incremental_;
  std::unique_ptr<ReportJournal> journal_;
  bool keep_ = false;  ///< keep every clip's entry (pages or the manifest need them)
  /// A clip's entry from its work to its record; a pointer per clip in between, so that a batch
  /// of thousands keeps no empty entries (memory independent of the batch's size).
  std::vector<std::unique_ptr<ClipReport>> pending_;
  std::vector<std::optional<ClipReport>> kept_;  ///< every clip's entry, with keep_
  std::vector<double> residual_;
  std::vector<char> unchanged_;
  CommitGate commit_gate_;  ///< the clips' outputs go in place through it; stop() closes it
  std::mutex record_mutex_;  ///< held while a clip is recorded, the run finishes or it stops
  std::atomic<bool> stopped_{false};
  bool finished_ = false;
  std::size_t recorded_ = 0;
};

}  // namespace footfix

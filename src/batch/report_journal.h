// Internal (the clean batch): the --report JSON of a batch, crash-safe: each finished clip is appended at once to a journal
// (`<report>.journal`, JSON Lines, one clip per line, flushed), and the report itself is rewritten
// atomically from time to time while the batch runs (summary.complete = false) and once at the
// end (complete = true), when the journal is removed. A process that dies midway leaves a valid
// report of the clips done up to its last rewrite, and the journal with every clip done.
// The clips' entries are not kept in memory: each rewrite reads them back from the journal one at
// a time, so memory does not grow with the batch (only where the journal cannot be written are
// their texts kept instead).
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "footfix/batch/clip_report.h"
#include "footfix/batch/plan_batch.h"

namespace footfix {

class ReportJournal {
 public:
  /// No file is touched when `path` is empty (no --report). `notes` is told (as warnings) when
  /// the journal cannot be written and the entries are kept in memory instead.
  ReportJournal(std::filesystem::path path, size_t clip_count, PlanNotes notes);
  ~ReportJournal();
  ReportJournal(const ReportJournal&) = delete;
  ReportJournal& operator=(const ReportJournal&) = delete;

  /// Records clip `index` (called once per clip, one call at a time).
  void add_clip(size_t index, const ClipReport& clip);
  /// Writes the final report with `summary` (marked complete) and removes the journal.
  void finish(ReportSummary summary);
  /// Writes the report of the clips done so far, marked incomplete (complete = false,
  /// interrupted = `signal`, clips_done, clips_planned), and removes the journal.
  void interrupt(const std::string& signal);

 private:
  void write_report(const ReportSummary& summary);
  void remove_journal();

  /// Where clip i's entry (compact JSON text) is: bytes [offset, offset + size) of the journal,
  /// or of kept_ without one; size 0 until the clip is done.
  struct Stored {
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
  };
  std::string entry_text(const Stored& stored) const;

  std::filesystem::path path_, journal_path_;
  PlanNotes notes_;
  std::vector<Stored> clips_;
  std::string kept_;  ///< the entries' texts when there is no journal
  std::uint64_t journal_size_ = 0;
  std::FILE* journal_ = nullptr;
  std::chrono::steady_clock::time_point last_write_;
  std::chrono::steady_clock::duration last_write_cost_{};  ///< how long the last rewrite took
  size_t done_ = 0;
};

}  // namespace footfix

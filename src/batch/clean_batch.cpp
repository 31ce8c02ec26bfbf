#include "footfix/batch/clean_batch.h"

#include "batch/incremental_run.h"
#include "batch/report_journal.h"

namespace footfix {

CleanBatch::CleanBatch(std::vector<BatchItem> items, CleanBatchSettings settings, CleanBatchCallbacks callbacks)
    : items_(std::move(items)), settings_(std::move(settings)), callbacks_(std::move(callbacks)) {
  if (!callbacks_.notes) callbacks_.notes = [](NoteLevel, const std::string&) {};
  if (const auto& inc = settings_.incremental)
    incremental_ = std::make_unique<IncrementalRun>(inc->output_dir, inc->inputs, settings_.one.clean, inc->decided_by,
                                                    items_.size(), callbacks_.notes);
  // Every clip's entry is kept only for what needs them at the end (pages, the manifest); the
  // plot series are made only where a report, a page or the manifest keeps them.
  keep_ = settings_.keep_clips || incremental_;
  settings_.one.plot = keep_ || !settings_.report.empty();
}

CleanBatch::~CleanBatch() = default;

CheckResult CleanBatch::check_result(std::size_t index, bool ok) const {
  if (!settings_.check || !ok) return CheckResult::none;
  return residual_[index] > settings_.one.max_slide_cm_s ? CheckResult::failed : CheckResult::passed;
}

void CleanBatch::work(const BatchItem& item, std::size_t index) {
  if (incremental_) {
    if (std::optional<ClipReport> skipped = incremental_->skip_unchanged(item, index)) {
      residual_[index] = residual_slide(*skipped);
      unchanged_[index] = 1;
      if (callbacks_.clip_done) callbacks_.clip_done(item, *skipped);
      pending_[index] = std::make_unique<ClipReport>(std::move(*skipped));
      return;
    }
  }
  ClipReport clip = clean_one(item.input, {item.output, item.companion, &commit_gate_}, settings_.one);
  residual_[index] = clip.metrics->cleaned_slide.p95_cm_per_s;
  if (callbacks_.clip_done) callbacks_.clip_done(item, clip);
  pending_[index] = std::make_unique<ClipReport>(std::move(clip));
}

void CleanBatch::record(std::size_t index, const ItemOutcome& outcome, std::size_t finished) {
  std::lock_guard<std::mutex> lock(record_mutex_);
  std::unique_ptr<ClipReport> pending = std::move(pending_[index]);
  if (stopped_) return;
  ClipReport clip;
  if (outcome.ok && pending) clip = std::move(*pending);
  else clip.error = outcome.message;
  clip.input = items_[index].input;
  if (!outcome.ok) clip.status = ClipStatus::failed;
  clip.exit_code = outcome.exit_code;
  clip.check = check_result(index, outcome.ok);
  ++recorded_;
  journal_->add_clip(index, clip);
  if (keep_) kept_[index] = std::move(clip);
  if (callbacks_.progress) callbacks_.progress(finished, items_.size(), items_[index]);
}

CleanBatchResult CleanBatch::run() {
  const std::size_t n = items_.size();
  journal_ = std::make_unique<ReportJournal>(settings_.report, n, callbacks_.notes);
  pending_.resize(n);
  kept_.resize(keep_ ? n : 0);
  residual_.assign(n, 0.0);
  unchanged_.assign(n, 0);
  RunBatchHooks hooks;
  hooks.after_each = [this](std::size_t i, const ItemOutcome& outcome, std::size_t finished) {
    record(i, outcome, finished);
  };
  hooks.stop = [this] { return stopped_.load(); };
  hooks.between_items = callbacks_.between_clips;
  hooks.hook_error = [this](const std::string& message) { callbacks_.notes(NoteLevel::error, message); };
  CleanBatchResult result;
  const auto clean = [this](const BatchItem& item, std::size_t i) { work(item, i); };
  result.outcomes = run_batch(items_, settings_.jobs, clean, hooks);

  std::lock_guard<std::mutex> lock(record_mutex_);
  if (stopped_) {
    result.stopped = true;
    return result;
  }
  finished_ = true;
  int code = most_severe_outcome(result.outcomes);
  long long ok = 0, passed = 0, over = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!result.outcomes[i].ok) continue;
    ++ok;
    result.unchanged += unchanged_[i] != 0;
    const CheckResult check = check_result(i, true);
    passed += check == CheckResult::passed;
    over += check == CheckResult::failed;
  }
  if (over > 0) code = most_severe_exit_code(code, k_exit_check_failed);
  ReportSummary summary{settings_.check, settings_.one.max_slide_cm_s, true, "", -1, -1, {}};
  summary.counts = RunCounts{static_cast<long long>(n), ok, static_cast<long long>(n) - ok, code, passed, over};
  journal_->finish(summary);
  result.report = {"footfix", FOOTFIX_VERSION, summary, {}};
  result.report.clips.reserve(kept_.size());
  for (auto& clip : kept_) result.report.clips.push_back(std::move(*clip));
  if (incremental_) {
    for (std::size_t i = 0; i < n; ++i) incremental_->record(items_[i], i, result.report.clips[i]);
    incremental_->save();
  }
  result.residual_p95_cm_s = std::move(residual_);
  return result;
}

StoppedBatch CleanBatch::stop(const std::string& reason) {
  commit_gate_.close();  // before the lock: a clip being recorded has committed already
  std::lock_guard<std::mutex> lock(record_mutex_);
  StoppedBatch stopped;
  if (finished_ || stopped_) return stopped;
  stopped_ = true;
  stopped.recorded = true;
  stopped.finished = recorded_;
  if (journal_) journal_->interrupt(reason);
  stopped.report = {"footfix", FOOTFIX_VERSION,
                    ReportSummary{settings_.check, settings_.one.max_slide_cm_s, false, reason,
                                  static_cast<long long>(items_.size()), -1, {}},
                    {}};
  for (const auto& clip : kept_)
    if (clip) stopped.report.clips.push_back(*clip);
  if (incremental_) {
    for (std::size_t i = 0; i < kept_.size(); ++i)
      if (kept_[i]) incremental_->record(items_[i], i, *kept_[i]);
    incremental_->save();
    stopped.manifest_saved = true;
  }
  return stopped;
}

}  // namespace footfix

// One clip's entry of a clean report, typed: what `clean --report` writes per clip, what the
// HTML page and the JUnit file show and what the incremental manifest records. Its JSON (the
// report's "clips" entries) is written and read by one serializer (batch/clip_report_json.h).
// Reading tolerates absent or mistyped fields (reports may be hand-edited or come from another
// footfix version): a number that is absent or not a number reads as NaN (shown as a dash), a
// count or a text as its default, a series element that is not a number as 0.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "footfix/core/math.h"
#include "footfix/eval/metrics.h"

namespace footfix {

/// "ok" (cleaned), "skipped" (unchanged since the last run, --incremental) or "failed" (any
/// other status, or none).
enum class ClipStatus { ok, skipped, failed };

/// The --check verdict of a clip: not checked (no --check, or the clip failed), passed or failed.
enum class CheckResult { none, passed, failed };

/// One foot's series in a plot (left, then right).
struct FootPlot {
  std::string side;  ///< "left" or "right"
  std::vector<std::array<long long, 2>> contacts;  ///< [first, last] frames of each contact, inclusive
  std::vector<double> speed_mps;  ///< contact-joint speed as compared with the threshold, m/s, every step-th frame
  std::vector<double> height_m;   ///< contact-joint height above the local ground, m, every step-th frame
  std::vector<double> xz_before, xz_after;  ///< top-down contact-joint path, x0, z0, x1, z1, ... m (source, cleaned)
  std::vector<double> planted_xz;           ///< the planted point of each contact, x, z, ... m
};

/// The skeleton before and after, sampled and encoded for the page's motion player (the layout
/// and encoding: report_motion.h of the command line).
struct MotionPlot {
  double fps = 0;          ///< samples per second
  long long step = 0;      ///< source frames per sample
  long long samples = 0;
  double mm = 0;           ///< the quantum, millimetres
  std::vector<long long> parents;  ///< per drawn joint, its parent's index among them, -1: none
  std::vector<long long> feet;     ///< the drawn joint of each leg's contact joint (left, right)
  std::vector<long long> moved;    ///< the drawn joints with an offset of their own
  std::string source, cleaned;     ///< base64 of the encoded positions and offsets
};

/// The compact per-clip series the HTML page draws ("plot" of an entry).
struct ClipPlot {
  double fps = 0;           ///< the source's frames per second
  long long frames = 0;     ///< source frames
  long long step = 0;       ///< series hold every step-th frame, from frame 0
  double speed_threshold_mps = 0, height_threshold_m = 0;  ///< contact detection thresholds
  std::vector<FootPlot> feet;
  std::optional<MotionPlot> motion;  ///< absent when any of its fields is missing or mistyped
};

struct ClipReport {
  std::string input;
  ClipStatus status = ClipStatus::failed;
  int exit_code = 0;  ///< the clip's exit code (footfix/batch/exit_codes.h)
  std::string error;  ///< why it failed (failed clips only)
  CheckResult check = CheckResult::none;

  // Cleaned (and skipped) clips only; a failed clip's entry holds the fields above.
  std::string output;    ///< the written clip
  std::string contacts;  ///< its contacts file
  /// Files beside the written clip that it needs (a glTF's external buffer files, its own .bin
  /// included; save_clip): the output is whole only with them. Written when not empty.
  std::vector<std::string> buffers;
  std::size_t contact_count = 0;  ///< contacts of both feet
  std::optional<double> time_s;   ///< seconds spent on the clip; absent for skipped clips
  std::optional<long long> frames;  ///< source frames (0 when no plot was made)
  int solver_iterations = 0;
  bool loop = false;       ///< cleaned as a cycle
  bool treadmill = false;  ///< planted feet locked on a moving ground
  /// Slide and quality metrics of the source and the cleaned clip. Read back, an absent or
  /// mistyped real field is NaN.
  std::optional<ClipMetrics> metrics;
  std::vector<std::string> warnings;
  std::vector<std::string> notes;  ///< the contact detection's notes; written when not empty
  std::optional<Vec3> ground_velocity_mps;  ///< the treadmill's ground velocity, m/s (internal frame)
  std::optional<double> ground_offset_m;    ///< the clip's vertical move onto the ground, m (--ground)
  std::optional<ClipPlot> plot;
};

/// The residual contact slide of a clip, metrics.slide_cleaned.p95_cm_per_s (cm/s), or
/// `fallback` when it has no metrics or the value is not a number.
double residual_slide(const ClipReport& clip, double fallback = 0.0);

/// The source contact slide, metrics.slide_source.p95_cm_per_s (cm/s), or `fallback`.
double source_slide(const ClipReport& clip, double fallback = 0.0);

/// "ok", "skipped", "failed".
const char* status_text(ClipStatus status);

/// A finished run's counts (summary.clips, ok, failed, exit_code, check.passed, check.failed).
struct RunCounts {
  long long clips = 0, ok = 0, failed = 0;
  int exit_code = 0;
  long long check_passed = 0, check_failed = 0;  ///< clips at or under, and over, the threshold
};

/// A report's summary. A finished run's has its counts and the check; a run still going or
/// stopped has clips_done and clips_planned instead, and a stopped one the signal.
struct ReportSummary {
  bool check = false;          ///< --check was on (summary.check.enabled)
  double max_slide_cm_s = 0;   ///< its threshold (summary.check.max_slide_cm_s), cm/s
  bool complete = true;        ///< the run finished (summary.complete; absent: true)
  std::string interrupted;     ///< the signal that stopped the run, or ""
  long long clips_planned = -1;  ///< clips of an incomplete run's batch, -1 if absent
  long long clips_done = -1;     ///< clips of an incomplete run done so far, -1 if absent
  std::optional<RunCounts> counts;  ///< a finished run's counts (with the check's), else none
};

/// A clean report as the pages read it.
struct ReportDocument {
  std::string tool, version;
  ReportSummary summary;
  std::vector<ClipReport> clips;
};

}  // namespace footfix

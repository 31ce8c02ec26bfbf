#include "batch/clip_report_json.h"

#include <cmath>
#include <limits>

namespace footfix {
using nlohmann::json;

namespace {

// ---- reading: every field optional, every type checked ----

const json* member(const json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

double real_at(const json& j, const char* key) {
  const json* v = member(j, key);
  return v != nullptr && v->is_number() ? v->get<double>() : std::numeric_limits<double>::quiet_NaN();
}

std::optional<long long> integer_at(const json& j, const char* key) {
  const json* v = member(j, key);
  if (v == nullptr || !v->is_number_integer()) return std::nullopt;
  return v->get<long long>();
}

std::string text_of(const json& j, const char* key) {
  const json* v = member(j, key);
  return v != nullptr && v->is_string() ? v->get<std::string>() : std::string();
}

bool flag_at(const json& j, const char* key) {
  const json* v = member(j, key);
  return v != nullptr && v->is_boolean() && v->get<bool>();
}

/// An array's numbers, 0 for an element that is not one; empty when not an array.
std::vector<double> reals_at(const json& j, const char* key) {
  std::vector<double> out;
  const json* v = member(j, key);
  if (v == nullptr || !v->is_array()) return out;
  out.reserve(v->size());
  for (const json& x : *v) out.push_back(x.is_number() ? x.get<double>() : 0.0);
  return out;
}

/// An array's strings (other elements left out).
std::vector<std::string> texts_at(const json& j, const char* key) {
  std::vector<std::string> out;
  const json* v = member(j, key);
  if (v == nullptr || !v->is_array()) return out;
  for (const json& x : *v)
    if (x.is_string()) out.push_back(x.get<std::string>());
  return out;
}

/// An array of integers; nullopt when absent, not an array, or any element is not an integer.
std::optional<std::vector<long long>> integers_at(const json& j, const char* key) {
  const json* v = member(j, key);
  if (v == nullptr || !v->is_array()) return std::nullopt;
  std::vector<long long> out;
  for (const json& x : *v) {
    if (!x.is_number_integer()) return std::nullopt;
    out.push_back(x.get<long long>());
  }
  return out;
}

SlideStats slide_from_json(const json& j) {
  SlideStats s;
  s.samples = static_cast<int>(integer_at(j, "contact_frame_pairs").value_or(0));
  s.mean_mm_per_frame = real_at(j, "mean_mm_per_frame");
  s.p95_mm_per_frame = real_at(j, "p95_mm_per_frame");
  s.mean_cm_per_s = real_at(j, "mean_cm_per_s");
  s.p95_cm_per_s = real_at(j, "p95_cm_per_s");
  return s;
}

ClipMetrics metrics_from_json(const json& j) {
  ClipMetrics m;
  static const json none;
  const json* source = member(j, "slide_source");
  const json* cleaned = member(j, "slide_cleaned");
  m.source_slide = slide_from_json(source != nullptr ? *source : none);
  m.cleaned_slide = slide_from_json(cleaned != nullptr ? *cleaned : none);
  m.max_new_penetration_mm = real_at(j, "max_new_penetration_mm");
  m.mean_deviation_cm = real_at(j, "mean_deviation_cm");
  m.max_deviation_cm = real_at(j, "max_deviation_cm");
  m.source_max_leg_accel = real_at(j, "source_max_leg_accel_mps2");
  m.cleaned_max_leg_accel = real_at(j, "cleaned_max_leg_accel_mps2");
  m.leg_accel_ratio = real_at(j, "leg_accel_ratio");
  m.pop_ratio = real_at(j, "pop_ratio");
  m.pop_frame = static_cast<int>(integer_at(j, "pop_frame").value_or(-1));
  m.max_pelvis_drop_cm = real_at(j, "max_pelvis_drop_cm");
  m.changed_non_leg_joints = texts_at(j, "changed_non_leg_joints");
  return m;
}

FootPlot foot_plot_from_json(const json& j) {
  FootPlot foot;
  foot.side = text_of(j, "side");
  if (const json* spans = member(j, "contacts"); spans != nullptr && spans->is_array())
    for (const json& span : *spans)
      if (span.is_array() && span.size() == 2 && span[0].is_number_integer() && span[1].is_number_integer())
        foot.contacts.push_back({span[0].get<long long>(), span[1].get<long long>()});
  foot.speed_mps = reals_at(j, "speed_mps");
  foot.height_m = reals_at(j, "height_m");
  foot.xz_before = reals_at(j, "xz_before");
  foot.xz_after = reals_at(j, "xz_after");
  foot.planted_xz = reals_at(j, "planted_xz");
  return foot;
}

std::optional<MotionPlot> motion_from_json(const json* j) {
  if (j == nullptr || !j->is_object()) return std::nullopt;
  auto parents = integers_at(*j, "parents"), feet = integers_at(*j, "feet"), moved = integers_at(*j, "moved");
  auto step = integer_at(*j, "step"), samples = integer_at(*j, "samples");
  const json* source = member(*j, "source");
  const json* cleaned = member(*j, "cleaned");
  if (!parents || !feet || !moved || !step || !samples || source == nullptr || !source->is_string() ||
      cleaned == nullptr || !cleaned->is_string())
    return std::nullopt;
  return MotionPlot{real_at(*j, "fps"), *step, *samples, real_at(*j, "mm"), std::move(*parents), std::move(*feet),
                    std::move(*moved), source->get<std::string>(), cleaned->get<std::string>()};
}

ClipPlot plot_from_json(const json& j) {
  ClipPlot plot;
  plot.fps = real_at(j, "fps");
  plot.frames = integer_at(j, "frames").value_or(0);
  plot.step = integer_at(j, "step").value_or(0);
  plot.speed_threshold_mps = real_at(j, "speed_threshold_mps");
  plot.height_threshold_m = real_at(j, "height_threshold_m");
  if (const json* feet = member(j, "feet"); feet != nullptr && feet->is_array())
    for (const json& foot : *feet) plot.feet.push_back(foot_plot_from_json(foot));
  plot.motion = motion_from_json(member(j, "motion"));
  return plot;
}

// ---- writing ----

json slide_to_json(const SlideStats& s) {
  return {{"contact_frame_pairs", s.samples},
          {"mean_mm_per_frame", s.mean_mm_per_frame},
          {"p95_mm_per_frame", s.p95_mm_per_frame},
          {"mean_cm_per_s", s.mean_cm_per_s},
          {"p95_cm_per_s", s.p95_cm_per_s}};
}

json plot_to_json(const ClipPlot& plot) {
  json feet = json::array();
  for (const FootPlot& foot : plot.feet) {
    json contacts = json::array();
    for (const auto& span : foot.contacts) contacts.push_back({span[0], span[1]});
    feet.push_back({{"side", foot.side},
                    {"contacts", std::move(contacts)},
                    {"speed_mps", foot.speed_mps},
                    {"height_m", foot.height_m},
                    {"xz_before", foot.xz_before},
                    {"xz_after", foot.xz_after},
                    {"planted_xz", foot.planted_xz}});
  }
  json out = {{"fps", plot.fps},
              {"frames", plot.frames},
              {"step", plot.step},
              {"speed_threshold_mps", plot.speed_threshold_mps},
              {"height_threshold_m", plot.height_threshold_m},
              {"feet", std::move(feet)}};
  if (const auto& m = plot.motion)
    out["motion"] = {{"fps", m->fps},         {"step", m->step},       {"samples", m->samples},
                     {"mm", m->mm},           {"parents", m->parents}, {"feet", m->feet},
                     {"source", m->source},   {"moved", m->moved},     {"cleaned", m->cleaned}};
  return out;
}

json check_to_json(CheckResult check) {
  if (check == CheckResult::none) return nullptr;
  return check == CheckResult::passed ? "passed" : "failed";
}

}  // namespace

const char* status_text(ClipStatus status) {
  switch (status) {
    case ClipStatus::ok: return "ok";
    case ClipStatus::skipped: return "skipped";
    default: return "failed";
  }
}

double residual_slide(const ClipReport& clip, double fallback) {
  const double v = clip.metrics ? clip.metrics->cleaned_slide.p95_cm_per_s : NAN;
  return std::isnan(v) ? fallback : v;
}

double source_slide(const ClipReport& clip, double fallback) {
  const double v = clip.metrics ? clip.metrics->source_slide.p95_cm_per_s : NAN;
  return std::isnan(v) ? fallback : v;
}

json metrics_to_json(const ClipMetrics& m) {
  return {{"slide_source", slide_to_json(m.source_slide)},
          {"slide_cleaned", slide_to_json(m.cleaned_slide)},
          {"max_new_penetration_mm", m.max_new_penetration_mm},
          {"mean_deviation_cm", m.mean_deviation_cm},
          {"max_deviation_cm", m.max_deviation_cm},
          {"source_max_leg_accel_mps2", m.source_max_leg_accel},
          {"cleaned_max_leg_accel_mps2", m.cleaned_max_leg_accel},
          {"leg_accel_ratio", m.leg_accel_ratio},
          {"pop_ratio", m.pop_ratio},
          {"pop_frame", m.pop_frame},
          {"max_pelvis_drop_cm", m.max_pelvis_drop_cm},
          {"non_leg_joints_unchanged", m.non_leg_unchanged()},
          {"changed_non_leg_joints", m.changed_non_leg_joints}};
}

json clip_report_to_json(const ClipReport& clip) {
  json out = {{"input", clip.input},
              {"status", status_text(clip.status)},
              {"exit_code", clip.exit_code},
              {"check", check_to_json(clip.check)}};
  if (clip.status == ClipStatus::failed) {
    out["error"] = clip.error;
    return out;
  }
  out["output"] = clip.output;
  out["contacts"] = clip.contacts;
  if (!clip.buffers.empty()) out["buffers"] = clip.buffers;
  out["contact_count"] = clip.contact_count;
  if (clip.time_s) out["time_s"] = *clip.time_s;
  if (clip.frames) out["frames"] = *clip.frames;
  out["solver_iterations"] = clip.solver_iterations;
  out["loop"] = clip.loop;
  out["treadmill"] = clip.treadmill;
  if (clip.metrics) out["metrics"] = metrics_to_json(*clip.metrics);
  out["warnings"] = clip.warnings;
  if (!clip.notes.empty()) out["notes"] = clip.notes;
  if (const auto& g = clip.ground_velocity_mps) out["ground_velocity_mps"] = {g->x, g->y, g->z};
  if (clip.ground_offset_m) out["ground_offset_m"] = *clip.ground_offset_m;
  if (clip.plot) out["plot"] = plot_to_json(*clip.plot);
  return out;
}

ClipReport clip_report_from_json(const json& entry) {
  ClipReport clip;
  clip.input = text_of(entry, "input");
  const std::string status = text_of(entry, "status");
  clip.status = status == "ok" ? ClipStatus::ok : status == "skipped" ? ClipStatus::skipped : ClipStatus::failed;
  clip.exit_code = static_cast<int>(integer_at(entry, "exit_code").value_or(0));
  clip.error = text_of(entry, "error");
  const std::string check = text_of(entry, "check");
  clip.check = check == "passed" ? CheckResult::passed : check == "failed" ? CheckResult::failed : CheckResult::none;
  clip.output = text_of(entry, "output");
  clip.contacts = text_of(entry, "contacts");
  clip.buffers = texts_at(entry, "buffers");
  if (const json* count = member(entry, "contact_count"); count != nullptr && count->is_number_unsigned())
    clip.contact_count = count->get<std::size_t>();
  if (const json* time = member(entry, "time_s"); time != nullptr && time->is_number()) clip.time_s = time->get<double>();
  clip.frames = integer_at(entry, "frames");
  clip.solver_iterations = static_cast<int>(integer_at(entry, "solver_iterations").value_or(0));
  clip.loop = flag_at(entry, "loop");
  clip.treadmill = flag_at(entry, "treadmill");
  if (const json* m = member(entry, "metrics"); m != nullptr && m->is_object()) clip.metrics = metrics_from_json(*m);
  clip.warnings = texts_at(entry, "warnings");
  clip.notes = texts_at(entry, "notes");
  if (const std::vector<double> g = reals_at(entry, "ground_velocity_mps"); g.size() == 3)
    clip.ground_velocity_mps = Vec3{g[0], g[1], g[2]};
  if (const json* dy = member(entry, "ground_offset_m"); dy != nullptr && dy->is_number())
    clip.ground_offset_m = dy->get<double>();
  if (const json* plot = member(entry, "plot"); plot != nullptr && plot->is_object()) clip.plot = plot_from_json(*plot);
  return clip;
}

ReportSummary report_summary_from_json(const json& summary) {
  ReportSummary s;
  if (const json* check = member(summary, "check")) {
    if (const json* enabled = member(*check, "enabled"); enabled != nullptr && enabled->is_boolean())
      s.check = enabled->get<bool>();
    const double threshold = real_at(*check, "max_slide_cm_s");
    s.max_slide_cm_s = std::isnan(threshold) ? 0.0 : threshold;
  }
  if (const json* complete = member(summary, "complete"); complete != nullptr && complete->is_boolean())
    s.complete = complete->get<bool>();
  s.interrupted = text_of(summary, "interrupted");
  s.clips_planned = integer_at(summary, "clips_planned").value_or(-1);
  s.clips_done = integer_at(summary, "clips_done").value_or(-1);
  if (integer_at(summary, "clips")) {
    RunCounts c;
    c.clips = integer_at(summary, "clips").value_or(0);
    c.ok = integer_at(summary, "ok").value_or(0);
    c.failed = integer_at(summary, "failed").value_or(0);
    c.exit_code = static_cast<int>(integer_at(summary, "exit_code").value_or(0));
    if (const json* check = member(summary, "check")) {
      c.check_passed = integer_at(*check, "passed").value_or(0);
      c.check_failed = integer_at(*check, "failed").value_or(0);
    }
    s.counts = c;
  }
  return s;
}

json report_summary_to_json(const ReportSummary& s) {
  json out = json::object();
  if (const auto& c = s.counts) {
    out["clips"] = c->clips;
    out["ok"] = c->ok;
    out["failed"] = c->failed;
    out["exit_code"] = c->exit_code;
    out["check"] = {{"enabled", s.check}, {"max_slide_cm_s", s.max_slide_cm_s}, {"passed", c->check_passed},
                    {"failed", c->check_failed}};
  }
  out["complete"] = s.complete;
  if (!s.interrupted.empty()) out["interrupted"] = s.interrupted;
  if (s.clips_done >= 0) out["clips_done"] = s.clips_done;
  if (s.clips_planned >= 0) out["clips_planned"] = s.clips_planned;
  return out;
}

ReportDocument report_document_from_json(const json& document) {
  ReportDocument doc;
  doc.tool = text_of(document, "tool");
  doc.version = text_of(document, "version");
  if (const json* summary = member(document, "summary")) doc.summary = report_summary_from_json(*summary);
  if (const json* clips = member(document, "clips"); clips != nullptr && clips->is_array()) {
    doc.clips.reserve(clips->size());
    for (const json& clip : *clips) doc.clips.push_back(clip_report_from_json(clip));
  }
  return doc;
}

}  // namespace footfix

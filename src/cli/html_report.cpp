#include "html_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

#include "report_player.h"
#include "report_view.h"
#include "xml_escape.h"

namespace footfix::cli {

namespace {

constexpr const char* k_foot_colors[2] = {"#1f77b4", "#d62728"};
constexpr const char* k_foot_names[2] = {"left", "right"};

// Chart area of the time plots (pixels).
constexpr int k_width = 560, k_left = 44, k_right = 8;
constexpr int k_plot_w = k_width - k_left - k_right;

std::string fmt(double v, int decimals = 2) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
  return buffer;
}

/// A threshold as given: up to 4 significant digits (0.0001, 5, 2.5).
std::string threshold_text(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.4g", v);
  return buffer;
}

std::string cell(double v, int decimals = 2) { return std::isnan(v) ? "&ndash;" : fmt(v, decimals); }

// ---- time plots ----

struct TimeAxis {
  long long frames = 1, step = 1;
  double x(double frame) const { return k_left + k_plot_w * (frames > 1 ? frame / (frames - 1) : 0.0); }
};

void contact_timeline(std::ostream& out, const std::vector<FootPlot>& feet, const TimeAxis& axis, double fps) {
  const int row_h = 14, height = 2 * (row_h + 4) + 16;
  out << "<svg class=\"timeline\" width=\"" << k_width << "\" height=\"" << height << "\" viewBox=\"0 0 " << k_width
      << ' ' << height << "\"><title>contacts per foot</title>";
  for (int side = 0; side < 2 && side < static_cast<int>(feet.size()); ++side) {
    int y = 2 + side * (row_h + 4);
    out << "<text x=\"2\" y=\"" << y + 11 << "\">" << k_foot_names[side] << "</text><rect x=\"" << k_left << "\" y=\"" << y
        << "\" width=\"" << k_plot_w << "\" height=\"" << row_h << "\" fill=\"#eee\"/>";
    for (const auto& c : feet[static_cast<std::size_t>(side)].contacts) {
      double x0 = axis.x(static_cast<double>(c[0])), x1 = axis.x(static_cast<double>(c[1]));
      out << "<rect x=\"" << fmt(x0, 1) << "\" y=\"" << y << "\" width=\"" << fmt(std::max(1.0, x1 - x0), 1)
          << "\" height=\"" << row_h << "\" fill=\"" << k_foot_colors[side] << "\"/>";
    }
  }
  const long long last = axis.frames - 1;
  out << "<text x=\"" << k_left << "\" y=\"" << height - 2 << "\">frame 0 (0 s)</text><text x=\"" << k_width - k_right
      << "\" y=\"" << height - 2 << "\" text-anchor=\"end\">frame " << last << " (" << fmt(last > 0 && fps > 0 ? last / fps : 0.0)
      << " s)</text></svg>";
}

// Two series (left, right foot) over time with a threshold line. The y range shows the threshold
// in context: up to the data's maximum, but at least 1.5x and at most 8x the threshold.
void time_plot(std::ostream& out, const std::vector<FootPlot>& feet, std::vector<double> FootPlot::*series_of,
               double threshold, const TimeAxis& axis, const char* title, const char* unit) {
  const int height = 120, top = 8, bottom = 16, plot_h = height - top - bottom;
  std::vector<double> series[2];
  double peak = 0;
  for (int side = 0; side < 2 && side < static_cast<int>(feet.size()); ++side) {
    series[side] = feet[static_cast<std::size_t>(side)].*series_of;
    for (double v : series[side]) peak = std::max(peak, v);
  }
  double y_max = threshold > 0 ? std::clamp(peak, 1.5 * threshold, 8 * threshold) : std::max(peak, 1e-3);
  auto y = [&](double v) { return top + plot_h * (1.0 - std::clamp(v, 0.0, y_max) / y_max); };
  out << "<svg class=\"plot\" width=\"" << k_width << "\" height=\"" << height << "\" viewBox=\"0 0 " << k_width << ' '
      << height << "\"><title>" << title << "</title><rect x=\"" << k_left << "\" y=\"" << top << "\" width=\""
      << k_plot_w << "\" height=\"" << plot_h << "\" fill=\"#fafafa\" stroke=\"#ccc\"/>";
  for (int side = 0; side < 2; ++side) {
    if (series[side].empty()) continue;
    out << "<polyline fill=\"none\" stroke=\"" << k_foot_colors[side] << "\" points=\"";
    for (std::size_t i = 0; i < series[side].size(); ++i)
      out << (i ? " " : "") << fmt(axis.x(static_cast<double>(i) * axis.step), 0) << ',' << fmt(y(series[side][i]), 0);
    out << "\"/>";
  }
  double ty = y(threshold);
  out << "<line class=\"threshold\" x1=\"" << k_left << "\" x2=\"" << k_width - k_right << "\" y1=\"" << fmt(ty, 1)
      << "\" y2=\"" << fmt(ty, 1) << "\"/><text x=\"" << k_width - k_right - 2 << "\" y=\"" << fmt(ty - 3, 1)
      << "\" text-anchor=\"end\">threshold " << fmt(threshold, 3) << ' ' << unit << "</text><text x=\"2\" y=\""
      << top + 10 << "\">" << fmt(y_max, 2) << "</text><text x=\"2\" y=\"" << top + plot_h << "\">0</text><text x=\""
      << k_left + 4 << "\" y=\"" << height - 3 << "\">" << title << " (" << unit << ")</text></svg>";
}

// Top-down (x right, z down) paths of both contact joints before (dashed) and after (solid),
// with planted points, at one scale on both axes.
void top_down(std::ostream& out, const std::vector<FootPlot>& feet) {
  const int size = 260, pad = 10;
  std::vector<double> paths[2][2], planted[2];
  double x_min = INFINITY, x_max = -INFINITY, z_min = INFINITY, z_max = -INFINITY;
  auto extend = [&](const std::vector<double>& xz) {
    for (std::size_t i = 0; i + 1 < xz.size(); i += 2) {
      x_min = std::min(x_min, xz[i]), x_max = std::max(x_max, xz[i]);
      z_min = std::min(z_min, xz[i + 1]), z_max = std::max(z_max, xz[i + 1]);
    }
  };
  for (int side = 0; side < 2 && side < static_cast<int>(feet.size()); ++side) {
    const FootPlot& foot = feet[static_cast<std::size_t>(side)];
    paths[side][0] = foot.xz_before;
    paths[side][1] = foot.xz_after;
    planted[side] = foot.planted_xz;
    extend(paths[side][0]), extend(paths[side][1]), extend(planted[side]);
  }
  out << "<svg class=\"topdown\" width=\"" << size << "\" height=\"" << size << "\" viewBox=\"0 0 " << size << ' '
      << size << "\"><title>top-down contact-joint paths</title><rect width=\"" << size << "\" height=\"" << size
      << "\" fill=\"#fafafa\" stroke=\"#ccc\"/>";
  if (x_min <= x_max) {
    double span = std::max({x_max - x_min, z_max - z_min, 1e-3});
    double scale = (size - 2 * pad) / span;
    double ox = pad + ((size - 2 * pad) - (x_max - x_min) * scale) / 2, oz = pad + ((size - 2 * pad) - (z_max - z_min) * scale) / 2;
    auto px = [&](double x) { return fmt(ox + (x - x_min) * scale, 0); };
    auto pz = [&](double z) { return fmt(oz + (z - z_min) * scale, 0); };
    for (int side = 0; side < 2; ++side) {
      for (int after = 0; after < 2; ++after) {
        const auto& xz = paths[side][after];
        if (xz.size() < 2) continue;
        out << "<polyline fill=\"none\" stroke=\"" << k_foot_colors[side] << '"'
            << (after ? "" : " stroke-dasharray=\"3 3\" stroke-opacity=\"0.6\"") << " points=\"";
        for (std::size_t i = 0; i + 1 < xz.size(); i += 2) out << (i ? " " : "") << px(xz[i]) << ',' << pz(xz[i + 1]);
        out << "\"/>";
      }
      for (std::size_t i = 0; i + 1 < planted[side].size(); i += 2)
        out << "<circle cx=\"" << px(planted[side][i]) << "\" cy=\"" << pz(planted[side][i + 1]) << "\" r=\"2.5\" fill=\""
            << k_foot_colors[side] << "\"/>";
    }
    out << "<text x=\"4\" y=\"" << size - 4 << "\">" << fmt(span, 2) << " m across; dashed: source, solid: cleaned</text>";
  }
  out << "</svg>";
}

// ---- tables ----

void metrics_table(std::ostream& out, const ClipMetrics& m) {
  struct Row {
    const char* label;
    double (*value)(const SlideStats&);
    int decimals;
  };
  static constexpr Row slide_rows[] = {
      {"contact slide p95 (cm/s)", [](const SlideStats& s) { return s.p95_cm_per_s; }, 2},
      {"contact slide mean (cm/s)", [](const SlideStats& s) { return s.mean_cm_per_s; }, 2},
      {"contact slide p95 (mm/frame)", [](const SlideStats& s) { return s.p95_mm_per_frame; }, 2},
      {"contact slide mean (mm/frame)", [](const SlideStats& s) { return s.mean_mm_per_frame; }, 2},
      {"contact frame pairs", [](const SlideStats& s) { return static_cast<double>(s.samples); }, 0}};
  out << "<table class=\"metrics\"><tr><th></th><th>source</th><th>cleaned</th></tr>";
  for (const auto& row : slide_rows)
    out << "<tr><td>" << row.label << "</td><td>" << cell(row.value(m.source_slide), row.decimals) << "</td><td>"
        << cell(row.value(m.cleaned_slide), row.decimals) << "</td></tr>";
  out << "<tr><td>max leg acceleration (m/s&sup2;)</td><td>" << cell(m.source_max_leg_accel, 1) << "</td><td>"
      << cell(m.cleaned_max_leg_accel, 1) << "</td></tr>"
      << "<tr><td>new ground penetration (mm)</td><td></td><td>" << cell(m.max_new_penetration_mm, 1)
      << "</td></tr><tr><td>deviation mean / max (cm)</td><td></td><td>" << cell(m.mean_deviation_cm) << " / "
      << cell(m.max_deviation_cm) << "</td></tr>"
      << "<tr><td>non-leg joints unchanged</td><td></td><td>" << (m.non_leg_unchanged() ? "yes" : "<b>no</b>")
      << "</td></tr></table>";
}

/// A metric of the clip, NaN (a dash) when it has no metrics.
double metric(const ClipReport& clip, double ClipMetrics::*field) { return clip.metrics ? (*clip.metrics).*field : NAN; }

std::string anchor(std::size_t index) { return "clip-" + std::to_string(index); }

/// "317 frames (2.63 s)" from the entry's frame count and its plot's rate; "" without a count.
std::string duration(const ClipReport& clip) {
  if (!clip.frames) return "";
  const long long count = *clip.frames;
  const double fps = clip.plot ? clip.plot->fps : 0.0;
  std::string text = std::to_string(count);
  if (fps > 0 && count > 0) text += " (" + fmt((count - 1) / fps) + " s)";
  return text;
}

/// The check column: "passed" / "failed" and the clip's residual against the threshold.
std::string check_cell(const ClipReport& clip, const ReportView& view) {
  if (clip.check == CheckResult::none) return "&ndash;";
  const bool failed = clip.check == CheckResult::failed;
  return std::string(failed ? "failed" : "passed") + " (" + cell(residual_slide(clip, NAN)) + (failed ? " &gt; " : " &le; ") +
         threshold_text(view.summary.max_slide_cm_s) + ")";
}

void overview(std::ostream& out, const std::vector<ClipReport>& clips, const ReportView& view) {
  out << "<table class=\"overview\"><thead><tr><th>clip</th><th>status</th><th>frames (duration)</th><th>slide p95 before "
         "(cm/s)</th><th>slide p95 after (cm/s)</th>";
  if (view.summary.check) out << "<th>check: p95 &le; " << threshold_text(view.summary.max_slide_cm_s) << " cm/s</th>";
  out << "<th>new penetration (mm)</th><th>warnings / error</th></tr></thead><tbody>";
  for (std::size_t i : view.order) {
    const ClipReport& clip = clips[i];
    const Verdict verdict = verdict_of(clip);
    std::string notes = error_of(clip, view);
    for (const auto& warning : clip.warnings) notes += (notes.empty() ? "" : "; ") + warning;
    out << "<tr class=\"" << verdict_class(verdict) << "\"><td><a href=\"#" << anchor(i) << "\">"
        << xml_escape(relative_to(clip.input, view.input_root)) << "</a></td><td>" << verdict_label(verdict)
        << "</td><td>" << duration(clip) << "</td><td>" << cell(source_slide(clip, NAN))
        << "</td><td>" << cell(residual_slide(clip, NAN)) << "</td>";
    if (view.summary.check) out << "<td>" << check_cell(clip, view) << "</td>";
    out << "<td>" << cell(metric(clip, &ClipMetrics::max_new_penetration_mm), 1) << "</td><td>" << xml_escape(notes)
        << "</td></tr>";
  }
  out << "</tbody></table>";
}

/// Writes the clip's section; returns whether it holds a motion player.
bool clip_section(std::ostream& out, const ClipReport& clip, std::size_t index, const ReportView& view) {
  const Verdict verdict = verdict_of(clip);
  out << "<section class=\"clip\" id=\"" << anchor(index) << "\"><h2>"
      << xml_escape(relative_to(clip.input, view.input_root)) << " <span class=\"" << verdict_class(verdict)
      << "\">" << verdict_label(verdict) << "</span></h2>";
  if (!clip.output.empty()) out << "<p>output: " << xml_escape(relative_to(clip.output, view.output_root)) << "</p>";
  if (clip.check != CheckResult::none)
    out << "<p class=\"check " << verdict_class(verdict) << "\">check "
        << (clip.check == CheckResult::failed ? "failed" : "passed") << ": contact slide p95 "
        << cell(residual_slide(clip, NAN)) << " cm/s, threshold " << threshold_text(view.summary.max_slide_cm_s) << " cm/s</p>";
  if (std::string error = error_of(clip, view); !error.empty())
    out << "<p class=\"error\">" << xml_escape(error) << "</p>";
  for (const auto* lines : {&clip.warnings, &clip.notes})
    if (!lines->empty()) {
      out << "<ul class=\"" << (lines == &clip.warnings ? "warnings" : "notes") << "\">";
      for (const auto& line : *lines) out << "<li>" << xml_escape(line) << "</li>";
      out << "</ul>";
    }
  const bool player = clip.plot && write_player(out, *clip.plot);
  if (clip.plot) {
    const ClipPlot& plot = *clip.plot;
    // Clamped: the report may come from a hand-edited file.
    auto count = [](long long n) { return std::clamp(n, 1LL, 1000000000LL); };
    auto or_zero = [](double v) { return std::isnan(v) ? 0.0 : v; };
    TimeAxis axis{count(plot.frames), count(plot.step)};
    out << "<div class=\"plots\"><div>";
    contact_timeline(out, plot.feet, axis, or_zero(plot.fps));
    time_plot(out, plot.feet, &FootPlot::speed_mps, or_zero(plot.speed_threshold_mps), axis, "source: contact-joint speed", "m/s");
    time_plot(out, plot.feet, &FootPlot::height_m, or_zero(plot.height_threshold_m), axis, "source: height above ground", "m");
    out << "</div><div>";
    top_down(out, plot.feet);
    out << "</div></div>";
  }
  if (clip.metrics) metrics_table(out, *clip.metrics);
  out << "<p><a href=\"#top\">back to the overview</a></p></section>\n";
  return player;
}

constexpr const char* k_style =
    "body{font:14px/1.4 sans-serif;margin:16px;color:#222}"
    "table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}"
    "td:first-child,th:first-child,.overview td:last-child{text-align:left}"
    "tr.failed td,span.failed,.error,tr.check-failed td,span.check-failed,p.check-failed{color:#b00}"
    "span.skipped,tr.skipped td{color:#777}p.incomplete{background:#fee;border:1px solid #b00;padding:4px 8px}"
    "section.clip{border-top:2px solid #ccc;margin-top:16px;content-visibility:auto;contain-intrinsic-size:auto 1150px}"
    ".plots{display:flex;gap:12px;flex-wrap:wrap}.plots svg{display:block;margin:4px 0}"
    "svg text{font-size:10px;fill:#444}line.threshold{stroke:#2a2;stroke-dasharray:6 3}"
    ".legend span{display:inline-block;width:12px;height:4px;margin:0 4px 2px 8px;vertical-align:middle}";

}  // namespace

std::string html_report(const ReportDocument& report) {
  const std::vector<ClipReport>& clips = report.clips;
  const ReportView view = report_view(report);
  std::size_t cleaned = 0, skipped = 0, failed = 0, over = 0;
  for (const auto& clip : clips) {
    const Verdict verdict = verdict_of(clip);
    failed += verdict == Verdict::failed;
    over += verdict == Verdict::check_failed;
    cleaned += clip.status == ClipStatus::ok;
    skipped += clip.status == ClipStatus::skipped;
  }
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>footfix report</title><style>"
      << k_style << player_style() << "</style></head><body><h1 id=\"top\">footfix report</h1><p>"
      << xml_escape(report.tool) << ' ' << xml_escape(report.version) << ": "
      << clips.size() << (clips.size() == 1 ? " clip: " : " clips: ") << cleaned << " cleaned, " << skipped
      << " skipped (unchanged), " << failed << " failed.</p>";
  if (const std::string note = incomplete_note(view, clips.size()); !note.empty())
    out << "<p class=\"incomplete\">" << xml_escape(note) << "; this page shows those.</p>";
  if (view.summary.check)
    out << "<p class=\"check" << (over > 0 ? " check-failed" : "") << "\">check: contact slide p95 at most "
        << threshold_text(view.summary.max_slide_cm_s) << " cm/s: " << (over > 0 ? "failed, " : "passed, ") << over
        << " over the threshold, " << clips.size() - failed - over << " within it"
        << (failed > 0 ? "; failed clips not checked" : "") << ".</p>";
  if (!view.input_root.empty()) out << "<p>inputs in " << xml_escape(view.input_root) << "/";
  if (!view.output_root.empty()) out << (view.input_root.empty() ? "<p>" : ", ") << "outputs in " << xml_escape(view.output_root) << "/";
  if (!view.input_root.empty() || !view.output_root.empty()) out << "</p>";
  out << "<p>Sorted: failures first, then check failures, then by residual contact slide (95th percentile), worst "
         "first.</p><p class=\"legend\">feet:<span style=\"background:"
      << k_foot_colors[0] << "\"></span>left<span style=\"background:" << k_foot_colors[1]
      << "\"></span>right; green dashed: detection thresholds; speed and height plots: the source clip</p>\n";
  overview(out, clips, view);
  out << "\n";
  bool players = false;
  for (std::size_t i : view.order) players |= clip_section(out, clips[i], i, view);
  if (players) out << "<script>" << player_script() << "</script>\n";
  out << "</body></html>\n";
  return out.str();
}

}  // namespace footfix::cli

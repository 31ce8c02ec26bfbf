// The visual report: one self-contained HTML page (inline CSS, SVG drawn here, and the motion
// player's script, report_player.h; nothing from the network) from a clean report (batch/clip_report.h). The header states the --check threshold and verdict; an overview table lists the clips,
// failures first (runs that failed, then clips over the check threshold), then by residual
// contact slide (worst first), with paths relative to the batch's folders, each linking to its
// section. Sections follow the overview's order; each has a motion player of the skeleton
// before and after (from plot.motion) and draws, from the clip's "plot"
// series (see report_plot.h), the contact timeline per foot, contact-joint speed and height over
// time with the thresholds, a top-down view of the contact-joint paths before and after with the
// planted points, and the metrics before and after. Sections are rendered lazily by the browser
// (content-visibility), so pages with thousands of clips stay usable.
#pragma once

#include <string>

#include "footfix/batch/clip_report.h"

namespace footfix::cli {

/// The page. Deterministic: the same report gives the same bytes.
std::string html_report(const ReportDocument& report);

/// SVG elements drawn for one clip with plot series (the browser test counts them).
inline constexpr int k_svgs_per_clip = 4;

}  // namespace footfix::cli

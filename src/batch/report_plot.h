// The compact per-clip series the HTML report draws, stored in each clip's --report entry under
// "plot" so that `footfix report` can draw the page again from saved reports:
//   {"fps", "frames", "step" (series hold every step-th frame, from frame 0),
//    "speed_threshold_mps", "height_threshold_m",
//    "feet": [{"side", "contacts": [[first, last], ...] (frames, inclusive),
//              "speed_mps": [...] (contact-joint speed as compared with the threshold),
//              "height_m": [...] (height above the local ground),
//              "xz_before": [x0, z0, x1, z1, ...], "xz_after": [...] (top-down world
//              positions of the contact joint, meters, source and cleaned clip),
//              "planted_xz": [x, z, ...] (one point per contact)}, left then right],
//    "motion": the skeleton before and after, for the player (see report_motion.h)}
// Values are rounded to 1 mm (or 1 mm/s) and series hold at most k_plot_points samples, so a
// clip costs a few kilobytes whatever its length; the motion costs about 0.1 KB per sample.
#pragma once

#include <array>
#include <vector>

#include "footfix/contacts/contact_settings.h"
#include "footfix/batch/clip_report.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "batch/report_motion.h"

namespace footfix {

inline constexpr int k_plot_points = 100;

/// What the series need of the source clip, taken before the clip is handed over to the clean.
struct PlotSource {
  double fps = 0;
  int frames = 0;
  std::array<std::vector<double>, 2> xz_before;  ///< per leg, left then right
  MotionSamples motion;                     ///< the drawn joints of the source
};
PlotSource plot_source(const LoadedClip& source);

ClipPlot plot_series(const PlotSource& source, const Rig& rig, const CleanResult& result,
                     const ContactSettings& settings);

}  // namespace footfix

#include "batch/report_plot.h"

#include <algorithm>
#include <cmath>

#include "footfix/core/fk.h"

namespace footfix {

namespace {

double mm(double meters) { return std::round(meters * 1000.0) / 1000.0; }

std::vector<double> sampled(const std::vector<double>& values, int step) {
  std::vector<double> out;
  for (std::size_t f = 0; f < values.size(); f += static_cast<std::size_t>(step)) out.push_back(mm(values[f]));
  return out;
}

std::vector<double> top_down(const Clip& clip, int joint, int step) {
  std::vector<Vec3> path(static_cast<std::size_t>(clip.frame_count));
  joint_trajectory(clip, joint, path);
  std::vector<double> out;
  for (std::size_t f = 0; f < path.size(); f += static_cast<std::size_t>(step)) {
    out.push_back(mm(path[f].x));
    out.push_back(mm(path[f].z));
  }
  return out;
}

int plot_step(int frames) { return std::max(1, (frames + k_plot_points - 1) / k_plot_points); }

}  // namespace

PlotSource plot_source(const LoadedClip& source) {
  PlotSource out{source.clip.fps, source.clip.frame_count, {}, {}};
  for (std::size_t side = 0; side < 2; ++side)
    out.xz_before[side] = top_down(source.clip, source.rig.legs[side].contact_joint(), plot_step(out.frames));
  out.motion = sample_motion(source.clip, source.rig);
  return out;
}

ClipPlot plot_series(const PlotSource& source, const Rig& rig, const CleanResult& result, const ContactSettings& settings) {
  const int step = plot_step(source.frames);
  ClipPlot plot{source.fps, source.frames, step, settings.speed_threshold_mps, settings.height_threshold_m, {}, {}};
  for (std::size_t side = 0; side < 2; ++side) {
    const FootContacts& foot = result.contacts.feet[side];
    FootPlot& out = plot.feet.emplace_back();
    out.side = side == 0 ? "left" : "right";
    for (const auto& interval : foot.intervals) {
      out.contacts.push_back({interval.first_frame, interval.last_frame});
      out.planted_xz.push_back(mm(interval.planted_position_m.x));
      out.planted_xz.push_back(mm(interval.planted_position_m.z));
    }
    out.speed_mps = sampled(foot.effective_speed_mps, step);
    out.height_m = sampled(foot.height_above_ground_m, step);
    out.xz_before = source.xz_before[side];
    out.xz_after = top_down(result.cleaned, rig.legs[side].contact_joint(), step);
  }
  plot.motion = motion_plot(source.motion, sample_positions(result.cleaned, source.motion), rig, result.ground_offset_m);
  return plot;
}

}  // namespace footfix

#include "report_plot.h"

#include <algorithm>
#include <cmath>

#include "footfix/core/fk.h"

namespace footfix::cli {
using nlohmann::json;

namespace {

double mm(double meters) { return std::round(meters * 1000.0) / 1000.0; }

json sampled(const std::vector<double>& values, int step) {
  json out = json::array();
  for (std::size_t f = 0; f < values.size(); f += static_cast<std::size_t>(step)) out.push_back(mm(values[f]));
  return out;
}

json top_down(const Clip& clip, int joint, int step) {
  std::vector<Vec3> path(static_cast<std::size_t>(clip.frame_count));
  joint_trajectory(clip, joint, path);
  json out = json::array();
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

json plot_series(const PlotSource& source, const Rig& rig, const CleanResult& result, const ContactSettings& settings) {
  const int step = plot_step(source.frames);
  json feet = json::array();
  for (int side = 0; side < 2; ++side) {
    const FootContacts& foot = result.contacts.feet[static_cast<std::size_t>(side)];
    const int joint = rig.legs[static_cast<std::size_t>(side)].contact_joint();
    json contacts = json::array(), planted = json::array();
    for (const auto& interval : foot.intervals) {
      contacts.push_back({interval.first_frame, interval.last_frame});
      planted.push_back(mm(interval.planted_position_m.x));
      planted.push_back(mm(interval.planted_position_m.z));
    }
    feet.push_back({{"side", side == 0 ? "left" : "right"},
                    {"contacts", contacts},
                    {"speed_mps", sampled(foot.effective_speed_mps, step)},
                    {"height_m", sampled(foot.height_above_ground_m, step)},
                    {"xz_before", source.xz_before[static_cast<std::size_t>(side)]},
                    {"xz_after", top_down(result.cleaned, joint, step)},
                    {"planted_xz", planted}});
  }
  return {{"fps", source.fps},
          {"frames", source.frames},
          {"step", step},
          {"speed_threshold_mps", settings.speed_threshold_mps},
          {"height_threshold_m", settings.height_threshold_m},
          {"feet", feet},
          {"motion", motion_json(source.motion, sample_positions(result.cleaned, source.motion), rig, result.ground_offset_m)}};
}

}  // namespace footfix::cli

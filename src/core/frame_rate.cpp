#include "footfix/core/frame_rate.h"

#include <cmath>
#include <cstdio>

namespace footfix {
namespace {

struct CommonRate {
  double fps;
  const char* text;        ///< the rate as written
  const char* frame_time;  ///< the frame time as written
};

constexpr CommonRate k_common_rates[] = {
    {24000.0 / 1001.0, "23.976", "1001/24000"}, {24, "24", "1/24"},    {25, "25", "1/25"},
    {30000.0 / 1001.0, "29.97", "1001/30000"},  {30, "30", "1/30"},    {48, "48", "1/48"},
    {50, "50", "1/50"},  {60000.0 / 1001.0, "59.94", "1001/60000"},    {60, "60", "1/60"},
    {72, "72", "1/72"},  {90, "90", "1/90"},   {96, "96", "1/96"},     {100, "100", "1/100"},
    {120, "120", "1/120"}, {144, "144", "1/144"}, {180, "180", "1/180"}, {240, "240", "1/240"},
    {300, "300", "1/300"}, {360, "360", "1/360"}, {480, "480", "1/480"},
};

constexpr double k_tolerance = 1e-4;  ///< relative: 0.0083333 s (120.0005 fps) is 120 fps

const CommonRate* find_common(double fps) {
  for (const auto& rate : k_common_rates)
    if (std::abs(fps - rate.fps) <= k_tolerance * rate.fps) return &rate;
  return nullptr;
}

}  // namespace

double nominal_frame_rate(double fps) {
  const CommonRate* rate = find_common(fps);
  return rate ? rate->fps : fps;
}

std::string describe_frame_rate(double fps) {
  if (const CommonRate* rate = find_common(fps))
    return std::string(rate->text) + " fps (" + rate->frame_time + " s)";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g fps (%.6g s)", fps, fps > 0 ? 1.0 / fps : 0.0);
  return buf;
}

}  // namespace footfix

// Frame rates as people state them. Files often round the frame time (BVH "Frame Time:
// 0.0083333"), which makes 120 fps read as 120.0005 fps; the common rates are recognised.
#pragma once

#include <string>

namespace footfix {

/// The common rate (24, 25, 30, 48, 50, 60, 72, 90, 96, 100, 120, 144, 180, 240, 300, 360, 480 fps,
/// and the NTSC 24000/1001, 30000/1001, 60000/1001) within 0.01 % of `fps`, else `fps` itself.
double nominal_frame_rate(double fps);

/// "120 fps (1/120 s)" for a recognised rate, else "37.5 fps (0.0266667 s)".
std::string describe_frame_rate(double fps);

}  // namespace footfix

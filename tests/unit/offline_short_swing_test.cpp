// The fast solve's short-swing lock ramp (OfflineSolveSettings::fast_short_swing_s): two
// contacts of a leg whose toe creeps 3 cm through each (so their locks' corrections differ by
// 3 cm) with a 9-frame swing between them at 120 fps. Without the ramp the swing has to carry
// the whole difference (at best 4 x 3 cm / (75 ms)^2 = 21 m/s^2 on top of the input's); with it
// the locks give over their first and last frames next to that swing. A swing longer than the
// threshold is solved exactly as without the ramp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "footfix/core/error.h"
#include "footfix/solve/offline_solve.h"

namespace footfix {
namespace {

constexpr double k_fps = 120;
constexpr double k_creep_m = 0.03;  // input toe travel within each contact
constexpr int k_contact_frames = 60;
constexpr double k_step_m = 0.05;  // foothold to foothold (a shuffle)

/// Left leg: contact, swing of `swing_frames`, contact. The toe creeps forward k_creep_m through
/// each contact (centered on its foothold) and steps k_step_m during the swing; the pelvis walks
/// along at a steady pace; the right leg has no contact.
OfflineSolveInput two_contacts(int swing_frames) {
  OfflineSolveInput in;
  in.fps = k_fps;
  in.frame_count = 2 * k_contact_frames + swing_frames;
  const auto n = static_cast<size_t>(in.frame_count);
  in.pelvis_ws.resize(n);
  for (int leg = 0; leg < 2; ++leg) {
    in.toe_ws[leg].resize(n);
    in.contact[leg].assign(n, 0);
    in.contact_height_m[leg].assign(n, 0.0);
    in.toe_min_height_m[leg] = 0;
  }
  const int second = k_contact_frames + swing_frames;
  for (int f = 0; f < in.frame_count; ++f) {
    const double t = f / k_fps;
    in.pelvis_ws[f] = {k_step_m * f / (in.frame_count - 1.0), 0.9, 0};
    in.toe_ws[1][f] = {in.pelvis_ws[f].x, 0.1 + 0.02 * std::sin(4 * t), -0.2};
    double x = 0, y = 0;
    if (f < k_contact_frames) {
      x = k_creep_m * (f / (k_contact_frames - 1.0) - 0.5);
    } else if (f < second) {
      const double u = (f - k_contact_frames + 1.0) / (swing_frames + 1);
      x = k_creep_m * 0.5 + (k_step_m - k_creep_m) * (3 * u * u - 2 * u * u * u);
      y = 0.01 * std::sin(u * 3.14159265358979);
    } else {
      x = k_step_m + k_creep_m * ((f - second) / (k_contact_frames - 1.0) - 0.5);
    }
    in.toe_ws[0][f] = {x, y, 0.1};
    in.contact[0][f] = f < k_contact_frames || f >= second;
  }
  return in;
}

/// Largest acceleration (m/s^2) of the solve's correction of the left toe (solved - input: what
/// the solve adds to the input's motion) over frames [a, b].
double max_correction_accel(const OfflineSolveInput& in, const OfflineSolveResult& r, int a, int b) {
  auto d = [&](int f) { return r.toe_ws[0][f] - in.toe_ws[0][f]; };
  double m = 0;
  for (int f = std::max(a, 1); f <= b && f + 1 < in.frame_count; ++f)
    m = std::max(m, length(d(f + 1) - d(f) * 2 + d(f - 1)) * k_fps * k_fps);
  return m;
}

/// Largest horizontal distance of the solved left toe from its position at frame `mid` over
/// frames [a, b].
double hold(const OfflineSolveResult& r, int a, int b, int mid) {
  double m = 0;
  for (int f = a; f <= b; ++f) {
    const Vec3 d = r.toe_ws[0][f] - r.toe_ws[0][mid];
    m = std::max(m, std::hypot(d.x, d.z));
  }
  return m;
}

TEST(OfflineShortSwing, LocksGiveNextToAShortSwingInsteadOfPopping) {
  const OfflineSolveInput in = two_contacts(9);  // 75 ms
  OfflineSolveSettings off;
  off.fast_short_swing_s = 0;
  const OfflineSolveResult snapped = solve_offline(in, off), ramped = solve_offline(in, OfflineSolveSettings{});
  const int a = k_contact_frames - 20, b = k_contact_frames + 9 + 20;
  const double without = max_correction_accel(in, snapped, a, b), with = max_correction_accel(in, ramped, a, b);
  std::printf("short swing: correction acceleration without the ramp %.1f m/s^2, with it %.1f\n", without, with);
  // Without the ramp the locks keep their 3 cm apart and the swing pays for it: at least
  // 4 x 3 cm / (10 frames)^2.
  EXPECT_GT(without, 4 * k_creep_m * std::pow(k_fps / 10, 2));
  // With it the correction changes at less than half that.
  EXPECT_LT(with, 0.5 * without);
  // The locks still hold away from that swing: the middle half of each contact.
  const int second = k_contact_frames + 9;
  EXPECT_LT(hold(ramped, 15, 44, 30), 0.001);
  EXPECT_LT(hold(ramped, second + 15, second + 44, second + 30), 0.001);
}

TEST(OfflineShortSwing, ALongerSwingIsSolvedAsWithoutTheRamp) {
  const OfflineSolveInput in = two_contacts(static_cast<int>(0.1 * k_fps) + 2);
  OfflineSolveSettings off;
  off.fast_short_swing_s = 0;
  const OfflineSolveResult a = solve_offline(in, off), b = solve_offline(in, OfflineSolveSettings{});
  ASSERT_EQ(a.toe_ws[0].size(), b.toe_ws[0].size());
  for (size_t f = 0; f < a.toe_ws[0].size(); ++f) {
    EXPECT_EQ(a.toe_ws[0][f].x, b.toe_ws[0][f].x) << "frame " << f;
    EXPECT_EQ(a.pelvis_ws[f].x, b.pelvis_ws[f].x) << "frame " << f;
  }
}

TEST(OfflineShortSwing, SettingIsValidated) {
  for (double s : {-0.01, 1.5, std::nan("")}) {
    OfflineSolveSettings bad;
    bad.fast_short_swing_s = s;
    EXPECT_THROW(bad.validate(), Error);
  }
}

}  // namespace
}  // namespace footfix

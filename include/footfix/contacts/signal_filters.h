// Small 1D signal tools used by contact annotation: window sizes from seconds, majority vote,
// Gaussian smoothing, hysteresis thresholding, finite-difference speeds and cubic resampling.
// All work on whole signals held by the caller; none keeps state.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "footfix/core/math.h"
#include "footfix/core/statistics.h"  // quantile, used with these filters

namespace footfix {

/// An odd frame count covering `seconds` at `fps`: round(seconds * fps), made odd upwards, >= 1.
int odd_window_frames(double seconds, double fps);

/// Each output value is the majority of the input values in a centred window of `window` frames
/// (odd). Near the ends the window is cut; a tie keeps the input value.
std::vector<std::uint8_t> majority_filter(std::span<const std::uint8_t> in, int window);

/// Gaussian smoothing with standard deviation `sigma_frames` (> 0), kernel cut at 3 sigma and
/// renormalised near the ends (a constant signal stays constant). Above a 256-frame radius the
/// Gaussian is approximated by three box-filter passes of the same variance, so the cost is
/// O(frames x min(radius, 256)) for any sigma. A sigma that is not finite and > 0 returns the
/// input unchanged.
std::vector<double> gaussian_smooth(std::span<const double> in, double sigma_frames);

/// gaussian_smooth on each axis of a trajectory.
std::vector<Vec3> gaussian_smooth(std::span<const Vec3> p, double sigma_frames);

/// Frame t (0 <= t < p.size()) smoothed as gaussian_smooth smooths it (bit for bit where that
/// uses the Gaussian kernel itself), with the kernel at any radius (no box passes): for frames
/// smoothed each with a sigma of its own. `sigma_frames` finite and > 0.
Vec3 gaussian_smooth_at(std::span<const Vec3> p, int t, double sigma_frames);

/// Local quadratic regression with Gaussian weights of standard deviation `sigma_frames` (> 0),
/// cut at 3 sigma and at the ends: each output value is the value at t of the weighted
/// least-squares parabola through in[t - 3 sigma .. t + 3 sigma]. Unlike gaussian_smooth it keeps
/// peaks and ends where they are (a parabola passes through unchanged): for white noise it leaves
/// about 1.3 / sqrt(2 sqrt(pi) sigma) of the noise's standard deviation, and it passes a sine of
/// angular frequency w (radians per frame) with a gain of about (1 + (w sigma)^2 / 2)
/// exp(-(w sigma)^2 / 2) (the cut kernel's, within 0.02 up to w sigma = 1). A frame whose window holds fewer than 5
/// samples keeps its value; a sigma that is not finite and > 0 returns the input.
std::vector<double> local_quadratic_smooth(std::span<const double> in, double sigma_frames);
std::vector<Vec3> local_quadratic_smooth(std::span<const Vec3> p, double sigma_frames);

/// The local_quadratic_smooth sigma (frames) that leaves at most `max_noise` (per axis, units of
/// `noise_rms`) of white noise of `noise_rms` in positions; 0 when no smoothing is needed.
double position_smoothing_sigma(double noise_rms, double max_noise);

/// The difference white_noise_rms reads the noise from.
enum class NoiseDifference { third, fourth };

/// Robust estimate of white noise on a trajectory: the per-axis standard deviation (units of
/// `p`) of a noise that would give the trajectory's third (or fourth) differences. Those of white
/// noise have a standard deviation of sigma x sqrt(20) (sqrt(70)), while those of smooth motion
/// are small wherever the point moves slowly or steadily, so their median over all frames and
/// axes (x 1.4826, the MAD of a normal) reads the noise and not the motion. At low frame rates a
/// swing's own jerk fills third differences (a clean run at 20 Hz reads as 6 mm of noise); the
/// fourth difference leaves about a quarter of it against the same noise. 0 below 4 (5) frames.
double white_noise_rms(std::span<const Vec3> p, NoiseDifference order = NoiseDifference::third);

/// The Gaussian sigma (frames) that leaves at most `max_velocity_noise` (units per second, per
/// axis) of white noise of `noise_rms` (per axis) in frame-to-frame velocities at `fps`: for a
/// Gaussian of sigma s the noise of a first difference is noise_rms / sqrt(4 sqrt(pi) s^3).
double noise_smoothing_sigma(double noise_rms, double fps, double max_velocity_noise);

/// 1 where a run of frames with value >= `low` contains a frame with value >= `high`.
std::vector<std::uint8_t> hysteresis_threshold(std::span<const double> in, double high, double low);

/// Per-frame velocity (units per second): of the backward and forward differences
/// (p[t] - p[t-1]) and (p[t+1] - p[t]), the shorter one, times fps (one-sided at the ends). A
/// point held still over frames a..b has zero velocity on exactly a..b. A single frame has 0.
std::vector<Vec3> point_velocities(std::span<const Vec3> p, double fps);
/// Lengths of point_velocities.
std::vector<double> point_speeds(std::span<const Vec3> p, double fps);

/// Catmull-Rom resampling of a trajectory by an integer `factor` (>= 1): output frame
/// i * factor equals input frame i; (n - 1) * factor + 1 frames. Ends use mirrored tangents.
std::vector<Vec3> upsample_catmull_rom(std::span<const Vec3> p, int factor);

/// Moving average over a centred window of `window` frames (odd), cut at the ends.
std::vector<double> moving_average(std::span<const double> in, int window);
std::vector<Vec3> moving_average(std::span<const Vec3> in, int window);

/// Minimum of in[t - before .. t + after] (cut at the ends). O(frames) for any window.
std::vector<double> window_minimum(std::span<const double> in, int before, int after);

/// Median of in[t - half .. t + half] (cut at the ends; the mean of the two middle values when
/// the cut window has an even count). O(frames x log(window)). Values must not be NaN.
std::vector<double> window_median(std::span<const double> in, int half);
/// window_median of each axis (X, Y and Z apart). It keeps a monotone ramp and a step as they
/// are: a foot's stance stays flat up to the swing on either side, where a mean would spread the
/// swing into it.
std::vector<Vec3> window_median_per_axis(std::span<const Vec3> in, int half);

/// A horizontal frame (rotation about Y) for per-axis statistics that must not depend on the
/// way a clip faces: local X is along `axis` (a unit horizontal vector), local Z across it.
struct HorizontalAxes {
  double cos_a = 1, sin_a = 0;  ///< the local X axis in world: (cos_a, 0, sin_a)
  Vec3 to_local(Vec3 v) const { return {cos_a * v.x + sin_a * v.z, v.y, -sin_a * v.x + cos_a * v.z}; }
  Vec3 to_world(Vec3 v) const { return {cos_a * v.x - sin_a * v.z, v.y, sin_a * v.x + cos_a * v.z}; }
};

/// The principal axes of the horizontal (X, Z) parts of `v`: local X along the direction of
/// their largest second moment about the origin. Turning every vector of `v` about Y turns the
/// axes with it, so per-axis medians in them turn with the clip too. World axes when `v` is empty
/// or has no preferred direction.
HorizontalAxes principal_horizontal_axes(std::span<const Vec3> v);

/// The local X ("along") and Z ("across") components of every vector of `v` in `axes`.
struct HorizontalComponents {
  std::vector<double> along, across;
};
HorizontalComponents horizontal_components(std::span<const Vec3> v, const HorizontalAxes& axes);

}  // namespace footfix

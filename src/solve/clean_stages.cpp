#include "clean_stages.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>

#include "footfix/contacts/signal_filters.h"
#include "footfix/core/math.h"

namespace footfix {
namespace {

// Accelerations the pop guard leaves up to this factor over its limit are not worth a warning.
constexpr double k_pop_excess_warn_factor = 1.1;

std::string side_name(int leg) { return to_string(static_cast<Side>(leg)); }

int rounded_mm(double m) { return static_cast<int>(std::lround(m * 1000)); }

}  // namespace

void smooth_swing_targets(OfflineSolveResult& solved, const PlantedFrames& planted, double noise_sigma_s, double fps) {
  const double sigma_frames = std::max(noise_sigma_s, k_smooth_swing_min_sigma_s) * fps;
  for (int leg = 0; leg < 2; ++leg) {
    std::vector<Vec3>& toe = solved.toe_ws[leg];
    const std::vector<Vec3> smoothed = gaussian_smooth(std::span<const Vec3>(toe), sigma_frames);
    for (size_t f = 0; f < toe.size() && f < planted[leg].size(); ++f)
      if (!planted[leg][f]) toe[f] = smoothed[f];
  }
}

double reach_planted_targets(const Clip& source, const Rig& rig, const OfflineSolveInput& input, const LegIkSettings& ik,
                             bool lower, OfflineSolveResult& solved, std::vector<std::string>& warnings,
                             const LegTracks* tracks) {
  if (lower) lower_pelvis_to_reach(source, rig.translation_joint, rig.legs, input.contact, ik, solved, true, tracks);
  double max_drop_m = 0;
  for (int f = 0; f < source.frame_count; ++f)
    max_drop_m = std::max(max_drop_m, input.pelvis_ws[f].y - solved.pelvis_ws[f].y);
  if (max_drop_m > k_pelvis_drop_warn_m)
    warnings.push_back("the pelvis was lowered by up to " + std::to_string(static_cast<int>(std::lround(max_drop_m * 100))) +
                       " cm to keep the planted feet reachable (check for over-bent knees)");
  return max_drop_m;
}

void apply_solve_to_legs(CleanResult& result, const Rig& rig, const OfflineSolveResult& solved,
                         const LegHeightTracks& heights, const LegIkSettings& ik, const LegTracks* tracks) {
  const OfflineApplyReport applied =
      apply_offline_solve(result.cleaned, rig.translation_joint, rig.legs, solved, heights, ik, tracks, result.contacts.denoise_sigma_s);
  for (int s = 0; s < 2; ++s) {
    result.unreached_frames[s] = applied.unreached_frames[s];
    result.max_miss_m[s] = applied.max_miss_m[s];
  }
}

void report_planted_misses(CleanResult& result, const Rig& rig, const std::array<std::vector<Vec3>, 2>& targets,
                           const LegTracks* tracks) {
  const int frames = result.cleaned.frame_count;
  for (int s = 0; s < 2; ++s) {
    const auto& contact = result.contacts.feet[s].contact;
    std::vector<Vec3> own_reached;
    const std::vector<Vec3>& reached =
        positions_of(result.cleaned, rig.legs[s].contact_joint(), tracks ? &tracks->legs[s].contact() : nullptr, own_reached);
    int missed = 0;
    double worst_m = 0;
    for (int f = 0; f < frames; ++f) {
      if (!contact[f]) continue;
      double miss = length(reached[f] - targets[s][f]);
      if (miss > k_planted_miss_warn_m) ++missed;
      worst_m = std::max(worst_m, miss);
    }
    result.max_planted_miss_m[s] = worst_m;
    if (worst_m > k_planted_miss_warn_m)
      result.warnings.push_back(side_name(s) + " foot: planted target missed in " + std::to_string(missed) +
                                " planted frames, by up to " + std::to_string(rounded_mm(worst_m)) +
                                " mm: the leg cannot reach it, so some sliding is left (check the leg joints with "
                                "`footfix inspect`, or name them with --rig)");
  }
}

void guard_cleaned_pops(CleanResult& result, const Rig& rig, const PopGuardSource& source,
                        const PopGuardSettings& settings, const LegTracks* tracks) {
  result.pops = guard_pops(result.cleaned, rig, source, settings, &result.contacts, tracks);
  for (int s = 0; s < 2; ++s)
    if (result.pops.max_planted_shift_m[s] > k_planted_miss_warn_m)
      result.warnings.push_back(side_name(s) + " foot: moved by up to " + std::to_string(rounded_mm(result.pops.max_planted_shift_m[s])) +
                                " mm while planted, to keep the leg's accelerations near the source's (pop guard)");
  if (result.pops.worst_ratio_left > k_pop_excess_warn_factor * settings.max_ratio) {
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2f", result.pops.worst_ratio_left);
    result.warnings.push_back("pop guard: " + std::to_string(result.pops.frames_over) +
                              " leg joint frames still accelerate up to " + ratio + " x the source's after its passes");
  }
}

}  // namespace footfix

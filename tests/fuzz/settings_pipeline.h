// What the settings fuzz target does with one input, shared with the regression test that
// replays tests/fuzz/crashers/settings (tests/corpus/fuzz_regression_test.cpp): parse the JSON as
// `clean --settings` does, and on accepted settings run contact detection and the whole clean
// (offline solve, leg IK) on a small synthetic 30 fps walk (48 frames, so low-rate upsampling,
// every window filter and both solvers run with the fuzzed values).
//
// footfix::Error is the expected outcome for bad settings. Anything else escaping (a
// std::exception, a sanitizer report), or a clean that turns the finite clip into NaN or
// infinity, is a finding (SettingsFinding).
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <stdexcept>
#include <string_view>

#include "bvh_pipeline.h"  // all_finite
#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/error.h"
#include "footfix/solve/clean.h"
#include "solve/clean_settings_json.h"
#include "support/leg_test_rig.h"

namespace footfix::fuzz {

struct SettingsFinding : std::logic_error {
  using std::logic_error::logic_error;
};

/// 48 frames at 30 fps of the synthetic test rig walking forward: the root moves 1.2 m/s, the
/// hips swing in opposite phase with a period of 1 s.
inline const test::TestRig& small_walk() {
  static const test::TestRig walk = [] {
    constexpr int k_frames = 48;
    test::TestRig r = test::make_rig(k_frames);
    r.clip.fps = 30;
    const int root = 0;
    for (int f = 0; f < k_frames; ++f) {
      const double t = f / r.clip.fps, phase = 2 * k_pi * t;
      r.clip.translation(f, root) = {0, 0.9 + 0.02 * std::cos(2 * phase), 1.2 * t};
      r.clip.rotation(f, root) = Quat{};
      r.clip.rotation(f, r.left.hip) = axis_angle(test::k_x, -0.35 + 0.4 * std::sin(phase));
      r.clip.rotation(f, r.right.hip) = axis_angle(test::k_x, -0.35 - 0.4 * std::sin(phase));
    }
    return r;
  }();
  return walk;
}

/// How far one input got.
enum class SettingsOutcome { not_json, rejected, cleaned };

inline SettingsOutcome run_settings_pipeline(std::string_view text) {
  nlohmann::json doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return SettingsOutcome::not_json;
  CleanSettings settings;
  try {
    settings = clean_settings_from_json(doc, "fuzz.json");
    settings.validate();
  } catch (const Error&) {
    return SettingsOutcome::rejected;
  }
  const test::TestRig& walk = small_walk();
  Rig rig;
  rig.pelvis = 1;
  rig.translation_joint = 0;
  rig.legs = {walk.left, walk.right};
  ContactResult contacts = detect_contacts(walk.clip, rig, settings.contacts);
  for (const auto& foot : contacts.feet)
    if (foot.contact.size() != static_cast<size_t>(walk.clip.frame_count))
      throw SettingsFinding("contact detection returned a wrong frame count");
  CleanResult cleaned = clean_clip(walk.clip, rig, settings, &contacts);
  if (!all_finite(cleaned.cleaned)) throw SettingsFinding("clean turned a finite clip into non-finite transforms");
  return SettingsOutcome::cleaned;
}

}  // namespace footfix::fuzz

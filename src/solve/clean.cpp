#include "footfix/solve/clean.h"

#include "footfix/core/error.h"
#include "footfix/contacts/leg_glitches.h"
#include "clean_pass.h"
#include "clean_plan.h"

namespace footfix {
namespace {

void check_legs(const Rig& rig) {
  for (const auto& leg : rig.legs)
    if (!leg.valid()) fail(ErrorKind::process, "clean: the rig has no valid legs");
}

// The clean in one pass: the plan moves the clip into the frame its solve runs in (with
// `owned`, = &clip handed over, in place), the pass cleans it there, and the plan's steps are
// undone on the result.
CleanResult clean_clip_impl(const Clip& clip, Clip* owned, const Rig& rig, const CleanSettings& settings,
                            const ContactResult* contacts) {
  settings.validate();
  check_legs(rig);
  if (clip.frame_count < 1) fail(ErrorKind::process, clip.source_name + ": clip has no frames");
  CleanPlan plan(clip, owned, settings, contacts);
  plan_clean(plan, rig);
  CleanResult result = clean_in_solve_frame(plan.clip(), plan.owned_clip(), rig, plan.settings, plan.analysis);
  plan.analysis = CleanAnalysis{};  // its leg tracks go before the steps are undone
  leave_solve_frame(plan.steps, rig, result);
  return result;
}

}  // namespace

void CleanSettings::validate() const {
  contacts.validate();
  ground.validate();
  solve.validate();
  ik.validate();
  treadmill.validate();
  pops.validate();
}

namespace {

/// `result` with `warning` (that the clip's tracking glitches were bridged), if any, first.
CleanResult with_glitch_warning(CleanResult result, const std::string& warning) {
  if (!warning.empty()) result.warnings.insert(result.warnings.begin(), warning);
  return result;
}

}  // namespace

CleanResult clean_clip(const Clip& clip, const Rig& rig, const CleanSettings& settings, const ContactResult* contacts) {
  if (find_leg_glitches(clip, rig).empty()) return clean_clip_impl(clip, nullptr, rig, settings, contacts);
  Clip bridged = clip;  // glitches are rare: only then is the clip copied, to be bridged in place
  return clean_clip(std::move(bridged), rig, settings, contacts);
}

CleanResult clean_clip(Clip&& clip, const Rig& rig, const CleanSettings& settings, const ContactResult* contacts) {
  const std::string glitch_warning = bridge_leg_glitches(clip, rig);
  return with_glitch_warning(clean_clip_impl(clip, &clip, rig, settings, contacts), glitch_warning);
}

}  // namespace footfix

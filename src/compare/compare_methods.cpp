#include "footfix/compare/compare_methods.h"

#include "footfix/eval/sliding.h"
#include "footfix/lock/lock_clip.h"

namespace footfix {

const char* to_string(FixMethod m) {
  switch (m) {
    case FixMethod::none: return "no fix";
    case FixMethod::runtime: return "runtime lock";
    case FixMethod::offline: return "offline clean";
  }
  return "?";
}

std::vector<CompareVariant> compare_methods(const Clip& clip, const Rig& rig, const CompareSettings& settings,
                                            bool slide_protocol) {
  settings.clean.validate();
  settings.runtime.validate();
  const ContactMask mask = contact_mask(detect_contacts(clip, rig, settings.clean.contacts));
  std::vector<double> factors{1.0};
  if (slide_protocol) factors.insert(factors.end(), k_slide_protocol_factors.begin(), k_slide_protocol_factors.end());

  std::vector<CompareVariant> out;
  for (double factor : factors) {
    CompareVariant v;
    v.factor = factor;
    const Clip variant = factor == 1.0 ? clip : make_sliding(clip, rig, factor);
    v.metrics[static_cast<int>(FixMethod::none)] = compare_clips(variant, variant, rig, mask);

    ContactResult given;
    if (settings.runtime_offline_contacts) given = detect_contacts(variant, rig, settings.clean.contacts);
    LockClipResult runtime =
        lock_clip(variant, rig, settings.runtime, settings.runtime_offline_contacts ? &given : nullptr,
                  settings.runtime_ground_velocity_mps, settings.runtime_ground);
    v.metrics[static_cast<int>(FixMethod::runtime)] = compare_clips(variant, runtime.locked, rig, mask);
    v.runtime_pops = lock_event_pops(variant, runtime, rig);
    for (const auto& w : runtime.warnings) v.warnings.push_back(std::string("runtime lock: ") + w);

    CleanResult offline = clean_clip(variant, rig, settings.clean);
    v.metrics[static_cast<int>(FixMethod::offline)] = compare_clips(variant, offline.cleaned, rig, mask);
    for (const auto& w : offline.warnings) v.warnings.push_back(std::string("offline clean: ") + w);
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace footfix

// What the BVH fuzz target does with one input, shared with the regression test that replays
// tests/data/bad and tests/fuzz/crashers (tests/corpus/fuzz_regression_test.cpp): parse_bvh, then
// on whatever parses the load pipeline (rig detection, unit/up detection, conversion to the
// internal frame), the clean pipeline (contacts, offline solve, leg IK), the writer on the
// cleaned clip, and a second parse of what was written.
//
// footfix::Error from any step is the expected outcome for bad input. Anything else escaping (a
// std::exception, a sanitizer report) is a finding; a rewritten file that does not parse back
// to the same shape, or a clean that turns finite input into NaN or infinity, is reported as
// PipelineFinding.
#pragma once

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "footfix/core/error.h"
#include "footfix/bvh/bvh.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/solve/clean.h"

namespace footfix::fuzz {

struct PipelineFinding : std::logic_error {
  using std::logic_error::logic_error;
};

inline bool all_finite(const Clip& clip) {
  for (const Quat& q : clip.rotations)
    if (!std::isfinite(q.w) || !std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z)) return false;
  for (const Vec3& v : clip.translations)
    if (!is_finite(v)) return false;
  return true;
}

/// How far one input got.
enum class BvhOutcome { rejected_by_reader, rejected_later, round_tripped };

inline BvhOutcome run_bvh_pipeline(std::string_view text) {
  Clip clip;
  try {
    clip = parse_bvh(text, "fuzz.bvh");
  } catch (const Error&) {
    return BvhOutcome::rejected_by_reader;
  }
  std::string written;
  try {
    Rig rig = detect_rig(clip);
    SourceFrame frame = detect_source_frame(clip, rig);
    convert_to_internal(clip, frame);
    Rig internal_rig = detect_rig(clip);
    CleanResult cleaned = clean_clip(clip, internal_rig, CleanSettings{});
    if (all_finite(clip) && !all_finite(cleaned.cleaned))
      throw PipelineFinding("clean turned a finite clip into non-finite transforms");
    clip = std::move(cleaned.cleaned);
    std::ostringstream out;
    write_bvh(clip, out);
    written = std::move(out).str();
  } catch (const Error&) {
    return BvhOutcome::rejected_later;
  }
  Clip again = parse_bvh(written, "rewritten.bvh");  // what footfix writes must read back
  if (again.frame_count != clip.frame_count || again.joint_count() != clip.joint_count())
    throw PipelineFinding("round trip changed the clip: " + std::to_string(clip.frame_count) + " frames x " +
                            std::to_string(clip.joint_count()) + " joints -> " +
                            std::to_string(again.frame_count) + " x " + std::to_string(again.joint_count()));
  return BvhOutcome::round_tripped;
}

}  // namespace footfix::fuzz

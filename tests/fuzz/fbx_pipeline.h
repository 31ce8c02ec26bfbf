// What the FBX fuzz target does with one input, shared with the regression test that replays
// tests/fuzz/crashers/fbx and tests/data/bad/fbx_* (tests/corpus/fuzz_regression_test.cpp):
//
//  1. the document parser (binary and ASCII), the document writer, and a second parse, which
//     must give the same tree;
//  2. the clip reader on the same bytes; on whatever reads, the load pipeline's conversion to
//     the internal frame (meters, Y up), then an edit of the leg and root joints (hips and knees
//     rotated, the translation joint moved; rig detection names them, or the first joints when
//     it finds no legs), write_fbx, which then has to patch those joints' Lcl curves, and a
//     second read. The edited joints' world positions must come back within a tolerance.
//
// footfix::Error from any step is the expected outcome for bad input. Anything else escaping (a
// std::exception, a sanitizer report) is a finding; so is a written file that does not read back,
// reads back with another shape or puts a joint elsewhere: PipelineFinding (bvh_pipeline.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bvh_pipeline.h"  // all_finite, PipelineFinding
#include "footfix/core/error.h"
#include "footfix/core/fk.h"
#include "footfix/fbx/fbx.h"
#include "fbx/fbx_document.h"  // internal to io, not installed
#include "footfix/rig/leg_rig.h"
#include "support/world_distance.h"

namespace footfix::fuzz {

/// How far one input's edit round trip got: the reader refused the bytes, the clip or its writer
/// did, or it round-tripped.
enum class EditOutcome { rejected_by_reader, rejected_later, round_tripped };
using FbxOutcome = EditOutcome;

/// Parse, write and parse the document again. Returns false if the parser refused the bytes.
inline bool run_fbx_document_round_trip(const std::string& bytes) {
  FbxDocument doc;
  try {
    doc = parse_fbx_document(bytes, "fuzz.fbx");
  } catch (const Error&) {
    return false;
  }
  std::ostringstream out;
  try {
    write_fbx_document(doc, out);
  } catch (const Error&) {
    return true;  // e.g. a value the writer cannot represent; refused, not crashed
  }
  FbxDocument again;
  try {
    again = parse_fbx_document(out.str(), "rewritten.fbx");
  } catch (const Error& e) {
    throw PipelineFinding(std::string("a written FBX document does not parse: ") + e.what());
  }
  if (again.roots.size() != doc.roots.size()) throw PipelineFinding("a written FBX document has other top-level nodes");
  for (std::size_t i = 0; i < doc.roots.size(); ++i)
    if (!doc.roots[i].same_tree(again.roots[i])) throw PipelineFinding("a written FBX document has another tree");
  return true;
}

/// The joints the edit changes: rotated (hips and knees) and moved (the root motion joint).
struct FbxEdit {
  std::vector<int> rotated;
  int moved = -1;
};

inline FbxEdit pick_edited_joints(const Clip& clip) {
  FbxEdit edit;
  try {
    const Rig rig = detect_rig(clip);
    for (const LegChain& leg : rig.legs) edit.rotated.insert(edit.rotated.end(), {leg.hip, leg.knee});
    edit.moved = rig.translation_joint >= 0 ? rig.translation_joint : rig.pelvis;
  } catch (const Error&) {
    // No legs found: the first joints stand in, so the patcher still runs on this input.
    for (int j = 1; j < std::min(clip.joint_count(), 3); ++j) edit.rotated.push_back(j);
    edit.moved = 0;
  }
  return edit;
}

/// Largest world distance of any joint from the origin: the clip's size, for the tolerance.
inline double world_extent(const Clip& clip) {
  std::vector<Transform> world(static_cast<std::size_t>(clip.joint_count()));
  double extent = 0;
  for (int f = 0; f < clip.frame_count; ++f) {
    world_pose(clip, f, world);
    for (const Transform& t : world) extent = std::max(extent, length(t.translation));
  }
  return extent;
}

/// Rotates the hips and knees (up to 0.3 rad about a fixed axis, varying over the clip) and moves
/// the translation joint (up to 4 cm), in the internal frame (meters).
inline void apply_edit(Clip& clip, const FbxEdit& edit) {
  for (int f = 0; f < clip.frame_count; ++f) {
    const double phase = 2 * k_pi * (f + 1) / (clip.frame_count + 1);
    for (int j : edit.rotated)
      clip.rotation(f, j) = normalize(clip.rotation(f, j) * axis_angle({1, 0, 0}, 0.3 * std::sin(phase)));
    if (edit.moved >= 0) clip.translation(f, edit.moved) += Vec3{0.04 * std::cos(phase), -0.03, 0.02};
  }
}

/// A clip as the load pipeline hands it over: read, then converted to meters, Y up.
inline Clip read_internal(const std::string& bytes, const std::string& name, const ReadLimits& limits) {
  Clip clip = read_fbx_bytes(bytes, name, "", nullptr, limits);
  const SourceFrame frame = clip.source_frame;
  convert_to_internal(clip, frame);
  return clip;
}

/// Reads `bytes` with `read(bytes, name)` (a clip in the internal frame), applies the edit,
/// writes it with `write(clip, out)` and reads that again: the world positions must agree within
/// 1 mm plus 1e-6 of the clip's extent (float keys in big scenes). `format` names the format in
/// findings.
template <class Read, class Write>
EditOutcome run_edit_round_trip(const std::string& bytes, const char* format, Read read, Write write) {
  Clip clip;
  try {
    clip = read(bytes, "fuzz");
  } catch (const Error&) {
    return EditOutcome::rejected_by_reader;
  }
  if (clip.frame_count <= 0 || clip.joint_count() <= 0 || !all_finite(clip)) return EditOutcome::rejected_later;
  apply_edit(clip, pick_edited_joints(clip));
  std::ostringstream out;
  try {
    write(clip, out);
  } catch (const Error&) {
    return EditOutcome::rejected_later;
  }
  Clip again;
  try {
    again = read(out.str(), "patched");
  } catch (const Error& e) {
    throw PipelineFinding(std::string("a patched ") + format + " does not read back: " + e.what());
  }
  if (again.frame_count != clip.frame_count || again.joint_count() != clip.joint_count() ||
      again.skeleton.names != clip.skeleton.names)
    throw PipelineFinding(std::string("a patched ") + format + " reads back with another shape");
  const double tolerance = 1e-3 + 1e-6 * world_extent(clip);
  const double distance = test::common_world_distance(clip, again);
  if (!(distance <= tolerance))
    throw PipelineFinding(std::string("a patched ") + format + " puts a joint " + std::to_string(distance) +
                          " m from the edit (tolerance " + std::to_string(tolerance) + " m)");
  return EditOutcome::round_tripped;
}

/// The edit round trip through write_fbx.
inline FbxOutcome run_fbx_edit_round_trip(const std::string& bytes, const ReadLimits& limits) {
  return run_edit_round_trip(
      bytes, "FBX", [&](const std::string& b, const std::string& name) { return read_internal(b, name + ".fbx", limits); },
      [](const Clip& clip, std::ostream& out) { write_fbx(clip, out); });
}

}  // namespace footfix::fuzz

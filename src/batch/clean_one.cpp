#include "footfix/batch/clean_one.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "contacts/contacts_json.h"
#include "footfix/core/error.h"
#include "footfix/eval/metrics.h"
#include "footfix/files/atomic_file.h"
#include "footfix/gltf/gltf.h"
#include "footfix/solve/pinned_root.h"
#include "footfix/solve/treadmill.h"
#include "batch/report_plot.h"

namespace footfix {
namespace {

// A planted foot missing its target by more than k_reported_miss_m is warned about by the clean
// itself; a smaller miss over k_noticeable_miss_m matters only when it leaves the clip over the
// slide threshold.
constexpr double k_noticeable_miss_m = 0.005;
constexpr double k_reported_miss_m = 0.01;

std::string slide_left_warning(double p95_cm_s, double max_cm_s) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "a planted foot could not reach its target: contact slide p95 %.2f cm/s is over %.4g cm/s "
                "(check the leg joints with `footfix inspect`, or name them with --rig)",
                p95_cm_s, max_cm_s);
  return buf;
}

}  // namespace

ClipReport clean_one(const std::filesystem::path& input, const CleanOneOutputs& outputs, const CleanOneSettings& s) {
  const auto start = std::chrono::steady_clock::now();
  LoadedClip loaded = load_clip(input, s.read);
  const PlotSource plot = s.plot ? plot_source(loaded) : PlotSource{};  // what the report draws
  // A clip whose source frames can be decoded again (BVH, FBX) is handed over and cleaned in
  // place; the metrics read its source frames back from what the reader kept. Others are kept.
  const bool handed_over = has_source_frames(loaded.clip);
  CleanResult result = handed_over ? clean_clip(std::move(loaded.clip), loaded.rig, s.clean)
                                   : clean_clip(loaded.clip, loaded.rig, s.clean);
  const Clip& cleaned_clip = result.cleaned;
  ContactMask mask{result.contacts.feet[0].contact, result.contacts.feet[1].contact};
  const int root = loaded.rig.translation_joint;
  const Vec3 g = result.ground_velocity_mps;
  FrameSource source = handed_over ? FrameSource{&cleaned_clip.skeleton, cleaned_clip.fps, cleaned_clip.frame_count,
                                                 [&cleaned_clip](int f, Clip& into) { decode_source_frame(cleaned_clip, f, into); }}
                                   : frames_of(loaded.clip);
  FrameSource after = frames_of(cleaned_clip);
  // The source as the clean saw it: moved to the ground (--ground) and, on a treadmill, with
  // both clips in the ground's frame.
  if (const double dy = result.ground_offset_m; dy != 0)
    source.fill = [fill = std::move(source.fill), root, dy](int f, Clip& into) {
      fill(f, into);
      move_body(into, 0, root, {0.0, dy, 0.0});
    };
  if (result.treadmill)
    for (FrameSource* frames : {&source, &after})
      frames->fill = [fill = std::move(frames->fill), root, g](int f, Clip& into) {
        fill(f, into);
        shift_frame_by_ground(into, 0, f, root, g, -1);
      };
  const ClipMetrics metrics = compare_frames(source, after, loaded.rig, mask);
  CleanedClipInfo info{outputs.clip.filename().string(), loaded.warnings};
  info.warnings.insert(info.warnings.end(), result.warnings.begin(), result.warnings.end());
  const double worst_miss_m = std::max(result.max_miss_m[0], result.max_miss_m[1]);
  if (metrics.cleaned_slide.p95_cm_per_s > s.max_slide_cm_s && worst_miss_m > k_noticeable_miss_m &&
      worst_miss_m <= k_reported_miss_m)
    info.warnings.push_back(slide_left_warning(metrics.cleaned_slide.p95_cm_per_s, s.max_slide_cm_s));
  SaveOptions clip_save = s.save;
  const std::vector<std::string> save_notes = save_warnings(result.cleaned, outputs.clip, clip_save);
  info.warnings.insert(info.warnings.end(), save_notes.begin(), save_notes.end());
  // The contacts go beside the clip, and into a glTF animation's extras as well.
  std::ostringstream contacts_text;
  write_contacts_json(result.cleaned, result.contacts, s.clean.contacts, contacts_text, &info);
  if (is_gltf_path(outputs.clip)) clip_save.gltf_extras = contacts_text.str();
  // Both written first, then put in place back to back: no clip without its contacts.
  AtomicFileGroup files;
  const std::vector<std::filesystem::path> buffers = add_clip_files(result.cleaned, outputs.clip, clip_save, files);
  files.add(outputs.contacts, [&](std::ostream& out) { out << contacts_text.str(); });
  if (outputs.gate == nullptr) files.commit();
  else if (!outputs.gate->pass([&files] { files.commit(); }))
    fail(ErrorKind::write, outputs.clip.string() + ": not written: the run was stopped");
  ClipReport record;
  record.status = ClipStatus::ok;
  record.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  record.output = outputs.clip.string();
  record.contacts = outputs.contacts.string();
  for (const auto& buffer : buffers) record.buffers.push_back(buffer.string());
  record.contact_count = result.contacts.feet[0].intervals.size() + result.contacts.feet[1].intervals.size();
  record.frames = plot.frames;
  record.solver_iterations = result.solver_iterations;
  record.loop = result.loop;
  record.treadmill = result.treadmill;
  record.metrics = metrics;
  record.warnings = std::move(info.warnings);
  record.notes = result.contacts.notes;
  if (result.treadmill) record.ground_velocity_mps = g;
  if (s.clean.ground.mode != GroundMode::keep) record.ground_offset_m = result.ground_offset_m;
  if (s.plot) record.plot = plot_series(plot, loaded.rig, result, s.clean.contacts);
  return record;
}

}  // namespace footfix

#include "footfix/pipeline/load_clip.h"

#include <cctype>

#include "footfix/io/clip_io.h"
#include "footfix/rig/gait_frame_rate.h"

namespace footfix {
namespace fs = std::filesystem;

namespace {

// The BVH writer keeps the file's Frame Time (BvhSource), so the rate changed here is the one
// contacts, velocities and the solve see; FBX writes key times from clip.fps and keeps its own.
void set_processing_rate(LoadedClip& loaded, const fs::path& path, const ReadOptions& options) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool bvh = ext == ".bvh";
  if (options.fps) {
    if (bvh)
      loaded.clip.fps = *options.fps;
    else
      loaded.warnings.push_back("--fps is ignored: the file's key times state its frame rate");
    return;
  }
  if (!bvh) return;
  const auto rate = gait_frame_rate(loaded.clip, loaded.rig);
  if (!rate || !rate->contradicts) return;
  loaded.warnings.push_back(describe_rate_contradiction(*rate));
  loaded.clip.fps = rate->likely_fps;
}

}  // namespace

LoadedClip load_clip(const fs::path& path, const ReadOptions& options) {
  LoadedClip out;
  out.clip = read_clip_file(path, options.take, out.warnings, options.limits);
  prepare_loaded_clip(out, path, options);
  return out;
}

void prepare_loaded_clip(LoadedClip& out, const fs::path& path, const ReadOptions& options) {
  // The legs in the file's frame tell its units and up axis; the rig of the converted clip is
  // detected after the conversion: its knee axes are in the knee's local frame, its translation
  // joint is chosen by a variance threshold in meters, and its choices among near-equal lengths
  // and directions are made on the values the clean uses.
  const Rig source_rig = find_legs_reaching_end_sites(out.clip, options.rig_profile);
  // FBX declares its units and axes (GlobalSettings); BVH has no such header, so its frame is
  // detected from the legs' proportions and the motion. Unit (up) warnings only when no unit (up) is
  // given.
  const RigProfile* profile = options.rig_profile;
  const bool unit_given = options.meters_per_unit || (profile && profile->meters_per_unit);
  const bool up_given = options.up || (profile && profile->up);
  SourceFrame frame = detect_source_frame(out.clip, source_rig, unit_given ? nullptr : &out.warnings,
                                          up_given ? nullptr : &out.warnings);
  if (profile && profile->meters_per_unit) frame.meters_per_unit = *profile->meters_per_unit;
  if (profile && profile->up) frame.up = *profile->up;
  if (options.meters_per_unit) frame.meters_per_unit = *options.meters_per_unit;
  if (options.up) frame.up = *options.up;
  convert_to_internal(out.clip, frame);
  out.rig = detect_rig(out.clip, options.rig_profile);
  for (auto& w : out.rig.warnings) out.warnings.push_back(w);
  set_processing_rate(out, path, options);
}

}  // namespace footfix

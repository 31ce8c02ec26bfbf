#include "footfix/io/clip_io.h"

#include <algorithm>
#include <cctype>

#include "footfix/core/error.h"
#include "footfix/io/atomic_file.h"
#include "footfix/io/bvh.h"
#include "footfix/io/fbx.h"

namespace footfix {
namespace fs = std::filesystem;

namespace {

std::string lower_extension(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}


Clip read_source_clip(const fs::path& path, const ReadOptions& options, std::vector<std::string>& warnings) {
  std::string ext = lower_extension(path);
  if (ext == ".bvh") return parse_bvh(read_file(path, options.limits.max_input_bytes), path.string(), &warnings, options.limits);
  if (ext == ".fbx") return read_fbx(path, options.take, &warnings, options.limits);
  fail(ErrorKind::read, path.string() + ": unsupported file type '" + ext + "' (expected .bvh or .fbx)");
}

}  // namespace

bool is_clip_path(const fs::path& path) {
  std::string ext = lower_extension(path);
  return ext == ".bvh" || ext == ".fbx";
}

LoadedClip load_clip(const fs::path& path, const ReadOptions& options) {
  LoadedClip out;
  out.clip = read_source_clip(path, options, out.warnings);
  Rig source_rig = detect_rig(out.clip, options.rig_profile);
  // FBX declares its units and axes (GlobalSettings); BVH has no such header, so its frame is
  // detected from the legs' proportions and the motion. Unit warnings only when no unit is given.
  const RigProfile* profile = options.rig_profile;
  const bool unit_given = options.meters_per_unit || (profile && profile->meters_per_unit);
  SourceFrame frame = detect_source_frame(out.clip, source_rig, unit_given ? nullptr : &out.warnings);
  if (profile && profile->meters_per_unit) frame.meters_per_unit = *profile->meters_per_unit;
  if (profile && profile->up) frame.up = *profile->up;
  if (options.meters_per_unit) frame.meters_per_unit = *options.meters_per_unit;
  if (options.up) frame.up = *options.up;
  convert_to_internal(out.clip, frame);
  out.rig = detect_rig(out.clip, options.rig_profile);
  for (auto& w : out.rig.warnings) out.warnings.push_back(w);
  return out;
}

void save_clip(const Clip& clip, const fs::path& path) {
  std::string ext = lower_extension(path);
  if (ext == ".bvh") {
    write_file_atomically(path, [&](std::ostream& out) { write_bvh(clip, out); });
    return;
  }
  if (ext == ".fbx") {
    if (!dynamic_cast<const FbxSource*>(clip.source.get()))
      fail(ErrorKind::write, path.string() + ": FBX output needs a clip read from FBX (write .bvh instead)");
    write_file_atomically(path, [&](std::ostream& out) { write_fbx(clip, out); });
    return;
  }
  fail(ErrorKind::write, path.string() + ": cannot write '" + ext + "' files (expected .bvh or .fbx)");
}

}  // namespace footfix

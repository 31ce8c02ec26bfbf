#include "footfix/io/clip_io.h"

#include <algorithm>
#include <cctype>

#include "fbx/fbx_source.h"
#include "footfix/core/error.h"
#include "footfix/files/atomic_file.h"
#include "footfix/bvh/bvh.h"
#include "footfix/fbx/fbx.h"
#include "footfix/gltf/gltf.h"

namespace footfix {
namespace fs = std::filesystem;

namespace {

std::string lower_extension(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

}  // namespace

bool is_clip_path(const fs::path& path) {
  std::string ext = lower_extension(path);
  return ext == ".bvh" || ext == ".fbx" || ext == ".gltf" || ext == ".glb";
}

Clip read_clip_file(const fs::path& path, const std::string& take, std::vector<std::string>& warnings,
                    const ReadLimits& limits) {
  std::string ext = lower_extension(path);
  if (ext == ".bvh") return read_bvh_file(path, path.string(), &warnings, limits);
  if (ext == ".fbx") return read_fbx(path, take, &warnings, limits);
  if (ext == ".gltf" || ext == ".glb") return read_gltf(path, take, &warnings, limits);
  fail(ErrorKind::read, path.string() + ": unsupported file type '" + ext + "' (expected .bvh, .fbx, .gltf or .glb)");
}

std::vector<std::string> save_warnings(const Clip& clip, const fs::path& path, SaveOptions& options) {
  if (lower_extension(path) != ".bvh") return {};
  options.bvh.added = bvh_added_channels(clip);
  return options.bvh.added->warnings;
}

std::vector<fs::path> add_clip_files(const Clip& clip, const fs::path& path, const SaveOptions& options,
                                     AtomicFileGroup& files) {
  std::string ext = lower_extension(path);
  if (ext == ".bvh") {
    files.add(path, [&](std::ostream& out) { write_bvh(clip, out, options.bvh); });
    return {};
  }
  if (ext == ".fbx") {
    if (!dynamic_cast<const FbxSource*>(clip.source.get()))
      fail(ErrorKind::write, path.string() + ": FBX output needs a clip read from FBX (write .bvh instead)");
    files.add(path, [&](std::ostream& out) { write_fbx(clip, out, options.fbx); });
    return {};
  }
  if (is_gltf_path(path)) return add_gltf_files(clip, path, options.gltf_extras, files);
  fail(ErrorKind::write, path.string() + ": cannot write '" + ext + "' files (expected .bvh, .fbx, .gltf or .glb)");
}

std::vector<fs::path> save_clip(const Clip& clip, const fs::path& path, const SaveOptions& options) {
  AtomicFileGroup files;
  std::vector<fs::path> needed = add_clip_files(clip, path, options, files);
  files.commit();
  return needed;
}

}  // namespace footfix

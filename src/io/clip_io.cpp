#include "footfix/io/clip_io.h"

#include <algorithm>
#include <cctype>

#include "fbx/fbx_source.h"
#include "footfix/core/error.h"
#include "footfix/files/atomic_file.h"
#include "footfix/bvh/bvh.h"
#include "footfix/fbx/fbx.h"
#include "footfix/gltf/gltf.h"
#include "gltf/gltf_patch.h"
#include "gltf/gltf_source.h"

namespace footfix {
namespace fs = std::filesystem;

namespace {

std::string lower_extension(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

/// A glTF file's external buffer files, copied beside `output` when it is written to another
/// folder (the URIs were checked to name files inside the source's folder when it was read),
/// unless a file of that name is there already; `replaced` (a URI the output no longer names) is
/// not copied.
void copy_external_buffers(const GltfSource& src, const std::string& source_name, const fs::path& output,
                           const std::string& replaced) {
  const fs::path from = fs::path(source_name).parent_path(), to = output.parent_path();
  std::error_code ec;
  if (fs::equivalent(from.empty() ? "." : from, to.empty() ? "." : to, ec)) return;
  for (const std::string& uri : gltf::external_buffer_uris(src.document)) {
    if (uri == replaced) continue;
    const fs::path target = to / gltf::uri_path(uri);
    if (fs::exists(target, ec)) continue;
    const std::string bytes = read_file(from / gltf::uri_path(uri));
    write_file_atomically(target, [&](std::ostream& out) { out << bytes; });
  }
}

/// The URI of the buffer file a patch of `src` written to `output` gets when its new data go to an
/// external buffer: "<output stem>.bin", or "<output stem>.footfix.bin" where that would be one of
/// the source's buffer files (never overwritten) or the name of another buffer the output keeps.
/// Empty when the patch appends to no external buffer.
std::string new_buffer_uri(const GltfSource& src, const std::string& source_name, const fs::path& output) {
  const std::string replaced = gltf::animation_buffer_uri(src);
  if (replaced.empty()) return "";
  const fs::path from = fs::path(source_name).parent_path(), to = output.parent_path();
  for (const char* suffix : {".bin", ".footfix.bin"}) {
    const std::string name = output.stem().string() + suffix;
    bool taken = false;
    for (const std::string& uri : gltf::external_buffer_uris(src.document)) {
      std::error_code ec;
      taken = taken || (uri != replaced && gltf::uri_path(uri) == fs::path(name)) ||
              fs::equivalent(from / gltf::uri_path(uri), to / name, ec);
    }
    if (!taken) return gltf::file_name_uri(name);
  }
  fail(ErrorKind::write, output.string() + ": no free name for its buffer file (" + output.stem().string() +
                             ".bin and .footfix.bin are the source's)");
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

void save_clip(const Clip& clip, const fs::path& path, const SaveOptions& options) {
  std::string ext = lower_extension(path);
  if (ext == ".bvh") {
    write_file_atomically(path, [&](std::ostream& out) { write_bvh(clip, out, options.bvh); });
    return;
  }
  if (ext == ".fbx") {
    if (!dynamic_cast<const FbxSource*>(clip.source.get()))
      fail(ErrorKind::write, path.string() + ": FBX output needs a clip read from FBX (write .bvh instead)");
    write_file_atomically(path, [&](std::ostream& out) { write_fbx(clip, out, options.fbx); });
    return;
  }
  if (ext == ".gltf" || ext == ".glb") {
    const bool binary = ext == ".glb";
    const auto* src = dynamic_cast<const GltfSource*>(clip.source.get());
    if (src && src->document.container.binary != binary)
      fail(ErrorKind::write, path.string() + ": a clip read from " + (binary ? ".gltf" : ".glb") +
                                 " is written back in its own container (write " + (binary ? ".gltf" : ".glb") + ")");
    const GltfOutput out = gltf_output(clip, binary, options.gltf_extras, src ? new_buffer_uri(*src, clip.source_name, path) : "");
    if (src) copy_external_buffers(*src, clip.source_name, path, out.replaced_uri);
    // The buffer file first: a reader that sees the new glTF file finds its buffer complete.
    if (!out.bin_uri.empty())
      write_file_atomically(path.parent_path() / gltf::uri_path(out.bin_uri), [&](std::ostream& s) { s << out.bin; });
    write_file_atomically(path, [&](std::ostream& s) { s << out.file; });
    return;
  }
  fail(ErrorKind::write, path.string() + ": cannot write '" + ext + "' files (expected .bvh, .fbx, .gltf or .glb)");
}

}  // namespace footfix

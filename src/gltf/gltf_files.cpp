// glTF files: which paths are glTF, and a clip saved to one (the file, the new buffer file a
// patch may need, and the source's external buffer and image files copied beside an output in
// another folder; see gltf.h).
#include <cctype>
#include <system_error>

#include "footfix/core/error.h"
#include "footfix/core/read_file.h"
#include "footfix/files/atomic_file.h"
#include "footfix/gltf/gltf.h"
#include "gltf_container.h"
#include "gltf_document.h"
#include "gltf_patch.h"
#include "gltf_source.h"

namespace footfix {
namespace fs = std::filesystem;

namespace {

std::string lower_extension(const fs::path& path) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

/// A glTF file's external buffer and image files, copied beside `output` (added to `files`) when
/// it is written to another folder, unless a file of that name is there already; `replaced` (a
/// URI the output no longer names) is not copied. Buffer URIs were checked to name files inside
/// the source's folder when it was read; an image is copied only where its URI names an existing
/// file inside that folder by the same rules (one outside it, e.g. "../textures/", is not
/// followed: the output names it as the source did).
void copy_external_files(const GltfSource& src, const std::string& source_name, const fs::path& output,
                         const std::string& replaced, AtomicFileGroup& files) {
  const fs::path from = fs::path(source_name).parent_path(), to = output.parent_path();
  std::error_code ec;
  if (fs::equivalent(from.empty() ? "." : from, to.empty() ? "." : to, ec)) return;
  auto copy = [&](const fs::path& source, const std::string& uri) {
    const fs::path target = to / gltf::uri_path(uri);
    if (fs::exists(target, ec)) return;
    fs::create_directories(target.parent_path(), ec);
    const std::string bytes = read_file(source);
    files.add(target, [&](std::ostream& out) { out << bytes; });
  };
  for (const std::string& uri : gltf::external_buffer_uris(src.document))
    if (uri != replaced) copy(from / gltf::uri_path(uri), uri);
  for (const std::string& uri : gltf::external_image_uris(src.document.json)) {
    const fs::path image = gltf::file_in_folder(from, uri);
    if (!image.empty() && fs::is_regular_file(image, ec)) copy(image, uri);
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

bool is_gltf_path(const fs::path& path) {
  const std::string ext = lower_extension(path);
  return ext == ".gltf" || ext == ".glb";
}

std::vector<fs::path> add_gltf_files(const Clip& clip, const fs::path& path, const std::string& extras,
                                     AtomicFileGroup& files) {
  const bool binary = lower_extension(path) == ".glb";
  const auto* src = dynamic_cast<const GltfSource*>(clip.source.get());
  if (src && src->document.container.binary != binary)
    fail(ErrorKind::write, path.string() + ": a clip read from " + (binary ? ".gltf" : ".glb") +
                               " is written back in its own container (write " + (binary ? ".gltf" : ".glb") + ")");
  const GltfOutput out = gltf_output(clip, binary, extras, src ? new_buffer_uri(*src, clip.source_name, path) : "");
  if (src) copy_external_files(*src, clip.source_name, path, out.replaced_uri, files);
  // The buffer files first: a reader that sees the new glTF file finds its buffers complete.
  if (!out.bin_uri.empty())
    files.add(path.parent_path() / gltf::uri_path(out.bin_uri), [&](std::ostream& s) { s << out.bin; });
  files.add(path, [&](std::ostream& s) { s << out.file; });
  // Only a patch keeps external buffers (a skeleton-only file embeds its data).
  std::vector<fs::path> buffers;
  if (src) {
    const gltf::Container container = gltf::split_container(out.file, path.string());
    for (const std::string& uri : gltf::external_buffer_uris(gltf::Json::parse(container.json), path.string()))
      buffers.push_back(path.parent_path() / gltf::uri_path(uri));
  }
  return buffers;
}

std::vector<fs::path> save_gltf(const Clip& clip, const fs::path& path, const std::string& extras) {
  AtomicFileGroup files;
  std::vector<fs::path> buffers = add_gltf_files(clip, path, extras, files);
  files.commit();
  return buffers;
}

}  // namespace footfix

// Read speed of footfix's glTF reader against assimp's glTF 2.0 importer on the same files, both
// in this process, from the file (the page cache after the first run): footfix's read_gltf
// (document, buffers, one animation sampled to frames) against Assimp::Importer::ReadFile with no
// post-processing (what `assimp info FILE -r` loads: meshes, skins and every animation's keys).
// Prints per file the median of N runs of each and the ratio.
//
//   bench_gltf_read [runs] file.glb|file.gltf...
//
// Files to try: bench/gltf_slide_protocol.py writes glTF versions of the shared locomotion
// clips (and bench/fbx_to_gltf.py a skinned Mixamo character).
#include <algorithm>
#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_timing.h"
#include "footfix/core/error.h"
#include "footfix/gltf/gltf.h"

namespace {

namespace fs = std::filesystem;

using footfix::bench::median_ms;

}  // namespace

int main(int argc, char** argv) {
  int first = 1, runs = 15;
  if (argc > 1 && std::all_of(argv[1], argv[1] + std::char_traits<char>::length(argv[1]), ::isdigit)) {
    runs = std::max(1, std::atoi(argv[1]));
    first = 2;
  }
  if (first >= argc) {
    std::printf("usage: bench_gltf_read [runs] file.glb|file.gltf...\n");
    return 2;
  }
  std::printf("%d runs each, median ms\n", runs);
  std::printf("%-44s %9s %8s %6s %10s %10s %8s\n", "file", "KiB", "frames", "joints", "footfix", "assimp", "ratio");
  for (int i = first; i < argc; ++i) {
    const fs::path path = argv[i];
    footfix::Clip clip;
    try {
      clip = footfix::read_gltf(path);
    } catch (const footfix::Error& e) {
      std::printf("%-44s footfix failed: %s\n", path.filename().c_str(), e.what());
      continue;
    }
    const double footfix_ms = median_ms(runs, [&] { footfix::read_gltf(path); });
    bool assimp_ok = true;
    const double assimp_ms = median_ms(runs, [&] {
      Assimp::Importer importer;
      const aiScene* scene = importer.ReadFile(path.string(), 0);
      assimp_ok = assimp_ok && scene && scene->mNumAnimations > 0;
    });
    std::printf("%-44s %9.0f %8d %6d %10.2f %10.2f %7.2fx%s\n", path.filename().c_str(),
                static_cast<double>(fs::file_size(path)) / 1024.0, clip.frame_count, clip.joint_count(), footfix_ms,
                assimp_ms, assimp_ms / footfix_ms, assimp_ok ? "" : "  (assimp read no animation)");
  }
  std::printf("ratio: assimp / footfix (above 1: footfix reads faster)\n");
  return 0;
}

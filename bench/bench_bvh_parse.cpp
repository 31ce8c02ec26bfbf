// Parse speed of footfix's BVH reader against assimp's BVH importer on the same text, read once
// from disk into memory. Prints the median of N runs of each and the ratio, and footfix's read
// with and without the motion text kept for a BVH writer (ReadLimits::keep_bvh_text), from
// memory (parse_bvh) and from the file (read_bvh_file).
//
//   bench_bvh_parse [runs] [file.bvh]
//
// Default file: the largest shared clip (../shared/data/clips/cmu_01_01_hops_turnaround.bvh),
// falling back to the bundled copy in data/clips when ../shared is missing.
#include <algorithm>
#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "footfix/core/error.h"
#include "footfix/files/atomic_file.h"
#include "footfix/bvh/bvh.h"
#include "bench_timing.h"

namespace {

namespace fs = std::filesystem;

using footfix::bench::median_ms;

fs::path default_clip() {
  const char* name = "cmu_01_01_hops_turnaround.bvh";
  fs::path shared = fs::path(FOOTFIX_SHARED_DIR) / "data" / "clips" / name;
  if (fs::exists(shared)) return shared;
  std::printf("../shared/data/clips is missing; using the bundled copy in data/clips\n");
  return fs::path(FOOTFIX_DATA_DIR) / "clips" / name;
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 15;
  const fs::path path = argc > 2 ? fs::path(argv[2]) : default_clip();
  std::string text;
  try {
    text = footfix::read_file(path);
  } catch (const footfix::Error& e) {
    std::printf("skipped: %s\n", e.what());
    return 0;
  }
  std::printf("%s: %zu bytes, %d runs each\n", path.filename().c_str(), text.size(), runs);

  int frames = 0;
  const double footfix_ms = median_ms(runs, [&] {
    footfix::Clip clip = footfix::parse_bvh(text, path.filename().string());
    frames = clip.frame_count;
  });
  footfix::ReadLimits no_text;
  no_text.keep_bvh_text = false;
  const double no_text_ms = median_ms(runs, [&] { footfix::parse_bvh(text, path.filename().string(), nullptr, no_text); });
  const double file_ms = median_ms(runs, [&] { footfix::read_bvh_file(path, path.filename().string()); });
  const double file_no_text_ms =
      median_ms(runs, [&] { footfix::read_bvh_file(path, path.filename().string(), nullptr, no_text); });

  unsigned assimp_keys = 0;
  const double assimp_ms = median_ms(runs, [&] {
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFileFromMemory(text.data(), text.size(), 0, "bvh");
    if (!scene || scene->mNumAnimations == 0) {
      std::printf("assimp failed: %s\n", importer.GetErrorString());
      std::exit(1);
    }
    assimp_keys = scene->mAnimations[0]->mChannels[0]->mNumRotationKeys;
  });

  std::printf("footfix parse_bvh : %8.2f ms median (%d frames)\n", footfix_ms, frames);
  std::printf("  without text    : %8.2f ms median (%.2fx)\n", no_text_ms, footfix_ms / no_text_ms);
  std::printf("footfix read_bvh_file : %8.2f ms median\n", file_ms);
  std::printf("  without text        : %8.2f ms median (%.2fx)\n", file_no_text_ms, file_ms / file_no_text_ms);
  std::printf("assimp BVH import : %8.2f ms median (%u keys)\n", assimp_ms, assimp_keys);
  std::printf("ratio assimp / footfix: %.2fx\n", assimp_ms / footfix_ms);
  return 0;
}

// Cost of running the FBX import in a child process under resource limits (ReadLimits::
// isolate_fbx_import): median read_fbx time per clip with and without it, over the shared FBX
// clips (or the files given).
//
//   bench_fbx_isolation [runs] [file.fbx ...]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_timing.h"
#include "footfix/fbx/fbx.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  std::vector<fs::path> files;
  for (int i = 2; i < argc; ++i) files.emplace_back(argv[i]);
  if (files.empty()) {
    fs::path dir = fs::path(FOOTFIX_SHARED_DIR) / "data" / "clips";
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.path().extension() == ".fbx") files.push_back(e.path());
    std::sort(files.begin(), files.end());
  }
  if (files.empty()) {
    std::printf("no FBX files (../shared/data/clips absent and none given)\n");
    return 0;
  }
  std::printf("%-48s %8s %12s %12s %10s\n", "clip", "KiB", "in-process", "isolated", "cost");
  for (const auto& f : files) {
    footfix::ReadLimits direct, isolated;
    direct.isolate_fbx_import = false;
    double a = footfix::bench::median_ms(runs, [&] { footfix::read_fbx(f, "", nullptr, direct); });
    double b = footfix::bench::median_ms(runs, [&] { footfix::read_fbx(f, "", nullptr, isolated); });
    std::printf("%-48s %8ju %9.1f ms %9.1f ms %7.1f ms\n", f.filename().c_str(),
                static_cast<std::uintmax_t>(fs::file_size(f) / 1024), a, b, b - a);
  }
  return 0;
}

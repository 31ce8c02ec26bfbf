// What every benchmark's main() shares: `--help` (or -h) prints its usage line, and an error (a
// missing clip, a bad argument) is one message and exit status 2, never an abort.
#pragma once

#include <cstdio>
#include <cstring>
#include <exception>

namespace footfix::bench {

/// Runs `body(argc, argv)` for the benchmark whose arguments `usage` describes ("[clip]
/// [passes]"); see the file comment.
inline int run_main(int argc, char** argv, const char* usage, int (*body)(int, char**)) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::printf("usage: %s %s\n", argv[0], usage);
      return 0;
    }
  try {
    return body(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", argv[0], e.what());
    return 2;
  }
}

}  // namespace footfix::bench

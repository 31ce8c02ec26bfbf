// Cost of the contact filters against their window: window_minimum, window_median and
// gaussian_smooth on a long signal (default 200000 frames, 30 minutes at 120 Hz) for windows from
// a few frames to the largest the settings ranges allow (10 s ground windows and 1 s sigma at
// 1000 Hz). O(frames) filters keep the time flat as the window grows.
//
//   bench_signal_filters [FRAMES]
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "bench_main.h"
#include "bench_timing.h"
#include "footfix/contacts/signal_filters.h"

int run(int argc, char** argv) {
  const int frames = argc > 1 ? std::atoi(argv[1]) : 200000;
  if (frames <= 0) {
    std::fprintf(stderr, "usage: bench_signal_filters [FRAMES > 0]\n");
    return 2;
  }
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> signal(static_cast<size_t>(frames));
  for (double& x : signal) x = u(rng);

  std::printf("%d frames; median of 3 runs, ms\n", frames);
  std::printf("%10s %14s %14s %16s\n", "window", "window_min", "window_median", "gaussian(sigma)");
  double checksum = 0;
  for (int half : {2, 30, 300, 5000, 10000}) {
    const double t_min = footfix::bench::median_ms(3, [&] { checksum += footfix::window_minimum(signal, half, half)[0]; });
    const double t_med = footfix::bench::median_ms(3, [&] { checksum += footfix::window_median(signal, half)[0]; });
    const double sigma = half / 3.0;  // kernel radius = half
    const double t_gauss = footfix::bench::median_ms(3, [&] { checksum += footfix::gaussian_smooth(signal, sigma)[0]; });
    std::printf("%10d %14.1f %14.1f %16.1f\n", 2 * half + 1, t_min, t_med, t_gauss);
  }
  std::printf("peak RSS %.1f MiB (checksum %.3f)\n", footfix::bench::peak_rss_mb(), checksum);
  return 0;
}

int main(int argc, char** argv) { return footfix::bench::run_main(argc, argv, "[FRAMES]", run); }

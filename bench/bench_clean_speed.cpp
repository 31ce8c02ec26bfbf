// Speed of `clean`: the default solver against `--solver reference` (25000 PBD
// iterations) on the longest shared clip made to slide (x1.25), with the resulting quality of
// each; then full clean throughput (read + detect + solve + IK + write) and peak memory.
//
// Usage: bench_clean_speed [clip] [fast_runs] [reference_runs]
//        bench_clean_speed --throughput [clip_dir] [runs]   (only the full clean throughput, with
//        the time of each stage: read, clean, write)
//        bench_clean_speed --text [clip_dir] [runs]   (only the BVH text of the cleaned clips)
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "footfix/core/allocator.h"
#include "footfix/core/fk.h"
#include "footfix/eval/metrics.h"
#include "footfix/eval/sliding.h"
#include "footfix/bvh/bvh.h"
#include "footfix/io/clip_io.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/solve/clean.h"
#include "solve/clean_problem.h"
#include "bench_timing.h"

namespace fs = std::filesystem;
using namespace footfix;
using bench::median_ms;
using bench::peak_rss_mb;

namespace {

// Takes every character and keeps none: the BVH text alone, without the file system.
class NullBuffer : public std::streambuf {
 protected:
  int_type overflow(int_type c) override { return c; }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

// CPU time of this thread: the figure per core, unaffected by other processes sharing the
// machine (wall time is printed too).
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * static_cast<double>(ts.tv_sec) + 1e-6 * static_cast<double>(ts.tv_nsec);
}

// Full clean throughput, I/O included, one thread: every BVH in `dir` is read, cleaned and written
// `runs` times; prints the median total and the median time of each stage.
void full_clean_throughput(const fs::path& dir, const CleanSettings& settings, int runs) {
  // Its own folder per process: two benches run at once must not remove each other's outputs.
  fs::path out_dir = fs::temp_directory_path() / ("footfix_bench_clean_speed." + std::to_string(::getpid()));
  fs::create_directories(out_dir);
  std::vector<fs::path> inputs;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".bvh") inputs.push_back(entry.path());
  std::sort(inputs.begin(), inputs.end());
  long frames = 0, solver_steps = 0;
  const auto cpu_ms = thread_cpu_ms;
  std::vector<double> read_ms, clean_ms, write_ms, total_cpu_ms, clean_write_ms, text_ms;
  double total_ms = median_ms(runs, [&] {
    frames = 0;
    solver_steps = 0;
    double r = 0, c = 0, w = 0, text = 0;
    for (const auto& input : inputs) {
      try {
        double t = cpu_ms();
        LoadedClip loaded = load_clip(input);
        r += cpu_ms() - t;
        const int clip_frames = loaded.clip.frame_count;
        t = cpu_ms();
        // As `footfix clean` does: a clip whose source frames can be decoded again (BVH) is
        // handed over and cleaned in place, not copied.
        CleanResult result = has_source_frames(loaded.clip) ? clean_clip(std::move(loaded.clip), loaded.rig, settings)
                                                            : clean_clip(loaded.clip, loaded.rig, settings);
        c += cpu_ms() - t;
        t = cpu_ms();
        save_clip(result.cleaned, out_dir / input.filename());
        w += cpu_ms() - t;
        NullBuffer null_buffer;
        std::ostream null_stream(&null_buffer);
        t = cpu_ms();
        write_bvh(result.cleaned, null_stream);  // the same text again, kept nowhere (not in the totals)
        text += cpu_ms() - t;
        frames += clip_frames;
        solver_steps += result.solver_iterations;
      } catch (const std::exception& e) {
        std::fprintf(stderr, "  skipped %s: %s\n", input.filename().c_str(), e.what());
      }
    }
    read_ms.push_back(r);
    clean_ms.push_back(c);
    write_ms.push_back(w);
    total_cpu_ms.push_back(r + c + w);
    clean_write_ms.push_back(c + w);
    text_ms.push_back(text);
  });
  fs::remove_all(out_dir);
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  const double cpu = median(total_cpu_ms);
  std::printf("full clean of every BVH in %s (read + clean + write, 1 thread): %ld frames in %.1f ms CPU (median of %d) = %.0f frames/s per core (wall %.1f ms)\n",
              dir.c_str(), frames, cpu, runs, frames / (cpu / 1000.0), total_ms);
  // The whole clean's goal (read + clean + write, untouched channels kept as their text).
  constexpr double k_whole_goal_frames_per_s = 150000;
  std::printf("  whole clean: %.2fx the %.0f frames/s per core goal\n", frames / (cpu / 1000.0) / k_whole_goal_frames_per_s,
              k_whole_goal_frames_per_s);
  std::printf("  stages, median CPU: read %.1f ms (%.0f frames/s), clean %.1f ms (%.0f frames/s), write %.1f ms (%.0f frames/s)\n",
              median(read_ms), frames / (median(read_ms) / 1000.0), median(clean_ms), frames / (median(clean_ms) / 1000.0),
              median(write_ms), frames / (median(write_ms) / 1000.0));
  std::printf("  offline solve: %ld Newton steps over %zu clips\n", solver_steps, inputs.size());
  std::printf("  write = BVH text %.1f ms (%.0f frames/s) + file system %.1f ms (temporary file, fsync, rename)\n",
              median(text_ms), frames / (median(text_ms) / 1000.0), median(write_ms) - median(text_ms));
  // The speed goal covers the clean and the write (contacts, solve, IK, text); reading is above.
  constexpr double k_goal_frames_per_s = 100000;
  const double clean_write = frames / (median(clean_write_ms) / 1000.0);
  std::printf("  clean + write, median CPU: %.1f ms = %.0f frames/s per core: %.2fx the %.0f frames/s goal\n",
              median(clean_write_ms), clean_write, clean_write / k_goal_frames_per_s, k_goal_frames_per_s);
}

// The BVH text alone: every BVH in `dir` read and cleaned once, then its text written `runs`
// times (kept nowhere); prints the median and the fastest CPU time of a whole pass.
void text_throughput(const fs::path& dir, const CleanSettings& settings, int runs) {
  std::vector<Clip> cleaned;
  long frames = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".bvh") continue;
    try {
      LoadedClip loaded = load_clip(entry.path());
      frames += loaded.clip.frame_count;
      cleaned.push_back(clean_clip(std::move(loaded.clip), loaded.rig, settings).cleaned);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "  skipped %s: %s\n", entry.path().filename().c_str(), e.what());
    }
  }
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    NullBuffer null_buffer;
    std::ostream null_stream(&null_buffer);
    const double t = thread_cpu_ms();
    for (const Clip& clip : cleaned) write_bvh(clip, null_stream);
    ms.push_back(thread_cpu_ms() - t);
  }
  std::sort(ms.begin(), ms.end());
  std::printf("BVH text of the cleaned clips in %s (%ld frames), CPU: median %.2f ms, fastest %.2f ms of %d passes = %.0f frames/s\n",
              dir.c_str(), frames, ms[ms.size() / 2], ms.front(), runs, frames / (ms[ms.size() / 2] / 1000.0));
}

}  // namespace

int main(int argc, char** argv) {
  tune_allocator_for_batches();  // as the footfix command does
  fs::path shared = fs::path(FOOTFIX_SHARED_DIR) / "data" / "clips";
  if (argc > 1 && std::string(argv[1]) == "--throughput") {
    fs::path dir = argc > 2 && argv[2][0] != 0 ? fs::path(argv[2]) : shared;
    if (!fs::exists(dir)) dir = fs::path(FOOTFIX_DATA_DIR) / "clips";
    full_clean_throughput(dir, CleanSettings{}, argc > 3 ? std::atoi(argv[3]) : 7);
    std::printf("peak RSS %.1f MB\n", peak_rss_mb());
    return 0;
  }
  if (argc > 1 && std::string(argv[1]) == "--text") {
    fs::path dir = argc > 2 && argv[2][0] != 0 ? fs::path(argv[2]) : shared;
    if (!fs::exists(dir)) dir = fs::path(FOOTFIX_DATA_DIR) / "clips";
    text_throughput(dir, CleanSettings{}, argc > 3 ? std::atoi(argv[3]) : 21);
    return 0;
  }
  fs::path clip_path = argc > 1 ? fs::path(argv[1]) : shared / "cmu_01_01_hops_turnaround.bvh";
  if (!fs::exists(clip_path)) clip_path = fs::path(FOOTFIX_DATA_DIR) / "clips" / "cmu_01_01_hops_turnaround.bvh";
  int fast_runs = argc > 2 ? std::atoi(argv[2]) : 7;
  int reference_runs = argc > 3 ? std::atoi(argv[3]) : 1;

  LoadedClip loaded = load_clip(clip_path);
  Clip scaled = make_sliding(loaded.clip, loaded.rig, 1.25);
  ContactResult unscaled = detect_contacts(loaded.clip, loaded.rig, ContactSettings{});
  ContactMask mask{unscaled.feet[0].contact, unscaled.feet[1].contact};
  std::printf("clip %s: %d frames at %.0f Hz, made to slide x1.25\n", clip_path.filename().c_str(), loaded.clip.frame_count,
              loaded.clip.fps);

  CleanSettings fast, reference;
  reference.solve.solver = OfflineSolver::reference;
  CleanResult fast_result, reference_result;
  double fast_ms = median_ms(fast_runs, [&] { fast_result = clean_clip(scaled, loaded.rig, fast); });
  double reference_ms = median_ms(reference_runs, [&] { reference_result = clean_clip(scaled, loaded.rig, reference); });
  std::printf("whole clean (contacts + offline solve + IK), median: fast %.1f ms (%d runs), reference %.1f ms (%d runs): %.0fx\n",
              fast_ms, fast_runs, reference_ms, reference_runs, reference_ms / fast_ms);

  // The offline solve alone, on identical inputs.
  CleanProblem problem = prepare_clean_problem(scaled, loaded.rig, fast_result.contacts);
  OfflineSolveResult fast_solve, reference_solve;
  double fast_solve_ms = median_ms(fast_runs, [&] { fast_solve = solve_offline(problem.input, fast.solve); });
  double reference_solve_ms =
      median_ms(reference_runs, [&] { reference_solve = solve_offline(problem.input, reference.solve); });
  double target_max = 0, target_sum = 0;
  for (int s = 0; s < 2; ++s)
    for (int f = 0; f < scaled.frame_count; ++f) {
      double d = 1000 * length(fast_solve.toe_ws[s][f] - reference_solve.toe_ws[s][f]);
      target_max = std::max(target_max, d);
      target_sum += d;
    }
  std::printf("offline solve alone, median: fast %.1f ms (%d steps), reference %.1f ms (%d iterations): %.0fx; toe targets differ by mean %.2f mm, max %.2f mm\n",
              fast_solve_ms, fast_solve.iterations, reference_solve_ms, reference_solve.iterations,
              reference_solve_ms / fast_solve_ms, target_sum / (2.0 * scaled.frame_count), target_max);

  double max_diff = 0, sum_diff = 0;
  int n = 0;
  for (int s = 0; s < 2; ++s) {
    int toe = loaded.rig.legs[s].contact_joint();
    std::vector<Vec3> a(scaled.frame_count), b(scaled.frame_count);
    joint_trajectory(fast_result.cleaned, toe, a);
    joint_trajectory(reference_result.cleaned, toe, b);
    for (int f = 0; f < scaled.frame_count; ++f) {
      double d = 1000 * length(a[f] - b[f]);
      max_diff = std::max(max_diff, d);
      sum_diff += d;
      ++n;
    }
  }
  std::printf("toe positions after the whole clean, fast vs reference: mean %.2f mm, max %.2f mm\n", sum_diff / n, max_diff);
  for (auto [name, r] : {std::pair{"fast", &fast_result}, std::pair{"reference", &reference_result}}) {
    ClipMetrics m = compare_clips(scaled, r->cleaned, loaded.rig, mask);
    std::printf("  %-9s slide %.3f -> %.3f mm/frame (%.1f%%), p95 %.2f cm/s, penetration %.2f mm, deviation mean %.2f cm, "
                "accel x%.2f, iterations %d\n",
                name, m.source_slide.mean_mm_per_frame, m.cleaned_slide.mean_mm_per_frame,
                100 * m.cleaned_slide.mean_mm_per_frame / m.source_slide.mean_mm_per_frame, m.cleaned_slide.p95_cm_per_s,
                m.max_new_penetration_mm, m.mean_deviation_cm, m.leg_accel_ratio, r->solver_iterations);
  }

  full_clean_throughput(clip_path.parent_path(), fast, 3);
  std::printf("peak RSS %.1f MB\n", peak_rss_mb());
  return 0;
}

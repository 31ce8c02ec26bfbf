// Memory of cleaning a very long clip: synthesizes an N-frame walk (default 1,000,000 frames at
// 60 fps, about 4.6 hours) of an 11-joint biped in memory, cleans it with clean_clip (contacts,
// offline solve, leg IK) and prints the peak resident set size (getrusage) against the size of
// the decoded clip (frames x joints x (quaternion + translation)). The clip is handed over to
// clean_clip (cleaned in place, as a caller that no longer needs the source does); with
// --keep-input the caller keeps it and the cleaned clip is a second copy (peak about 1x higher).
// Clips over 100k frames are solved in windows (solve/offline_window.h).
//
// --against-whole: instead, solves the clip's offline problem in windows (solve_offline) and
// whole (solve_offline_fast) and prints how far apart they are (planted toes, pelvis).
//
// --in-place: the walk without root motion (feet sliding back), cleaned on a treadmill.
//
// --cli: the real `footfix clean FILE -o DIR/ --report R` (the built binary, as a child process)
// on a long BVH file, and its peak RSS (wait4) against the decoded clip (same definition). The
// file is the motion of --from FILE (default: the bundled CMU walk, mocap text with 4 decimals)
// repeated to `frames` rows, the root's X/Z position carried on at each repeat.
//
//   build/bench/bench_long_clip [frames] [--keep-input | --against-whole] [--in-place]
//   build/bench/bench_long_clip [frames] --cli [--from FILE.bvh] [--exe FOOTFIX (default: the built one)]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "footfix/core/clip.h"
#include "footfix/core/error.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/solve/clean.h"

namespace {

using namespace footfix;

double peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

// A biped in meters, Y up, facing +Z: legs hang straight down from the pelvis.
Skeleton biped() {
  Skeleton s;
  int hips = s.add_joint("Hips", -1, {0, 0, 0});
  for (double side : {1.0, -1.0}) {
    const std::string name = side > 0 ? "Left" : "Right";
    int up = s.add_joint(name + "UpLeg", hips, {0.09 * side, -0.05, 0});
    int leg = s.add_joint(name + "Leg", up, {0, -0.42, 0});
    int foot = s.add_joint(name + "Foot", leg, {0, -0.41, 0});
    int toe = s.add_joint(name + "ToeBase", foot, {0, -0.06, 0.12});
    s.end_sites[toe] = Vec3{0, 0, 0.05};
  }
  int spine = s.add_joint("Spine", hips, {0, 0.1, 0});
  int head = s.add_joint("Head", spine, {0, 0.5, 0});
  s.end_sites[head] = Vec3{0, 0.2, 0};
  return s;
}

// A walk at 1 step per second: thighs swing +-25 degrees, knees bend on the swing, and the root
// moves 10% faster than the feet would carry it, so planted feet slide.
Clip synthesize_walk(int frames, bool in_place = false) {
  Clip clip;
  clip.skeleton = biped();
  clip.fps = 60;
  clip.source_name = "synthetic_walk";
  clip.resize(frames);
  const double k_pi = 3.14159265358979323846;
  const Vec3 x_axis{1, 0, 0};
  for (int f = 0; f < frames; ++f) {
    const double t = f / clip.fps;
    const double phase = 2 * k_pi * 0.5 * t;  // one stride (two steps) every 2 s
    clip.translation(f, 0) = Vec3{0, 0.92 + 0.02 * std::cos(2 * phase), in_place ? 0.0 : 0.77 * t * 1.1};
    for (int s = 0; s < 2; ++s) {
      const double swing = std::sin(phase + s * k_pi);
      const int up = 1 + 4 * s, leg = 2 + 4 * s;
      clip.rotation(f, up) = axis_angle(x_axis, -0.44 * swing);
      clip.rotation(f, leg) = axis_angle(x_axis, 0.6 * std::max(0.0, std::cos(phase + s * k_pi)));
    }
  }
  return clip;
}

// The windowed solve of the clip's offline problem against the whole-clip solve.
int compare_with_whole(const Clip& clip) {
  const Rig rig = detect_rig(clip);
  const ContactResult contacts = detect_contacts(clip, rig, ContactSettings{});
  const OfflineSolveInput in = prepare_clean_problem(clip, rig, contacts).input;
  const OfflineSolveResult windowed = solve_offline(in, OfflineSolveSettings{});
  const OfflineSolveResult whole = solve_offline_fast(in, OfflineSolveSettings{});
  double toe_m = 0, pelvis_m = 0;
  for (int f = 0; f < in.frame_count; ++f) {
    pelvis_m = std::max(pelvis_m, length(windowed.pelvis_ws[f] - whole.pelvis_ws[f]));
    for (int s = 0; s < 2; ++s)
      if (in.contact[s][f]) toe_m = std::max(toe_m, length(windowed.toe_ws[s][f] - whole.toe_ws[s][f]));
  }
  std::printf("frames %d: windowed against whole-clip solve: planted toes %.3g m, pelvis %.3g m apart at most "
              "(steps %d / %d)\n", in.frame_count, toe_m, pelvis_m, windowed.iterations, whole.iterations);
  return 0;
}

// The motion rows of a BVH file and what comes before them.
struct BvhText {
  std::string hierarchy;          ///< up to and including the MOTION line
  std::string frame_time;         ///< the "Frame Time:" line
  std::vector<std::string> rows;  ///< motion rows, without line ends
  std::vector<int> root_xz;       ///< value index of the root's X and Z position channels
  int joints = 0;
};

BvhText read_bvh_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail(ErrorKind::read, path + ": cannot open");
  BvhText t;
  std::string line;
  bool motion = false, root_done = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!motion) {
      t.hierarchy += line + "\n";
      std::istringstream words(line);
      std::string word;
      words >> word;
      if (word == "ROOT" || word == "JOINT") ++t.joints;
      if (word == "CHANNELS" && !root_done) {  // the root's channels come first in every row
        int count = 0;
        words >> count;
        for (int i = 0; i < count && words >> word; ++i)
          if (word == "Xposition" || word == "Zposition") t.root_xz.push_back(i);
        root_done = true;
      }
      motion = word == "MOTION";
    } else if (line.rfind("Frame Time:", 0) == 0) {
      t.frame_time = line;
    } else if (line.rfind("Frames:", 0) != 0 && line.find_first_not_of(" \t") != std::string::npos) {
      t.rows.push_back(line);
    }
  }
  if (t.rows.size() < 3 || t.root_xz.size() != 2) fail(ErrorKind::read, path + ": need 3 motion rows and root X/Z positions");
  return t;
}

std::vector<double> row_values(const std::string& row) {
  std::istringstream in(row);
  std::vector<double> v;
  for (double x; in >> x;) v.push_back(x);
  return v;
}

// Writes `frames` rows of `t`, repeated, the root's X/Z carried on by one take's travel (plus a
// frame's step) at each repeat.
void write_long_bvh(const BvhText& t, int frames, const std::string& path) {
  std::ofstream out(path);
  out << t.hierarchy << "Frames: " << frames << "\n" << t.frame_time << "\n";
  const size_t n = t.rows.size();
  const std::vector<double> first = row_values(t.rows[0]), last = row_values(t.rows[n - 1]),
                            before_last = row_values(t.rows[n - 2]);
  for (int f = 0; f < frames; ++f) {
    const size_t take = static_cast<size_t>(f) / n;
    const std::string& row = t.rows[static_cast<size_t>(f) % n];
    if (take == 0) {
      out << row << "\n";
      continue;
    }
    std::istringstream tokens(row);
    std::string token;
    for (int i = 0; tokens >> token; ++i) {
      if (i) out << ' ';
      if (i != t.root_xz[0] && i != t.root_xz[1]) {
        out << token;  // as in the file
        continue;
      }
      const size_t c = static_cast<size_t>(i);
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.6f",
                    std::stod(token) + static_cast<double>(take) * (last[c] - first[c] + last[c] - before_last[c]));
      out << buf;
    }
    out << "\n";
  }
  if (!out) fail(ErrorKind::write, path + ": write failed");
}

// Runs `footfix clean` on `input` and returns the child's peak RSS in MiB (-1 when it failed).
double footfix_clean_peak_mb(const std::string& exe, const std::string& input, const std::string& out_dir) {
  std::vector<std::string> args{exe, "clean", input, "-o", out_dir + "/", "--report", out_dir + "/report.json",
                                "--max-input-size", "1000000", "--max-duration", "1000000", "--max-memory", "1000000", "-q"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    execv(exe.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

int run_cli(int frames, const std::string& from, const std::string& exe) {
  const BvhText text = read_bvh_text(from);
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("footfix_bench_long_clip_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string input = (dir / "long.bvh").string();
  write_long_bvh(text, frames, input);
  const double file_mb = static_cast<double>(std::filesystem::file_size(input)) / (1024.0 * 1024.0);
  const auto start = std::chrono::steady_clock::now();
  const double rss_mb = footfix_clean_peak_mb(exe, input, (dir / "out").string());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::filesystem::remove_all(dir);
  if (rss_mb < 0) {
    std::fprintf(stderr, "error: footfix clean failed\n");
    return 1;
  }
  const double clip_mb = static_cast<double>(frames) * text.joints * (sizeof(Quat) + sizeof(Vec3)) / (1024.0 * 1024.0);
  std::printf("%s clean: frames %d, joints %d (motion of %s), file %.1f MiB\n", exe.c_str(), frames, text.joints,
              from.c_str(), file_mb);
  std::printf("decoded clip %.1f MiB; footfix clean peak RSS %.1f MiB = %.2f x the clip (file %.2f x); %.1f s\n", clip_mb,
              rss_mb, rss_mb / clip_mb, file_mb / clip_mb, seconds);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int frames = 1000000;
  bool keep_input = false, against_whole = false, in_place = false, cli = false;
  std::string from = std::string(FOOTFIX_DATA_DIR) + "/clips/cmu_07_01_walk.bvh", exe = FOOTFIX_EXE;
  for (int a = 1; a < argc; ++a) {
    if (std::string(argv[a]) == "--cli")
      cli = true;
    else if (std::string(argv[a]) == "--from" && a + 1 < argc)
      from = argv[++a];
    else if (std::string(argv[a]) == "--exe" && a + 1 < argc)
      exe = argv[++a];
    else if (std::string(argv[a]) == "--keep-input")
      keep_input = true;
    else if (std::string(argv[a]) == "--against-whole")
      against_whole = true;
    else if (std::string(argv[a]) == "--in-place")
      in_place = true;
    else
      frames = std::atoi(argv[a]);
  }
  if (frames < 2) {
    std::fprintf(stderr, "usage: bench_long_clip [frames >= 2] [--keep-input | --against-whole] [--in-place]\n"
                         "       bench_long_clip [frames >= 2] --cli [--from FILE.bvh] [--exe FOOTFIX]\n");
    return 2;
  }
  try {
    if (cli) return run_cli(frames, from, exe);
    if (against_whole) return compare_with_whole(synthesize_walk(frames, in_place));
    const auto start = std::chrono::steady_clock::now();
    Clip clip = synthesize_walk(frames, in_place);
    const double clip_mb = static_cast<double>(clip.rotations.size() * sizeof(Quat) +
                                               clip.translations.size() * sizeof(Vec3)) / (1024.0 * 1024.0);
    const double rss_input_mb = peak_rss_mb();
    const int joints = clip.joint_count();
    Rig rig = detect_rig(clip);
    CleanResult result = keep_input ? clean_clip(clip, rig, CleanSettings{}) : clean_clip(std::move(clip), rig, CleanSettings{});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double rss_mb = peak_rss_mb();
    int contact_frames = 0;
    for (const auto& foot : result.contacts.feet)
      for (auto c : foot.contact) contact_frames += c;
    std::printf("frames %d, joints %d, contact frames %d (both feet), warnings %zu; input %s%s\n", frames, joints,
                contact_frames, result.warnings.size(), keep_input ? "kept by the caller" : "handed over (cleaned in place)",
                result.treadmill ? "; locked on a treadmill" : "");
    for (const auto& w : result.warnings) std::printf("  warning: %s\n", w.c_str());
    std::printf("decoded clip %.1f MiB; peak RSS %.1f MiB after synthesis, %.1f MiB after clean\n", clip_mb,
                rss_input_mb, rss_mb);
    std::printf("peak RSS / decoded clip = %.2f; clean peak above the input = %.2f x the clip; %.1f s\n",
                rss_mb / clip_mb, (rss_mb - rss_input_mb) / clip_mb, seconds);
    // The fast offline solve factors banded systems: 9 unknowns per frame (pelvis and both toes),
    // each a band column of 19 doubles (half-bandwidth 18). Stored whole with the input held, it
    // alone would put the peak at 1 + its ratio; long clips are solved in windows instead.
    const double band_mb = static_cast<double>(frames) * 9 * 19 * sizeof(double) / (1024.0 * 1024.0);
    std::printf("solver band stored whole would be %.1f MiB = %.2f x the clip (peak >= %.2f x with the input held)\n",
                band_mb, band_mb / clip_mb, 1 + band_mb / clip_mb);
    return 0;
  } catch (const Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}

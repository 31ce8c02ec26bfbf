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
// repeated to `frames` rows, the root's X/Z position carried on at each repeat. From an FBX
// (--from FILE.fbx; --format fbx: the shared Mixamo root-motion walk, binary 7700), the long file
// is an FBX made the same way from its curves (write_long_fbx). A joint-frame of a Mixamo rig
// is one of 65 joints: keep frames under 50M / joints (the reader's limit), e.g. 200000.
// --save FILE writes the long file there and stops (to profile footfix on it). --loop MODE is
// passed to footfix clean: a repeated Mixamo cycle is detected as a loop, and the loop path
// wraps the clip in place (--loop off shows the peak without it). On a binary FBX the parse holds
// the file's bytes beside the document, each curve's key times taken out as the curve is parsed
// and kept once (fbx/fbx_key_times.h). assimp then imports the skeleton and each curve's end keys
// only, the channels' keys are computed from the document's curves when sampled, and the frames
// as read are evaluated again for the writer and the metrics instead of being copied
// (fbx/fbx_channels.h, fbx/fbx_frames.h): after reading, the clip and the document with its
// curves' values (about 0.35x) are what is held, and the peak (about 1.6x the clip at 100k
// frames) comes in the clean, with the offline solve's window arrays beside them.
//
//   build/bench/bench_long_clip [frames] [--keep-input | --against-whole] [--in-place]
//   build/bench/bench_long_clip [frames] --cli [--from FILE.bvh|FILE.fbx | --format fbx] [--exe FOOTFIX (default: the built one) | --save FILE] [--loop MODE]
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

#include <nlohmann/json.hpp>

#include "footfix/core/clip.h"
#include "footfix/core/error.h"
#include "footfix/files/atomic_file.h"
#include "footfix/fbx/fbx.h"
#include "fbx/fbx_document.h"
#include "fbx/fbx_objects.h"
#include "footfix/rig/leg_rig.h"
#include "footfix/solve/clean.h"
#include "solve/clean_problem.h"

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

// An FBX's take repeated to `frames` keys per curve (the curves' key grid: the source's longest
// curve), written in the source's flavour: every AnimationCurve's keys again at each repeat, a
// take's span (plus a key's step) later; the d|X and d|Z curves of Lcl Translation (Y up) carried
// on by one take's travel (plus a key's step) at each repeat, as the BVH's root X/Z. The take's
// stop times (AnimationStack, Takes, GlobalSettings) moved to the last key. Returns the joints
// footfix reads from the source.
int write_long_fbx(const std::string& from, int frames, const std::string& path) {
  const int joints = read_fbx(from).joint_count();
  FbxDocument doc = parse_fbx_document(read_file(from), from);
  const std::vector<fbx::Connection> links = fbx::connections(doc);
  std::vector<FbxNode*> curves;
  for (FbxNode& o : doc.root("Objects")->children)
    if (o.name == "AnimationCurve" && o.child("KeyTime") && o.child("KeyValueFloat")) curves.push_back(&o);
  auto times_of = [](FbxNode* c) -> std::vector<std::int64_t>& {
    return std::get<std::vector<std::int64_t>>(c->child("KeyTime")->properties.at(0).value);
  };
  std::int64_t t0 = INT64_MAX, t1 = INT64_MIN, step = 0;
  std::size_t longest = 0;
  for (FbxNode* c : curves) {
    const auto& t = times_of(c);
    if (t.size() < 3) continue;
    t0 = std::min(t0, t.front());
    t1 = std::max(t1, t.back());
    if (t.size() > longest) {
      longest = t.size();
      step = (t.back() - t.front()) / static_cast<std::int64_t>(t.size() - 1);
    }
  }
  if (longest < 3 || step <= 0) fail(ErrorKind::read, from + ": no curve with 3 keys to repeat");
  const std::int64_t period = t1 - t0 + step, stop = t0 + static_cast<std::int64_t>(frames - 1) * step;
  // Which curves carry the root's travel: d|X / d|Z of an Lcl Translation curve node.
  auto carried = [&](const FbxNode& c) {
    const std::int64_t id = fbx::object_id(c);
    for (const auto& to_node : links) {
      if (to_node.child != id || (to_node.property != "d|X" && to_node.property != "d|Z")) continue;
      for (const auto& to_model : links)
        if (to_model.child == to_node.parent && to_model.property == "Lcl Translation") return true;
    }
    return false;
  };
  for (FbxNode* c : curves) {
    auto& times = times_of(c);
    FbxProperty& value_property = c->child("KeyValueFloat")->properties.at(0);
    auto& values = std::get<std::vector<float>>(value_property.value);
    const std::size_t n = times.size();
    if (n < 3 || values.size() != n) continue;
    const double carry = carried(*c) ? double{values[n - 1]} - values[0] + values[n - 1] - values[n - 2] : 0.0;
    for (std::int64_t take = 1; times.back() + period <= stop; ++take)
      for (std::size_t k = 0; k < n && times[k] + take * period <= stop; ++k) {
        times.push_back(times[k] + take * period);
        values.push_back(static_cast<float>(values[k] + static_cast<double>(take) * carry));
      }
    for (FbxProperty* p : {&c->child("KeyTime")->properties[0], &value_property}) p->encoded.reset();
    // One key attribute (the first) for every key.
    if (FbxNode* flags = c->child("KeyAttrFlags"); flags && !flags->properties.empty())
      std::get<std::vector<std::int32_t>>(flags->properties[0].value).resize(1);
    if (FbxNode* data = c->child("KeyAttrDataFloat"); data && !data->properties.empty())
      std::get<std::vector<float>>(data->properties[0].value).resize(4);
    if (FbxNode* refs = c->child("KeyAttrRefCount"); refs && !refs->properties.empty())
      refs->properties[0].value = std::vector<std::int32_t>{static_cast<std::int32_t>(times.size())};
  }
  auto set_stop = [&](FbxNode& obj, const char* name) {
    if (FbxNode* p = fbx::find_p(obj, name); p && p->properties.size() >= 5 && p->properties[4].as_int() != 0)
      p->properties[4].value = stop;
  };
  for (FbxNode& o : doc.root("Objects")->children)
    if (o.name == "AnimationStack") {
      set_stop(o, "LocalStop");
      set_stop(o, "ReferenceStop");
    }
  if (FbxNode* gs = doc.root("GlobalSettings")) set_stop(*gs, "TimeSpanStop");
  if (FbxNode* takes = doc.root("Takes"))
    for (FbxNode& take : takes->children)
      for (FbxNode& span : take.children)
        if ((span.name == "LocalTime" || span.name == "ReferenceTime") && span.properties.size() == 2)
          span.properties[1].value = stop;
  write_file_atomically(path, [&](std::ostream& out) { write_fbx_document(doc, out); });
  return joints;
}

// Runs `footfix clean` on `input` and returns the child's peak RSS in MiB (-1 when it failed).
double footfix_clean_peak_mb(const std::string& exe, const std::string& input, const std::string& out_dir,
                             const std::string& loop) {
  std::vector<std::string> args{exe, "clean", input, "-o", out_dir + "/", "--report", out_dir + "/report.json",
                                "--max-input-size", "1000000", "--max-duration", "1000000", "--max-memory", "1000000", "-q"};
  if (!loop.empty()) args.insert(args.end(), {"--loop", loop});
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

int run_cli(int frames, const std::string& from, const std::string& exe, const std::string& save, const std::string& loop) {
  const bool fbx = std::filesystem::path(from).extension() == ".fbx";
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("footfix_bench_long_clip_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string input = !save.empty() ? save : (dir / (fbx ? "long.fbx" : "long.bvh")).string();
  int joints = 0;
  if (fbx) {
    joints = write_long_fbx(from, frames, input);
  } else {
    const BvhText text = read_bvh_text(from);
    joints = text.joints;
    write_long_bvh(text, frames, input);
  }
  const double file_mb = static_cast<double>(std::filesystem::file_size(input)) / (1024.0 * 1024.0);
  if (!save.empty()) {
    std::filesystem::remove_all(dir);
    std::printf("wrote %s: frames %d, joints %d, %.1f MiB\n", save.c_str(), frames, joints, file_mb);
    return 0;
  }
  const auto start = std::chrono::steady_clock::now();
  const double rss_mb = footfix_clean_peak_mb(exe, input, (dir / "out").string(), loop);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int cleaned_frames = -1;  // as the report says: the file must read back as `frames` frames
  if (rss_mb >= 0) {
    std::ifstream report(dir / "out" / "report.json");
    const nlohmann::json doc = nlohmann::json::parse(report, nullptr, false);
    if (doc.is_object()) cleaned_frames = doc.value(nlohmann::json::json_pointer("/clips/0/frames"), -1);
  }
  std::filesystem::remove_all(dir);
  if (rss_mb < 0 || cleaned_frames != frames) {
    std::fprintf(stderr, "error: footfix clean %s\n", rss_mb < 0 ? "failed" : ("read " + std::to_string(cleaned_frames) + " frames").c_str());
    return 1;
  }
  const double clip_mb = static_cast<double>(frames) * joints * (sizeof(Quat) + sizeof(Vec3)) / (1024.0 * 1024.0);
  std::printf("%s clean%s%s: %s, frames %d, joints %d (motion of %s), file %.1f MiB\n", exe.c_str(),
              loop.empty() ? "" : " --loop ", loop.c_str(), fbx ? "FBX" : "BVH", frames, joints, from.c_str(), file_mb);
  std::printf("decoded clip %.1f MiB; footfix clean peak RSS %.1f MiB = %.2f x the clip (file %.2f x); %.1f s\n", clip_mb,
              rss_mb, rss_mb / clip_mb, file_mb / clip_mb, seconds);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int frames = 1000000;
  bool keep_input = false, against_whole = false, in_place = false, cli = false;
  std::string from = std::string(FOOTFIX_DATA_DIR) + "/clips/cmu_07_01_walk.bvh", exe = FOOTFIX_EXE, save, loop;
  for (int a = 1; a < argc; ++a) {
    if (std::string(argv[a]) == "--cli")
      cli = true;
    else if (std::string(argv[a]) == "--from" && a + 1 < argc)
      from = argv[++a];
    else if (std::string(argv[a]) == "--exe" && a + 1 < argc)
      exe = argv[++a];
    else if (std::string(argv[a]) == "--save" && a + 1 < argc)
      save = argv[++a];
    else if (std::string(argv[a]) == "--loop" && a + 1 < argc)
      loop = argv[++a];
    else if (std::string(argv[a]) == "--format" && a + 1 < argc && std::string(argv[a + 1]) == "fbx" && ++a)
      from = std::string(FOOTFIX_SHARED_DIR) + "/data/clips/mixamo_walking_rootmotion_bin7700.fbx";
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
                         "       bench_long_clip [frames >= 2] --cli [--from FILE.bvh|FILE.fbx | --format fbx]\n"
                         "                 [--exe FOOTFIX | --save FILE (write the long file there, no clean)] [--loop auto|on|off]\n");
    return 2;
  }
  try {
    if (cli) return run_cli(frames, from, exe, save, loop);
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

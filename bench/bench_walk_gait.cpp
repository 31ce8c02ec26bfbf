// How human the procedural walk is (issue 32's targets), measured with our own FK on the clip:
// 1. cadence and step length at 0.8, 1.3 and 1.8 m/s against adult ranges, and the stance,
//    push-off, acceleration and sole-penetration figures at each speed;
// 2. knee, hip and ankle curves over the gait cycle against the shared optical-mocap walks
//    (CMU 07_01, Xia neutral, Bandai normal) at their own speed: RMS of the mean-cycle difference,
//    the knee's squared difference split by window of the cycle, and each walk's stance (contact
//    start to lift) as a share of its cycle;
// 3. sole penetration and annotate's contact F1 per foot on each terrain at 30, 60 and 120 Hz, at
//    0.5, 1.0, 1.3 and 2.0 m/s.
// Both the walk and the mocap walks are cut into cycles by the same contact detector.
// Usage: bench_walk_gait [SECONDS] [CURVES.csv]   (default 10 s per walk). With CURVES.csv, also
// writes the left leg's mean-cycle curves of each shared walk and of the walk at its speed
// (columns: walk, angle, percent of the cycle, degrees) for scripts/plot_gait_curves.py.
#include <algorithm>
#include <array>
#include <iterator>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "bench_main.h"
#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/fk.h"
#include "footfix/pipeline/load_clip.h"
#include "footfix/walk/gait_figures.h"
#include "footfix/walk/walk.h"
#include "footfix/walk/walk_metrics.h"

namespace {

using namespace footfix;

struct Range {
  double lo, hi;
  bool has(double v) const { return v >= lo && v <= hi; }
};

/// Adult level walking at a given speed (cadence, step length): Grieve 1968; Kirtley et al.
/// 1985; Oberg et al. 1993.
struct AdultGait {
  double speed;
  Range cadence, step;
};
constexpr AdultGait k_adult[] = {{0.8, {1.40, 1.75}, {0.48, 0.60}},
                                 {1.3, {1.75, 1.95}, {0.65, 0.75}},
                                 {1.8, {1.95, 2.30}, {0.78, 0.92}}};

const char* verdict(bool ok) { return ok ? "ok" : "FAIL"; }

WalkResult walk_at(double speed, double seconds, const char* terrain = "flat", double fps = 60) {
  WalkSettings s;
  s.gait.speed_mps = speed;
  s.gait.duration_s = seconds;
  s.fps = fps;
  return generate_walk(parse_terrain_spec(terrain), s);
}

GaitFigures figures_of(const Clip& clip, const Rig& rig, ContactResult* contacts_out = nullptr) {
  const ContactResult c = detect_contacts(clip, rig, ContactSettings{});
  if (contacts_out) *contacts_out = c;
  return measure_gait(clip, rig, c);
}

void print_figures(const char* name, const GaitFigures& g) {
  std::printf("%-26s %5.2f %5.2f %5.2f %6.1f %6.1f %5.1f %6.1f %6.1f %6.1f %6.2f %6.0f %6.0f %5.1f\n", name, g.speed_mps,
              g.cadence_steps_per_s, g.step_length_m, g.knee_mid_stance_deg, g.knee_loading_deg, g.hip_max_deg, g.hip_min_deg,
              g.ankle_dorsi_max_deg, g.push_off_plantar_deg, g.heel_rise_lead_s, g.knee_accel_max, g.toe_accel_max,
              g.pelvis_vertical_accel_max);
}

/// The pelvis's vertical range (m) over the middle third of a walk, as PelvisDipsLittleAtHeelStrike
/// measures it (adults: 4-6 cm at these speeds).
double pelvis_range_m(const Clip& clip, const Rig& rig) {
  std::vector<Vec3> pelvis(clip.frame_count);
  joint_trajectory(clip, rig.pelvis, pelvis);
  const auto third = clip.frame_count / 3;
  const auto [low, high] = std::minmax_element(pelvis.begin() + third, pelvis.begin() + 2 * third,
                                               [](const Vec3& a, const Vec3& b) { return a.y < b.y; });
  return high->y - low->y;
}

void print_header() {
  std::printf("%-26s %5s %5s %5s %6s %6s %5s %6s %6s %6s %6s %6s %6s %5s\n", "walk", "m/s", "st/s", "step", "kneeMS", "kneeLR",
              "hip+", "hip-", "dorsi", "push", "heel_s", "kneeA", "toeA", "pelvA");
}

/// Windows of the detected cycle (percent; 0 = the contact joint planted) over which section 2
/// splits the knee's squared difference: loading response and mid-stance, terminal stance,
/// pre-swing, initial swing, mid and terminal swing, the last frames before the plant.
constexpr double k_knee_windows[] = {0, 22, 42, 56, 66, 90, 100};
constexpr int k_knee_window_count = std::size(k_knee_windows) - 1;

/// Share (percent) of the knee's squared mean-cycle difference between two walks in each of
/// k_knee_windows, over the sides on which both have a complete cycle (as mean_cycle_rms).
std::array<double, k_knee_window_count> knee_window_shares(const GaitFigures& a, const ContactResult& ca, const GaitFigures& b,
                                                           const ContactResult& cb) {
  std::array<double, k_knee_window_count> shares{};
  double total = 0;
  for (int side = 0; side < 2; ++side) {
    const std::vector<double> ma = mean_gait_cycle(a.angles[side].knee_deg, ca.feet[side]);
    const std::vector<double> mb = mean_gait_cycle(b.angles[side].knee_deg, cb.feet[side]);
    if (ma.empty() || mb.empty()) continue;
    for (size_t k = 0; k < ma.size(); ++k) {
      const double percent = 100.0 * k / (ma.size() - 1), sq = (ma[k] - mb[k]) * (ma[k] - mb[k]);
      int w = 0;
      while (w + 1 < k_knee_window_count && percent >= k_knee_windows[w + 1]) ++w;
      shares[w] += sq;
      total += sq;
    }
  }
  for (double& s : shares) s = total > 0 ? 100 * s / total : 0;
  return shares;
}

/// Mean stance (contact start to the lift) as a percentage of the cycle between contact starts,
/// over the cycles mean_gait_cycle takes, both feet: where the swing begins in the mean cycle.
double stance_percent(const ContactResult& c) {
  double sum = 0;
  int cycles = 0;
  for (const FootContacts& foot : c.feet)
    for (size_t i = 0; i + 1 < foot.intervals.size(); ++i) {
      const int a = foot.intervals[i].first_frame, b = foot.intervals[i + 1].first_frame;
      if (a == 0 || b <= a) continue;
      sum += 100.0 * (foot.intervals[i].last_frame + 1 - a) / (b - a);
      ++cycles;
    }
  return cycles ? sum / cycles : 0;
}

struct Reference {
  const char* file;
  Clip clip;
  Rig rig;
  ContactResult contacts;
  GaitFigures g;
};

}  // namespace

void write_curves(std::FILE* out, const std::string& name, const GaitFigures& g, const ContactResult& c) {
  const std::pair<const char*, const std::vector<double>*> angles[] = {
      {"hip", &g.angles[0].hip_deg}, {"knee", &g.angles[0].knee_deg}, {"ankle", &g.angles[0].ankle_deg}};
  for (const auto& [angle, curve] : angles) {
    const std::vector<double> mean = mean_gait_cycle(*curve, c.feet[0]);
    for (size_t k = 0; k < mean.size(); ++k)
      std::fprintf(out, "%s,%s,%.1f,%.3f\n", name.c_str(), angle, 100.0 * k / (mean.size() - 1), mean[k]);
  }
}

int run(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 10.0;
  std::FILE* curves = argc > 2 ? std::fopen(argv[2], "w") : nullptr;
  if (argc > 2 && !curves) {
    std::fprintf(stderr, "cannot write %s\n", argv[2]);
    return 2;
  }
  if (curves) std::fprintf(curves, "walk,angle,percent,degrees\n");
  int failures = 0;

  std::printf("== 1. speed-driven gait (flat, %.0f s; st/s steps per second, angles deg, accelerations m/s^2)\n", seconds);
  print_header();
  double walk_knee_accel = 0, walk_toe_accel = 0;
  for (const AdultGait& adult : k_adult) {
    const WalkResult w = walk_at(adult.speed, seconds);
    const GaitFigures g = figures_of(w.clip, w.rig);
    const WalkMeasures m = measure_walk(w.clip, w.rig, w.terrain, w.contacts, WalkSettings{}.limits);
    char name[32];
    std::snprintf(name, sizeof name, "walk %.1f m/s", adult.speed);
    print_figures(name, g);
    const bool cadence = adult.cadence.has(g.cadence_steps_per_s), step = adult.step.has(g.step_length_m);
    // The walk tests' mid-stance knee: the same figure over the walk's ground-truth stances
    // instead of the detector's.
    const double truth_knee = measure_gait(w.clip, w.rig, w.contacts).knee_mid_stance_deg;
    const bool knee = g.knee_mid_stance_deg < 10 && truth_knee < 10;
    const bool push = g.push_off_plantar_deg >= 15, heel = g.heel_rise_lead_s > 0;
    std::printf("  cadence %.2f in [%.2f, %.2f] %s; step %.2f m in [%.2f, %.2f] %s; mid-stance knee < 10 %s "
                "(%.1f over ground-truth stances); push-off >= 15 %s; heel rises first %s; sole penetration %.2f mm; pelvis range "
                "%.1f cm\n",
                g.cadence_steps_per_s, adult.cadence.lo, adult.cadence.hi, verdict(cadence), g.step_length_m, adult.step.lo,
                adult.step.hi, verdict(step), verdict(knee), truth_knee, verdict(push), verdict(heel), m.max_sole_penetration_mm,
                100 * pelvis_range_m(w.clip, w.rig));
    failures += !cadence + !step + !knee + !push + !heel;
    walk_knee_accel = std::max(walk_knee_accel, g.knee_accel_max);
    walk_toe_accel = std::max(walk_toe_accel, g.toe_accel_max);
  }

  std::printf("\n== 2. against the shared optical-mocap walks (RMS of mean-cycle differences, deg; goal <= 8;\n"
              "   ankle without its mean offset: the skeletons' foot rest poses differ)\n");
  Reference refs[] = {{"cmu_07_01_walk.bvh", {}, {}, {}, {}},
                      {"xia_neutral_01_000_walk.bvh", {}, {}, {}, {}},
                      {"bandai1_walk_normal_001.bvh", {}, {}, {}, {}}};
  print_header();
  double ref_knee_accel = 0, ref_toe_accel = 0;
  for (Reference& r : refs) {
    LoadedClip loaded = load_clip(std::string(FOOTFIX_SHARED_DIR) + "/data/clips/" + r.file);
    r.clip = std::move(loaded.clip);
    r.rig = loaded.rig;
    r.g = figures_of(r.clip, r.rig, &r.contacts);
    print_figures(r.file, r.g);
    // CMU 07_01's raw second differences are its capture noise at 120 Hz (thousands of m/s^2):
    // the acceleration bound uses the Xia and Bandai walks.
    if (std::string(r.file).rfind("cmu", 0) == 0) continue;
    ref_knee_accel = std::max(ref_knee_accel, r.g.knee_accel_max);
    ref_toe_accel = std::max(ref_toe_accel, r.g.toe_accel_max);
  }
  for (const Reference& r : refs) {
    const double speed = std::clamp(r.g.speed_mps, 0.5, 2.0);
    const WalkResult w = walk_at(speed, seconds);
    ContactResult c;
    const GaitFigures g = figures_of(w.clip, w.rig, &c);
    const double knee = mean_cycle_rms(g, c, r.g, r.contacts, &LegAngleCurves::knee_deg);
    const double hip = mean_cycle_rms(g, c, r.g, r.contacts, &LegAngleCurves::hip_deg);
    const double ankle = mean_cycle_rms(g, c, r.g, r.contacts, &LegAngleCurves::ankle_deg, true);
    if (curves) {
      write_curves(curves, r.file, r.g, r.contacts);
      write_curves(curves, std::string("footfix walk vs ") + r.file, g, c);
    }
    std::printf("walk %.2f m/s vs %-28s knee %5.1f %s  hip %5.1f %s  ankle %5.1f %s\n", speed, r.file, knee,
                verdict(knee <= 8), hip, verdict(hip <= 8), ankle, verdict(ankle <= 8));
    const auto shares = knee_window_shares(g, c, r.g, r.contacts);
    std::printf("  knee's squared difference by window of the cycle:");
    for (int w = 0; w < k_knee_window_count; ++w)
      std::printf(" %.0f-%.0f%% %.0f%%", k_knee_windows[w], k_knee_windows[w + 1], shares[w]);
    std::printf("; stance %.1f%% of the cycle (walk %.1f%%)\n", stance_percent(r.contacts), stance_percent(c));
    failures += !(knee <= 8) + !(hip <= 8) + !(ankle <= 8);
  }
  const bool knee_accel = walk_knee_accel <= 2 * ref_knee_accel, toe_accel = walk_toe_accel <= 2 * ref_toe_accel;
  std::printf("peak knee acceleration %.0f m/s^2 (Xia, Bandai largest %.0f, goal <= 2x) %s\n", walk_knee_accel,
              ref_knee_accel, verdict(knee_accel));
  std::printf("peak toe acceleration  %.0f m/s^2 (Xia, Bandai largest %.0f, goal <= 2x) %s\n", walk_toe_accel,
              ref_toe_accel, verdict(toe_accel));
  failures += !knee_accel + !toe_accel;

  // Annotate's F1 at each speed of the gait model's range (the CLI's default 1.0 m/s among them):
  // a slow roll onto the foot reads as an early plant where a fast one does not.
  for (double speed : {0.5, 1.0, 1.3, 2.0}) {
    std::printf("\n== 3. terrains (%.1f m/s): sole penetration (goal 0.0 mm) and contact F1 per foot (goal >= 0.97)\n",
                speed);
    std::printf("%-11s %8s %14s %14s %14s\n", "terrain", "sole_mm", "F1 30 Hz L/R", "F1 60 Hz L/R", "F1 120 Hz L/R");
    int speed_failures = 0;
    for (const char* terrain : {"flat", "slope:10", "slope:-10", "slope:20", "slope:-20", "hills", "stairs", "stairs-down"}) {
      std::printf("%-11s", terrain);
      bool first = true;
      for (double fps : {30.0, 60.0, 120.0}) {
        const WalkResult w = walk_at(speed, seconds, terrain, fps);
        if (first) {
          const WalkMeasures m = measure_walk(w.clip, w.rig, w.terrain, w.contacts, WalkSettings{}.limits);
          std::printf(" %8.2f", m.max_sole_penetration_mm);
          speed_failures += m.max_sole_penetration_mm > 0.05;
          first = false;
        }
        const ContactResult d = detect_contacts(w.clip, w.rig, ContactSettings{});
        const double l = contact_f1(w.contacts.feet[0], d.feet[0]), r = contact_f1(w.contacts.feet[1], d.feet[1]);
        std::printf("    %.3f/%.3f", l, r);
        speed_failures += (l < 0.97) + (r < 0.97);
      }
      std::printf("\n");
    }
    std::printf("%d figure(s) outside their goal at %.1f m/s\n", speed_failures, speed);
    failures += speed_failures;
  }
  if (curves) std::fclose(curves);
  std::printf("\n%d figure(s) outside their goal\n", failures);
  return 0;
}

int main(int argc, char** argv) { return footfix::bench::run_main(argc, argv, "[SECONDS] [CURVES.csv]", run); }

// Contact annotation report over a folder of clips (default ../shared/data/clips):
// per clip, the contact fraction and interval count per foot, whether left/right intervals
// alternate, and the frame agreement of the clip made to slide (translation joint's horizontal
// motion scaled by 1.25 and 0.75 about frame 0) with the unscaled clip's contacts. Also writes a
// per-frame CSV of one clip's signals.
//
// usage: report_contacts [DIR] [--csv FILE] [--clip NAME] [--set KEY=VALUE]...
//   --set overrides a contact setting (e.g. --set body_speed_fraction=0 for the plain reference
//   detector, --set upsample_low_fps=false).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "footfix/contacts/contact_eval.h"
#include "contacts/contact_settings_json.h"
#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/error.h"
#include "footfix/eval/sliding.h"
#include "footfix/pipeline/load_clip.h"

namespace fs = std::filesystem;
using namespace footfix;

namespace {

double sliding_agreement(const LoadedClip& loaded, const ContactResult& base, double factor,
                         const ContactSettings& settings) {
  Clip sliding = make_sliding(loaded.clip, loaded.rig, factor);
  return contact_agreement(base, detect_contacts(sliding, loaded.rig, settings));
}

void write_signals_csv(const LoadedClip& loaded, const ContactResult& r, const fs::path& path) {
  std::ofstream out(path);
  out << "frame";
  for (const char* side : {"left", "right"})
    for (const char* col : {"speed_mps", "effective_speed_mps", "height_above_ground_m", "smoothed", "contact"})
      out << ',' << side << '_' << col;
  out << '\n';
  for (int f = 0; f < loaded.clip.frame_count; ++f) {
    out << f;
    for (const auto& foot : r.feet)
      out << ',' << foot.speed_mps[f] << ',' << foot.effective_speed_mps[f] << ',' << foot.height_above_ground_m[f]
          << ',' << foot.smoothed[f] << ',' << static_cast<int>(foot.contact[f]);
    out << '\n';
  }
}

}  // namespace

int main(int argc, char** argv) {
  fs::path dir = fs::path(FOOTFIX_SHARED_DIR) / "data" / "clips";
  fs::path csv = "contacts_signals.csv";
  std::string csv_clip = "cmu_07_01_walk.bvh";
  nlohmann::json overrides = nlohmann::json::object();
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--csv" && i + 1 < argc) csv = argv[++i];
    else if (a == "--clip" && i + 1 < argc) csv_clip = argv[++i];
    else if (a == "--set" && i + 1 < argc) {
      std::string kv = argv[++i];
      size_t eq = kv.find('=');
      overrides[kv.substr(0, eq)] = nlohmann::json::parse(eq == std::string::npos ? "null" : kv.substr(eq + 1));
    } else dir = a;
  }
  ContactSettings settings;
  try {
    settings = contact_settings_from_json(overrides, settings, "--set");
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && is_clip_path(e.path())) files.push_back(e.path());
  std::sort(files.begin(), files.end());

  std::printf("%-44s %5s %5s | %6s %6s | %4s %4s | %4s | %7s %7s\n", "clip", "fps", "frames", "L%", "R%", "L#",
              "R#", "alt!", "x1.25%", "x0.75%");
  for (const auto& file : files) {
    std::string name = file.filename().string();
    try {
      LoadedClip loaded = load_clip(file);
      ContactResult r = detect_contacts(loaded.clip, loaded.rig, settings);
      std::printf("%-44s %5.0f %5d | %6.1f %6.1f | %4zu %4zu | %4d | %7.1f %7.1f\n", name.c_str(), loaded.clip.fps,
                  loaded.clip.frame_count, 100 * contact_fraction(r.foot(Side::left)),
                  100 * contact_fraction(r.foot(Side::right)), r.foot(Side::left).intervals.size(),
                  r.foot(Side::right).intervals.size(), alternation_breaks(r),
                  100 * sliding_agreement(loaded, r, 1.25, settings), 100 * sliding_agreement(loaded, r, 0.75, settings));
      for (const auto& w : r.warnings) std::printf("    warning: %s\n", w.c_str());
      if (name == csv_clip) write_signals_csv(loaded, r, csv);
    } catch (const Error& e) {
      std::printf("%-44s skipped: %s\n", name.c_str(), e.what());
    }
  }
  std::printf("per-frame signals of %s written to %s\n", csv_clip.c_str(), csv.string().c_str());
  return 0;
}

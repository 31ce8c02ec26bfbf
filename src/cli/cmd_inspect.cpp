#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <iostream>

#include "../core/json_text.h"
#include "clip_options.h"
#include "command.h"
#include "footfix/io/fbx.h"

namespace footfix::cli {
namespace {

using nlohmann::json;

json joint_or_null(const Clip& clip, int j) { return j >= 0 ? json(clip.skeleton.names[j]) : json(nullptr); }

json describe(const std::string& path, const LoadedClip& loaded) {
  const Clip& clip = loaded.clip;
  const Rig& rig = loaded.rig;
  json joints = json::array();
  for (int j = 0; j < clip.joint_count(); ++j)
    joints.push_back({{"name", clip.skeleton.names[j]},
                      {"parent", joint_or_null(clip, clip.skeleton.parents[j])},
                      {"end_site", clip.skeleton.end_sites[j].has_value()}});
  json legs = json::object();
  for (int s = 0; s < 2; ++s) {
    const LegChain& leg = rig.legs[s];
    legs[to_string(static_cast<Side>(s))] = {
        {"hip", joint_or_null(clip, leg.hip)},   {"knee", joint_or_null(clip, leg.knee)},
        {"heel", joint_or_null(clip, leg.heel)}, {"toe", joint_or_null(clip, leg.toe)},
        {"toe_end", leg.toe_end >= 0 ? json(clip.skeleton.names[leg.toe_end]) : json("end site")},
        {"contact_joint", clip.skeleton.names[leg.contact_joint()]},
        {"knee_side_axis", {leg.knee_side_ls.x, leg.knee_side_ls.y, leg.knee_side_ls.z}}};
  }
  double leg_length = 0;
  for (const auto& leg : rig.legs)
    leg_length += 0.5 * (length(clip.translation(0, leg.knee)) + length(clip.translation(0, leg.heel)));
  return {{"file", path},
          {"frames", clip.frame_count},
          {"fps", clip.fps},
          {"duration_s", clip.frame_count / clip.fps},
          {"joint_count", clip.joint_count()},
          {"meters_per_unit", clip.source_frame.meters_per_unit},
          {"unit", unit_name(clip.source_frame.meters_per_unit)},
          {"up", to_string(clip.source_frame.up)},
          {"leg_length_m", leg_length},
          {"pelvis", clip.skeleton.names[rig.pelvis]},
          {"translation_joint", clip.skeleton.names[rig.translation_joint]},
          {"legs", legs},
          {"joints", joints},
          {"warnings", loaded.warnings}};
}

void print_text(const json& d) {
  std::printf("%s\n", d["file"].get<std::string>().c_str());
  std::printf("  frames %d at %.6g fps (%.3f s), %d joints\n", d["frames"].get<int>(), d["fps"].get<double>(),
              d["duration_s"].get<double>(), d["joint_count"].get<int>());
  std::printf("  units: %.6g m per unit (%s), up %s, leg length %.3f m\n", d["meters_per_unit"].get<double>(),
              d["unit"].get<std::string>().c_str(), d["up"].get<std::string>().c_str(),
              d["leg_length_m"].get<double>());
  std::printf("  pelvis %s, root motion on %s\n", d["pelvis"].get<std::string>().c_str(),
              d["translation_joint"].get<std::string>().c_str());
  for (const char* side : {"left", "right"}) {
    const json& l = d["legs"][side];
    auto name = [&](const char* k) { return l[k].is_null() ? std::string("(none)") : l[k].get<std::string>(); };
    std::printf("  %-5s leg: hip %s > knee %s > heel %s > toe %s > tip %s\n", side, name("hip").c_str(),
                name("knee").c_str(), name("heel").c_str(), name("toe").c_str(), name("toe_end").c_str());
  }
  std::printf("  joints:");
  for (const auto& j : d["joints"]) std::printf(" %s", j["name"].get<std::string>().c_str());
  std::printf("\n");
  if (d.contains("takes")) {
    std::printf("  takes:");
    for (const auto& t : d["takes"]) std::printf(" '%s'", t.get<std::string>().c_str());
    std::printf("\n");
  }
  for (const auto& w : d["warnings"]) std::printf("  warning: %s\n", w.get<std::string>().c_str());
}

}  // namespace

CLI::App* add_inspect_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("inspect", "Print a clip's joints, timing, units, up axis and legs");
  struct Options {
    std::vector<std::string> clips;
    bool json_output = false;
    ClipOptions clip;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("clips", opts->clips, "BVH or FBX files")->required();
  cmd->add_flag("--json", opts->json_output, "Print JSON (one array of clip descriptions)");
  opts->clip.add_to(*cmd);
  action = [opts] {
    ReadOptions read = opts->clip.resolve();
    json all = json::array();
    for (const auto& path : opts->clips) {
      LoadedClip loaded = load_clip(path, read);
      json d = describe(path, loaded);
      if (std::filesystem::path(path).extension() == ".fbx" || std::filesystem::path(path).extension() == ".FBX")
        d["takes"] = list_fbx_takes(path, read.limits);
      if (opts->json_output)
        all.push_back(d);
      else
        print_text(d);
    }
    if (opts->json_output) std::cout << json_text(all, 2) << "\n";
    return k_exit_ok;
  };
  return cmd;
}

}  // namespace footfix::cli

// footfix inspect CLIP|DIR... [--json]: what footfix sees in each clip. Follows the batch rules:
// directories are expanded, a bad file is named and skipped, the exit code is the most severe
// failure's; --json prints one valid JSON array where a failed clip is an entry with "error".
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <iostream>
#include <vector>

#include "../core/json_text.h"
#include "batch.h"
#include "clip_options.h"
#include "command.h"
#include "console.h"
#include "footfix/core/frame_rate.h"
#include "footfix/files/atomic_file.h"
#include "footfix/fbx/fbx.h"
#include "footfix/gltf/gltf.h"

namespace footfix::cli {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

json joint_or_null(const Clip& clip, int j) { return j >= 0 ? json(clip.skeleton.names[j]) : json(nullptr); }

bool is_fbx_path(const fs::path& path) {
  std::string ext = path.extension().string();
  return ext == ".fbx" || ext == ".FBX" || ext == ".Fbx";
}

/// The joints of the file: End Site joints (core/end_site_joints.h) show as their parents' End Sites.
int file_joint_count(const Clip& clip) { return clip.joint_count() - clip.skeleton.end_site_joints; }

json joint_tree(const Clip& clip) {
  const Skeleton& sk = clip.skeleton;
  const int joint_count = file_joint_count(clip);
  std::vector<bool> end_site(static_cast<size_t>(joint_count));
  for (int j = 0; j < joint_count; ++j) end_site[static_cast<size_t>(j)] = sk.end_sites[j].has_value();
  for (int j = joint_count; j < sk.joint_count(); ++j) end_site[static_cast<size_t>(sk.parents[j])] = true;
  json joints = json::array();
  for (int j = 0; j < joint_count; ++j)
    joints.push_back({{"name", sk.names[j]},
                      {"parent", joint_or_null(clip, sk.parents[j])},
                      {"end_site", static_cast<bool>(end_site[static_cast<size_t>(j)])}});
  return joints;
}

/// Where the foot tip is: the toe_end joint, "end site" (the contact joint's), or null when the
/// contact point is an End Site itself.
json toe_end_of(const Clip& clip, const LegChain& leg) {
  if (leg.toe_end >= 0) return clip.skeleton.names[leg.toe_end];
  return clip.skeleton.is_end_site_joint(leg.contact_joint()) ? json(nullptr) : json("end site");
}

json timing(const Clip& clip) {
  return {{"frames", clip.frame_count},
          {"fps", nominal_frame_rate(clip.fps)},
          {"frame_rate", describe_frame_rate(clip.fps)},
          {"duration_s", clip.frame_count / nominal_frame_rate(clip.fps)}};
}

json describe(const std::string& path, const LoadedClip& loaded) {
  const Clip& clip = loaded.clip;
  const Rig& rig = loaded.rig;
  json legs = json::object();
  for (int s = 0; s < 2; ++s) {
    const LegChain& leg = rig.legs[s];
    legs[to_string(static_cast<Side>(s))] = {
        {"hip", joint_or_null(clip, leg.hip)},   {"knee", joint_or_null(clip, leg.knee)},
        {"heel", joint_or_null(clip, leg.heel)}, {"toe", joint_or_null(clip, leg.toe)},
        {"toe_end", toe_end_of(clip, leg)},
        {"contact_joint", clip.skeleton.names[leg.contact_joint()]},
        {"knee_side_axis", {leg.knee_side_ls.x, leg.knee_side_ls.y, leg.knee_side_ls.z}}};
  }
  double leg_length = 0;
  for (const auto& leg : rig.legs)
    leg_length += 0.5 * (length(clip.translation(0, leg.knee)) + length(clip.translation(0, leg.heel)));
  json d = {{"file", path}};
  d.update(timing(clip));
  d.update({{"joint_count", file_joint_count(clip)},
            {"meters_per_unit", clip.source_frame.meters_per_unit},
            {"unit", unit_name(clip.source_frame.meters_per_unit)},
            {"up", to_string(clip.source_frame.up)},
            {"leg_length_m", leg_length},
            {"pelvis", clip.skeleton.names[rig.pelvis]},
            {"translation_joint", clip.skeleton.names[rig.translation_joint]},
            {"legs", legs},
            {"joints", joint_tree(clip)},
            {"warnings", loaded.warnings}});
  return d;
}

/// A failed clip: the error, and the joint tree when the file itself could be read (a clip with
/// no legs: `read` is the clip as read), so that a --rig profile can be written from it. The
/// file is not read again.
json describe_failure(const fs::path& path, const Error& e, const Clip* read) {
  json d = {{"file", path.string()}, {"error", e.what()}, {"exit_code", exit_code_for(e.kind())}};
  if (e.kind() != ErrorKind::process || !read) return d;
  d.update(timing(*read));
  d["joint_count"] = file_joint_count(*read);
  d["joints"] = joint_tree(*read);
  return d;
}

std::string text(const json& j) { return escape_for_console(j.get<std::string>()); }

void print_joint_tree(const json& joints) {
  std::printf("  joints:\n");
  std::vector<int> depth;
  std::vector<std::string> names;
  for (const auto& j : joints) {
    int d = 0;
    if (!j["parent"].is_null()) {
      std::string parent = j["parent"].get<std::string>();
      for (size_t k = names.size(); k-- > 0;)
        if (names[k] == parent) {
          d = depth[k] + 1;
          break;
        }
    }
    names.push_back(j["name"].get<std::string>());
    depth.push_back(d);
    std::printf("    %*s%s\n", 2 * d, "", text(j["name"]).c_str());
  }
}

void print_text(const json& d) {
  if (d.contains("error")) {
    // The error itself is on stderr; a clip that was read (no legs) still shows its joints.
    if (!d.contains("joints")) return;
    std::printf("%s\n", text(d["file"]).c_str());
    std::printf("  frames %d at %s, %d joints (no legs found: name them in a --rig profile)\n", d["frames"].get<int>(),
                text(d["frame_rate"]).c_str(), d["joint_count"].get<int>());
    print_joint_tree(d["joints"]);
    return;
  }
  std::printf("%s\n", text(d["file"]).c_str());
  std::printf("  frames %d at %s, %.3f s, %d joints\n", d["frames"].get<int>(), text(d["frame_rate"]).c_str(),
              d["duration_s"].get<double>(), d["joint_count"].get<int>());
  std::printf("  units: %.6g m per unit (%s), up %s, leg length %.3f m\n", d["meters_per_unit"].get<double>(),
              text(d["unit"]).c_str(), text(d["up"]).c_str(), d["leg_length_m"].get<double>());
  std::printf("  pelvis %s, root motion on %s\n", text(d["pelvis"]).c_str(), text(d["translation_joint"]).c_str());
  for (const char* side : {"left", "right"}) {
    const json& l = d["legs"][side];
    auto name = [&](const char* k) { return l[k].is_null() ? std::string("(none)") : text(l[k]); };
    std::printf("  %-5s leg: hip %s > knee %s > heel %s > toe %s > tip %s\n", side, name("hip").c_str(),
                name("knee").c_str(), name("heel").c_str(), name("toe").c_str(), name("toe_end").c_str());
  }
  std::printf("  joints:");
  for (const auto& j : d["joints"]) std::printf(" %s", text(j["name"]).c_str());
  std::printf("\n");
  if (d.contains("animations")) {
    std::printf("  animations:");
    for (const auto& t : d["animations"]) std::printf(" '%s'", text(t).c_str());
    std::printf("\n");
  }
  if (d.contains("takes")) {
    std::printf("  takes:");
    for (const auto& t : d["takes"]) std::printf(" '%s'", text(t).c_str());
    std::printf("\n");
  }
  for (const auto& w : d["warnings"]) std::printf("  warning: %s\n", text(w).c_str());
}

}  // namespace

CLI::App* add_inspect_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("inspect", "Print a clip's joints, timing, units, up axis and legs");
  struct Options {
    std::vector<std::string> clips;
    bool json_output = false;
    bool follow_symlinks = false;
    ClipOptions clip;
  };
  auto opts = std::make_shared<Options>();
  cmd->add_option("clips", opts->clips, "BVH or FBX files, or directories (searched recursively)")->required();
  cmd->add_flag("--json", opts->json_output, "Print JSON: one array with an entry per clip (\"error\" for a failed one)");
  cmd->add_flag("--follow-symlinks", opts->follow_symlinks,
                "In directories, also read file symlinks whose target is outside the directory");
  opts->clip.add_to(*cmd);
  cmd->footer(
      "Examples:\n"
      "  footfix inspect walk.bvh\n"
      "  footfix inspect clips/ --json > clips.json");
  action = [opts] {
    ReadOptions read = opts->clip.resolve();
    read.limits.keep_bvh_text = false;  // no clip is written
    json all = json::array();
    int code = k_exit_ok;
    for (const auto& path : expand_inputs(opts->clips, opts->follow_symlinks, log_plan_note)) {
      json d;
      LoadedClip loaded;
      bool was_read = false;  // loaded.clip holds the clip as read: a failure after it reads no more
      try {
        std::error_code ec;
        if (fs::is_directory(path, ec)) fail(ErrorKind::read, path.string() + ": no clips found (.bvh, .fbx, .gltf, .glb)");
        loaded.clip = read_clip_file(path, read.take, loaded.warnings, read.limits);
        was_read = true;
        prepare_loaded_clip(loaded, path, read);
        d = describe(path.string(), loaded);
        if (is_fbx_path(path)) d["takes"] = fbx_take_names(loaded.clip);
        if (is_gltf_path(path)) d["animations"] = gltf_animation_names(loaded.clip);
      } catch (const Error& e) {
        d = describe_failure(path, e, was_read ? &loaded.clip : nullptr);
        code = most_severe_exit_code(code, exit_code_for(e.kind()));
        spdlog::error("{}", e.what());
      }
      if (opts->json_output)
        all.push_back(d);
      else
        print_text(d);
    }
    if (opts->json_output) std::cout << json_for_console(json_text(all, 2)) << "\n";
    return code;
  };
  return cmd;
}

}  // namespace footfix::cli

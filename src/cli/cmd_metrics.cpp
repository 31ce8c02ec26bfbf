// footfix metrics SOURCE CLEANED [--contacts C] [--json]: quality of a cleanup against its source.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

#include "../core/json_text.h"
#include "clip_options.h"
#include "command.h"
#include "console.h"
#include "footfix/contacts/detect_contacts.h"
#include "footfix/eval/metrics.h"
#include "contacts/contacts_json.h"
#include "control_escape.h"
#include "batch/clip_report_json.h"

namespace footfix::cli {
namespace {

struct MetricsOptions {
  std::string source, cleaned, contacts_path;
  bool json_output = false;
  ClipOptions clip;
};

ContactMask contacts_for(const MetricsOptions& o, const LoadedClip& source) {
  if (o.contacts_path.empty()) {
    ContactResult detected = detect_contacts(source.clip, source.rig, ContactSettings{});
    return {detected.feet[0].contact, detected.feet[1].contact};
  }
  ContactsDocument doc = read_contacts_json(o.contacts_path);
  if (doc.frame_count != source.clip.frame_count)
    fail(ErrorKind::usage, o.contacts_path + ": has " + std::to_string(doc.frame_count) + " frames, " + o.source +
                               " has " + std::to_string(source.clip.frame_count));
  return {doc.result.feet[0].contact, doc.result.feet[1].contact};
}

void print_text(const MetricsOptions& o, const ClipMetrics& m) {
  std::printf("%s -> %s\n", escape_for_console(o.source).c_str(), escape_for_console(o.cleaned).c_str());
  std::printf("  contact slide (horizontal, %d frame pairs)\n", m.source_slide.samples);
  std::printf("    source : mean %.3f mm/frame (%.2f cm/s), p95 %.3f mm/frame (%.2f cm/s)\n", m.source_slide.mean_mm_per_frame,
              m.source_slide.mean_cm_per_s, m.source_slide.p95_mm_per_frame, m.source_slide.p95_cm_per_s);
  std::printf("    cleaned: mean %.3f mm/frame (%.2f cm/s), p95 %.3f mm/frame (%.2f cm/s)\n", m.cleaned_slide.mean_mm_per_frame,
              m.cleaned_slide.mean_cm_per_s, m.cleaned_slide.p95_mm_per_frame, m.cleaned_slide.p95_cm_per_s);
  std::printf("  deepest new foot penetration: %.2f mm\n", m.max_new_penetration_mm);
  std::printf("  joint deviation: mean %.3f cm, max %.3f cm\n", m.mean_deviation_cm, m.max_deviation_cm);
  std::printf("  largest leg acceleration: %.1f m/s^2 vs source %.1f m/s^2 (x%.2f)\n", m.cleaned_max_leg_accel,
              m.source_max_leg_accel, m.leg_accel_ratio);
  std::printf("  per-frame pop: x%.2f at frame %d (leg acceleration vs the source's within 0.1 s); pelvis lowered by up to %.2f cm\n",
              m.pop_ratio, m.pop_frame, m.max_pelvis_drop_cm);
  if (m.non_leg_unchanged()) {
    std::printf("  non-leg joints: unchanged\n");
  } else {
    std::printf("  non-leg joints CHANGED:");
    for (const auto& n : m.changed_non_leg_joints) std::printf(" %s", escape_for_console(n).c_str());
    std::printf("\n");
  }
}

}  // namespace

CLI::App* add_metrics_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("metrics", "Measure a cleanup against its source: contact slide, penetration, deviation, pops");
  auto o = std::make_shared<MetricsOptions>();
  cmd->add_option("source", o->source, "The source clip")->required();
  cmd->add_option("cleaned", o->cleaned, "The cleaned clip (same skeleton and frames)")->required();
  cmd->add_option("--contacts", o->contacts_path, "Contacts JSON to measure slide under (default: detected on SOURCE)");
  cmd->add_flag("--json", o->json_output, "Print JSON");
  o->clip.add_to(*cmd);
  cmd->footer(
      "Examples:\n"
      "  footfix metrics walk.bvh walk.clean.bvh      slide, penetration, deviation and pops, before and after\n"
      "  footfix metrics walk.bvh out/walk.bvh --contacts out/walk.contacts.json --json");
  action = [o] {
    ReadOptions read = o->clip.resolve();
    read.limits.keep_bvh_text = false;  // no clip is written
    LoadedClip source = load_clip(o->source, read);
    ReadOptions cleaned_read = read;
    cleaned_read.meters_per_unit = source.clip.source_frame.meters_per_unit;  // same units as the source
    cleaned_read.up = source.clip.source_frame.up;
    LoadedClip cleaned = load_clip(o->cleaned, cleaned_read);
    const auto shape = [](const std::string& path, const Clip& clip) {
      return path + " has " + counted(static_cast<size_t>(clip.frame_count), "frame") + " and " +
             counted(static_cast<size_t>(clip.joint_count()), "joint");
    };
    if (source.clip.frame_count != cleaned.clip.frame_count || source.clip.joint_count() != cleaned.clip.joint_count())
      fail(ErrorKind::process, "metrics: the clips differ: " + shape(o->source, source.clip) + ", " +
                                   shape(o->cleaned, cleaned.clip) + " (a clip and its own cleanup have the same)");
    ClipMetrics m = compare_clips(source.clip, cleaned.clip, source.rig, contacts_for(*o, source));
    if (o->json_output)
      std::cout << json_for_console(json_text(metrics_to_json(m), 2)) << "\n";
    else
      print_text(*o, m);
    return k_exit_ok;
  };
  return cmd;
}

}  // namespace footfix::cli

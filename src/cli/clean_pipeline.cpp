#include "clean_pipeline.h"

#include "console.h"

#include <spdlog/spdlog.h>

#include <cstdlib>

#include "footfix/batch/incremental.h"
#include "footfix/batch/shard.h"
#include "footfix/core/error.h"
#include "footfix/files/atomic_file.h"
#include "footfix/io/clip_io.h"
#include "html_report.h"
#include "junit.h"

namespace footfix::cli {

void CleanPipeline::select_shard(std::vector<BatchItem>& items, const std::vector<std::string>& inputs) const {
  if (shard_text_.empty()) return;
  const ShardSpec spec = parse_shard(shard_text_, [](const char* name) { return std::getenv(name); });
  std::vector<BatchItem> mine = shard_items(items, inputs, spec);
  spdlog::info("shard {}/{}: {} of {}", spec.index, spec.count, mine.size(), counted(items.size(), "clip"));
  items = std::move(mine);
}

std::optional<IncrementalSettings> CleanPipeline::incremental(const std::vector<std::string>& inputs,
                                                              const std::string& output_dir, const ClipOptions& clip,
                                                              const std::string& format) const {
  if (!incremental_) return std::nullopt;
  if (output_dir.empty() || is_clip_path(output_dir))
    fail(ErrorKind::usage, "--incremental needs -o OUTPUT_DIR (the manifest is kept there)");
  const std::string rig = clip.rig_profile_path.empty() ? "" : file_content_hash(clip.rig_profile_path);
  return IncrementalSettings{output_dir, inputs,
                             "|unit=" + clip.unit_scale + "|up=" + clip.up + "|take=" + clip.take + "|rig=" + rig +
                                 "|format=" + format};
}

void CleanPipeline::write_pages(const ReportDocument& report, double max_slide_cm_s) const {
  write_report_pages(report, html_path_, junit_path_, max_slide_cm_s);
}

void CleanPipeline::write_interrupted_pages(const ReportDocument& report, double max_slide_cm_s) const {
  if (!wants_pages()) return;
  write_report_pages(report, html_path_, junit_path_, max_slide_cm_s);
  for (const std::string* path : {&html_path_, &junit_path_})
    if (!path->empty()) spdlog::info("{}: written, marked incomplete", *path);
}

void write_report_pages(const ReportDocument& report, const std::string& html_path, const std::string& junit_path,
                        double max_slide_cm_s) {
  if (!html_path.empty())
    write_file_atomically(html_path, [&](std::ostream& out) { out << html_report(report); });
  if (!junit_path.empty())
    write_file_atomically(junit_path, [&](std::ostream& out) { out << junit_xml(report, max_slide_cm_s); });
}

}  // namespace footfix::cli

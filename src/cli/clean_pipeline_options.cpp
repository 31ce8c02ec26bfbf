// The options of CleanPipeline: --shard, --incremental, --html, --junit.
#include <CLI/CLI.hpp>

#include <string>

#include "clean_pipeline.h"
#include "footfix/batch/incremental.h"

namespace footfix::cli {

void CleanPipeline::add_to(CLI::App& cmd) {
  cmd.add_option("--shard", shard_text_,
                 "Clean only shard K of N (K/N, 1-based) of the inputs, or 'auto' (GitLab CI_NODE_INDEX/CI_NODE_TOTAL); "
                 "stable: adding a clip moves no other clip");
  cmd.add_flag("--incremental", incremental_,
               "Skip clips whose input bytes, settings and footfix version are unchanged since the last run into the "
               "same -o directory (manifest " + std::string(k_manifest_name) + " there)");
  cmd.add_option("--html", html_path_, "Write a self-contained HTML report (overview table; per clip a motion player and plots)");
  cmd.add_option("--junit", junit_path_, "Write JUnit XML: one test case per clip, failing over --max-slide or on error");
}

}  // namespace footfix::cli

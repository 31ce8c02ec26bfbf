#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <memory>

#include "clean_pipeline.h"
#include "command.h"
#include "footfix/files/atomic_file.h"
#include "console.h"
#include "number_options.h"
#include "footfix/batch/report_merge.h"
#include "report_view.h"

namespace footfix::cli {
namespace {

struct ReportOptions {
  std::vector<std::string> reports;
  std::string output, html, junit;
  double max_slide_cm_s = 5.0;
};

void add_report_options(CLI::App& cmd, ReportOptions& o) {
  cmd.add_option("reports", o.reports, "Report files written by clean --report (e.g. one per shard)");
  cmd.add_option("-o,--output", o.output, "Write the merged report JSON here");
  cmd.add_option("--html", o.html, "Write the HTML report of the (merged) reports");
  cmd.add_option("--junit", o.junit, "Write JUnit XML: one test case per clip, failing over --max-slide or on error");
  cmd.add_option("--max-slide", o.max_slide_cm_s, "Threshold of --junit in cm/s (default 5)")->check(positive_number("cm/s"));
}

int run_report(const ReportOptions& o, const char* name) {
  if (o.reports.empty()) fail(ErrorKind::usage, std::string(name) + ": no report given");
  if (o.output.empty() && o.html.empty() && o.junit.empty())
    fail(ErrorKind::usage, std::string(name) + ": nothing to write (give -o MERGED.json, --html OUT.html or --junit OUT.xml)");
  std::vector<NamedReport> reports;
  for (const auto& path : o.reports) {
    for (const auto& other : {o.output, o.html, o.junit})
      if (!other.empty() && std::filesystem::path(other) == std::filesystem::path(path))
        fail(ErrorKind::usage, path + ": refusing to overwrite an input report");
    reports.push_back(read_report(path));
    const ReportDocument& read = reports.back().document;
    const std::string note = incomplete_note(report_view(read), read.clips.size());
    if (!note.empty()) spdlog::warn("{}: {}", path, note);
  }
  std::vector<std::string> warnings;
  const ReportDocument merged = merge_reports(reports, warnings);
  for (const auto& w : warnings) spdlog::warn("{}", w);
  if (!o.output.empty())
    write_file_atomically(o.output, [&](std::ostream& out) { out << report_text(merged); });
  if (!o.html.empty() || !o.junit.empty()) write_report_pages(merged, o.html, o.junit, o.max_slide_cm_s);
  spdlog::info("{}, {}", counted(reports.size(), "report"), counted(merged.clips.size(), "clip"));
  return k_exit_ok;
}

}  // namespace

CLI::App* add_report_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("report", "Draw the HTML report (or JUnit XML) from saved clean --report files");
  auto o = std::make_shared<ReportOptions>();
  auto m = std::make_shared<ReportOptions>();
  auto* merge = cmd->add_subcommand("merge", "Merge shard reports into one report (JSON, and with --html the page)");
  add_report_options(*merge, *m);
  add_report_options(*cmd, *o);
  cmd->require_subcommand(0, 1);
  cmd->footer(
      "Examples:\n"
      "  footfix report r.json --html r.html          draw the page again from a saved report\n"
      "  footfix report r.json --junit r.xml --max-slide 3\n"
      "  footfix report merge shard-*.json -o all.json --html all.html");
  merge->footer(
      "Examples:\n"
      "  footfix report merge shard-*.json -o all.json                one report of the whole batch\n"
      "  footfix report merge shard-*.json -o all.json --html all.html --junit all.xml");
  action = [o, m, merge] { return merge->parsed() ? run_report(*m, "report merge") : run_report(*o, "report"); };
  return cmd;
}

}  // namespace footfix::cli

// `--junit FILE.xml`: the clips of a clean report as JUnit test cases, so CI systems list clips
// as tests. A clip fails when its residual contact slide (95th percentile, cm/s) is over the
// threshold, errors when it could not be cleaned, and is skipped when --incremental skipped it
// (unless its recorded slide is over the threshold). The report of a run that did not finish
// (summary.complete false) adds a test case "batch complete" in error, saying how far it got.
#pragma once

#include <string>

#include "footfix/batch/clip_report.h"

namespace footfix::cli {

/// JUnit XML of a report.
std::string junit_xml(const ReportDocument& report, double max_slide_cm_s);

}  // namespace footfix::cli

// `--junit FILE.xml`: the clips of a clean report as JUnit test cases, so CI systems list clips
// as tests. A clip fails when its residual contact slide (95th percentile, cm/s) is over the
// threshold, errors when it could not be cleaned, and is skipped when --incremental skipped it
// (unless its recorded slide is over the threshold). The report of a run that did not finish
// (summary.complete false) adds a test case "batch complete" in error, saying how far it got.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace footfix::cli {

/// JUnit XML of a report document ({"clips": [...]}); fields are read by name.
std::string junit_xml(const nlohmann::json& report, double max_slide_cm_s);

}  // namespace footfix::cli

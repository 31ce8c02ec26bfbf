// ClipMetrics as JSON, shared by `metrics --json` and the `clean --report` file.
#pragma once

#include <nlohmann/json.hpp>

#include "footfix/eval/metrics.h"

namespace footfix::cli {

nlohmann::json metrics_to_json(const ClipMetrics& m);

}  // namespace footfix::cli

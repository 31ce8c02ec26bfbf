#include "report_fields.h"

namespace footfix::cli {
using nlohmann::json;

const json* field_at(const json& j, std::initializer_list<const char*> path) {
  const json* at = &j;
  for (const char* key : path) {
    if (!at->is_object()) return nullptr;
    auto it = at->find(key);
    if (it == at->end()) return nullptr;
    at = &*it;
  }
  return at;
}

double number_at(const json& j, std::initializer_list<const char*> path, double fallback) {
  const json* v = field_at(j, path);
  return v != nullptr && v->is_number() ? v->get<double>() : fallback;
}

std::string text_at(const json& j, std::initializer_list<const char*> path) {
  const json* v = field_at(j, path);
  return v != nullptr && v->is_string() ? v->get<std::string>() : std::string();
}

const json& clips_of(const json& report) {
  static const json empty = json::array();
  const json* clips = field_at(report, {"clips"});
  return clips != nullptr && clips->is_array() ? *clips : empty;
}

double residual_slide(const json& entry, double fallback) {
  return number_at(entry, {"metrics", "slide_cleaned", "p95_cm_per_s"}, fallback);
}

}  // namespace footfix::cli

#include "batch/report_fields.h"

namespace footfix {
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

}  // namespace footfix

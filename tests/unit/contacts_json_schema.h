// A small JSON Schema validator for the subset footfix's schemas use: type (a name or a list of
// names), required,
// properties, additionalProperties (false), items, enum, minimum, maximum, exclusiveMinimum,
// minItems, maxItems. Annotations ($schema, $id, title, description) are ignored; any other
// keyword is reported as unsupported, so a schema cannot silently rely on more than this checks.
#pragma once

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

namespace footfix::test {

class SchemaValidator {
 public:
  /// Errors of `doc` against `schema`, each "path: message"; empty when valid.
  static std::vector<std::string> validate(const nlohmann::json& schema, const nlohmann::json& doc) {
    std::vector<std::string> errors;
    check(schema, doc, "$", errors);
    return errors;
  }

 private:
  using json = nlohmann::json;

  static bool has_type(const json& v, const std::string& type) {
    if (type == "object") return v.is_object();
    if (type == "array") return v.is_array();
    if (type == "string") return v.is_string();
    if (type == "boolean") return v.is_boolean();
    if (type == "integer") return v.is_number_integer() || (v.is_number_float() && v.get<double>() == static_cast<double>(static_cast<long long>(v.get<double>())));
    if (type == "number") return v.is_number();
    if (type == "null") return v.is_null();
    return false;
  }

  static void check(const json& schema, const json& v, const std::string& path, std::vector<std::string>& errors) {
    static const std::set<std::string> k_known{"$schema", "$id", "title", "description", "type", "required",
                                               "properties", "additionalProperties", "items", "enum", "minimum",
                                               "maximum", "exclusiveMinimum", "minItems", "maxItems"};
    for (const auto& [key, value] : schema.items())
      if (!k_known.count(key)) errors.push_back(path + ": schema keyword '" + key + "' is not supported");
    if (schema.contains("type")) {
      const json& type = schema["type"];
      bool found = false;
      for (const json& name : type.is_array() ? type : json::array({type})) found |= has_type(v, name.get<std::string>());
      if (!found) {
        errors.push_back(path + ": expected " + (type.is_array() ? type.dump() : type.get<std::string>()) + ", found " + v.type_name());
        return;
      }
    }
    if (schema.contains("enum")) {
      bool found = false;
      for (const auto& option : schema["enum"]) found |= option == v;
      if (!found) errors.push_back(path + ": " + v.dump() + " is not one of " + schema["enum"].dump());
    }
    if (v.is_number()) {
      double x = v.get<double>();
      if (schema.contains("minimum") && x < schema["minimum"].get<double>())
        errors.push_back(path + ": " + v.dump() + " < minimum " + schema["minimum"].dump());
      if (schema.contains("maximum") && x > schema["maximum"].get<double>())
        errors.push_back(path + ": " + v.dump() + " > maximum " + schema["maximum"].dump());
      if (schema.contains("exclusiveMinimum") && x <= schema["exclusiveMinimum"].get<double>())
        errors.push_back(path + ": " + v.dump() + " <= exclusiveMinimum " + schema["exclusiveMinimum"].dump());
    }
    if (v.is_object()) check_object(schema, v, path, errors);
    if (v.is_array()) {
      if (schema.contains("minItems") && v.size() < schema["minItems"].get<size_t>())
        errors.push_back(path + ": fewer than " + schema["minItems"].dump() + " items");
      if (schema.contains("maxItems") && v.size() > schema["maxItems"].get<size_t>())
        errors.push_back(path + ": more than " + schema["maxItems"].dump() + " items");
      if (schema.contains("items"))
        for (size_t i = 0; i < v.size(); ++i) check(schema["items"], v[i], path + "[" + std::to_string(i) + "]", errors);
    }
  }

  static void check_object(const json& schema, const json& v, const std::string& path, std::vector<std::string>& errors) {
    if (schema.contains("required"))
      for (const auto& key : schema["required"])
        if (!v.contains(key.get<std::string>())) errors.push_back(path + ": missing required '" + key.get<std::string>() + "'");
    const json properties = schema.value("properties", json::object());
    for (const auto& [key, value] : v.items()) {
      if (properties.contains(key))
        check(properties[key], value, path + "." + key, errors);
      else if (schema.contains("additionalProperties") && schema["additionalProperties"] == false)
        errors.push_back(path + ": unexpected property '" + key + "'");
    }
  }
};

}  // namespace footfix::test

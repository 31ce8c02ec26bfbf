// glTF files in CLI tests: reading them back (JSON, .glb chunks) and the Khronos glTF-Validator
// (skipped, with the reason, where it is not installed).
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/run_cli.h"

namespace footfix::test {

inline std::string read_output(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// stdout of a shell command (paths in it are test-made temp paths, quoted).
inline std::string shell_stdout(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return out;
  std::array<char, 4096> buffer;
  size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  pclose(pipe);
  return out;
}

/// The node_modules folder holding gltf-validator: $FOOTFIX_GLTF_VALIDATOR, else
/// <build>/npm-gltf/node_modules (`npm install --prefix build/npm-gltf gltf-validator`).
inline std::string validator_modules() {
  if (const char* env = std::getenv("FOOTFIX_GLTF_VALIDATOR")) return env;
  return (std::filesystem::path(FOOTFIX_EXE).parent_path() / "npm-gltf" / "node_modules").string();
}

inline bool have_validator() {
  return std::filesystem::exists(std::filesystem::path(validator_modules()) / "gltf-validator") && !shell_stdout("command -v node").empty();
}

/// The validator's report on `file` (scripts/gltf_validate.js): {"errors": N, "warnings": N, "infos": N, "messages": [...], "info_codes": [...]}.
inline nlohmann::json validate_gltf(const std::filesystem::path& file) {
  const std::string script = std::string(FOOTFIX_TESTS_DIR) + "/../scripts/gltf_validate.js";
  const std::string out = shell_stdout("timeout 120 node " + quoted(std::filesystem::path(script)) + " " + quoted(std::filesystem::path(validator_modules())) + " " + quoted(file));
  return nlohmann::json::parse(out.empty() ? "{}" : out);
}

#define REQUIRE_VALIDATOR()                                                                                     \
  if (!have_validator())                                                                                        \
  GTEST_SKIP() << "gltf-validator not installed (npm install --prefix build/npm-gltf gltf-validator, or set " \
                  "FOOTFIX_GLTF_VALIDATOR to its node_modules folder): validator check skipped"

/// The glTF JSON of a .glb or .gltf file.
inline nlohmann::json gltf_json(const std::filesystem::path& file) {
  const std::string bytes = read_output(file);
  if (bytes.rfind("glTF", 0) != 0) return nlohmann::json::parse(bytes);
  const std::uint32_t length = static_cast<unsigned char>(bytes[12]) | static_cast<unsigned char>(bytes[13]) << 8 |
                               static_cast<unsigned char>(bytes[14]) << 16;
  return nlohmann::json::parse(bytes.substr(20, length));
}

}  // namespace footfix::test

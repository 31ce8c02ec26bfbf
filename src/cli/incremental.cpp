#include "incremental.h"

#include <array>
#include <fstream>

#include "footfix/core/error.h"
#include "footfix/io/atomic_file.h"
#include "report_fields.h"
#include "stable_hash.h"

namespace footfix::cli {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* k_format = "footfix-manifest";
constexpr int k_format_version = 1;

}  // namespace

std::string file_content_hash(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorKind::read, path.string() + ": cannot open for hashing");
  StableHasher hasher;
  std::array<char, 1 << 16> buffer{};
  std::uint64_t size = 0;
  while (in) {
    in.read(buffer.data(), buffer.size());
    auto n = static_cast<std::size_t>(in.gcount());
    hasher.add({buffer.data(), n});
    size += n;
  }
  if (in.bad()) fail(ErrorKind::read, path.string() + ": read error while hashing");
  return "fnv1a64x:" + hex64(hasher.value()) + ":" + std::to_string(size);
}

std::string text_hash(const std::string& text) { return "fnv1a64x:" + hex64(stable_hash(text)); }

Manifest Manifest::load(const fs::path& output_dir) {
  Manifest m;
  m.path_ = output_dir / k_manifest_name;
  std::error_code ec;
  if (!fs::exists(m.path_, ec)) return m;
  try {
    std::ifstream in(m.path_, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open it");
    json doc = json::parse(in);
    if (!doc.is_object() || text_at(doc, {"format"}) != k_format) throw std::runtime_error("not a footfix manifest");
    const json* version = field_at(doc, {"version"});
    if (version == nullptr || !version->is_number_integer() || version->get<long long>() != k_format_version)
      throw std::runtime_error("unsupported version " + (version != nullptr ? version->dump() : std::string("(none)")));
    for (const auto& [key, value] : doc.at("entries").items()) {
      Entry e{value.at("input_hash").get<std::string>(), value.at("settings_hash").get<std::string>(),
              value.at("footfix_version").get<std::string>(), value.at("report")};
      if (!e.report.is_object()) throw std::runtime_error(key + ": report is not an object");
      m.entries_[key] = std::move(e);
    }
  } catch (const std::exception& e) {
    m.entries_.clear();
    m.warning_ = m.path_.string() + " is corrupt (" + e.what() + "): ignoring it, every clip is redone and the manifest rebuilt";
  }
  return m;
}

const Manifest::Entry* Manifest::unchanged(const std::string& key, const Entry& current) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) return nullptr;
  const Entry& e = it->second;
  bool same = e.input_hash == current.input_hash && e.settings_hash == current.settings_hash && e.version == current.version;
  return same ? &e : nullptr;
}

void Manifest::save() const {
  json entries = json::object();
  for (const auto& [key, e] : entries_)
    entries[key] = {{"input_hash", e.input_hash}, {"settings_hash", e.settings_hash}, {"footfix_version", e.version},
                    {"report", e.report}};
  json doc = {{"format", k_format}, {"version", k_format_version}, {"entries", entries}};
  write_file_atomically(path_, [&](std::ostream& out) { out << doc.dump(1) << "\n"; });
}

}  // namespace footfix::cli

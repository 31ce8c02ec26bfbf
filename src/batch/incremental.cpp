#include "footfix/batch/incremental.h"

#include "footfix/core/error.h"
#include "footfix/files/atomic_file.h"
#include "batch/clip_report_json.h"
#include "batch/report_fields.h"
#include "batch/stable_hash.h"
#include "batch/untrusted_json.h"

namespace footfix {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* k_format = "footfix-manifest";
constexpr int k_format_version = 1;

}  // namespace

std::string file_content_hash(const fs::path& path, std::uint64_t max_bytes) {
  InputFile in(path, max_bytes);
  StableHasher hasher;
  std::string buffer;
  std::uint64_t size = 0;
  for (;;) {
    buffer.clear();
    const std::size_t n = in.append_to(buffer, std::size_t{1} << 16);
    if (n == 0) break;
    hasher.add(buffer);
    size += n;
  }
  return "fnv1a64x:" + hex64(hasher.value()) + ":" + std::to_string(size);
}

std::string text_hash(const std::string& text) { return "fnv1a64x:" + hex64(stable_hash(text)); }

Manifest Manifest::load(const fs::path& output_dir) {
  Manifest m;
  m.path_ = output_dir / k_manifest_name;
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(m.path_, ec);
  if (ec || !fs::exists(status)) return m;
  try {
    if (fs::is_symlink(status)) throw std::runtime_error("a symbolic link");
    const std::string text = read_file(m.path_, k_max_manifest_bytes);
    json doc = parse_untrusted_json(text, m.path_.string(), ErrorKind::read);
    if (!doc.is_object() || text_at(doc, {"format"}) != k_format) throw std::runtime_error("not a footfix manifest");
    const json* version = field_at(doc, {"version"});
    if (version == nullptr || !version->is_number_integer() || version->get<long long>() != k_format_version)
      throw std::runtime_error("unsupported version");
    for (const auto& [key, value] : doc.at("entries").items()) {
      const json& report = value.at("report");
      if (!report.is_object()) throw std::runtime_error("an entry's report is not an object");
      Entry e{value.at("input_hash").get<std::string>(), value.at("settings_hash").get<std::string>(),
              value.at("footfix_version").get<std::string>(), clip_report_from_json(report)};
      m.entries_[key] = std::move(e);
    }
  } catch (const Error& e) {
    m.entries_.clear();
    m.warning_ = std::string(e.what()) + ": ignoring the manifest (corrupt or unreadable), every clip is redone and the manifest rebuilt";
  } catch (const std::runtime_error& e) {
    m.entries_.clear();
    m.warning_ = m.path_.string() + " is corrupt (" + e.what() + "): ignoring it, every clip is redone and the manifest rebuilt";
  } catch (const std::exception&) {
    m.entries_.clear();
    m.warning_ = m.path_.string() + " is corrupt (an entry of the wrong shape): ignoring it, every clip is redone and the manifest rebuilt";
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
                    {"report", clip_report_to_json(e.report)}};
  json doc = {{"format", k_format}, {"version", k_format_version}, {"entries", entries}};
  write_file_atomically(path_, [&](std::ostream& out) { out << doc.dump(1) << "\n"; });
}

}  // namespace footfix

// `clean --incremental`: a manifest in the output directory remembers, per output, a content hash
// of the input bytes, a hash of everything else that decides the output (settings, read options,
// output format) and the footfix version. A clip whose three are unchanged and whose outputs are
// still there is skipped; anything else is redone. A manifest that cannot be read is rebuilt
// (with a warning), never trusted.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "footfix/core/read_file.h"
#include "footfix/batch/clip_report.h"

namespace footfix {

/// File name of the manifest inside the output directory.
inline constexpr const char* k_manifest_name = ".footfix-manifest.json";
/// The largest manifest read: about 2 KB an entry, so room for 30,000 clips.
inline constexpr std::uint64_t k_max_manifest_bytes = 64ull << 20;

/// "fnv1a64x:<16 hex digits>:<size>" of a file's bytes, read through read_file's checks (a
/// regular file of at most `max_bytes`). Throws Error(read) otherwise.
std::string file_content_hash(const std::filesystem::path& path, std::uint64_t max_bytes = k_default_max_input_bytes);

/// "fnv1a64x:<16 hex digits>" of a string.
std::string text_hash(const std::string& text);

class Manifest {
 public:
  struct Entry {
    std::string input_hash, settings_hash, version;
    ClipReport report;  ///< the clip's report entry of the run that produced the outputs
  };

  /// Reads `output_dir`/k_manifest_name. Absent: empty. A symbolic link, not a regular file,
  /// larger than k_max_manifest_bytes, nested too deep or malformed: empty, and `warning()` says
  /// why without quoting the file (the caller logs it).
  static Manifest load(const std::filesystem::path& output_dir);

  /// The recorded entry of `key` when it matches; nullptr when the clip must be redone.
  const Entry* unchanged(const std::string& key, const Entry& current) const;

  /// An empty manifest that save() writes into `output_dir`.
  void set_path(const std::filesystem::path& output_dir) { path_ = output_dir / k_manifest_name; }

  void set(const std::string& key, Entry entry) { entries_[key] = std::move(entry); }
  void erase(const std::string& key) { entries_.erase(key); }

  /// Writes the manifest atomically. Throws Error(write).
  void save() const;

  const std::string& warning() const { return warning_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::map<std::string, Entry> entries_;
  std::string warning_;
};

}  // namespace footfix

// The contacts file `<clip>.contacts.json`: which frames each foot is planted, as written by
// `footfix annotate` and read back by the commands that take contacts from a file. The format
// is documented as JSON Schema in schemas/contacts.schema.json:
//   format "footfix-contacts", version 2, generator {name, version}, settings (every
//   ContactSettings field), clip {source, frames, fps (a common rate when the file's frame time
//   is rounded: 120, not 120.0005), frame_time_s (as the file states it), meters_per_unit,
//   up_axis}, coordinates {position, position_m: units and axes of each}, ground_height_m,
//   optional ground_velocity_mps [x, y, z] (m/s, internal frame: present when clean locked an
//   in-place clip on a treadmill), warnings, cleaned_clip (written by clean: the cleaned clip's file name), and feet[2] {side,
//   joint, smoothed[frames] (0..1, 4 decimals), contact[frames] (0/1), intervals [{first_frame,
//   last_frame (inclusive), start_time_s, end_time_s (times of those frames, seconds), position
//   (the clip's own units and axes), position_m (meters, internal frame: Y up), height_m}]}.
// Numbers are written in their shortest exact form (0.3293, not 0.32930000000000004); invalid
// UTF-8 in names is written as U+FFFD. Version 1 files (no times, coordinates, cleaned_clip)
// are still read.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "contacts/contact_settings_json.h"
#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"

namespace footfix {

constexpr const char* k_contacts_format = "footfix-contacts";
constexpr int k_contacts_version = 2;         ///< the version written
constexpr int k_contacts_oldest_version = 1;  ///< the oldest version read

/// What `clean` adds to the contacts it writes beside a cleaned clip.
struct CleanedClipInfo {
  std::string cleaned_clip;           ///< the cleaned clip's file name (beside the contacts file)
  std::vector<std::string> warnings;  ///< every warning of the clean (reading, rig, solve)
};

/// A contacts file's content.
struct ContactsDocument {
  std::string generator_version;  ///< footfix version that wrote it
  ContactSettings settings;       ///< settings the contacts were detected with
  std::string source;             ///< clip file name (no directory)
  int frame_count = 0;
  double fps = 0;
  double frame_time_s = 0;        ///< as the file states it (version 1: 1 / fps)
  SourceFrame source_frame;       ///< the clip's units and up axis
  std::array<std::string, 2> joint_names;  ///< contact joint per Side
  /// Contacts; FootContacts::joint is -1 (look joint_names up in the clip) and the diagnostic
  /// per-frame signals (speeds, heights) are empty.
  ContactResult result;
  std::string cleaned_clip;  ///< empty unless written by clean
};

/// The contacts of `clip` (internal frame) as a JSON document, keys in the documented order.
/// `cleaned`, when given, adds the cleaned clip's name and replaces the warnings with its own.
nlohmann::ordered_json contacts_to_json(const Clip& clip, const ContactResult& result, const ContactSettings& settings,
                                        const CleanedClipInfo* cleaned = nullptr);

/// Writes contacts_to_json to `out`: indented, with per-frame arrays on one line each.
void write_contacts_json(const Clip& clip, const ContactResult& result, const ContactSettings& settings,
                         std::ostream& out, const CleanedClipInfo* cleaned = nullptr);

/// The clip object of per-clip JSON outputs: {source (file name), frames, fps, meters_per_unit,
/// up_axis}.
nlohmann::ordered_json clip_facts_json(const Clip& clip);

/// Writes `j` indented, with arrays of numbers and strings on one line each, and a final newline
/// (the layout of the contacts file, shared with other per-frame JSON outputs).
void write_json_pretty(const nlohmann::ordered_json& j, std::ostream& out);

/// Parses a contacts document. Throws Error(read) with a located message for malformed input
/// ("walk.contacts.json:3:14: syntax error ..." or "walk.contacts.json: feet[1].intervals[0]:
/// last_frame 400 is outside the clip's 317 frames").
ContactsDocument parse_contacts_json(std::string_view text, const std::string& source_name);

/// Reads and parses a contacts file. Throws Error(read).
ContactsDocument read_contacts_json(const std::filesystem::path& path);

}  // namespace footfix

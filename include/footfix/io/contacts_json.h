// The contacts file `<clip>.contacts.json`: which frames each foot is planted, as written by
// `footfix annotate` and read back by the commands that take contacts from a file. The format
// is documented as JSON Schema in schemas/contacts.schema.json:
//   format "footfix-contacts", version 1, generator {name, version}, settings (every
//   ContactSettings field), clip {source, frames, fps, meters_per_unit, up_axis},
//   ground_height_m, warnings, and feet[2] {side, joint, smoothed[frames] (0..1, 4 decimals),
//   contact[frames] (0/1), intervals [{first_frame, last_frame (inclusive), position (the
//   clip's own units and axes), position_m (meters, internal frame: Y up), height_m}]}.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>

#include "footfix/contacts/contact_settings_json.h"
#include "footfix/contacts/detect_contacts.h"
#include "footfix/core/clip.h"

namespace footfix {

constexpr const char* k_contacts_format = "footfix-contacts";
constexpr int k_contacts_version = 1;

/// A contacts file's content.
struct ContactsDocument {
  std::string generator_version;  ///< footfix version that wrote it
  ContactSettings settings;       ///< settings the contacts were detected with
  std::string source;             ///< clip file name (no directory)
  int frame_count = 0;
  double fps = 0;
  SourceFrame source_frame;       ///< the clip's units and up axis
  std::array<std::string, 2> joint_names;  ///< contact joint per Side
  /// Contacts; FootContacts::joint is -1 (look joint_names up in the clip) and the diagnostic
  /// per-frame signals (speeds, heights) are empty.
  ContactResult result;
};

/// The contacts of `clip` (internal frame) as a JSON document, keys in the documented order.
nlohmann::ordered_json contacts_to_json(const Clip& clip, const ContactResult& result, const ContactSettings& settings);

/// Writes contacts_to_json to `out`: indented, with per-frame arrays on one line each.
void write_contacts_json(const Clip& clip, const ContactResult& result, const ContactSettings& settings,
                         std::ostream& out);

/// Parses a contacts document. Throws Error(read) with a located message for malformed input
/// ("walk.contacts.json:3:14: syntax error ..." or "walk.contacts.json: feet[1].intervals[0]:
/// last_frame 400 is outside the clip's 317 frames").
ContactsDocument parse_contacts_json(std::string_view text, const std::string& source_name);

/// Reads and parses a contacts file. Throws Error(read).
ContactsDocument read_contacts_json(const std::filesystem::path& path);

}  // namespace footfix

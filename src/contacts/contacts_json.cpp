#include "contacts/contacts_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "../core/json_text.h"
#include "footfix/core/error.h"
#include "footfix/core/frame_rate.h"
#include "footfix/core/read_file.h"

namespace footfix {
namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

ordered_json vec_json(Vec3 v) { return ordered_json::array({v.x, v.y, v.z}); }

/// A scalar as JSON: reals in their shortest exact form (0.3293, not 0.32930000000000004),
/// invalid UTF-8 in strings replaced by U+FFFD.
void write_scalar(const ordered_json& j, std::ostream& out) {
  if (j.is_number_float()) {
    double v = j.get<double>();
    if (!std::isfinite(v)) {
      out << "null";
      return;
    }
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    std::string text(buf, ec == std::errc() ? end : buf);
    // Keep it a real number when read back (1.0 stays a real, not the integer 1).
    if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
    out << text;
    return;
  }
  out << j.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

/// Indented JSON whose arrays of numbers and strings stay on one line.
void write_pretty(const ordered_json& j, std::ostream& out, int indent) {
  const std::string pad(static_cast<size_t>(indent) + 2, ' ');
  if (!j.is_structured()) {
    write_scalar(j, out);
    return;
  }
  bool flat = j.empty() ||
              (j.is_array() && std::none_of(j.begin(), j.end(), [](const ordered_json& e) { return e.is_structured(); }));
  if (flat && j.is_array()) {
    out << '[';
    for (size_t i = 0; i < j.size(); ++i) {
      if (i) out << ',';
      write_scalar(j[i], out);
    }
    out << ']';
    return;
  }
  if (flat) {
    out << "{}";
    return;
  }
  out << (j.is_object() ? "{\n" : "[\n");
  size_t i = 0;
  for (auto it = j.begin(); it != j.end(); ++it, ++i) {
    out << pad;
    if (j.is_object()) {
      write_scalar(ordered_json(it.key()), out);
      out << ": ";
    }
    write_pretty(*it, out, indent + 2);
    out << (i + 1 < j.size() ? ",\n" : "\n");
  }
  out << std::string(static_cast<size_t>(indent), ' ') << (j.is_object() ? '}' : ']');
}

/// `v` rounded to a multiple of `step` (a power of ten), as the double nearest that decimal.
double round_to(double v, double step) {
  const double inverse = std::round(1.0 / step);
  return std::round(v * inverse) / inverse;
}

/// 1 / fps to 10 significant digits: the frame time as a file states it ("Frame Time: 0.0083333").
double stated_frame_time(double fps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", 1.0 / fps);
  return std::strtod(buf, nullptr);
}

/// nlohmann's message without its "; last read: '...'" part, which quotes the file's bytes.
std::string without_content(const std::string& message) {
  const std::size_t at = message.find("; last read:");
  return message.substr(0, at);
}

/// Walks a parsed document, naming the file and the JSON path in every error.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void error(const std::string& path, const std::string& message) const {
    fail(ErrorKind::read, file_ + ": " + (path.empty() ? "" : path + ": ") + message);
  }
  const json& member(const json& obj, const std::string& path, const char* key) const {
    if (!obj.is_object()) error(path, "expected an object");
    auto it = obj.find(key);
    if (it == obj.end()) error(path, std::string("missing '") + key + "'");
    return *it;
  }
  double number(const json& obj, const std::string& path, const char* key) const {
    const json& v = member(obj, path, key);
    if (!v.is_number() || !std::isfinite(v.get<double>())) error(join(path, key), "expected a finite number");
    return v.get<double>();
  }
  int integer(const json& obj, const std::string& path, const char* key, int min, int max) const {
    const json& v = member(obj, path, key);
    if (!v.is_number_integer()) error(join(path, key), "expected an integer");
    long long i = v.get<long long>();
    if (i < min || i > max)
      error(join(path, key), std::to_string(i) + " is outside [" + std::to_string(min) + ", " + std::to_string(max) + "]");
    return static_cast<int>(i);
  }
  std::string string(const json& obj, const std::string& path, const char* key) const {
    const json& v = member(obj, path, key);
    if (!v.is_string()) error(join(path, key), "expected a string");
    return v.get<std::string>();
  }
  const json& array(const json& obj, const std::string& path, const char* key, size_t size_or_any) const {
    const json& v = member(obj, path, key);
    if (!v.is_array()) error(join(path, key), "expected an array");
    if (size_or_any != k_any && v.size() != size_or_any)
      error(join(path, key), "expected " + std::to_string(size_or_any) + " entries, found " + std::to_string(v.size()));
    return v;
  }
  Vec3 vec(const json& obj, const std::string& path, const char* key) const {
    const json& a = array(obj, path, key, 3);
    Vec3 out;
    for (int i = 0; i < 3; ++i) {
      if (!a[i].is_number()) error(join(path, key), "expected 3 numbers");
      at(out, i) = a[i].get<double>();
    }
    return out;
  }
  static std::string join(const std::string& path, const char* key) { return path.empty() ? key : path + "." + key; }
  static constexpr size_t k_any = static_cast<size_t>(-1);

 private:
  std::string file_;
};

void read_clip_info(const Reader& r, const json& root, ContactsDocument& doc) {
  const json& clip = r.member(root, "", "clip");
  doc.source = r.string(clip, "clip", "source");
  doc.frame_count = r.integer(clip, "clip", "frames", 0, 100000000);
  doc.fps = r.number(clip, "clip", "fps");
  if (!(doc.fps > 0)) r.error("clip.fps", "must be > 0");
  doc.source_frame.meters_per_unit = r.number(clip, "clip", "meters_per_unit");
  if (!(doc.source_frame.meters_per_unit > 0)) r.error("clip.meters_per_unit", "must be > 0");
  if (!parse_axis(r.string(clip, "clip", "up_axis"), doc.source_frame.up))
    r.error("clip.up_axis", "expected one of +x, -x, +y, -y, +z, -z");
}

void read_intervals(const Reader& r, const json& foot, const std::string& path, int frames, FootContacts& out) {
  const json& list = r.array(foot, path, "intervals", Reader::k_any);
  int previous_last = -1;
  for (size_t i = 0; i < list.size(); ++i) {
    std::string ip = path + ".intervals[" + std::to_string(i) + "]";
    ContactInterval in;
    in.first_frame = r.integer(list[i], ip, "first_frame", 0, frames - 1);
    in.last_frame = r.integer(list[i], ip, "last_frame", in.first_frame, frames - 1);
    if (in.first_frame <= previous_last) r.error(ip, "intervals must be sorted and disjoint");
    previous_last = in.last_frame;
    r.vec(list[i], ip, "position");
    in.planted_position_m = r.vec(list[i], ip, "position_m");
    in.height_m = r.number(list[i], ip, "height_m");
    for (int f = in.first_frame; f <= in.last_frame; ++f)
      if (!out.contact[f]) r.error(ip, "frame " + std::to_string(f) + " is not marked in 'contact'");
    out.intervals.push_back(in);
  }
}

void read_foot(const Reader& r, const json& foot, const std::string& path, ContactsDocument& doc,
               std::array<bool, 2>& seen) {
  std::string side = r.string(foot, path, "side");
  if (side != "left" && side != "right") r.error(path + ".side", "expected \"left\" or \"right\"");
  int s = side == "left" ? 0 : 1;
  if (seen[s]) r.error(path + ".side", "'" + side + "' appears twice");
  seen[s] = true;
  FootContacts& out = doc.result.feet[s];
  out.side = static_cast<Side>(s);
  out.joint = -1;
  doc.joint_names[s] = r.string(foot, path, "joint");
  const size_t frames = static_cast<size_t>(doc.frame_count);
  const json& smoothed = r.array(foot, path, "smoothed", frames);
  const json& contact = r.array(foot, path, "contact", frames);
  for (size_t f = 0; f < frames; ++f) {
    if (!smoothed[f].is_number() || smoothed[f].get<double>() < 0 || smoothed[f].get<double>() > 1)
      r.error(path + ".smoothed[" + std::to_string(f) + "]", "expected a number in [0, 1]");
    if (!contact[f].is_number_integer() || (contact[f].get<int>() != 0 && contact[f].get<int>() != 1))
      r.error(path + ".contact[" + std::to_string(f) + "]", "expected 0 or 1");
    out.smoothed.push_back(smoothed[f].get<double>());
    out.contact.push_back(static_cast<std::uint8_t>(contact[f].get<int>()));
  }
  read_intervals(r, foot, path, doc.frame_count, out);
  if (out.intervals.size() != contact_runs(out.contact).size())
    r.error(path + ".intervals", "do not match the runs of 'contact'");
}

}  // namespace

ordered_json clip_facts_json(const Clip& clip) {
  return {{"source", std::filesystem::path(clip.source_name).filename().string()},
          {"frames", clip.frame_count},
          {"fps", nominal_frame_rate(clip.fps)},
          {"frame_time_s", stated_frame_time(clip.fps)},
          {"meters_per_unit", clip.source_frame.meters_per_unit},
          {"up_axis", to_string(clip.source_frame.up)}};
}

ordered_json contacts_to_json(const Clip& clip, const ContactResult& result, const ContactSettings& settings,
                              const CleanedClipInfo* cleaned) {
  ordered_json doc;
  doc["format"] = k_contacts_format;
  doc["version"] = k_contacts_version;
  doc["generator"] = {{"name", "footfix"}, {"version", FOOTFIX_VERSION}};
  doc["settings"] = contact_settings_to_json(settings);
  const double frame_time = stated_frame_time(clip.fps);
  doc["clip"] = clip_facts_json(clip);
  doc["coordinates"] = {
      {"position", {{"units", "clip"},
                    {"meters_per_unit", clip.source_frame.meters_per_unit},
                    {"up_axis", to_string(clip.source_frame.up)},
                    {"description", "the clip file's own units and axes"}}},
      {"position_m", {{"units", "m"},
                      {"up_axis", "+y"},
                      {"handedness", "right"},
                      {"description", "meters, Y up, right-handed (footfix's internal frame)"}}}};
  doc["ground_height_m"] = result.ground_height_m;
  if (result.ground_velocity_mps) doc["ground_velocity_mps"] = vec_json(*result.ground_velocity_mps);
  if (!result.ground_distance_m.empty()) doc["ground_distance_m"] = result.ground_distance_m;
  if (result.ground_offset_m) doc["ground_offset_m"] = *result.ground_offset_m;
  doc["warnings"] = cleaned ? cleaned->warnings : result.warnings;
  if (!result.notes.empty()) doc["notes"] = result.notes;
  if (cleaned) doc["cleaned_clip"] = cleaned->cleaned_clip;
  ordered_json feet = ordered_json::array();
  for (const FootContacts& foot : result.feet) {
    ordered_json f;
    f["side"] = to_string(foot.side);
    f["joint"] = foot.joint >= 0 && foot.joint < clip.joint_count() ? clip.skeleton.names[foot.joint] : "";
    ordered_json smoothed = ordered_json::array(), contact = ordered_json::array(), intervals = ordered_json::array();
    for (double v : foot.smoothed) smoothed.push_back(round_to(v, 1e-4));
    for (std::uint8_t c : foot.contact) contact.push_back(static_cast<int>(c));
    for (const ContactInterval& in : foot.intervals)
      intervals.push_back({{"first_frame", in.first_frame},
                           {"last_frame", in.last_frame},
                           {"start_time_s", round_to(in.first_frame * frame_time, 1e-6)},
                           {"end_time_s", round_to(in.last_frame * frame_time, 1e-6)},
                           {"position", vec_json(point_to_source(clip.values_to_file(), in.planted_position_m))},
                           {"position_m", vec_json(in.planted_position_m)},
                           {"height_m", in.height_m}});
    f["smoothed"] = std::move(smoothed);
    f["contact"] = std::move(contact);
    f["intervals"] = std::move(intervals);
    feet.push_back(std::move(f));
  }
  doc["feet"] = std::move(feet);
  return doc;
}

void write_json_pretty(const ordered_json& j, std::ostream& out) {
  write_pretty(j, out, 0);
  out << '\n';
}

void write_contacts_json(const Clip& clip, const ContactResult& result, const ContactSettings& settings,
                         std::ostream& out, const CleanedClipInfo* cleaned) {
  write_json_pretty(contacts_to_json(clip, result, settings, cleaned), out);
}

ContactsDocument parse_contacts_json(std::string_view text, const std::string& source_name) {
  refuse_deep_json(text, source_name, ErrorKind::read);
  json root;
  try {
    root = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    size_t line = 1, column = 1;  // of byte e.byte (1-based)
    for (size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    fail(ErrorKind::read, source_name + ":" + std::to_string(line) + ":" + std::to_string(column) +
                              ": JSON syntax error (" + without_content(e.what()) + ")");
  } catch (const json::exception& e) {  // a number beyond double range (out_of_range.406)
    fail(ErrorKind::read, source_name + ": not valid JSON (" + e.what() + ")");
  }
  Reader r(source_name);
  ContactsDocument doc;
  if (r.string(root, "", "format") != k_contacts_format)
    r.error("format", std::string("expected \"") + k_contacts_format + "\"");
  int version = r.integer(root, "", "version", 0, 1000000);
  if (version < k_contacts_oldest_version || version > k_contacts_version)
    r.error("version", "unsupported version " + std::to_string(version) + " (this footfix reads " +
                           std::to_string(k_contacts_oldest_version) + " to " + std::to_string(k_contacts_version) +
                           ")");
  doc.generator_version = r.string(r.member(root, "", "generator"), "generator", "version");
  try {
    doc.settings = contact_settings_from_json(r.member(root, "", "settings"), {}, "settings");
  } catch (const Error& e) {
    r.error("", e.what());
  }
  read_clip_info(r, root, doc);
  const json& clip = r.member(root, "", "clip");
  doc.frame_time_s = version >= 2 ? r.number(clip, "clip", "frame_time_s") : 1.0 / doc.fps;
  if (!(doc.frame_time_s > 0)) r.error("clip.frame_time_s", "must be > 0");
  if (version >= 2 && root.contains("cleaned_clip")) doc.cleaned_clip = r.string(root, "", "cleaned_clip");
  doc.result.ground_height_m = r.number(root, "", "ground_height_m");
  if (root.contains("ground_velocity_mps")) doc.result.ground_velocity_mps = r.vec(root, "", "ground_velocity_mps");
  if (root.contains("ground_offset_m")) doc.result.ground_offset_m = r.number(root, "", "ground_offset_m");
  for (const json& w : root.value("warnings", json::array()))
    if (w.is_string()) doc.result.warnings.push_back(w.get<std::string>());
  for (const json& n : root.value("notes", json::array()))
    if (n.is_string()) doc.result.notes.push_back(n.get<std::string>());
  const json& feet = r.array(root, "", "feet", 2);
  std::array<bool, 2> seen{false, false};
  for (size_t i = 0; i < 2; ++i) read_foot(r, feet[i], "feet[" + std::to_string(i) + "]", doc, seen);
  return doc;
}

ContactsDocument read_contacts_json(const std::filesystem::path& path) {
  return parse_contacts_json(read_file(path), path.string());
}

}  // namespace footfix

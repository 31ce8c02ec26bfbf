// FbxDocument -> ASCII FBX, in the FBX SDK's layout (tabs, `*N { a: ... }` arrays). Reals are
// written in shortest round-trip form and always carry a '.' or exponent, so they read back as
// reals.
#include <cctype>
#include <charconv>
#include <string_view>

#include "footfix/core/error.h"
#include "fbx_document.h"

namespace footfix {
namespace {

constexpr std::size_t k_values_per_line = 40;

void put_real(std::string& out, double v, bool keep_real_marker) {
  char buf[32];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string_view s(buf, static_cast<std::size_t>(p - buf));
  out += s;
  if (keep_real_marker && s.find_first_of(".eEn") == std::string_view::npos) out += ".0";
}

void put_int(std::string& out, std::int64_t v) {
  char buf[24];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, static_cast<std::size_t>(p - buf));
}

// A real array reads back as reals when at least one element carries a '.' or exponent: if
// none does (all values integral), the first element gets ".0".
template <typename T>
void put_array(std::string& out, const std::vector<T>& v, const std::string& indent) {
  out += '*';
  put_int(out, static_cast<std::int64_t>(v.size()));
  out += " {\n" + indent + "\ta: ";
  const std::size_t values_start = out.size();
  std::size_t first_end = out.size();
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += (i % k_values_per_line == 0) ? ",\n" + indent + "\t" : ",";
    if constexpr (std::is_floating_point_v<T>)
      put_real(out, static_cast<double>(v[i]), false);
    else
      put_int(out, static_cast<std::int64_t>(v[i]));
    if (i == 0) first_end = out.size();
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (!v.empty() && out.find_first_of(".eEn", values_start) == std::string::npos) out.insert(first_end, ".0");
  }
  out += "\n" + indent + "} ";
}

void put_property(std::string& out, const FbxProperty& p, const std::string& indent, const std::string& node) {
  switch (p.type) {
    case 'Y': case 'I': case 'L': put_int(out, p.as_int()); break;
    case 'C': {
      // A one-character bare word reads back as 'C' unless it looks like a number or a separator.
      auto c = static_cast<char>(p.as_int());
      bool bare = std::isgraph(static_cast<unsigned char>(c)) && !std::isdigit(static_cast<unsigned char>(c)) &&
                  std::string_view(",{}\";*:").find(c) == std::string_view::npos;
      if (bare)
        out += c;
      else
        put_int(out, p.as_int());
      break;
    }
    case 'F': case 'D': put_real(out, p.as_double(), true); break;
    case 'S': case 'R': out += '"' + p.as_string() + '"'; break;
    case 'W': out += p.as_string(); break;
    case 'f': put_array(out, std::get<std::vector<float>>(p.value), indent); break;
    case 'd': put_array(out, std::get<std::vector<double>>(p.value), indent); break;
    case 'l': put_array(out, std::get<std::vector<std::int64_t>>(p.value), indent); break;
    case 'i': put_array(out, std::get<std::vector<std::int32_t>>(p.value), indent); break;
    case 'b': case 'c': put_array(out, std::get<std::vector<std::uint8_t>>(p.value), indent); break;
    default: fail(ErrorKind::write, "node '" + node + "': property type '" + std::string(1, p.type) + "' has no ASCII form");
  }
}

void put_node(std::string& out, const FbxNode& n, const std::string& indent) {
  out += indent + n.name + ": ";
  for (std::size_t i = 0; i < n.properties.size(); ++i) {
    const FbxProperty& p = n.properties[i];
    if (i) out += (p.is_string() || p.is_array()) ? ", " : ",";
    put_property(out, p, indent, n.name);
  }
  if (!n.children.empty() || n.null_terminated) {
    out += n.properties.empty() ? " {\n" : " {\n";
    for (const auto& c : n.children) put_node(out, c, indent + "\t");
    out += indent + "}";
  }
  out += "\n";
}

}  // namespace

void write_fbx_ascii(const FbxDocument& doc, std::ostream& out) {
  std::string text = doc.ascii_header;
  if (text.empty()) {
    text = "; FBX " + std::to_string(doc.version / 1000) + "." + std::to_string(doc.version / 100 % 10) + "." +
           std::to_string(doc.version / 10 % 10) + " project file\n";
  }
  for (const auto& n : doc.roots) put_node(text, n, "");
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out) fail(ErrorKind::write, "could not write FBX text");
}

}  // namespace footfix

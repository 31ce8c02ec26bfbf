// ASCII FBX -> FbxDocument. Grammar: `Key: value, value, ... { children }` where a value is a
// number, a quoted string, a bare word or an array `*N { a: v, v, ... }`; `;` starts a comment.
#include <algorithm>
#include <charconv>
#include <cstring>

#include "files/file_magic.h"
#include "footfix/core/error.h"
#include "footfix/core/text.h"
#include "fbx_document.h"

namespace footfix {
namespace {

class AsciiParser {
 public:
  AsciiParser(std::string_view text, const std::string& source) : s_(text), source_(source) {}

  [[noreturn]] void error(const std::string& what) const {
    fail(ErrorKind::read, source_ + ": line " + std::to_string(line_) + ": " + what);
  }

  std::string take_header() {
    std::size_t start = pos_;
    while (true) {
      std::size_t p = pos_;
      while (p < s_.size() && (s_[p] == ' ' || s_[p] == '\t' || s_[p] == '\r')) ++p;
      if (p >= s_.size() || s_[p] != ';') break;
      std::size_t eol = s_.find('\n', p);
      pos_ = eol == std::string_view::npos ? s_.size() : eol + 1;
      ++line_;
    }
    return std::string(s_.substr(start, pos_ - start));
  }

  void parse_list(std::vector<FbxNode>& out, bool until_brace, int depth) {
    if (depth > k_fbx_max_depth) error("nodes nested deeper than " + std::to_string(k_fbx_max_depth));
    while (true) {
      skip_space();
      if (pos_ >= s_.size()) {
        if (until_brace) error("unexpected end of file: missing '}'");
        return;
      }
      if (s_[pos_] == '}') {
        if (!until_brace) error("unmatched '}'");
        ++pos_;
        return;
      }
      out.push_back(parse_node(depth));
    }
  }

 private:
  void skip_space() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == ';') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  static bool is_word_char(char c) {
    return !(c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' || c == ':' || c == '{' ||
             c == '}' || c == '"' || c == ';');
  }

  std::string_view word() {
    std::size_t start = pos_;
    while (pos_ < s_.size() && is_word_char(s_[pos_])) ++pos_;
    return s_.substr(start, pos_ - start);
  }

  FbxNode parse_node(int depth) {
    FbxNode node;
    std::string_view key = word();
    if (key.empty() || pos_ >= s_.size() || s_[pos_] != ':')
      // Not quoted: before the first node the "file" may be anything (/proc/self/environ).
      error(any_node_ ? "expected 'Name:'" : io_detail::not_a("an FBX file", s_) + ": expected 'Name:'");
    ++pos_;
    any_node_ = true;
    node.name = std::string(key);
    // Properties: values separated by commas, possibly over several lines.
    bool expect_value = true;
    while (true) {
      skip_space();
      if (pos_ >= s_.size()) break;
      char c = s_[pos_];
      if (c == ',') {
        ++pos_;
        expect_value = true;
        continue;
      }
      if (c == '{' || c == '}' || !expect_value) break;
      if (c != '"' && c != '*' && looks_like_key()) break;
      node.properties.push_back(parse_value(depth));
      expect_value = false;
    }
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == '{') {
      ++pos_;
      node.null_terminated = true;
      parse_list(node.children, true, depth + 1);
    }
    return node;
  }

  bool looks_like_key() const {
    std::size_t p = pos_;
    while (p < s_.size() && is_word_char(s_[p])) ++p;
    return p < s_.size() && s_[p] == ':' && p > pos_;
  }

  FbxProperty parse_value(int depth) {
    char c = s_[pos_];
    if (c == '"') {
      std::size_t end = s_.find('"', pos_ + 1);
      if (end == std::string_view::npos) error("unterminated string");
      std::string_view body = s_.substr(pos_ + 1, end - pos_ - 1);
      for (char b : body)
        if (b == '\n') ++line_;
      pos_ = end + 1;
      return FbxProperty::string(std::string(body));
    }
    if (c == '*') return parse_array(depth);
    return scalar(word());
  }

  FbxProperty scalar(std::string_view w) {
    if (w.empty()) error("expected a value");
    std::int64_t i = 0;
    auto [pi, ei] = std::from_chars(w.data(), w.data() + w.size(), i);
    if (ei == std::errc() && pi == w.data() + w.size()) return FbxProperty::integer('L', i);
    double d = 0;
    const char* b = w.data() + (w[0] == '+' ? 1 : 0);
    auto [pd, ed] = std::from_chars(b, w.data() + w.size(), d);
    if (ed == std::errc() && pd == w.data() + w.size()) return FbxProperty::real('D', d);
    if (w.size() == 1) return FbxProperty::integer('C', static_cast<unsigned char>(w[0]));
    return FbxProperty{'W', std::string(w), false};
  }

  FbxProperty parse_array(int depth) {
    ++pos_;  // '*'
    std::string_view count_text = word();
    std::uint64_t count = 0;
    auto [pc, ec] = std::from_chars(count_text.data(), count_text.data() + count_text.size(), count);
    if (ec != std::errc() || pc != count_text.data() + count_text.size()) error("bad array count '*" + printable(count_text, 20) + "'");
    // Every element takes at least two characters: a count beyond that is not genuine.
    if (count > (s_.size() - pos_) / 2 + 1) error("array count " + std::to_string(count) + " exceeds the file size");
    skip_space();
    if (pos_ >= s_.size() || s_[pos_] != '{') error("expected '{' after array count");
    ++pos_;
    FbxNode body;
    parse_list_into_array(body, depth);
    const FbxNode* a = body.children.empty() ? nullptr : &body.children.front();
    if (body.children.size() > 1 || (a && a->name != "a")) error("array body must hold one 'a:' line");
    std::size_t n = a ? a->properties.size() : 0;
    if (n != count) error("array declares " + std::to_string(count) + " values but holds " + std::to_string(n));
    bool all_int = true;
    for (std::size_t k = 0; k < n; ++k) {
      char t = a->properties[k].type;
      if (t != 'L' && t != 'D') error("non-numeric array value");
      all_int = all_int && t == 'L';
    }
    if (all_int) {
      std::vector<std::int64_t> v(n);
      for (std::size_t k = 0; k < n; ++k) v[k] = a->properties[k].as_int();
      return FbxProperty{'l', std::move(v), false};
    }
    std::vector<double> v(n);
    for (std::size_t k = 0; k < n; ++k) v[k] = a->properties[k].as_double();
    return FbxProperty{'d', std::move(v), false};
  }

  void parse_list_into_array(FbxNode& body, int depth) { parse_list(body.children, true, depth + 1); }

  std::string_view s_;
  const std::string& source_;
  std::size_t pos_ = 0;
  int line_ = 1;
  bool any_node_ = false;
};

std::uint32_t version_from_header(const std::string& header) {
  std::size_t p = header.find("FBX ");
  if (p == std::string::npos) return 0;
  int major = 0, minor = 0, patch = 0;
  const char* s = header.c_str() + p + 4;
  auto [q1, e1] = std::from_chars(s, header.c_str() + header.size(), major);
  if (e1 != std::errc() || *q1 != '.') return 0;
  auto [q2, e2] = std::from_chars(q1 + 1, header.c_str() + header.size(), minor);
  if (e2 != std::errc()) return 0;
  if (*q2 == '.') std::from_chars(q2 + 1, header.c_str() + header.size(), patch);
  return static_cast<std::uint32_t>(major * 1000 + minor * 100 + patch * 10);
}

}  // namespace

FbxDocument parse_fbx_ascii(std::string_view text, const std::string& source_name) {
  // Text never holds NUL bytes. assimp's ASCII tokenizer stops at one (even in a comment) and
  // leaks its partial token list on the resulting error (found by fuzz_fbx), so refuse it here.
  if (size_t nul = text.find('\0'); nul != std::string_view::npos) {
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n');
    fail(ErrorKind::read, source_name + ": line " + std::to_string(line) + ": NUL byte in an ASCII FBX file");
  }
  FbxDocument doc;
  doc.binary = false;
  AsciiParser parser(text, source_name);
  doc.ascii_header = parser.take_header();
  parser.parse_list(doc.roots, false, 0);
  if (doc.roots.empty()) parser.error("no FBX nodes found");
  doc.version = version_from_header(doc.ascii_header);
  if (const FbxNode* ext = doc.root("FBXHeaderExtension"))
    if (const FbxNode* v = ext->child("FBXVersion"); v && !v->properties.empty())
      doc.version = static_cast<std::uint32_t>(v->properties[0].as_int());
  return doc;
}

}  // namespace footfix

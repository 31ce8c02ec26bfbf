// BVH hierarchy parsing: iterative (an explicit stack of open blocks, nesting capped at
// k_max_depth), so hostile nesting cannot overflow the call stack.
#include <cctype>
#include <charconv>
#include <unordered_set>

#include "bvh_detail.h"
#include "files/file_magic.h"
#include "footfix/core/error.h"

namespace footfix::bvh_detail {
namespace {

constexpr size_t k_max_depth = 1024;
// Skeletons named in the warning about a file with several.
constexpr size_t k_roots_named = 4;

bool parse_channel(std::string_view s, BvhChannel& out) {
  for (int c = 0; c < k_channel_kinds; ++c) {
    if (equal_ignoring_case(s, k_channel_names[c])) {
      out = static_cast<BvhChannel>(c);
      return true;
    }
  }
  return false;
}

Vec3 read_offset(BvhCursor& in, const std::string& owner) {
  Vec3 v;
  for (int axis = 0; axis < 3; ++axis) {
    std::string_view token = in.next_token();
    if (token.empty()) in.fail("unexpected end of file in the OFFSET of " + owner);
    if (!in.parse_number(token, in.line(), at(v, axis)))
      in.fail(owner + ": bad OFFSET value " + in_quotes(token) + " (need a finite number)");
  }
  return v;
}

// The channels after CHANNELS: its count, then the channel names that follow (at most six).
// Blender's importer takes the names on the line and ignores the count, so a count that disagrees
// with them is read by the names and `count_disagrees` set.
BvhJointLayout read_channels(BvhCursor& in, const std::string& joint, bool& count_disagrees) {
  std::string_view count_token = in.next_token();
  int count = -1;
  auto [ptr, ec] = std::from_chars(count_token.data(), count_token.data() + count_token.size(), count);
  if (ec != std::errc() || ptr != count_token.data() + count_token.size() || count < 0 ||
      count > k_channel_kinds)
    in.fail(joint_label(joint) + ": bad CHANNELS count " + in_quotes(count_token) + " (need 0 to 6)");
  BvhJointLayout layout;
  bool seen[k_channel_kinds] = {};
  int rotations = 0;
  for (int i = 0; i < k_channel_kinds; ++i) {
    BvhCursor ahead = in;
    std::string_view token = ahead.next_token();
    BvhChannel channel{};
    if (!parse_channel(token, channel)) {
      // A word on the CHANNELS line, or no name at all, is a bad name; the next line's keyword
      // ends a list shorter than its count.
      if (i < count && (ahead.line() == in.line() || i == 0))
        ahead.fail(joint_label(joint) + ": bad channel name " + in_quotes(token) + " (CHANNELS " +
                std::to_string(count) + " lists " + std::to_string(i) + " valid names)");
      break;
    }
    in.next_token();  // the name just read ahead
    if (seen[static_cast<int>(channel)])
      in.fail(joint_label(joint) + ": repeated channel " + in_quotes(token));
    seen[static_cast<int>(channel)] = true;
    rotations += is_rotation(channel) ? 1 : 0;
    layout.channels.push_back(channel);
  }
  count_disagrees = static_cast<int>(layout.channels.size()) != count;
  if (rotations != 0 && rotations != 3)
    in.fail(joint_label(joint) + ": " + std::to_string(rotations) +
            " rotation channels (need 0 or 3)");
  return layout;
}

// One open '{' block: a joint, or the End Site of a joint.
struct OpenBlock {
  int joint = 0;
  bool end_site = false;
  bool has_offset = false;
  bool has_channels = false;
  bool extra_end_site = false;  ///< a joint's second or later End Site: read, not kept
  bool has_end_site = false;    ///< a joint block that has opened an End Site
};

class HierarchyParser {
 public:
  explicit HierarchyParser(BvhCursor& in) : in_(in) {}

  BvhHierarchy parse() {
    const std::string_view whole(in_.position(), static_cast<std::size_t>(in_.end() - in_.position()));
    std::string_view token = in_.next_token();
    if (token.empty()) in_.fail("empty file (no HIERARCHY)");
    // Nothing before HIERARCHY is quoted: the "file" may be anything (/proc/self/environ).
    if (!equal_ignoring_case(token, "HIERARCHY")) in_.fail(io_detail::not_a("a BVH file", whole) + ": it does not start with HIERARCHY");
    token = next_statement();
    if (!equal_ignoring_case(token, "ROOT"))
      in_.fail(token.empty() ? "truncated hierarchy: no ROOT" : "expected ROOT, found " + in_quotes(token));
    // Several skeletons one after another (a prop, a second performer) are read, as Blender's
    // importer reads them: the legs are then looked for in all of them.
    std::vector<int> roots;
    for (; equal_ignoring_case(token, "ROOT"); token = next_statement()) {
      roots.push_back(out_.skeleton.joint_count());
      open_joint(-1);
      while (!stack_.empty()) step();
    }
    if (token.empty()) in_.fail("missing MOTION after the hierarchy");
    if (!equal_ignoring_case(token, "MOTION")) in_.fail("expected MOTION after the hierarchy, found " + in_quotes(token));
    if (roots.size() > 1) {
      std::string names;
      for (size_t i = 0; i < roots.size() && i < k_roots_named; ++i) names += (i ? ", " : "") + in_quotes(out_.skeleton.names[roots[i]]);
      if (roots.size() > k_roots_named) names += ", ...";
      out_.warnings.push_back(std::to_string(roots.size()) + " skeletons in one file (ROOTs " + names +
                              "): all are read; only the legs found are changed, the other skeletons keep their motion");
    }
    if (extra_end_sites_ > 0)
      out_.warnings.push_back(std::to_string(extra_end_sites_) + " extra End Site(s) under joints that already have one (first: " +
                              first_extra_end_site_ + "); each joint's first End Site is kept, the others are not written back");
    if (comment_lines_ > 0)
      out_.warnings.push_back(std::to_string(comment_lines_) + " comment line(s) in the hierarchy (first: line " +
                              std::to_string(first_comment_line_) + ") ignored");
    return std::move(out_);
  }

 private:
  std::string owner(const OpenBlock& b) const {
    return (b.end_site ? "End Site of " : "") + joint_label(out_.skeleton.names[b.joint]);
  }

  // After ROOT or JOINT: the name is the rest of the line, or what comes before a '{' on it.
  void open_joint(int parent) {
    const int line = in_.line();
    std::string_view name = in_.rest_of_line_to_brace();
    if (name.empty()) in_.fail_at(line, "joint without a name");
    if (!names_.insert(name).second) in_.fail_at(line, "duplicate joint name " + in_quotes(name));
    check_depth(line);
    int j = out_.skeleton.add_joint(std::string(name), parent, Vec3{});
    out_.layouts.emplace_back();
    expect_open({j, false});
  }

  void check_depth(int line) const {
    if (stack_.size() >= k_max_depth)
      in_.fail_at(line, "hierarchy nested deeper than " + std::to_string(k_max_depth) + " levels");
  }

  void expect_open(OpenBlock block) {
    std::string_view token = next_statement();
    if (token != "{")
      in_.fail(token.empty() ? "truncated hierarchy: no '{' for " + owner(block)
                             : "expected '{' for " + owner(block) + ", found " + in_quotes(token));
    stack_.push_back(block);
  }

  // The next token that starts a statement, past comment lines: a line whose first word starts
  // with '#' or "//" (some exporters write their name and version so; Blender's importer skips
  // any line it does not know). A word that only contains such characters later on is no comment.
  std::string_view next_statement() {
    for (;;) {
      const std::string_view token = in_.next_token();
      if (token.empty() || (token[0] != '#' && token.substr(0, 2) != "//")) return token;
      if (comment_lines_++ == 0) first_comment_line_ = in_.line();
      in_.rest_of_line();
    }
  }

  void step() {
    std::string_view token = next_statement();
    OpenBlock& top = stack_.back();
    if (token.empty()) in_.fail("truncated hierarchy: end of file inside " + owner(top));
    if (token == "}") {
      if (!top.has_offset) in_.fail(owner(top) + " has no OFFSET");
      stack_.pop_back();
    } else if (equal_ignoring_case(token, "OFFSET")) {
      if (top.has_offset) in_.fail(owner(top) + " has two OFFSETs");
      Vec3 offset = read_offset(in_, owner(top));
      if (!top.end_site)
        out_.skeleton.rest_offsets[top.joint] = offset;
      else if (!top.extra_end_site)  // only a joint's first End Site is kept
        out_.skeleton.end_sites[top.joint] = offset;
      top.has_offset = true;
    } else if (equal_ignoring_case(token, "CHANNELS") && !top.end_site) {
      if (top.has_channels) in_.fail(owner(top) + " has two CHANNELS lines");
      top.has_channels = true;
      BvhJointLayout& layout = out_.layouts[top.joint];
      bool count_disagrees = false;
      layout = read_channels(in_, out_.skeleton.names[top.joint], count_disagrees);
      if (count_disagrees)
        out_.warnings.push_back(joint_label(out_.skeleton.names[top.joint]) + ": CHANNELS count does not match the " +
                                std::to_string(layout.channels.size()) + " channel names listed; the names were read");
      layout.first_value = out_.values_per_frame;
      out_.values_per_frame += static_cast<int>(layout.channels.size());
    } else if (equal_ignoring_case(token, "JOINT") && !top.end_site) {
      open_joint(top.joint);
    } else if (equal_ignoring_case(token, "End") && !top.end_site) {
      const int line = in_.line();
      // Text after "End Site" is a comment some exporters write ("End Site #name: Head").
      const std::string_view rest = in_.rest_of_line_to_brace();
      if (!starts_with_ignoring_case(rest, "Site") || (rest.size() > 4 && rest[4] != ' ' && rest[4] != '\t'))
        in_.fail_at(line, "expected 'End Site'");
      check_depth(line);
      const bool extra = top.has_end_site;
      if (extra && extra_end_sites_++ == 0) first_extra_end_site_ = "line " + std::to_string(line) + ", " + owner(top);
      top.has_end_site = true;
      expect_open({top.joint, true, false, false, extra});
    } else if (equal_ignoring_case(token, "MOTION")) {
      in_.fail("truncated hierarchy: MOTION inside " + owner(top));
    } else if (equal_ignoring_case(token, "ROOT")) {
      in_.fail("ROOT inside " + owner(top) + " (a skeleton's block must close before the next ROOT)");
    } else {
      in_.fail("unknown keyword " + in_quotes(token) + " in " + owner(top));
    }
  }

  BvhCursor& in_;
  BvhHierarchy out_;
  std::vector<OpenBlock> stack_;
  std::unordered_set<std::string_view> names_;
  int extra_end_sites_ = 0;
  std::string first_extra_end_site_;
  int comment_lines_ = 0;
  int first_comment_line_ = 0;
};

}  // namespace

BvhHierarchy parse_bvh_hierarchy(BvhCursor& in) { return HierarchyParser(in).parse(); }

}  // namespace footfix::bvh_detail

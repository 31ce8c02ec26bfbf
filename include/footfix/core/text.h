// Text that came from a file (joint names, take names, paths) made safe to show or to store.
#pragma once

#include <string>
#include <string_view>

namespace footfix {

/// `s` with every invalid UTF-8 byte replaced by U+FFFD; valid sequences are kept as they are.
std::string valid_utf8(std::string_view s);

/// `s` for a message: C0 controls, DEL, C1 controls (U+0080..U+009F) and invalid UTF-8 bytes are
/// written as `\xNN` (a backslash is doubled), other valid UTF-8 is kept. Longer than
/// `max_bytes` input bytes, it is cut there and "..." appended.
std::string printable(std::string_view s, std::size_t max_bytes = 200);

}  // namespace footfix

// Text that came from a file (joint names, take names) made safe to put in a message. (JSON
// output replaces invalid UTF-8 itself: src/core/json_text.h.)
#pragma once

#include <string>
#include <string_view>

namespace footfix {

/// `s` for a message: C0 controls, DEL, C1 controls (U+0080..U+009F) and invalid UTF-8 bytes are
/// written as `\xNN` (a backslash is doubled), other valid UTF-8 is kept. Longer than
/// `max_bytes` input bytes, it is cut there and "..." appended.
std::string printable(std::string_view s, std::size_t max_bytes = 200);

}  // namespace footfix

// Internal to files/: what a file that is not the expected clip format is, judged by its first
// bytes, so that a refusal can name it without quoting any of its content.
#pragma once

#include <string>
#include <string_view>

namespace footfix::io_detail {

/// "a binary FBX file", "a ZIP archive", "UTF-16 text", "binary data", ... for the first bytes
/// of a file; "" when they look like ordinary text.
std::string_view foreign_format(std::string_view bytes);

/// "not a BVH file (a ZIP archive)" / "not a BVH file" style message: `what` ("a BVH file")
/// plus the format found by foreign_format, never any byte of the file.
std::string not_a(std::string_view what, std::string_view bytes);

}  // namespace footfix::io_detail

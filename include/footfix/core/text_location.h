// Locating a byte offset in a text file for error messages ("line 3, column 14").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace footfix {

/// "line L, column C" (both 1-based; columns count bytes) of the byte at `offset` in `text`;
/// an offset past the end names the position just after the last byte.
std::string text_location(std::string_view text, size_t offset);

}  // namespace footfix

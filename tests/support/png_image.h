// Reads 8-bit RGB/RGBA PNG files (as written by browsers' screenshots) into pixels, for checks
// that a page rendered: size, and whether the image is blank.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace footfix::test {

struct PngImage {
  int width = 0, height = 0;
  std::vector<std::uint32_t> rgb;  ///< 0xRRGGBB per pixel, row-major (alpha dropped)
};

/// Decodes `path`. Throws std::runtime_error for files it cannot read (not PNG, other bit
/// depths or colour types, interlaced, corrupt data).
PngImage read_png(const std::filesystem::path& path);

}  // namespace footfix::test

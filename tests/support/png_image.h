// Reads PNG files (browsers' screenshots) into pixels with libpng, for checks that a page
// rendered: size, and whether the image is blank.
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

/// Decodes `path` (any PNG libpng reads, composed onto RGB). Throws std::runtime_error with
/// libpng's reason for files it cannot read.
PngImage read_png(const std::filesystem::path& path);

}  // namespace footfix::test

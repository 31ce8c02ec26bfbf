#include "support/png_image.h"

#include <png.h>

#include <stdexcept>

namespace footfix::test {

PngImage read_png(const std::filesystem::path& path) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str()))
    throw std::runtime_error(path.string() + ": " + png.message);
  png.format = PNG_FORMAT_RGB;
  std::vector<png_byte> pixels(PNG_IMAGE_SIZE(png));
  if (!png_image_finish_read(&png, nullptr, pixels.data(), 0, nullptr)) {
    const std::string reason = png.message;
    png_image_free(&png);
    throw std::runtime_error(path.string() + ": " + reason);
  }
  PngImage image;
  image.width = static_cast<int>(png.width);
  image.height = static_cast<int>(png.height);
  image.rgb.reserve(pixels.size() / 3);
  for (std::size_t i = 0; i + 2 < pixels.size(); i += 3)
    image.rgb.push_back((std::uint32_t{pixels[i]} << 16) | (std::uint32_t{pixels[i + 1]} << 8) | pixels[i + 2]);
  return image;
}

}  // namespace footfix::test

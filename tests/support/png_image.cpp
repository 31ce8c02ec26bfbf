#include "support/png_image.h"

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace footfix::test {
namespace {

std::uint32_t be32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

int paeth(int a, int b, int c) {
  int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

}  // namespace

PngImage read_png(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<unsigned char> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (file.size() < 8 || !std::equal(signature, signature + 8, file.begin()))
    throw std::runtime_error(path.string() + ": not a PNG file");
  PngImage image;
  int channels = 0;
  std::vector<unsigned char> compressed;
  for (std::size_t at = 8; at + 12 <= file.size();) {
    std::uint32_t length = be32(&file[at]);
    std::string type(reinterpret_cast<const char*>(&file[at + 4]), 4);
    if (at + 12 + length > file.size()) throw std::runtime_error(path.string() + ": truncated chunk " + type);
    const unsigned char* data = &file[at + 8];
    if (type == "IHDR") {
      image.width = static_cast<int>(be32(data));
      image.height = static_cast<int>(be32(data + 4));
      int depth = data[8], colour = data[9], interlace = data[12];
      channels = colour == 2 ? 3 : colour == 6 ? 4 : 0;
      if (depth != 8 || channels == 0 || interlace != 0)
        throw std::runtime_error(path.string() + ": unsupported PNG (only 8-bit RGB/RGBA, not interlaced)");
    } else if (type == "IDAT") {
      compressed.insert(compressed.end(), data, data + length);
    }
    at += 12 + length;
  }
  if (image.width <= 0 || image.height <= 0) throw std::runtime_error(path.string() + ": no IHDR");
  const std::size_t stride = static_cast<std::size_t>(image.width) * static_cast<std::size_t>(channels);
  std::vector<unsigned char> raw((stride + 1) * static_cast<std::size_t>(image.height));
  uLongf raw_size = static_cast<uLongf>(raw.size());
  if (uncompress(raw.data(), &raw_size, compressed.data(), static_cast<uLong>(compressed.size())) != Z_OK ||
      raw_size != raw.size())
    throw std::runtime_error(path.string() + ": corrupt image data");
  std::vector<unsigned char> previous(stride, 0), row(stride);
  image.rgb.reserve(static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height));
  for (int y = 0; y < image.height; ++y) {
    const unsigned char* line = &raw[static_cast<std::size_t>(y) * (stride + 1)];
    int filter = line[0];
    for (std::size_t x = 0; x < stride; ++x) {
      int a = x >= static_cast<std::size_t>(channels) ? row[x - static_cast<std::size_t>(channels)] : 0;
      int b = previous[x];
      int c = x >= static_cast<std::size_t>(channels) ? previous[x - static_cast<std::size_t>(channels)] : 0;
      int predictor = filter == 0 ? 0 : filter == 1 ? a : filter == 2 ? b : filter == 3 ? (a + b) / 2 : paeth(a, b, c);
      if (filter > 4) throw std::runtime_error(path.string() + ": bad row filter");
      row[x] = static_cast<unsigned char>(line[1 + x] + predictor);
    }
    for (int x = 0; x < image.width; ++x) {
      const unsigned char* p = &row[static_cast<std::size_t>(x) * static_cast<std::size_t>(channels)];
      image.rgb.push_back((std::uint32_t{p[0]} << 16) | (std::uint32_t{p[1]} << 8) | p[2]);
    }
    previous.swap(row);
  }
  return image;
}

}  // namespace footfix::test

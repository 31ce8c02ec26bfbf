// Binary FBX property type 'c' (char array, one byte per element; assimp reads it, e.g. its own
// test model boxWithCompressedCTypeArray.FBX): parsed, kept as 'c', and written back byte for
// byte, raw and zlib-compressed.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <sstream>

#include "fbx/fbx_document.h"  // internal to fbx, not installed

namespace footfix {
namespace {

void put32(std::string& s, std::uint32_t v) { s.append(reinterpret_cast<const char*>(&v), 4); }

std::string char_array(const std::string& elements, bool compress) {
  std::string data = elements;
  if (compress) {
    uLongf size = compressBound(static_cast<uLong>(elements.size()));
    data.assign(size, '\0');
    compress2(reinterpret_cast<Bytef*>(data.data()), &size, reinterpret_cast<const Bytef*>(elements.data()),
              static_cast<uLong>(elements.size()), 6);
    data.resize(size);
  }
  std::string p(1, 'c');
  put32(p, static_cast<std::uint32_t>(elements.size()));
  put32(p, compress ? 1u : 0u);
  put32(p, static_cast<std::uint32_t>(data.size()));
  return p + data;
}

/// A binary FBX 7400: one top-level node "Blob" with both arrays, the null record, a footer.
std::string file_with_char_arrays(const std::string& elements) {
  std::string s("Kaydara FBX Binary  \0\x1a\0", 23);
  put32(s, 7400);
  const std::string props = char_array(elements, false) + char_array(elements, true);
  const std::string name = "Blob";
  put32(s, static_cast<std::uint32_t>(s.size() + 13 + name.size() + props.size()));
  put32(s, 2);
  put32(s, static_cast<std::uint32_t>(props.size()));
  s += static_cast<char>(name.size());
  s += name;
  s += props;
  s.append(13, '\0');
  return s;
}

TEST(FbxCharArray, ParsedAndWrittenBackByteForByte) {
  std::string elements;
  for (int i = 0; i < 300; ++i) elements += static_cast<char>(i * 7);
  const std::string bytes = file_with_char_arrays(elements);
  FbxDocument doc = parse_fbx_document(bytes, "chars.fbx");
  ASSERT_EQ(doc.roots.size(), 1u);
  ASSERT_EQ(doc.roots[0].properties.size(), 2u);
  for (const FbxProperty& p : doc.roots[0].properties) {
    EXPECT_EQ(p.type, 'c');
    EXPECT_TRUE(p.is_array());
    ASSERT_EQ(p.array_size(), elements.size());
    for (std::size_t i = 0; i < elements.size(); ++i)
      ASSERT_EQ(p.array_double(i), static_cast<double>(static_cast<unsigned char>(elements[i]))) << i;
  }
  EXPECT_TRUE(doc.roots[0].properties[1].compressed);
  std::ostringstream out;
  write_fbx_document(doc, out);
  EXPECT_EQ(out.str(), bytes);
}

}  // namespace
}  // namespace footfix

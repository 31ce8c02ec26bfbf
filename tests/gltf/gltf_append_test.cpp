// The float bytes footfix writes into glTF buffers: IEEE 754 binary32, little-endian as the glTF
// specification requires, whatever the host's byte order.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gltf/gltf_append.h"  // internal to gltf, not installed

namespace footfix::gltf {
namespace {

TEST(GltfAppend, FloatsAreWrittenLittleEndian) {
  // 1.0f = 0x3F800000, -2.5f = 0xC0200000, 0.1f = 0x3DCCCCCD (IEEE 754 binary32).
  const std::string expected("\x00\x00\x80\x3F"
                             "\x00\x00\x20\xC0"
                             "\xCD\xCC\xCC\x3D",
                             12);
  EXPECT_EQ(little_endian_bytes({1.0f, -2.5f, 0.1f}), expected);
  EXPECT_EQ(little_endian_bytes({}), "");
}

}  // namespace
}  // namespace footfix::gltf

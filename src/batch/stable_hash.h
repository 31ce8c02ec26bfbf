// A small non-cryptographic hash that is identical on every platform and build: 64-bit FNV-1a
// with a final avalanche step. Used for shard assignment and for change detection of inputs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace footfix {

class StableHasher {
 public:
  void add(std::string_view bytes);
  /// The hash of everything added so far (the state is left unchanged).
  std::uint64_t value() const;

 private:
  std::uint64_t state_ = 14695981039346656037ull;
};

std::uint64_t stable_hash(std::string_view bytes);

/// 16 lowercase hex digits.
std::string hex64(std::uint64_t value);

}  // namespace footfix

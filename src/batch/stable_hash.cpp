#include "batch/stable_hash.h"

#include <cstdio>

namespace footfix {

void StableHasher::add(std::string_view bytes) {
  for (unsigned char c : bytes) {
    state_ ^= c;
    state_ *= 1099511628211ull;
  }
}

std::uint64_t StableHasher::value() const {
  // splitmix64's finalizer, so that every bit (and hence value % N) depends on every byte.
  std::uint64_t h = state_;
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 31;
  return h;
}

std::uint64_t stable_hash(std::string_view bytes) {
  StableHasher hasher;
  hasher.add(bytes);
  return hasher.value();
}

std::string hex64(std::uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

}  // namespace footfix

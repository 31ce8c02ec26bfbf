// Internal to footfix (not installed): large buffers mapped before they are written.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace footfix {

/// Asks the system to map the pages that lie wholly inside [begin, begin + bytes) writable now
/// (Linux's MADV_POPULATE_WRITE; elsewhere, or on a kernel without it, nothing happens). For a
/// large buffer about to be written whole: newly mapped memory then costs one call instead of a
/// page fault per page. Spans under k_min_prefault_bytes are left to fault as they are written.
/// What the memory holds is unchanged.
void prefault_for_writing(void* begin, std::size_t bytes);

/// The spans prefault_for_writing leaves alone (bytes): a few pages fault faster than one call.
inline constexpr std::size_t k_min_prefault_bytes = std::size_t{64} << 10;

/// prefault_for_writing over the capacity of `v` past its size (after a reserve).
template <typename T>
void prefault_capacity(std::vector<T>& v) {
  prefault_for_writing(v.data() + v.size(), (v.capacity() - v.size()) * sizeof(T));
}
inline void prefault_capacity(std::string& s) { prefault_for_writing(s.data() + s.size(), s.capacity() - s.size()); }

/// v.assign(count, value), new storage (where v cannot hold `count`) mapped at once.
template <typename T>
void assign_prefaulted(std::vector<T>& v, std::size_t count, const T& value) {
  if (v.capacity() < count) {
    v.clear();
    v.reserve(count);
    prefault_capacity(v);
  }
  v.assign(count, value);
}

}  // namespace footfix

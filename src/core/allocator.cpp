#include "footfix/core/allocator.h"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace footfix {

void tune_allocator_for_batches() {
#if defined(__GLIBC__)
  // Setting either also turns off glibc's own adjustment of the two as memory is freed.
  constexpr int k_mmap_threshold_bytes = 4 << 20;
  constexpr int k_trim_threshold_bytes = 32 << 20;
  mallopt(M_MMAP_THRESHOLD, k_mmap_threshold_bytes);
  mallopt(M_TRIM_THRESHOLD, k_trim_threshold_bytes);
#endif
}

}  // namespace footfix

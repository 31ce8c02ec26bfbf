#include "prefault.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace footfix {

void prefault_for_writing(void* begin, std::size_t bytes) {
#if defined(MADV_POPULATE_WRITE)
  if (bytes < k_min_prefault_bytes) return;
  static const std::uintptr_t page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(begin);
  const std::uintptr_t first = (start + page - 1) & ~(page - 1), last = (start + bytes) & ~(page - 1);
  // A kernel without MADV_POPULATE_WRITE refuses it (EINVAL): the pages then fault as written.
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_POPULATE_WRITE);
#else
  (void)begin;
  (void)bytes;
#endif
}

}  // namespace footfix

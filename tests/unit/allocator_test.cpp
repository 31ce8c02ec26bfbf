// tune_allocator_for_batches: glibc then serves a few-MiB request (a clip's arrays) from its heap
// instead of a fresh mapping, and still maps a request of 16 MiB or more (a long clip's poses,
// so their memory goes back when freed).
#include <gtest/gtest.h>

#include <cstdlib>

#include "footfix/core/allocator.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace footfix {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool k_sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool k_sanitized = true;
#else
constexpr bool k_sanitized = false;
#endif
#else
constexpr bool k_sanitized = false;
#endif

#if defined(__GLIBC__)
// Blocks glibc's allocator has mapped on their own, now.
size_t mapped_blocks() { return mallinfo2().hblks; }

// Whether a fresh `bytes` request is mapped on its own (the allocation is written to, then freed).
bool mapped(size_t bytes) {
  const size_t before = mapped_blocks();
  auto* p = static_cast<volatile char*>(std::malloc(bytes));
  EXPECT_NE(p, nullptr);
  p[0] = 1;
  p[bytes - 1] = 1;
  const bool on_its_own = mapped_blocks() > before;
  std::free(const_cast<char*>(p));
  return on_its_own;
}
#endif

TEST(Allocator, ClipSizedRequestsComeFromTheHeapLongClipsAreStillMapped) {
#if !defined(__GLIBC__)
  GTEST_SKIP() << "the tuning is for glibc's allocator";
#else
  if (k_sanitized) GTEST_SKIP() << "the address sanitizer replaces the allocator";
  tune_allocator_for_batches();
  EXPECT_FALSE(mapped(size_t{4} << 20));   // a few MiB: from the heap
  EXPECT_FALSE(mapped(size_t{12} << 20));  // under 16 MiB
  EXPECT_TRUE(mapped(size_t{64} << 20));   // a long clip's arrays: mapped on their own
#endif
}

}  // namespace
}  // namespace footfix

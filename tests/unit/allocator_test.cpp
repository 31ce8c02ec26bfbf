// tune_allocator_for_batches: a short clip's arrays (up to a few MiB) come from glibc's heap, whose
// pages the next clip reuses; a long clip's arrays (4 MiB and more) are mapped on their own, so
// their memory goes back when freed, and keep being so after such a block was freed (the
// threshold no longer rises).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

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
// glibc serves a request from memory free in its heap before it looks at the threshold, so this
// tells the policy only in a process whose heap holds no larger free block.
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

TEST(Allocator, ShortClipArraysComeFromTheHeapAndLongOnesAreMappedOnTheirOwn) {
#if !defined(__GLIBC__)
  GTEST_SKIP() << "the policy is for glibc's allocator";
#else
  if (k_sanitized) GTEST_SKIP() << "the address sanitizer replaces the allocator";
  // In a process of its own (the test binary run again for this test alone), so that what other
  // tests left free in the heap does not meet the requests.
  const std::string style = GTEST_FLAG_GET(death_test_style);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        tune_allocator_for_batches();
        const bool policy = !mapped(size_t{16} << 10)  // small: from the heap
                            && !mapped(size_t{3} << 20)  // a short clip's array: from the heap
                            && mapped(size_t{8} << 20)   // a long clip's array: mapped, unmapped when freed
                            && mapped(size_t{5} << 20)   // still mapped after a larger mapped block was freed
                            && mapped(size_t{64} << 20);  // a long clip's arrays
        std::exit(policy ? 0 : 1);
      },
      testing::ExitedWithCode(0), "");
  GTEST_FLAG_SET(death_test_style, style);
#endif
}

}  // namespace
}  // namespace footfix

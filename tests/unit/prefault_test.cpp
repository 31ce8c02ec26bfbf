// prefault_for_writing maps a fresh buffer's pages before they are written, and leaves what the
// memory holds as it was.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/prefault.h"  // internal to core, not installed

namespace footfix {
namespace {

// How many of the `pages` pages from `at` are mapped (mincore).
size_t resident_pages(void* at, size_t pages, size_t page) {
  std::vector<unsigned char> resident(pages);
  EXPECT_EQ(::mincore(at, pages * page, resident.data()), 0);
  size_t n = 0;
  for (unsigned char r : resident) n += r & 1;
  return n;
}

#if defined(MADV_POPULATE_WRITE)
TEST(Prefault, MapsTheWholePagesOfAFreshSpan) {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t pages = 64;
  void* fresh = ::mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(fresh, MAP_FAILED);
  ASSERT_EQ(resident_pages(fresh, pages, page), 0u);
  // Page 0 tells whether the kernel has MADV_POPULATE_WRITE (it is not looked at below).
  if (::madvise(fresh, page, MADV_POPULATE_WRITE) != 0) GTEST_SKIP() << "the kernel has no MADV_POPULATE_WRITE";
  // From the middle of page 1 to the middle of the last page: the pages wholly inside are mapped.
  char* bytes = static_cast<char*>(fresh);
  prefault_for_writing(bytes + page + page / 2, (pages - 2) * page);
  EXPECT_EQ(resident_pages(bytes + page, 1, page), 0u);
  EXPECT_EQ(resident_pages(bytes + 2 * page, pages - 3, page), pages - 3);
  EXPECT_EQ(resident_pages(bytes + (pages - 1) * page, 1, page), 0u);
  ::munmap(fresh, pages * page);
}
#endif

TEST(Prefault, LeavesTheContentsAsTheyWere) {
  std::vector<char> v(k_min_prefault_bytes * 2, 'x');
  v.reserve(k_min_prefault_bytes * 8);
  prefault_capacity(v);
  prefault_for_writing(v.data(), v.size());
  EXPECT_EQ(std::count(v.begin(), v.end(), 'x'), static_cast<std::ptrdiff_t>(v.size()));
}

TEST(Prefault, AssignPrefaultedAssignsAsAssignDoes) {
  std::vector<double> v(10, 1.0);
  const size_t large = k_min_prefault_bytes;  // doubles: more than v holds, over the prefault minimum
  assign_prefaulted(v, large, 0.5);
  ASSERT_EQ(v.size(), large);
  EXPECT_EQ(std::count(v.begin(), v.end(), 0.5), static_cast<std::ptrdiff_t>(large));
  assign_prefaulted(v, 3, 2.0);  // within its capacity
  EXPECT_EQ(v, std::vector<double>(3, 2.0));
}

}  // namespace
}  // namespace footfix

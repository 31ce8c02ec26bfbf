// Shared checks of the security tests: a planted secret, bounds on time and memory, files.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/limited_run.h"

namespace footfix::test {

/// The value planted in the child's environment; it must never appear in any output.
inline const std::string k_secret_value = "ff-s3cr3t-7f1e9a";
inline const std::string k_secret_env = "SECRET_TOKEN=" + k_secret_value;

inline void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  ASSERT_TRUE(out.good()) << path;
}

inline std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

#if defined(__SANITIZE_ADDRESS__)
/// AddressSanitizer's shadow memory, quarantine and redzones: the same run needs more memory.
inline constexpr long k_rss_budget_factor = 3;
#else
inline constexpr long k_rss_budget_factor = 1;
#endif

/// The run ended by itself within its time bound and under `rss_budget_mib` of peak RSS
/// (times k_rss_budget_factor in a sanitizer build).
inline void expect_bounded(const LimitedRun& r, long rss_budget_mib) {
  rss_budget_mib *= k_rss_budget_factor;
  EXPECT_FALSE(r.timed_out) << "ran past its time bound; stderr: " << r.err;
  EXPECT_EQ(r.signal, 0) << "killed by signal " << r.signal << "; stderr: " << r.err;
  EXPECT_LT(r.peak_rss_kb, rss_budget_mib * 1024) << "peak RSS " << r.peak_rss_kb / 1024 << " MiB over the budget of "
                                                   << rss_budget_mib << " MiB";
}

inline void expect_no_secret(const std::string& text, const char* where) {
  EXPECT_EQ(text.find(k_secret_value), std::string::npos) << "the secret leaked into " << where << ":\n" << text;
}

}  // namespace footfix::test

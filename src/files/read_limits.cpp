#include "footfix/files/read_limits.h"

#include <algorithm>
#include <cmath>

#include "footfix/core/error.h"

namespace footfix {

void check_clip_memory(const ReadLimits& limits, std::uint64_t frames, std::uint64_t joints, const std::string& name) {
  constexpr std::uint64_t k_mib = 1ull << 20;
  // frames and joints are each below 2^32 where this is called, so the product cannot overflow
  // before the division; clamp anyway.
  const long double bytes = static_cast<long double>(frames) * static_cast<long double>(joints) *
                            static_cast<long double>(k_bytes_per_joint_frame);
  if (bytes <= static_cast<long double>(limits.max_memory_bytes)) return;
  fail(ErrorKind::read, name + ": " + std::to_string(frames) + " frames x " + std::to_string(joints) +
                            " joints needs about " + std::to_string(static_cast<unsigned long long>(bytes / k_mib)) +
                            " MiB, over the memory limit of " + std::to_string(limits.max_memory_bytes / k_mib) +
                            " MiB (--max-memory)");
}

std::string seconds_text(double s) {
  constexpr double k_max = 1e15;  // keeps the conversion defined for any double
  const double clamped = std::isfinite(s) ? std::clamp(s, -k_max, k_max) : k_max;
  return std::to_string(static_cast<long long>(clamped)) + " s";
}

void fail_over_duration(const std::string& subject, const char* verb, double seconds, const ReadLimits& limits) {
  fail(ErrorKind::read, subject + " " + verb + " " + seconds_text(seconds) + ", over the duration limit of " +
                            seconds_text(limits.max_duration_s) + " (--max-duration)");
}

}  // namespace footfix

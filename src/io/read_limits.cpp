#include "footfix/io/read_limits.h"

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

}  // namespace footfix

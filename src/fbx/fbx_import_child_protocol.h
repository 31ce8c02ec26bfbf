// Internal to fbx/: what the reader and its import worker (fbx_import_child.h) say to each other
// over their socket. The reader writes the FBX bytes into a memory file the worker inherited and
// sends a request; the worker answers with fbx_import_wire.h's answer and a trailer. A trailer
// that says the worker retires is its last word: it exits. Otherwise the worker frees the import
// (the reader goes on with the answer meanwhile), measures its memory and sends a verdict: it
// stays and waits for the next request, or it retires and exits. The reader takes the verdict
// before its next request.
//
//   request = ImportRequest (fixed size, this build's layout: both ends are one binary)
//   reply   = answer | u64 bytes of answer before the trailer | u8 code | u8 retiring | "FFXE"
//   verdict = k_verdict_stays | k_verdict_retires (after a reply whose trailer says it stays)
#pragma once

#include <cstddef>
#include <cstdint>

namespace footfix::fbx {

// The worker's exit codes, and the codes a reply's trailer states (ok or unreadable: any other
// outcome ends the worker with its code and sends no trailer). Any other status (a signal, or an
// exit code nobody chose here, such as a sanitizer's report exiting with 1) means the importer did
// not end normally.
constexpr int k_child_ok = 0, k_child_unreadable = 100, k_child_out_of_memory = 101, k_child_failed = 102,
              k_child_too_many_nodes = 103;

constexpr char k_request_magic[4] = {'F', 'F', 'X', 'R'};
constexpr char k_trailer_magic[4] = {'F', 'F', 'X', 'E'};
constexpr std::size_t k_trailer_bytes = 8 + 1 + 1 + sizeof k_trailer_magic;
constexpr char k_verdict_stays = 'S', k_verdict_retires = 'R';

/// One import: the bytes are the first `bytes` of the memory file.
struct ImportRequest {
  char magic[4] = {k_request_magic[0], k_request_magic[1], k_request_magic[2], k_request_magic[3]};
  std::uint64_t bytes = 0;
  std::uint64_t max_memory_bytes = 0;  ///< ReadLimits::max_memory_bytes: address space and scene nodes
  std::int32_t cpu_s = 0;              ///< ReadLimits::import_cpu_s: CPU seconds for this import
  std::uint8_t fault = 0;              ///< ChildFault, for tests
  /// The worker retires after this import when its resident memory has grown by more than this
  /// many bytes since it started, the import freed and its heap trimmed (said in the verdict);
  /// 0: always (said in the trailer).
  std::uint64_t retire_bytes = 0;
};

}  // namespace footfix::fbx

// The process's memory allocator, set up for cleaning many clips in one process.
#pragma once

namespace footfix {

/// Sets the C library's allocator (glibc's; nothing elsewhere) to serve requests under 16 MiB
/// from its heap and to keep up to 32 MiB freed at the heap's top for reuse. A batch's clips
/// then take their arrays (a few MiB each: poses, tracks, the solve's band) from memory the last
/// clip freed, instead of fresh pages the kernel has to fault in one by one (by default glibc
/// maps and unmaps such arrays, or gives the memory back as soon as it is freed: on the shared
/// corpus 14,000 page faults against 4,700, and reading took twice as long). Requests of 16 MiB
/// and more (a long clip's poses) are still mapped and unmapped on their own, so a long clip's
/// peak memory stays where it was. Call once, at startup, before any thread starts.
void tune_allocator_for_batches();

}  // namespace footfix

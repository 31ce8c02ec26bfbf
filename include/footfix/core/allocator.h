// The process's memory allocator, set up for cleaning many clips in one process.
#pragma once

namespace footfix {

/// The executable's allocator policy (glibc's; nothing elsewhere), set once at startup before
/// any thread starts: requests of 128 KiB and more are mapped on their own and unmapped when
/// freed, at a threshold that stays fixed, and up to 32 MiB freed at the heap's top is kept for
/// reuse. By default glibc raises its threshold (up to 32 MiB) each time a mapped block is freed
/// and serves blocks under it from its heaps from then on: a long clip's per-frame buffers, a few
/// MiB each, made and freed stage after stage, then stay in the heaps as freed pieces while later
/// stages map new pages beside them (docs/tuning.md has the measurement).
void tune_allocator_for_batches();

}  // namespace footfix

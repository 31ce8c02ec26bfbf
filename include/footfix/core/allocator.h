// The process's memory allocator, set up for cleaning many clips in one process.
#pragma once

namespace footfix {

/// The executable's allocator policy (glibc's; nothing elsewhere), set once at startup before
/// any thread starts: requests under 4 MiB (a short clip's arrays and text buffers) come from the
/// heaps, whose pages the next clip reuses instead of mapping, faulting and zeroing new ones;
/// requests of 4 MiB and more (a long clip's arrays) are mapped on their own and unmapped when
/// freed, at a threshold that stays fixed; up to 32 MiB freed at the heap's top is kept for
/// reuse. By default glibc raises its threshold (up to 32 MiB) each time a mapped block is freed
/// and serves blocks under it from its heaps from then on: a long clip's per-frame buffers, a few
/// MiB each, made and freed stage after stage, would then stay in the heaps as freed pieces while
/// later stages map new pages beside them (docs/tuning.md has the measurements).
void tune_allocator_for_batches();

}  // namespace footfix

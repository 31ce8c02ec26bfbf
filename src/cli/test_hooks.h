// Test hooks of the executable, read from the environment: they let a test stop the process at
// an exact point instead of racing it with timers.
#pragma once

namespace footfix::cli {

/// FOOTFIX_TEST_STOP_AT=STAGE:NAME[:N], STAGE being `written` or `committed` (see
/// AtomicWriteStage): the process stops itself (SIGSTOP) the N-th time (default 1) an output file
/// called NAME reaches that stage, so a test can then kill or signal it there.
/// FOOTFIX_TEST_SIGTERM_AT=STAGE:NAME[:N] (when FOOTFIX_TEST_STOP_AT is unset): at that point the
/// process sends itself SIGTERM and the writing thread holds there for 2 s, far longer than the
/// signal watcher takes to end the process unless the stop waits for that thread: what a signal
/// landing between two of a clip's renames does.
/// FOOTFIX_TEST_NAMED_TEMPORARIES (any value): outputs are written through named temporary files,
/// as on a file system without O_TMPFILE (footfix/files/atomic_file.h). Unset: nothing.
void install_test_hooks();

}  // namespace footfix::cli

// The footfix command's exit codes and how failures map to them: a batch records one per clip
// (ItemOutcome, ClipReport::exit_code) and the command exits with the most severe.
#pragma once

#include "footfix/core/error.h"

namespace footfix {

/// Exit codes by class of failure. When several failures happen in one run, the exit code is the
/// most severe one, ranked: internal (70) > check failed (6) > write (5) > process (4) > read (3)
/// > usage (2) > ok (0). So a failed `--check` is never hidden by a clip that could not be read,
/// and a bug is never hidden by anything.
enum ExitCode : int {
  k_exit_ok = 0,
  k_exit_usage = 2,
  k_exit_read = 3,
  k_exit_process = 4,
  k_exit_write = 5,
  k_exit_check_failed = 6,  ///< `clean --check`: a clip is over the quality threshold
  k_exit_internal = 70,     ///< a bug: an unexpected exception
};

int exit_code_for(ErrorKind kind);

/// The more severe of two exit codes by the ranking above (an unknown code ranks as internal).
int most_severe_exit_code(int a, int b);

}  // namespace footfix

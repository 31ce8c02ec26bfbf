#include <algorithm>
#include <iterator>

#include "footfix/batch/exit_codes.h"

namespace footfix {

int exit_code_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::usage: return k_exit_usage;
    case ErrorKind::read: return k_exit_read;
    case ErrorKind::process: return k_exit_process;
    case ErrorKind::write: return k_exit_write;
  }
  return k_exit_internal;
}

int most_severe_exit_code(int a, int b) {
  static const int k_ranked[] = {k_exit_ok,    k_exit_usage, k_exit_read,        k_exit_process,
                                 k_exit_write, k_exit_check_failed, k_exit_internal};
  auto rank = [](int code) {
    const int* at = std::find(std::begin(k_ranked), std::end(k_ranked), code);
    return at == std::end(k_ranked) ? static_cast<int>(std::size(k_ranked)) : static_cast<int>(at - k_ranked);
  };
  return rank(a) >= rank(b) ? a : b;
}

}  // namespace footfix

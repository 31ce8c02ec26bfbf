#include "footfix/batch/commit_gate.h"

#include <mutex>

namespace footfix {

bool CommitGate::pass(const std::function<void()>& commit) {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  if (closed_) return false;
  commit();
  return true;
}

void CommitGate::close() {
  std::unique_lock<std::shared_mutex> lock(mutex_);
  closed_ = true;
}

}  // namespace footfix

// The step that puts a clip's outputs in place, made one that a stop waits for: clean_one commits
// a clip's files (the clip, its contacts, a patched .gltf's buffer file) through the gate, and a
// batch's stop closes it, waiting for commits under way and refusing any after. An interrupted run
// thus ends between two clips' commits, never inside one, whatever the signal's timing.
#pragma once

#include <functional>
#include <shared_mutex>

namespace footfix {

class CommitGate {
 public:
  /// Runs `commit` unless the gate is closed; returns whether it ran. Any number of threads at a
  /// time; close() waits for them.
  bool pass(const std::function<void()>& commit);

  /// Waits for the commits under way to end and lets no other one start. From any thread; it
  /// must not be a thread inside pass().
  void close();

 private:
  std::shared_mutex mutex_;
  bool closed_ = false;  ///< written under the exclusive lock, read under the shared one
};

}  // namespace footfix

#include "interrupt.h"

#include <pthread.h>

#include <cstdlib>
#include <ctime>
#include <string>

namespace footfix::cli {

namespace {
/// How often the watcher looks whether it should stop (the batch ended).
constexpr long k_poll_ns = 20'000'000;
}  // namespace

InterruptWatch::InterruptWatch(std::function<void(int)> on_signal) : on_signal_(std::move(on_signal)) {
  sigemptyset(&signals_);
  sigaddset(&signals_, SIGINT);
  sigaddset(&signals_, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals_, &previous_mask_);
  watcher_ = std::thread([this] { watch(); });
}

InterruptWatch::~InterruptWatch() {
  stop_ = true;
  watcher_.join();
  pthread_sigmask(SIG_SETMASK, &previous_mask_, nullptr);
}

void InterruptWatch::watch() {
  while (!stop_) {
    const timespec wait{0, k_poll_ns};
    const int signal = sigtimedwait(&signals_, nullptr, &wait);
    if (signal <= 0) continue;
    on_signal_(signal);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, signal);
    pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
    ::raise(signal);  // this thread: the files module's handler (temporary files), then the default action
    std::_Exit(128 + signal);  // only if the signal was handled and returned
  }
}

std::string signal_name(int signal) {
  if (signal == SIGINT) return "SIGINT";
  if (signal == SIGTERM) return "SIGTERM";
  return "signal " + std::to_string(signal);
}

std::size_t test_interrupt_after() {
  const char* text = std::getenv("FOOTFIX_TEST_INTERRUPT_AFTER");
  return text != nullptr ? static_cast<std::size_t>(std::strtoul(text, nullptr, 10)) : 0;
}

}  // namespace footfix::cli

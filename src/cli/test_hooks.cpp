#include "test_hooks.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "footfix/files/atomic_file.h"
#include "files/temporary_file.h"

namespace footfix::cli {
namespace {

/// How long FOOTFIX_TEST_SIGTERM_AT holds the writing thread after sending the signal: far longer
/// than the signal watcher needs to end the process, unless a stop waits for this very commit.
constexpr auto k_hold_after_sigterm = std::chrono::seconds(2);

struct StopAt {
  AtomicWriteStage stage = AtomicWriteStage::written;
  std::string name;
  long occurrence = 1;
  bool sigterm = false;  ///< FOOTFIX_TEST_SIGTERM_AT: send SIGTERM and hold, instead of SIGSTOP
};

StopAt g_stop_at;
std::atomic<long> g_seen{0};

void stop_when_reached(const std::filesystem::path& target, AtomicWriteStage stage) {
  if (stage != g_stop_at.stage || target.filename() != g_stop_at.name) return;
  if (g_seen.fetch_add(1) + 1 != g_stop_at.occurrence) return;
  if (!g_stop_at.sigterm) {
    ::raise(SIGSTOP);
    return;
  }
  ::kill(::getpid(), SIGTERM);  // to the process: the signal watcher takes it
  std::this_thread::sleep_for(k_hold_after_sigterm);
}

/// Parses STAGE:NAME[:N] into g_stop_at; false if malformed.
bool parse_stop_at(const std::string& spec) {
  const size_t colon = spec.find(':');
  if (colon == std::string::npos) return false;
  const std::string stage = spec.substr(0, colon);
  if (stage != "written" && stage != "committed") return false;
  g_stop_at.stage = stage == "written" ? AtomicWriteStage::written : AtomicWriteStage::committed;
  std::string rest = spec.substr(colon + 1);
  if (const size_t count = rest.rfind(':'); count != std::string::npos) {
    g_stop_at.occurrence = std::strtol(rest.c_str() + count + 1, nullptr, 10);
    rest.resize(count);
  }
  g_stop_at.name = rest;
  return true;
}

}  // namespace

void install_test_hooks() {
  if (std::getenv("FOOTFIX_TEST_NAMED_TEMPORARIES") != nullptr) io_detail::use_named_temporaries_only();
  const char* stop = std::getenv("FOOTFIX_TEST_STOP_AT");
  const char* term = std::getenv("FOOTFIX_TEST_SIGTERM_AT");
  g_stop_at.sigterm = stop == nullptr && term != nullptr;
  const char* text = stop != nullptr ? stop : term;
  if (text != nullptr && parse_stop_at(text)) set_atomic_write_observer(stop_when_reached);
}

}  // namespace footfix::cli

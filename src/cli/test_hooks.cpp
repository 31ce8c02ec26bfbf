#include "test_hooks.h"

#include <signal.h>

#include <atomic>
#include <cstdlib>
#include <string>

#include "footfix/files/atomic_file.h"
#include "files/temporary_file.h"

namespace footfix::cli {
namespace {

struct StopAt {
  AtomicWriteStage stage = AtomicWriteStage::written;
  std::string name;
  long occurrence = 1;
};

StopAt g_stop_at;
std::atomic<long> g_seen{0};

void stop_when_reached(const std::filesystem::path& target, AtomicWriteStage stage) {
  if (stage != g_stop_at.stage || target.filename() != g_stop_at.name) return;
  if (g_seen.fetch_add(1) + 1 == g_stop_at.occurrence) ::raise(SIGSTOP);
}

}  // namespace

void install_test_hooks() {
  if (std::getenv("FOOTFIX_TEST_NAMED_TEMPORARIES") != nullptr) io_detail::use_named_temporaries_only();
  const char* text = std::getenv("FOOTFIX_TEST_STOP_AT");
  if (text == nullptr) return;
  const std::string spec = text;
  const size_t colon = spec.find(':');
  if (colon == std::string::npos) return;
  const std::string stage = spec.substr(0, colon);
  if (stage != "written" && stage != "committed") return;
  g_stop_at.stage = stage == "written" ? AtomicWriteStage::written : AtomicWriteStage::committed;
  std::string rest = spec.substr(colon + 1);
  if (const size_t count = rest.rfind(':'); count != std::string::npos) {
    g_stop_at.occurrence = std::strtol(rest.c_str() + count + 1, nullptr, 10);
    rest.resize(count);
  }
  g_stop_at.name = rest;
  set_atomic_write_observer(stop_when_reached);
}

}  // namespace footfix::cli

#include "console.h"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

namespace footfix::cli {
namespace {

struct ConsoleState {
  std::mutex mutex;
  bool color = false;
  bool terminal = false;
  Verbosity verbosity = Verbosity::normal;
  std::string progress;  ///< the progress line shown now, empty if none
};

ConsoleState& state() {
  static ConsoleState s;
  return s;
}

const char* level_label(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::critical:
    case spdlog::level::err: return "error";
    case spdlog::level::warn: return "warning";
    case spdlog::level::info: return "info";
    default: return "debug";
  }
}

const char* level_color(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::critical:
    case spdlog::level::err: return "\033[1;31m";
    case spdlog::level::warn: return "\033[33m";
    case spdlog::level::info: return "\033[32m";
    default: return "\033[36m";
  }
}

/// Caller holds the state mutex.
void write_line_locked(ConsoleState& s, spdlog::level::level_enum level, std::string_view message) {
  std::string line;
  if (!s.progress.empty()) line += "\r\033[K";
  if (s.color) line += level_color(level);
  line += level_label(level);
  line += ':';
  if (s.color) line += "\033[0m";
  line += ' ';
  line += escape_for_console(message);
  line += '\n';
  if (!s.progress.empty()) line += s.progress;
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

class ConsoleSink final : public spdlog::sinks::base_sink<spdlog::details::null_mutex> {
 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    ConsoleState& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    write_line_locked(s, msg.level, std::string_view(msg.payload.data(), msg.payload.size()));
  }
  void flush_() override { std::fflush(stderr); }
};

bool env_says_no_color() {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return true;
  const char* term = std::getenv("TERM");
  return term && std::strcmp(term, "dumb") == 0;
}

}  // namespace

bool parse_color_mode(const std::string& text, ColorMode& mode) {
  if (text == "auto") mode = ColorMode::automatic;
  else if (text == "always") mode = ColorMode::always;
  else if (text == "never") mode = ColorMode::never;
  else return false;
  return true;
}

void setup_console(Verbosity verbosity, ColorMode color) {
  ConsoleState& s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.terminal = ::isatty(STDERR_FILENO) == 1;
    s.verbosity = verbosity;
    s.color = color == ColorMode::always || (color == ColorMode::automatic && s.terminal && !env_says_no_color());
  }
  auto logger = std::make_shared<spdlog::logger>("footfix", std::make_shared<ConsoleSink>());
  logger->set_level(verbosity == Verbosity::quiet     ? spdlog::level::err
                    : verbosity == Verbosity::verbose ? spdlog::level::debug
                                                      : spdlog::level::info);
  spdlog::set_default_logger(logger);
}

bool console_quiet() { return state().verbosity == Verbosity::quiet; }

void progress_update(size_t done, size_t total, const std::string& name) {
  ConsoleState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.terminal || s.verbosity == Verbosity::quiet) return;
  s.progress = "[" + std::to_string(done) + "/" + std::to_string(total) + "] " + escape_for_console(name);
  std::string line = "\r\033[K" + s.progress;
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

void progress_end() {
  ConsoleState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.progress.empty()) return;
  s.progress.clear();
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
}

std::string counted(size_t n, std::string_view noun) {
  std::string text = std::to_string(n) + " ";
  text += noun;
  if (n != 1) text += 's';
  return text;
}

void print_error(std::string_view message) {
  ConsoleState& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  write_line_locked(s, spdlog::level::err, message);
}

}  // namespace footfix::cli

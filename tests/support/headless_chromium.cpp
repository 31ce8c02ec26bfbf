#include "support/headless_chromium.h"

#include <sys/wait.h>

#include <cstdlib>

#include "footfix/files/atomic_file.h"
#include "support/run_cli.h"

namespace footfix::test {
namespace fs = std::filesystem;

std::string find_chromium() {
  for (const char* candidate : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (fs::exists(candidate)) return candidate;
  return "";
}

int run_chromium(const std::string& chromium, const fs::path& profile, const std::string& mode, const std::string& url,
                 const fs::path& out, int width, int height) {
  std::string command = "timeout 120 " + quoted(fs::path(chromium)) +
                        " --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars --user-data-dir=" +
                        quoted(profile) + " --window-size=" + std::to_string(width) + "," + std::to_string(height) +
                        " " + mode + " '" + url + "' > " + quoted(out) + " 2>" + quoted(profile / "stderr.log");
  int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string chromium_unusable(const std::string& chromium, const fs::path& profile) {
  if (chromium.empty()) return "chromium is not installed (scripts/setup.sh installs it with the tests)";
  fs::create_directories(profile);
  if (run_chromium(chromium, profile, "--dump-dom", "about:blank", profile / "blank.html") != 0)
    return "chromium cannot run here: " + read_file(profile / "stderr.log").substr(0, 2000);
  return "";
}

}  // namespace footfix::test

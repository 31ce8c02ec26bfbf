// Debian's chromium, headless, for the tests of the HTML report: where it is, whether it starts
// here, and one run of it on a page (--dump-dom or --screenshot=FILE).
#pragma once

#include <filesystem>
#include <string>

namespace footfix::test {

/// The chromium binary, or "" when it is not installed.
std::string find_chromium();

/// Runs `chromium` headless with profile folder `profile` and a `width` x `height` window on
/// `url` with `mode` (e.g. "--dump-dom"), stdout to `out`, stderr to `profile`/stderr.log.
/// Returns its exit status (-1 when it did not exit).
int run_chromium(const std::string& chromium, const std::filesystem::path& profile, const std::string& mode,
                 const std::string& url, const std::filesystem::path& out, int width = 1000, int height = 1600);

/// Why chromium cannot be used here ("" when it can): not installed, or it cannot start.
std::string chromium_unusable(const std::string& chromium, const std::filesystem::path& profile);

}  // namespace footfix::test

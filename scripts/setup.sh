#!/usr/bin/env bash
# Installs footfix's build dependencies from Debian's packages (when missing) and builds it.
# Usage: scripts/setup.sh [BUILD_DIR] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${1:-build}"
shift || true

packages=(cmake ninja-build g++ libassimp-dev libcli11-dev libspdlog-dev nlohmann-json3-dev
          libgtest-dev zlib1g-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
updated=0
if [ ${#missing[@]} -gt 0 ]; then
  echo "footfix: installing ${missing[*]}" >&2
  $sudo_cmd apt-get update -qq
  updated=1
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The HTML report's browser test runs Debian's chromium headless; only needed with the tests.
# Without it (no candidate in the package lists) that test reports itself as skipped.
chromium_candidate() { apt-cache policy chromium 2>/dev/null | awk '/Candidate:/ {print $2}'; }
if [[ " $* " != *" -DFOOTFIX_BUILD_TESTS=OFF "* ]] && ! dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q "install ok installed"; then
  if [ "$updated" = 0 ] && { [ -z "$(chromium_candidate)" ] || [ "$(chromium_candidate)" = "(none)" ]; }; then
    $sudo_cmd apt-get update -qq || true
  fi
  if [ -n "$(chromium_candidate)" ] && [ "$(chromium_candidate)" != "(none)" ]; then
    echo "footfix: installing chromium (browser test of the HTML report)" >&2
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends chromium >/dev/null ||
      echo "footfix: chromium could not be installed; the browser test will be skipped" >&2
  else
    echo "footfix: no chromium package available; the browser test will be skipped" >&2
  fi
fi

if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
fi
cmake --build "$build_dir" -j "$(nproc)" >&2

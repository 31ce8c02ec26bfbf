#!/usr/bin/env bash
# Installs what a footfix build needs from Debian's packages (only what is missing) and builds it.
# Usage: scripts/setup.sh [--tests] [BUILD_DIR] [extra cmake arguments...]
#   without --tests: the footfix executable alone, with only its build dependencies;
#   with --tests:    everything (tests, benchmarks, examples), also installing GoogleTest, libpng,
#                    Google Benchmark and chromium (the HTML report's browser test; skipped
#                    when no package exists).
# Extra cmake arguments (re)configure BUILD_DIR (default: build) with them; without any, an
# existing build directory keeps its configuration.
set -euo pipefail
cd "$(dirname "$0")/.."

with_tests=0
if [ "${1:-}" = "--tests" ]; then
  with_tests=1
  shift
fi
build_dir="${1:-build}"
shift || true
cmake_args=("$@")

say() { echo "footfix setup: $*" >&2; }
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
apt_updated=0
apt_install() {
  if [ "$apt_updated" = 0 ]; then
    say "updating the package lists"
    $sudo_cmd apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

gltf_validator_version=2.0.0-dev.3.10
packages=(cmake ninja-build g++ libassimp-dev libcli11-dev libspdlog-dev nlohmann-json3-dev zlib1g-dev)
[ "$with_tests" = 1 ] && packages+=(libgtest-dev libbenchmark-dev libpng-dev)
missing=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  apt_install "${missing[@]}"
fi

if [ "$with_tests" = 1 ] && ! installed chromium; then
  say "installing chromium (the HTML report's browser test)"
  apt_install chromium || say "chromium could not be installed; the browser test will report itself as skipped"
fi

configure=0
[ ! -f "$build_dir/build.ninja" ] && configure=1
[ ${#cmake_args[@]} -gt 0 ] && configure=1
if [ "$with_tests" = 1 ]; then
  # A directory first configured for the executable alone gets its tests switched on.
  grep -q '^FOOTFIX_BUILD_TESTS:BOOL=OFF' "$build_dir/CMakeCache.txt" 2>/dev/null && configure=1
  cmake_args=(-DFOOTFIX_BUILD_TESTS=ON -DFOOTFIX_BUILD_BENCH=ON -DFOOTFIX_BUILD_EXAMPLES=ON "${cmake_args[@]}")
elif [ ! -f "$build_dir/CMakeCache.txt" ]; then
  cmake_args=(-DFOOTFIX_BUILD_TESTS=OFF -DFOOTFIX_BUILD_BENCH=OFF -DFOOTFIX_BUILD_EXAMPLES=OFF "${cmake_args[@]}")
fi
if [ "$configure" = 1 ]; then
  say "configuring $build_dir ${cmake_args[*]}"
  cmake -S . -B "$build_dir" -G Ninja "${cmake_args[@]}" >/dev/null
fi

if [ "$with_tests" = 1 ] && [ ! -d "$build_dir/npm-gltf/node_modules/gltf-validator" ]; then
  # The Khronos glTF validator, for the tests that check every glTF footfix writes.
  if command -v npm >/dev/null 2>&1; then
    say "installing the Khronos glTF validator (npm gltf-validator@$gltf_validator_version) into $build_dir/npm-gltf"
    timeout 300 npm install --silent --no-audit --no-fund --prefix "$build_dir/npm-gltf" \
      "gltf-validator@$gltf_validator_version" >/dev/null 2>&1 ||
      say "gltf-validator could not be installed; the glTF validator tests will report themselves as skipped"
  else
    say "npm not found; the glTF validator tests will report themselves as skipped"
  fi
fi

if [ "$with_tests" = 1 ]; then
  say "building everything in $build_dir ($(nproc) jobs)"
  cmake --build "$build_dir" -j "$(nproc)" >&2
else
  say "building $build_dir/footfix ($(nproc) jobs)"
  cmake --build "$build_dir" -j "$(nproc)" --target footfix >&2
fi

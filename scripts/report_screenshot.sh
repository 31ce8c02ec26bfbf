#!/usr/bin/env bash
# Regenerates docs/report.png, the README's screenshot of the HTML report, from a real batch:
# the built footfix cleans two bundled clips with --check and --html, and Debian's headless
# chromium takes the screenshot (after the motion players are drawn). Run after a build:
#   scripts/report_screenshot.sh [BUILD_DIR (default build)] [OUT.png (default docs/report.png)]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
out="${2:-$root/docs/report.png}"
footfix="$build/footfix"
chromium="$(command -v chromium || command -v chromium-browser || true)"
[ -x "$footfix" ] || { echo "no $footfix: build first (scripts/setup.sh)" >&2; exit 1; }
[ -n "$chromium" ] || { echo "chromium is not installed (scripts/setup.sh --tests installs it)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in"
cp "$root/data/clips/cmu_07_01_walk.bvh" "$work/in/walk.bvh"
cp "$root/data/clips/cmu3dsmax_131_01_start_walk_stop.bvh" "$work/in/start_walk_stop.bvh"
# Relative paths, so the page names in/ and out/ rather than the temporary folder.
# Exit status 6 (a clip over the --check threshold) still draws the page.
rc=0
(cd "$work" && "$footfix" clean in -o out --check --html report.html -q) || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 6 ] || { echo "footfix clean failed (exit $rc)" >&2; exit 1; }
# Virtual time lets the players' IntersectionObserver draw them before the screenshot.
"$chromium" --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
  --user-data-dir="$work/profile" --window-size=1000,1500 --virtual-time-budget=3000 \
  --screenshot="$work/report.png" "file://$work/report.html" > /dev/null 2> "$work/chromium.log" \
  || { cat "$work/chromium.log" >&2; exit 1; }
cp "$work/report.png" "$out"
echo "wrote $out"

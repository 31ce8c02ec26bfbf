#!/usr/bin/env bash
# Runs each libFuzzer target for a given time, one at a time (-jobs=1), with a seed corpus made
# from the clips in data/clips and ../shared/data/clips (each cut to its hierarchy and first
# motion rows, so inputs stay small), tests/data/bad and tests/fuzz/seeds/<target>.
#
#   scripts/fuzz.sh SECONDS [TARGET...]     e.g. scripts/fuzz.sh 600 fuzz_bvh
#
# Builds build-fuzz with clang++ if needed. Crashers go to $FUZZ_CRASH_DIR (default
# build-fuzz/crashers/<target>/); copy each into tests/fuzz/crashers/<target>/ as a regression case.
# The working corpus (grows as the fuzzer finds coverage) is build-fuzz/corpus/<target>/.
# Exit status is non-zero if any target found a crash, leak, timeout or out-of-memory input.
# FUZZ_ARGS adds libFuzzer flags (e.g. FUZZ_ARGS=-only_ascii=1). Leaks inside third-party code
# (assimp 5.2's FBX importer on malformed files) are suppressed by tests/fuzz/lsan.supp, each
# entry explained there; every other leak is a finding.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
seconds="${1:?usage: scripts/fuzz.sh SECONDS [TARGET...]}"
shift
build="${FUZZ_BUILD_DIR:-build-fuzz}"
crash_root="${FUZZ_CRASH_DIR:-$build/crashers}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=()
  for f in tests/fuzz/fuzz_*.cpp; do
    # fuzz_fbx is built only once the FBX reader is in the checkout.
    if [ "$f" = tests/fuzz/fuzz_fbx.cpp ] && [ ! -f src/fbx/fbx_document.h ]; then continue; fi
    targets+=("$(basename "$f" .cpp)")
  done
fi

if [ ! -f "$build/build.ninja" ]; then
  CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFOOTFIX_FUZZ=ON \
    -DFOOTFIX_BUILD_TESTS=OFF -DFOOTFIX_BUILD_BENCH=OFF
fi
ninja -C "$build" -j2 "${targets[@]}"

# A BVH clip cut to its hierarchy and first `rows` motion rows, with Frames: fixed to match.
cut_bvh() {
  awk -v rows="$2" '
    /^[ \t]*Frames:/ { print "Frames: " rows; next }
    /^[ \t]*Frame Time:/ { print; motion = 1; next }
    motion { if (n++ < rows) print; next }
    { print }' "$1"
}

make_seeds() {
  local target="$1" dir="$2"
  mkdir -p "$dir"
  case "$target" in
    fuzz_bvh)
      for clip in data/clips/*.bvh ../shared/data/clips/*.bvh; do
        [ -f "$clip" ] || continue
        cut_bvh "$clip" 3 > "$dir/$(basename "$clip" .bvh)-3.bvh"
      done
      find tests/data/bad -name '*.bvh' -size -64k -exec cp {} "$dir/" \; 2>/dev/null || true ;;
    fuzz_fbx)
      for clip in data/clips/*.fbx ../shared/data/clips/*.fbx; do
        [ -f "$clip" ] && [ "$(stat -c %s "$clip")" -le "$fbx_max_len" ] && cp "$clip" "$dir/"
      done ;;
    fuzz_contacts_json)
      find tests/data/bad -name 'contacts_*.json' -exec cp {} "$dir/" \; ;;
    fuzz_rig_profile)
      find tests/data/bad -name 'profile_*.json' -exec cp {} "$dir/" \; ;;
  esac
  local name="${target#fuzz_}" extra
  for extra in "tests/fuzz/seeds/$name" "tests/fuzz/crashers/$name"; do
    if [ -d "$extra" ]; then find "$extra" -type f ! -name '.*' -exec cp {} "$dir/" \; ; fi
  done
}

# Named, commented suppressions of third-party leaks only (see the file); any given
# LSAN_OPTIONS are kept after it.
export LSAN_OPTIONS="suppressions=$root/tests/fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

status=0
fbx_max_len=524288  # FBX seeds are whole files (the smallest shared one is 195 KB)
for target in "${targets[@]}"; do
  max_len=65536
  [ "$target" = fuzz_fbx ] && max_len=$fbx_max_len
  corpus="$build/corpus/$target"
  crashes="$crash_root/$target"
  mkdir -p "$crashes"
  before="$(ls "$crashes" | wc -l)"
  make_seeds "$target" "$corpus"
  echo "== $target: ${seconds}s, corpus $(ls "$corpus" | wc -l) files, crashers to $crashes/"
  if ! "$build/tests/fuzz/$target" "$corpus" -max_total_time="$seconds" -max_len="$max_len" \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$crashes/" ${FUZZ_ARGS:-} \
        2>&1 | tee "$build/$target.log" | grep -E '^(#[0-9]+[[:space:]]+(DONE|INITED)|stat::|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written)'; then
    :
  fi
  if [ "$(ls "$crashes" | wc -l)" != "$before" ]; then
    echo "!! $target: new findings in $crashes/"
    status=1
  fi
done
exit $status

#!/usr/bin/env bash
# Byte-identity check of two footfix binaries on FBX input: `clean` (default options and
# `--loop off`), `annotate`, `inspect --json` and `convert x.fbx x.bvh` on every .fbx given or
# found (recursively) under the directories given. Every output file, stdout, stderr and exit
# code is compared byte for byte; both binaries write under one path, so messages that name
# files match.
#
#   scripts/fbx_identity.sh BASE_EXE NEW_EXE DIR_OR_FILE...
#   e.g. scripts/fbx_identity.sh /tmp/footfix-main build/footfix ../shared/data/clips data/clips
#
# Exit status 0 when identical, 1 when not (the differences are kept and named).
set -u
base=$1 new=$2
shift 2
files=()
for a in "$@"; do
  if [ -d "$a" ]; then
    while IFS= read -r f; do files+=("$f"); done < <(find "$a" -name '*.fbx' | sort)
  else
    files+=("$a")
  fi
done
work=$(mktemp -d /tmp/fbx_identity.XXXXXX)

# Runs every command on every file with `$1`, outputs under $work/run.
run_all() {
  local exe=$1 run=$work/run i=0 f d stem
  rm -rf "$run"
  mkdir -p "$run"
  for f in "${files[@]}"; do
    i=$((i + 1))
    d=$run/$i
    stem=$(basename "$f" .fbx)
    mkdir -p "$d/convert"
    "$exe" clean "$f" -o "$d/clean" >"$d/clean.out" 2>"$d/clean.err"; echo $? >"$d/clean.rc"
    "$exe" clean "$f" --loop off -o "$d/clean_loop_off" >"$d/loop.out" 2>"$d/loop.err"; echo $? >"$d/loop.rc"
    "$exe" annotate "$f" -o "$d/annotate" >"$d/annotate.out" 2>"$d/annotate.err"; echo $? >"$d/annotate.rc"
    "$exe" inspect --json "$f" >"$d/inspect.json" 2>"$d/inspect.err"; echo $? >"$d/inspect.rc"
    "$exe" convert "$f" "$d/convert/$stem.bvh" >"$d/convert.out" 2>"$d/convert.err"; echo $? >"$d/convert.rc"
  done
}

run_all "$base" && mv "$work/run" "$work/base"
run_all "$new" && mv "$work/run" "$work/new"
echo "${#files[@]} FBX files, 5 commands each: $(find "$work/base" -type f | wc -l) files compared"
if diff -r "$work/base" "$work/new" >"$work/diff.txt"; then
  echo "identical: every output file, stdout, stderr and exit code"
  rm -rf "$work"
else
  echo "DIFFERENT ($work/diff.txt):"
  head -40 "$work/diff.txt"
  exit 1
fi

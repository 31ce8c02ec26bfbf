#!/usr/bin/env python3
"""The slide protocol on glTF versions of the shared locomotion clips, against their sources.

Each clip of tests/support/locomotion_clips.h gets a .glb: a BVH through `footfix convert x.bvh
x.glb`, a binary FBX through Blender's own FBX importer and glTF exporter (bench/fbx_to_gltf.py;
skipped, saying so, without `blender`), an ASCII FBX (which Blender does not read) through
`footfix convert x.fbx x.glb`. `footfix compare --slide-protocol --json` then runs on
source and glTF alike: the root's horizontal motion scaled x1.00, x1.25 and x0.75, each cleaned
and measured under the unscaled clip's contacts. The residual is the offline clean's contact
slide as a percentage of the scaled input's; the issue's bar is the same residual within 0.5
points.

Usage: bench/gltf_slide_protocol.py [--build DIR] [--work DIR] [clip...]
  --build  the build directory holding footfix (default: build)
  --work   where the glTF files go (default: a new temporary folder, kept)
Exit status 1 when a row differs by more than 0.5 points or a file could not be made or read.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BAR_POINTS = 0.5


def locomotion_clips():
    with open(os.path.join(ROOT, "tests", "support", "locomotion_clips.h")) as f:
        return re.findall(r'"([^"]+\.(?:bvh|fbx))"', f.read())


def clip_path(name):
    for folder in (os.path.join(ROOT, "data", "clips"), os.path.join(ROOT, "..", "shared", "data", "clips")):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            return os.path.normpath(path)
    return None


def blender_env():
    """The environment without a Python version manager's folders (pyenv and the like put their
    own python first on PATH, and Blender's embedded Python then misses Debian's numpy)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYENV", "PYTHON", "VIRTUAL_ENV"))}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".pyenv" not in p and "venv" not in p)
    return env


def make_gltf(exe, source, target):
    """Makes the glTF version of `source`; returns (how, error text or None)."""
    if source.lower().endswith(".fbx"):
        if not shutil.which("blender"):
            return "blender", "blender not installed: FBX clip skipped"
        cmd = ["blender", "-b", "--python", os.path.join(ROOT, "bench", "fbx_to_gltf.py"), "--", source, target]
        run = subprocess.run(cmd, capture_output=True, text=True, env=blender_env())
        if "ASCII FBX files are not supported" not in run.stdout + run.stderr:
            return "blender", None if run.returncode == 0 and os.path.exists(target) else (run.stdout + run.stderr)[-400:]
        # Blender reads binary FBX only: an ASCII FBX goes through footfix's own FBX reader.
    run = subprocess.run([exe, "convert", "-q", source, target], capture_output=True, text=True)
    return "footfix", None if run.returncode == 0 and os.path.exists(target) else (run.stdout + run.stderr)[-400:]


def residuals(exe, clip):
    """{factor: (no-fix slide mm/f, residual %)} from `footfix compare --slide-protocol --json`."""
    run = subprocess.run([exe, "compare", "-q", "--slide-protocol", "--json", clip], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError("%s: compare failed: %s" % (clip, run.stderr[-400:]))
    out = {}
    for variant in json.loads(run.stdout)[0]["variants"]:
        clean = variant["methods"]["offline clean"]
        scaled = clean["slide_source"]["mean_mm_per_frame"]
        cleaned = clean["slide_cleaned"]["mean_mm_per_frame"]
        out[variant["scale"]] = (scaled, 100.0 * cleaned / scaled if scaled > 0 else 0.0)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--work", default=None)
    parser.add_argument("clips", nargs="*")
    args = parser.parse_args()
    exe = os.path.join(args.build, "footfix")
    work = args.work or tempfile.mkdtemp(prefix="footfix-gltf-slide-")
    os.makedirs(work, exist_ok=True)
    names = args.clips or locomotion_clips()
    print("glTF files in %s" % work)
    print("%-42s %5s %-7s %9s %9s %8s %8s %7s  %s" % ("clip", "scale", "glTF by", "src mm/f", "glTF mm/f", "src %", "glTF %",
                                                       "diff", "verdict"))
    failures = 0
    for name in names:
        source = name if os.path.exists(name) else clip_path(name)
        if source is None:
            print("%-42s not found" % name)
            continue
        target = os.path.join(work, os.path.splitext(os.path.basename(source))[0] + ".glb")
        how, error = make_gltf(exe, source, target)
        if error:
            print("%-42s could not make %s (%s): %s" % (os.path.basename(source), target, how, error))
            failures += "skipped" not in error
            continue
        try:
            a, b = residuals(exe, source), residuals(exe, target)
        except RuntimeError as e:
            print("%-42s %s" % (os.path.basename(source), e))
            failures += 1
            continue
        for factor in sorted(a, key=lambda f: (f != 1.0, -f)):
            (slide_a, res_a), (slide_b, res_b) = a[factor], b.get(factor, (float("nan"), float("nan")))
            diff = res_b - res_a
            ok = abs(diff) <= BAR_POINTS
            failures += not ok
            print("%-42s x%.2f %-7s %9.3f %9.3f %8.2f %8.2f %+7.2f  %s" % (os.path.basename(source), factor, how, slide_a,
                                                                            slide_b, res_a, res_b, diff,
                                                                            "ok" if ok else "OVER 0.5"))
    print("\n%d rows over %.1f points (or failed)" % (failures, BAR_POINTS))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

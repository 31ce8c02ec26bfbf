#!/usr/bin/env python3
"""Writes valid but degenerate clips (tests/data/degenerate/*.bvh) for `footfix clean`.

The biped of tests/data/bad/make_bad.py (centimeters; legs hang straight down: hip 5 cm below
the pelvis, 42 cm thigh, 41 cm shin, toe 6 cm down and 12 cm forward), 60 fps. Each clip must
clean to a result (exit 0, finite values) with a warning where the input gives the solver
nothing to do or nothing it can do. Re-run after editing:
    python3 tests/data/degenerate/make_degenerate.py
"""
import math
import os
import sys

sys.dont_write_bytecode = True

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "bad"))
import make_bad  # noqa: E402

FPS = 60
# Pelvis height over the floor when the legs are straight: 5 + 42 + 41 + 6 cm.
STANDING_Y = 94.0


def clip(frames, root, joint_rotation):
    """root(f) -> (x, y, z) in cm; joint_rotation(f, channel) -> degrees for the 39 joint channels."""
    rows = []
    for f in range(frames):
        x, y, z = root(f)
        vals = [x, y, z] + [joint_rotation(f, c) for c in range(3, make_bad.channels())]
        rows.append(" ".join(f"{v:.6g}" for v in vals))
    return (make_bad.hierarchy() + f"MOTION\nFrames: {frames}\nFrame Time: {1 / FPS:.7f}\n" +
            "\n".join(rows) + "\n")


def still(f, c):
    return 0.0


# Channel of a joint's X rotation (the knee/hip bend axis in this rig): joint k (1-based in file
# order: 1 LeftUpLeg, 2 LeftLeg, ..., 5 RightUpLeg, ...) has channels 6 + 3 (k - 1) + (0 Z, 1 X, 2 Y).
def x_channel(k):
    return 6 + 3 * (k - 1) + 1


def main():
    # Always in the air, rising 2 m over 2 s: nothing is ever planted.
    write("never_touches_ground.bvh", clip(120, lambda f: (0, STANDING_Y + 100 + f * 100 / FPS, 0), still))
    # Standing perfectly still: every frame of both feet is a contact.
    write("all_contact.bvh", clip(120, lambda f: (0, STANDING_Y, 0), still))
    # Straight legs at full extension while the pelvis rises 15 cm over 2 s, slowly enough for
    # the feet to count as planted: the planted toes cannot be reached without stretching the legs.
    write("straight_legs_rising.bvh", clip(120, lambda f: (0, STANDING_Y + f * 15 / 120, 0), still))
    # Feet that stop for one frame in every 12 while swinging fast otherwise.
    def blip(f, c):
        if c in (x_channel(1), x_channel(5)):
            phase = (f % 12) / 12
            return 0.0 if f % 12 == 0 else 40 * math.sin(2 * math.pi * phase)
        return 0.0
    write("one_frame_contacts.bvh", clip(120, lambda f: (0, STANDING_Y + 20, 0), blip))


def write(name, text):
    with open(os.path.join(HERE, name), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()

# Imports one glTF file into an empty Blender scene (blender -b --python this.py -- FILE) and
# prints what the gltf importer made of it: "IMPORTED objects=N armature_bones=B frames=A..Z".
import sys

import bpy

path = sys.argv[sys.argv.index("--") + 1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=path)
objects = list(bpy.context.scene.objects)
bones = sum(len(o.data.bones) for o in objects if o.type == "ARMATURE")
start, end = None, None
for action in bpy.data.actions:
    a, z = action.frame_range
    start = a if start is None else min(start, a)
    end = z if end is None else max(end, z)
print("IMPORTED objects=%d armature_bones=%d frames=%d..%d" % (len(objects), bones, round(start or 0), round(end or 0)))

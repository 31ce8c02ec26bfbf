# Imports one glTF file into an empty Blender scene (blender -b --python this.py -- FILE) and
# prints what the gltf importer made of it:
# "IMPORTED objects=N armature_bones=B meshes=M vertices=V frames=A..Z".
import sys

import bpy
import numpy

# Blender 3.4's importer uses numpy.bool, which numpy 1.24 removed (Debian 12 ships both): the
# alias it meant, so that skinned meshes import.
if not hasattr(numpy, "bool"):
    numpy.bool = bool

path = sys.argv[sys.argv.index("--") + 1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=path)
objects = list(bpy.context.scene.objects)
bones = sum(len(o.data.bones) for o in objects if o.type == "ARMATURE")
meshes = [o for o in objects if o.type == "MESH"]
vertices = sum(len(o.data.vertices) for o in meshes)
start, end = None, None
for action in bpy.data.actions:
    a, z = action.frame_range
    start = a if start is None else min(start, a)
    end = z if end is None else max(end, z)
print("IMPORTED objects=%d armature_bones=%d meshes=%d vertices=%d frames=%d..%d" %
      (len(objects), bones, len(meshes), vertices, round(start or 0), round(end or 0)))

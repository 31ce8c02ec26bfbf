# Converts one FBX file to glTF with Blender's own importer and exporter, headless:
#   blender -b --python bench/fbx_to_gltf.py -- IN.fbx OUT.glb|OUT.gltf
# The armature, meshes and every action are exported; animation is baked at the scene's frame
# rate (one key per frame, as Blender's glTF exporter samples it). A .gltf gets a separate .bin.
# Used by bench/gltf_slide_protocol.sh to make glTF versions of the shared Mixamo FBX clips.
import sys

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
source, target = args[0], args[1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.fbx(filepath=source)
fmt = "GLB" if target.lower().endswith(".glb") else "GLTF_SEPARATE"
bpy.ops.export_scene.gltf(filepath=target, export_format=fmt, export_animations=True, export_skins=True,
                          export_force_sampling=True)
print("EXPORTED %s -> %s (%s)" % (source, target, fmt))

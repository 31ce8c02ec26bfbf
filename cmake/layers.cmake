# The module layering, read by CMakeLists.txt (one static library per module, linked to exactly
# the modules listed here), by cmake/check_layers.cmake (the `layering` test: every
# `#include "footfix/<module>/..."`, `"<module>/..."` or `"../<module>/..."` in src/<m> and
# include/footfix/<m> must name <m> itself or a module in FOOTFIX_LAYER_<m>) and by
# cmake/check_link_layers.cmake (the `layering_links` test: the same on the built libraries'
# symbols).
#
# Modules are listed bottom-up; a module may only use modules listed before it, so the graph has
# no cycle. See docs/architecture.md.
#
#   core                        clip, skeleton, math, Euler, FK, errors, read_file, allocator set-up
#   files     -> core           atomic output and temporary files, read limits, file magic
#   bvh       -> core files     BVH text: read, write, repair
#   fbx       -> core files     FBX document, read/write, the isolated assimp import (links assimp)
#   gltf      -> core files     glTF read, patch and write
#   io        -> core files bvh fbx gltf  read_clip_file / save_clip by extension (the dispatch)
#   rig       -> core           leg rig detection, rig profiles, unit/up-axis detection
#   ik        -> core rig       the leg chain solve (foot pitch included) and its height clamps
#   contacts  -> core rig       contact detection, contact settings and the contacts file
#   solve     -> core rig ik contacts         offline solve, clean, treadmill
#   eval      -> core rig contacts            sliding and quality metrics
#   lock      -> core rig ik contacts         runtime foot locking (an engine links it alone)
#   compare   -> core rig ik contacts solve eval lock   no fix vs runtime lock vs offline clean
#   walk      -> core rig contacts            procedural walk generation
#   pipeline  -> core files io rig   load_clip: read a file, detect the rig and units, convert
#   batch     -> core files gltf io rig contacts solve eval pipeline   batch planning, clean_one
#                               (read, clean, measure and write one clip), the typed clip report
#                               and its JSON, shards and the incremental manifest
#   cli       -> everything     the footfix command line (src/cli; footfix_app and the executable)
set(FOOTFIX_MODULES core files bvh fbx gltf io rig ik contacts solve eval lock compare walk pipeline batch)

set(FOOTFIX_LAYER_core)
set(FOOTFIX_LAYER_files core)
set(FOOTFIX_LAYER_bvh core files)
set(FOOTFIX_LAYER_fbx core files)
set(FOOTFIX_LAYER_gltf core files)
set(FOOTFIX_LAYER_io core files bvh fbx gltf)
set(FOOTFIX_LAYER_rig core)
set(FOOTFIX_LAYER_ik core rig)
set(FOOTFIX_LAYER_contacts core rig)
set(FOOTFIX_LAYER_solve core rig ik contacts)
set(FOOTFIX_LAYER_eval core rig contacts)
set(FOOTFIX_LAYER_lock core rig ik contacts)
set(FOOTFIX_LAYER_compare core rig ik contacts solve eval lock)
set(FOOTFIX_LAYER_walk core rig contacts)
set(FOOTFIX_LAYER_pipeline core files io rig)
set(FOOTFIX_LAYER_batch core files gltf io rig contacts solve eval pipeline)
set(FOOTFIX_LAYER_cli ${FOOTFIX_MODULES})
# What the engine example (examples/) links and includes: the runtime lock without the offline
# solve, plus reading a clip and making a walk to drive it.
set(FOOTFIX_LAYER_examples core rig ik contacts lock walk pipeline)

# The modules whose sources may include assimp, and the only ones linked to it (it is a large
# parser of hostile input: the FBX module runs it in an isolated child). The `layering` test
# checks every include of <assimp/...> against it.
set(FOOTFIX_ASSIMP_MODULES fbx)

# The modules whose sources may include nlohmann_json, directly or through a private JSON header
# (contacts/contacts_json.h, gltf/gltf_document.h, ...), and the only ones linked to it (PRIVATE: no
# public header includes it, so no user of a module needs it). The `layering` test checks every
# include of <nlohmann/...> and of a private header that brings it in against this list.
set(FOOTFIX_JSON_MODULES gltf rig contacts solve lock walk batch)

# The files of src/cli that declare options: the footfix executable, and the only files that may
# include CLI11 (the `layering` test checks it). The rest of src/cli is the footfix_app library.
set(FOOTFIX_CLI_OPTION_SOURCES main.cpp cmd_*.cpp *_options.cpp typo_help.cpp)

# cmake/layers.cmake with one of the format edges taken away (io may no longer use fbx), for the
# `layering_links_planted_fbx` test: read_clip_file reads .fbx through the fbx module, so the link
# check must fail.
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/layers.cmake")
set(FOOTFIX_LAYER_io core files bvh gltf)

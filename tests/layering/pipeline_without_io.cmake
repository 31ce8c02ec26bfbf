# cmake/layers.cmake with one edge taken away (pipeline may no longer use io), for the
# `layering_links_planted` test: load_clip reads through io, so the link check must fail.
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/layers.cmake")
set(FOOTFIX_LAYER_pipeline core files rig)

# ctest driver (cmake -P): shows that the `layering` check (cmake/check_layers.cmake) fails on a
# violation. Builds small source trees under WORK_DIR, each with one planted include, runs the
# check on each with the project's real cmake/layers.cmake, and requires it to fail naming the
# file and the edge; a tree of allowed includes only must pass.
# Variables: SOURCE_DIR (the project), WORK_DIR (scratch folder).
cmake_minimum_required(VERSION 3.22)
foreach(var SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "${var} is not set")
  endif()
endforeach()
set(check "${SOURCE_DIR}/cmake/check_layers.cmake")

# check_tree(NAME <case> LAYERS <file> EXPECT pass|fail [MESSAGE <regex>] FILES <path> <text> ...)
function(check_tree)
  cmake_parse_arguments(arg "" "NAME;LAYERS;EXPECT;MESSAGE" "FILES" ${ARGN})
  set(root "${WORK_DIR}/${arg_NAME}")
  file(REMOVE_RECURSE "${root}")
  # Every tree holds one allowed cross-module include, so "pass" is not an empty check.
  file(WRITE "${root}/src/solve/allowed.cpp" "#include \"footfix/contacts/detect_contacts.h\"\n#include \"rig/rig_geometry.h\"\n")
  set(files ${arg_FILES})
  while(files)
    list(POP_FRONT files path text)
    file(WRITE "${root}/${path}" "${text}\n")
  endwhile()
  execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${root} -DLAYERS=${arg_LAYERS} -P ${check}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(all "${out}${err}")
  if(arg_EXPECT STREQUAL "pass" AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${arg_NAME}: the check failed on allowed includes:\n${all}")
  endif()
  if(arg_EXPECT STREQUAL "fail")
    if(rc EQUAL 0)
      message(FATAL_ERROR "${arg_NAME}: the check passed a planted violation:\n${all}")
    endif()
    if(NOT all MATCHES "${arg_MESSAGE}")
      message(FATAL_ERROR "${arg_NAME}: the check failed without naming the violation (${arg_MESSAGE}):\n${all}")
    endif()
  endif()
  message(STATUS "${arg_NAME}: ${arg_EXPECT}ed as expected")
endfunction()

set(layers "${SOURCE_DIR}/cmake/layers.cmake")
check_tree(NAME allowed LAYERS ${layers} EXPECT pass
  FILES src/pipeline/load.cpp "#include \"footfix/io/clip_io.h\"\n#include <footfix/rig/leg_rig.h>"
        src/fbx/read.cpp "#include <assimp/scene.h>\n#include \"files/file_magic.h\""
        src/io/dispatch.cpp "#include \"footfix/bvh/bvh.h\"\n#include \"gltf/gltf_patch.h\""
        include/footfix/eval/metrics.h "#include \"footfix/contacts/detect_contacts.h\"\n#include <vector>")
# planted_edge(<from> <to> <file> <include line>): <file> (in module <from>) includes a header of
# module <to>, which <from> may not use; the check must fail naming the file and the edge.
function(planted_edge from to path line)
  check_tree(NAME ${from}_uses_${to} LAYERS ${layers} EXPECT fail MESSAGE "${path}: ${from} -> ${to} is not allowed"
    FILES ${path} "${line}")
endfunction()
planted_edge(rig io src/rig/planted.cpp "#include \"footfix/io/clip_io.h\"")
planted_edge(io rig include/footfix/io/planted.h "#pragma once\n#include <footfix/rig/leg_rig.h>")
# Each format module stands alone on files: no format reads through another, files uses none of
# them, and the rest of the library reaches them through io.
planted_edge(bvh fbx src/bvh/planted.cpp "#include \"fbx/fbx_document.h\"")  # a private header
planted_edge(gltf bvh include/footfix/gltf/planted.h "#pragma once\n#include \"footfix/bvh/bvh.h\"")
planted_edge(files io src/files/planted.cpp "#include \"footfix/io/clip_io.h\"")
planted_edge(rig fbx src/rig/planted.cpp "#include \"footfix/fbx/fbx.h\"")
planted_edge(contacts solve src/contacts/planted.cpp "#include \"solve/clean_settings_json.h\"")  # a private header
planted_edge(core io src/core/planted.cpp "  #  include \"../io/os_error.h\"")
planted_edge(lock pipeline src/lock/planted.cpp "#include \"footfix/pipeline/load_clip.h\"")
# The runtime lock stays free of the offline solve (an engine links it alone), and the leg IK
# below both uses neither.
planted_edge(lock solve src/lock/planted.cpp "#include \"footfix/solve/clean.h\"")
planted_edge(lock solve include/footfix/lock/planted.h "#pragma once\n#include \"footfix/solve/clean.h\"")
planted_edge(ik solve src/ik/planted.cpp "#include \"footfix/solve/offline_solve.h\"")
planted_edge(lock compare src/lock/planted.cpp "#include \"footfix/compare/compare_methods.h\"")
planted_edge(examples solve examples/planted.cpp "#include \"footfix/solve/clean.h\"")
check_tree(NAME cli11_outside_option_files LAYERS ${layers} EXPECT fail
  MESSAGE "src/cli/batch\\.cpp: CLI11 outside the command line's option files"
  FILES src/cli/batch.cpp "#include <CLI/CLI.hpp>" src/cli/cmd_clean.cpp "#include <CLI/CLI.hpp>")
check_tree(NAME public_header_includes_nlohmann LAYERS ${layers} EXPECT fail
  MESSAGE "include/footfix/contacts/planted\\.h: a public header includes a private dependency"
  FILES include/footfix/contacts/planted.h "#pragma once\n#include <nlohmann/json_fwd.hpp>")
check_tree(NAME assimp_outside_fbx LAYERS ${layers} EXPECT fail
  MESSAGE "src/bvh/planted\\.cpp: assimp outside its modules"
  FILES src/bvh/planted.cpp "#include <assimp/scene.h>")
# JSON only in FOOTFIX_JSON_MODULES: nlohmann itself, a private JSON header of a module it may use
# (eval -> contacts), and one that brings it in through another header of its folder.
check_tree(NAME nlohmann_outside_json_modules LAYERS ${layers} EXPECT fail
  MESSAGE "src/io/planted\\.cpp: JSON outside its modules \\(FOOTFIX_JSON_MODULES\\), through nlohmann"
  FILES src/io/planted.cpp "#include <nlohmann/json.hpp>")
check_tree(NAME json_header_outside_json_modules LAYERS ${layers} EXPECT fail
  MESSAGE "src/eval/planted\\.cpp: JSON outside its modules \\(FOOTFIX_JSON_MODULES\\), through contacts/contacts_json\\.h"
  FILES src/contacts/contacts_json.h "#pragma once\n#include <nlohmann/json.hpp>"
        src/eval/planted.cpp "#include \"contacts/contacts_json.h\"")
check_tree(NAME json_through_a_header_outside_json_modules LAYERS ${layers} EXPECT fail
  MESSAGE "src/io/planted\\.cpp: JSON outside its modules \\(FOOTFIX_JSON_MODULES\\), through gltf/gltf_nodes\\.h"
  FILES src/gltf/gltf_document.h "#pragma once\n#include <nlohmann/json.hpp>"
        src/gltf/gltf_nodes.h "#pragma once\n#include \"gltf_document.h\""
        src/io/planted.cpp "#include \"gltf/gltf_nodes.h\"")
check_tree(NAME json_in_json_modules LAYERS ${layers} EXPECT pass
  FILES src/contacts/contacts_json.h "#pragma once\n#include <nlohmann/json.hpp>"
        src/lock/lock_json.cpp "#include \"contacts/contacts_json.h\"")
check_tree(NAME unknown_module_folder LAYERS ${layers} EXPECT fail
  MESSAGE "src/extras: not a module"
  FILES src/extras/x.cpp "int x;")

# A layering file with an upward edge (core allowed to use io, listed after it) is refused.
file(READ ${layers} layers_text)
file(WRITE "${WORK_DIR}/cyclic_layers.cmake" "${layers_text}\nset(FOOTFIX_LAYER_core io)\n")
check_tree(NAME cycle_in_layers LAYERS ${WORK_DIR}/cyclic_layers.cmake EXPECT fail
  MESSAGE "core may use io, which is not listed before it")

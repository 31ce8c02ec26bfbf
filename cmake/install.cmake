# `cmake --install`: the module libraries (libfootfix_core.a, libfootfix_fbx.a, ...), their public
# headers (include/footfix; private headers live in src/ and are not installed) and a CMake package
# (find_package(footfix) -> footfix::footfix, which links every module; footfix::core,
# footfix::io, ... one module each), versioned with the project version, plus the command-line
# tool and its man page. No installed header includes nlohmann_json, assimp, spdlog or CLI11, so a
# consumer needs only assimp and zlib (the fbx library's private dependencies) and threads.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set_target_properties(footfix_lib PROPERTIES EXPORT_NAME footfix)
foreach(module IN LISTS FOOTFIX_MODULES)
  set_target_properties(footfix_${module} PROPERTIES EXPORT_NAME ${module})
endforeach()
install(TARGETS footfix_lib ${FOOTFIX_MODULE_TARGETS} EXPORT footfixTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/footfix DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(TARGETS footfix RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES docs/footfix.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 OPTIONAL)

set(footfix_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/footfix)
install(EXPORT footfixTargets NAMESPACE footfix:: DESTINATION ${footfix_cmake_dir})
configure_package_config_file(cmake/footfixConfig.cmake.in ${PROJECT_BINARY_DIR}/footfixConfig.cmake
  INSTALL_DESTINATION ${footfix_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/footfixConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/footfixConfig.cmake ${PROJECT_BINARY_DIR}/footfixConfigVersion.cmake
  DESTINATION ${footfix_cmake_dir})

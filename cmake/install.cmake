# `cmake --install`: the library (libfootfix.a), its public headers and a CMake package
# (find_package(footfix) -> footfix::footfix), versioned with the project version, plus the
# command-line tool and its man page. Headers that need nlohmann_json (the JSON helpers) are
# not installed, so a consumer needs only assimp and zlib (the static library's dependencies).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set_target_properties(footfix_lib PROPERTIES OUTPUT_NAME footfix EXPORT_NAME footfix)
install(TARGETS footfix_lib EXPORT footfixTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/footfix DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" REGEX "/(contact_settings_json|contacts_json|clean_settings_json)\\.h$" EXCLUDE)
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

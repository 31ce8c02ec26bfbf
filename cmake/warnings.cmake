function(footfix_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  # See FOOTFIX_QUIET_GCC_O3_FALSE_POSITIVES in CMakeLists.txt.
  if(FOOTFIX_QUIET_GCC_O3_FALSE_POSITIVES)
    target_compile_options(${target} PRIVATE -Wno-restrict -Wno-stringop-overflow -Wno-array-bounds)
  endif()
endfunction()

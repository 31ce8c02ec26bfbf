# The sanitized build compiles at -O1 with line tables (-g1): fast to build, and its reports
# still name files and lines.
if(FOOTFIX_SANITIZE)
  add_compile_options(-O1 -g1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

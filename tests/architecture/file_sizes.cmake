# No source file in ui/ or app/ over 500 lines: the window is wiring, each CLI subcommand its own
# file (docs/ARCHITECTURE.md). Fails naming each file over the limit and its length.
#   cmake -DSOURCE_DIR=<repo> -P file_sizes.cmake
cmake_policy(SET CMP0007 NEW)
set(limit 500)
file(GLOB_RECURSE sources "${SOURCE_DIR}/ui/*.h" "${SOURCE_DIR}/ui/*.cpp" "${SOURCE_DIR}/app/*.h" "${SOURCE_DIR}/app/*.cpp"
     "${SOURCE_DIR}/app/*.cu")
list(LENGTH sources count)
if(count LESS 10)
  message(FATAL_ERROR "only ${count} files found under ${SOURCE_DIR}/ui and app: wrong folder?")
endif()
set(found "")
foreach(f IN LISTS sources)
  # Count newlines (file(STRINGS) would split lines at brackets and semicolons).
  file(READ "${f}" text)
  string(REGEX REPLACE "[^\n]" "" newlines "${text}")
  string(LENGTH "${newlines}" n)
  if(n GREATER limit)
    file(RELATIVE_PATH rel "${SOURCE_DIR}" "${f}")
    string(APPEND found "\n  ${rel}: ${n} lines")
  endif()
endforeach()
if(found)
  message(FATAL_ERROR "files over ${limit} lines:${found}")
endif()
message(STATUS "file_sizes: ${count} files under ui/ and app/, none over ${limit} lines")

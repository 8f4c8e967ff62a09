# No source file in core/, ui/, app/ or tests/ over 500 lines: each concept its own small part, the window
# is wiring, each CLI subcommand its own file (docs/ARCHITECTURE.md). Fails naming each file over
# the limit and its length. The README stays at most 150 lines.
#   cmake -DSOURCE_DIR=<repo> -P file_sizes.cmake
cmake_policy(SET CMP0007 NEW)
set(limit 500)
file(GLOB_RECURSE sources "${SOURCE_DIR}/core/*.h" "${SOURCE_DIR}/core/*.cpp" "${SOURCE_DIR}/ui/*.h" "${SOURCE_DIR}/ui/*.cpp" "${SOURCE_DIR}/app/*.h" "${SOURCE_DIR}/app/*.cpp"
     "${SOURCE_DIR}/app/*.cu" "${SOURCE_DIR}/app/*.cuh" "${SOURCE_DIR}/tests/*.cpp" "${SOURCE_DIR}/tests/*.h")
list(LENGTH sources count)
if(count LESS 100)
  message(FATAL_ERROR "only ${count} files found under ${SOURCE_DIR}/core, ui and app: wrong folder?")
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
# The README is what a newcomer reads in two minutes; the manual and the references live in docs/.
file(READ "${SOURCE_DIR}/README.md" text)
string(REGEX REPLACE "[^\n]" "" newlines "${text}")
string(LENGTH "${newlines}" n)
if(n GREATER 150)
  string(APPEND found "\n  README.md: ${n} lines (at most 150: move the detail to docs/)")
endif()
if(found)
  message(FATAL_ERROR "files over their limit:${found}")
endif()
message(STATUS "file_sizes: ${count} files under core/, ui/, app/ and tests/, none over ${limit} lines")

# core/ never includes Qt (the engine builds and runs without it: CLI, probe, fuzzers). Fails,
# naming each file and line, if any source or header under core/ includes a Qt header
# (<QString>, <QtCore/...>, "qglobal.h", <qcustomplot.h>, ...).
#   cmake -DCORE_DIR=<repo>/core -P core_is_qt_free.cmake
file(GLOB_RECURSE sources "${CORE_DIR}/*.h" "${CORE_DIR}/*.hpp" "${CORE_DIR}/*.cpp" "${CORE_DIR}/*.cc")
list(LENGTH sources count)
if(count LESS 20)
  message(FATAL_ERROR "only ${count} files found under ${CORE_DIR}: wrong folder?")
endif()
set(found "")
foreach(f IN LISTS sources)
  file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](Q[A-Za-z]|Qt[A-Za-z]*/|q[a-z]+\\.h|qcustomplot)")
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    string(APPEND found "\n  ${f}: ${line}")
  endforeach()
endforeach()
if(found)
  message(FATAL_ERROR "core/ must not include Qt:${found}")
endif()
message(STATUS "core_is_qt_free: ${count} files under core/, no Qt include")

# The version users see: project(VERSION) plus, when built from a git checkout, the revision the
# build was configured from. Writes generated/parascope/version.h (used by every executable and
# the About dialog) and re-runs configure when HEAD moves, so the revision stays current.

set(PARASCOPE_GIT_REVISION "")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --short=10 HEAD
                  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
                  OUTPUT_VARIABLE _rev RESULT_VARIABLE _rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_rc EQUAL 0 AND _rev)
    set(PARASCOPE_GIT_REVISION "${_rev}")
    # HEAD names the branch; the branch's ref (or packed-refs) moves on every commit. Worktrees
    # keep these files elsewhere, so ask git where they are.
    foreach(_ref HEAD refs/heads packed-refs)
      execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --git-path ${_ref}
                      WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
                      OUTPUT_VARIABLE _path ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
      get_filename_component(_path "${_path}" ABSOLUTE BASE_DIR "${PROJECT_SOURCE_DIR}")
      if(EXISTS "${_path}" AND NOT IS_DIRECTORY "${_path}")
        set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_path}")
      endif()
    endforeach()
    execute_process(COMMAND "${GIT_EXECUTABLE}" symbolic-ref -q HEAD
                    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
                    OUTPUT_VARIABLE _branch ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(_branch)
      execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --git-path "${_branch}"
                      WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
                      OUTPUT_VARIABLE _path ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
      get_filename_component(_path "${_path}" ABSOLUTE BASE_DIR "${PROJECT_SOURCE_DIR}")
      if(EXISTS "${_path}")
        set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_path}")
      endif()
    endif()
  endif()
endif()
if(PARASCOPE_GIT_REVISION)
  message(STATUS "ParaScope ${PROJECT_VERSION} (git ${PARASCOPE_GIT_REVISION})")
else()
  message(STATUS "ParaScope ${PROJECT_VERSION} (not a git checkout)")
endif()

configure_file("${CMAKE_CURRENT_LIST_DIR}/version.h.in" "${PROJECT_BINARY_DIR}/generated/parascope/version.h" @ONLY)

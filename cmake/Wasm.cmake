# The web edition (preset "wasm", packaging/web/build.sh): the engine compiled by Debian's
# emscripten. Only the engine and app/web are built: no Qt, no tests, no packaging.
set(PARASCOPE_BUILD_GUI OFF CACHE BOOL "" FORCE)
set(PARASCOPE_BUILD_TESTS OFF CACHE BOOL "" FORCE)
set(PARASCOPE_BUILD_PROBE OFF CACHE BOOL "" FORCE)

# The JSON reader catches nlohmann's parse exceptions (util/json_reader.cpp): C++ exceptions on.
add_compile_options(-fexceptions)
add_link_options(-fexceptions)

# nlohmann_json is header-only: Debian's headers, through a folder holding only them, so that
# /usr/include (glibc's headers) never reaches emscripten's compiler.
find_path(PARASCOPE_NLOHMANN_INCLUDE nlohmann/json.hpp PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH REQUIRED)
set(nlohmann_shim "${CMAKE_BINARY_DIR}/nlohmann-include")
file(MAKE_DIRECTORY "${nlohmann_shim}")
file(CREATE_LINK "${PARASCOPE_NLOHMANN_INCLUDE}/nlohmann" "${nlohmann_shim}/nlohmann" SYMBOLIC)
add_library(parascope_nlohmann_json INTERFACE)
target_include_directories(parascope_nlohmann_json SYSTEM INTERFACE "${nlohmann_shim}")
add_library(nlohmann_json::nlohmann_json ALIAS parascope_nlohmann_json)

// Compiled only to build the suites' precompiled header (tests/CMakeLists.txt).

#!/usr/bin/env bash
# Builds ParaScope with AddressSanitizer + UndefinedBehaviorSanitizer (preset "asan": GCC, Debug,
# probe not built) and runs the whole test suite under them; any report fails the run.
# CI builds the same with warnings as errors (preset "ci", .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
# The sanitizer options (leak suppressions for Qt's and fontconfig's caches, abort on any report)
# are in the "asan" test preset, so a plain `ctest --preset asan` uses them too.
cmake --preset asan
cmake --build --preset asan -j "$(nproc)"
ctest --preset asan -j "$(nproc)"

#!/usr/bin/env bash
# Builds ParaScope with AddressSanitizer + UndefinedBehaviorSanitizer (preset "asan": GCC, Debug,
# probe not built) and runs the whole test suite under them; any report fails the run.
# Called by .ci/run after the README's test command.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
# Qt and fontconfig keep caches alive until exit by design: those are not our leaks.
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
cmake --preset asan
cmake --build --preset asan -j "$(nproc)"
ctest --preset asan -j "$(nproc)"

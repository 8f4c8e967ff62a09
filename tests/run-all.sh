#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds ParaScope (preset "dev") and runs every test.
# This is the README's test command, and what CI runs (.ci/run) with PARASCOPE_PRESET=werror
# (the same build with warnings as errors).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
preset=${PARASCOPE_PRESET:-dev}
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$(nproc)"
ctest --preset "$preset" -j "$(nproc)"

#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds ParaScope (preset "dev") and runs every test.
# This is the README's test command, and what CI runs (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset dev
cmake --build --preset dev -j "$(nproc)"
ctest --preset dev -j "$(nproc)"

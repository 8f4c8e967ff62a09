#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds ParaScope (preset "release") and evaluates the
# default scenario: Llama-2 70B on 512 A100-80GB, TP 8 × PP 8 × DP 8. Extra arguments go to
# parascope-cli evaluate (e.g. --lang zh, --format json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh >&2
cmake --preset release >&2
cmake --build --preset release -j "$(nproc)" --target parascope-cli >&2
exec build/release/app/cli/parascope-cli evaluate resources/scenarios/default.parascope.json "$@"

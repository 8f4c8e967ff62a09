#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine, builds ParaScope (preset "release") and opens the desktop
# app on the default scenario: Llama-2 70B on 512 A100-80GB, TP 8 × PP 8 × DP 8.
# Without a display it prints the terminal report instead (parascope-cli evaluate).
# Extra arguments go to the app (e.g. --lang zh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh >&2
cmake --preset release >&2
cmake --build --preset release -j "$(nproc)" --target parascope parascope-cli >&2
scenario=resources/scenarios/default.parascope.json
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  echo "run-default: no display; printing the report (run build/release/app/gui/parascope on a desktop)" >&2
  exec build/release/app/cli/parascope-cli evaluate "$scenario"
fi
exec build/release/app/gui/parascope "$scenario" "$@"

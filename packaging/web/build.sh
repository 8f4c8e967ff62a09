#!/usr/bin/env bash
# Builds ParaScope's web edition into the folder OUT: index.html and what it loads, the engine
# (WebAssembly embedded in parascope-web.js, so the page opens from file:// as well as from any
# static host), uPlot and ECharts from npm (package-lock.json), the default scenario. Installs what it needs
# first (packaging/install-deps.sh --web; npm ci), as the README's commands do.
#   bash packaging/web/build.sh OUT
# Publish: copy OUT to any static host (GitHub Pages, a course server, a USB stick).
set -euo pipefail
out=${1:?usage: packaging/web/build.sh OUT}
root=$(cd "$(dirname "$0")/../.." && pwd)
web="$root/packaging/web"

bash "$root/packaging/install-deps.sh" --web
# Debian's emscripten runs its JavaScript optimiser on node with Debian's acorn (node-acorn),
# which a node from elsewhere does not look for.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
(cd "$web" && npm ci --no-audit --no-fund --loglevel=error)

cd "$root"
[[ -f build/wasm/CMakeCache.txt ]] || cmake --preset wasm >/dev/null
cmake --build build/wasm -j"$(nproc)" --target parascope-web parascope-web-dump

mkdir -p "$out"
cp "$web"/src/index.html "$web"/src/style.css "$web"/src/*.js "$out"/
cp build/wasm/app/web/parascope-web.js "$out"/
cp "$web"/node_modules/echarts/dist/echarts.min.js "$out"/
cp "$web"/node_modules/uplot/dist/uPlot.iife.min.js "$web"/node_modules/uplot/dist/uPlot.min.css "$out"/
{
  echo "// resources/scenarios/default.parascope.json, the scenario the page opens on."
  printf 'const DEFAULT_SCENARIO = '
  cat resources/scenarios/default.parascope.json
  echo ';'
} > "$out"/default-scenario.js
mkdir -p "$out"/licenses
cp LICENSE "$out"/licenses/ParaScope-GPL-3.0.txt
cp "$web"/node_modules/echarts/LICENSE "$out"/licenses/echarts-Apache-2.0.txt
cp "$web"/node_modules/zrender/LICENSE "$out"/licenses/zrender-BSD-3-Clause.txt
cp "$web"/node_modules/uplot/LICENSE "$out"/licenses/uPlot-MIT.txt

# The budget: 3 MB gzip for the whole folder (what a static host serves compressed).
total=0
for f in "$out"/*.*; do
  total=$((total + $(gzip -9 -c "$f" | wc -c)))
done
echo "web edition: $out ($(du -sh "$out" | cut -f1) on disk, $((total / 1024)) KiB gzip)"
if (( total > 3 * 1024 * 1024 )); then
  echo "web edition: over the 3 MB gzip budget" >&2
  exit 1
fi

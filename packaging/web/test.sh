#!/usr/bin/env bash
# The web edition's tests (run by .ci/run):
#   bash packaging/web/test.sh NATIVE_BUILD_DIR [SHOTS_DIR]
# 1. The same engine: parascope-web-dump, built natively (NATIVE_BUILD_DIR, e.g. build/ci) and by
#    emscripten (run under node), answers every method for the default scenario, every model
#    preset and every lesson step; the two outputs must be byte for byte the same.
# 2. The page in Debian's chromium (test/browser.mjs): the numbers parascope-cli prints, the PP
#    knob, links, save and open, screenshots (SHOTS_DIR, default build/web-shots) and the redraw
#    benchmark.
set -euo pipefail
native=$(cd "${1:?usage: packaging/web/test.sh NATIVE_BUILD_DIR [SHOTS_DIR]}" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
shots=${2:-$root/build/web-shots}
out="$root/build/web"
cd "$root"

bash packaging/web/build.sh "$out"
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
mkdir -p "$shots"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

scenario=resources/scenarios/default.parascope.json
"$native/app/web/parascope-web-dump" "$scenario" > "$work/native.txt"
node build/wasm/app/web/parascope-web-dump.js "$scenario" > "$work/wasm.txt"
if ! cmp -s "$work/native.txt" "$work/wasm.txt"; then
  echo "FAIL the wasm engine's answers differ from the native engine's; first difference:" >&2
  diff <(tr ',' '\n' < "$work/native.txt") <(tr ',' '\n' < "$work/wasm.txt") | head -20 >&2
  exit 1
fi
echo "PASS native and wasm engines: $(grep -c '' "$work/native.txt") lines of answers, byte for byte the same"
# The page reads a knob move's Gantt from the module's memory ("ops": "memory"): the same numbers
# as the answer's JSON list.
node -e 'const lines = require("fs").readFileSync(process.argv[1], "utf8").split("\n");
         const moves = lines.flatMap((l, i) => (l.startsWith("move ") ? [JSON.parse(lines[i + 1]).ok] : []));
         const listed = moves.find((m) => m.gantt.ops).gantt.ops;
         const kept = JSON.parse(lines[lines.indexOf("lastGanttOps") + 1]);
         const inMemory = moves.find((m) => m.gantt.ops_in_memory !== undefined).gantt.ops_in_memory;
         if (JSON.stringify(kept) !== JSON.stringify(listed) || inMemory !== listed.length) process.exit(1);
         console.log(`PASS the Gantt read from memory: ${kept.length} numbers, the JSON list'"'"'s`);' "$work/wasm.txt"

cli="$native/app/cli/parascope-cli"
# A Hugging Face config imported by the CLI into the default scenario: what the page's
# Import HF config… must show.
hf_config=tests/data/hf/llama-3.1-8b.json
class_csv=tests/data/class/answers.csv # a class's exercise answers, as the app exports them
"$cli" model import-hf "$hf_config" --out "$work/model.json" >/dev/null
node -e 'const fs = require("fs"); const [sc, m, out] = process.argv.slice(1);
         const s = JSON.parse(fs.readFileSync(sc)); s.model = JSON.parse(fs.readFileSync(m));
         fs.writeFileSync(out, JSON.stringify(s));' "$scenario" "$work/model.json" "$work/hf.parascope.json"
{
  printf '{"default": '
  "$cli" evaluate "$scenario" --format json
  printf ', "pp16": '
  "$cli" evaluate "$scenario" --format json --set parallel.pp=16
  printf ', "hf": '
  "$cli" evaluate "$work/hf.parascope.json" --format json
  printf ', "advise": '
  "$cli" advise "$scenario" --format json
  printf ', "class": '
  "$cli" class-answers "$class_csv" --format json
  printf '}\n'
} > "$work/expected.json"
node packaging/web/test/browser.mjs "$out" "$work/expected.json" "$shots" "$hf_config" "$class_csv"

#!/usr/bin/env bash
# Builds the libFuzzer targets (preset "fuzz": clang, ASan + UBSan) and runs each for SECONDS
# (default 60) on a seed corpus made from tests/data and resources/scenarios plus every earlier
# finding. Prints executions per target; exits 1 on a crash, sanitizer report, leak or timeout,
# whose input is left in build/fuzz/findings/. Copy such an input into
# tests/data/fuzz-regressions/<scenario|measurement>/ and fix the bug: tst_fuzz_regressions
# replays it from then on.
#   bash tests/fuzz/run-fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
bash packaging/install-deps.sh
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc)"

out=build/fuzz
rm -rf "$out/corpus" "$out/findings"
mkdir -p "$out/corpus/scenario" "$out/corpus/measurement" "$out/findings"
cp tests/data/*.parascope.json resources/scenarios/*.parascope.json "$out/corpus/scenario/"
# PP 10^5 answers in 0.1 s, but its 10^5-stage report takes seconds under ASan: mutating it would
# spend the run on one input (tst_cli_input boundedWork covers it).
rm -f "$out"/corpus/scenario/bounded-pp-1e5-*
cp tests/data/fuzz-regressions/scenario/* "$out/corpus/scenario/" 2>/dev/null || true
# The measurement target reads a format byte first: odd = hardware profile, 2 mod 4 = runs file,
# 0 mod 4 = nccl-tests log.
for f in tests/data/profile-*.json tests/data/bad-profile.json; do
  { printf '\001'; cat "$f"; } >"$out/corpus/measurement/profile-$(basename "$f")"
done
# 2 mod 4 = a runs file (parascope-cli validate).
for f in resources/presets/validation/reference-runs.json tests/data/runs-*.json; do
  { printf '\002'; cat "$f"; } >"$out/corpus/measurement/runs-$(basename "$f")"
done
for f in tests/data/nccl* tests/data/nccl/*; do
  [ -f "$f" ] || continue
  { printf '\000'; cat "$f"; } >"$out/corpus/measurement/nccl-$(basename "$f")"
done
# 8 mod 16 = a PyTorch profiler trace (compare-trace).
for f in tests/data/traces/*.json; do
  { printf '\010'; cat "$f"; } >"$out/corpus/measurement/trace-$(basename "$f")"
done
# 4 mod 16 = a Hugging Face config.json, 12 mod 16 = a Megatron argument list.
for f in tests/data/hf/*.json; do
  { printf '\004'; cat "$f"; } >"$out/corpus/measurement/hf-$(basename "$f")"
done
for f in tests/data/megatron/*; do
  { printf '\014'; cat "$f"; } >"$out/corpus/measurement/megatron-$(basename "$f")"
done
cp tests/data/fuzz-regressions/measurement/* "$out/corpus/measurement/" 2>/dev/null || true

status=0
for target in scenario measurement; do
  log="$out/fuzz_$target.log"
  if ! "$out/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
       -print_final_stats=1 -artifact_prefix="$out/findings/$target-" "$out/corpus/$target" >"$log" 2>&1; then
    status=1
    tail -60 "$log"
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  found=$(find "$out/findings" -name "$target-*" | wc -l)
  echo "fuzz_$target: $runs executions in $seconds s, $found finding(s)"
done
exit $status

#!/usr/bin/env bash
# The instruction-count guard: counts, under valgrind's callgrind, the instructions of
#   evaluate  one evaluate() of the largest preset, and
#   slider    one slider move through every view offscreen
# (tests/perf/count_instructions.cpp says exactly what), and compares them with the baseline
# committed in tests/perf/instruction-baseline.txt. Fails when either grows by more than 15 %.
# Instruction counts are the same on every run of the same build, so this catches a 2 %
# regression on a shared, noisy machine where a timed test could not.
#
#   bash tests/perf/check-instructions.sh            build (preset "perf") and check
#   bash tests/perf/check-instructions.sh --update   build, count and rewrite the baseline
#
# The baseline changes only in a commit that says why (a feature that costs instructions, or a
# speed-up to lock in).
set -euo pipefail
cd "$(dirname "$0")/../.."
baseline=tests/perf/instruction-baseline.txt
allowance=15 # per cent

command -v valgrind >/dev/null || { echo "check-instructions: valgrind is not installed (packaging/install-deps.sh)" >&2; exit 1; }
cmake --preset perf >/dev/null
cmake --build --preset perf -j "$(nproc)"
program=build/perf/tests/count_instructions
[[ -x $program ]] || { echo "check-instructions: $program was not built (valgrind/callgrind.h missing?)" >&2; exit 1; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
declare -A counted
for what in evaluate slider; do
  # The allocator as the app tunes it (ui/allocator_tuning.h), set here: valgrind does not follow
  # the app's re-exec.
  GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456 \
    QT_QPA_PLATFORM=offscreen QT_HASH_SEED=0 valgrind --tool=callgrind --collect-atstart=no \
    --callgrind-out-file="$out/$what.out" "$program" "$what" >"$out/$what.log" 2>&1 \
    || { cat "$out/$what.log" >&2; echo "check-instructions: $what failed under valgrind" >&2; exit 1; }
  counted[$what]=$(awk '/^totals:/ {print $2}' "$out/$what.out")
  [[ -n ${counted[$what]} ]] || { echo "check-instructions: no totals in $out/$what.out" >&2; exit 1; }
done

if [[ "${1:-}" == "--update" ]]; then
  {
    echo "# Instruction counts (callgrind Ir) of tests/perf/count_instructions.cpp, build preset \"perf\","
    echo "# written by: bash tests/perf/check-instructions.sh --update ($(date -u +%Y-%m-%d), $(g++ --version | head -1))."
    echo "# Change only in a commit that says why."
    for what in evaluate slider; do echo "$what ${counted[$what]}"; done
  } >"$baseline"
  cat "$baseline"
  exit 0
fi

status=0
for what in evaluate slider; do
  base=$(awk -v w="$what" '$1 == w {print $2}' "$baseline")
  [[ -n $base ]] || { echo "check-instructions: $baseline has no line for $what" >&2; exit 1; }
  now=${counted[$what]}
  change=$(awk -v n="$now" -v b="$base" 'BEGIN {printf "%+.1f", (n - b) * 100 / b}')
  verdict=ok
  if awk -v n="$now" -v b="$base" -v a="$allowance" 'BEGIN {exit !(n > b * (1 + a / 100))}'; then
    verdict="FAILED: more than $allowance % over the baseline"
    status=1
  elif awk -v n="$now" -v b="$base" -v a="$allowance" 'BEGIN {exit !(n < b * (1 - a / 100))}'; then
    verdict="ok, and more than $allowance % under the baseline: lock the gain in with --update"
  fi
  printf 'instructions %-8s %15s (baseline %15s, %s %%): %s\n' "$what" "$now" "$base" "$change" "$verdict"
done
exit $status

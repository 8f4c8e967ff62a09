#!/usr/bin/env bash
# Strategy-search speed, ParaScope next to Calculon (calculon-ai/calculon, the reference analytical
# tool), measured in one run on this machine, so that the README's ratio is a measurement and not
# two numbers from different days. The space is the one Calculon's README searches: Turing-530B
# (Megatron-Turing NLG: 105 layers, h 20,480, 128 heads, seq 2,048) on A100-80GB with a global
# batch of 2,520.
#   - Calculon: `calculon llm-optimal-execution models/turing-530B.json 5128 2520 float16
#     systems/a100_80g.json OUT -m` on every core; its own "Total executions" and the wall time.
#   - ParaScope: `parascope-cli search tests/benchmarks/turing-530b.parascope.json --gpus 5040`
#     (5,128 = 8·641 GPUs admit no layout of 105 layers that divides the batch; Calculon leaves
#     GPUs idle instead), closed-form and simulated step, on every core; median of 5 runs of the
#     search's own time ("seconds"), and the process wall time.
# Prints a Markdown table with the date, the machine and the ratio (of wall times; Calculon's own
# timer, which leaves out its start-up, is shown too).
#   bash tests/benchmarks/compare-calculon.sh [CALCULON_DIR]
# CALCULON_DIR (or $CALCULON_DIR): a checkout of calculon-ai/calculon. Without one the script
# says so and exits 0: the comparison needs the reference, the test suite does not.
set -euo pipefail
cd "$(dirname "$0")/../.."
calculon_dir=${1:-${CALCULON_DIR:-}}
build=${PARASCOPE_BUILD:-build/dev}
cli=$build/app/cli/parascope-cli
scenario=tests/benchmarks/turing-530b.parascope.json

if [[ -z "$calculon_dir" || ! -f "$calculon_dir/calculon/llm/optimal_execution.py" ]]; then
  echo "compare-calculon: no Calculon checkout given (CALCULON_DIR); nothing to compare."
  exit 0
fi
if [[ ! -x "$cli" ]]; then
  cmake --preset "$(basename "$build")" >/dev/null && cmake --build --preset "$(basename "$build")" -j "$(nproc)" --target parascope-cli
fi
# Calculon runs on Debian's Python with Debian's numpy and psutil.
py=/usr/bin/python3
[[ -x $py ]] || py=python3
if ! "$py" -c 'import numpy, pandas, psutil' 2>/dev/null; then
  if [[ $(id -u) -eq 0 ]]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-numpy python3-pandas python3-psutil >/dev/null
  else
    echo "compare-calculon: Calculon needs python3-numpy, python3-pandas and python3-psutil" >&2
    exit 1
  fi
fi

now() { date +%s.%N; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Calculon.
t0=$(now)
(cd "$calculon_dir" && PYTHONPATH=. "$py" bin/calculon llm-optimal-execution models/turing-530B.json 5128 2520 float16 \
   systems/a100_80g.json "$work/calculon.json" -m) >"$work/calculon.log" 2>&1 || {
  echo "compare-calculon: Calculon failed:" >&2
  tail -5 "$work/calculon.log" >&2
  exit 1
}
t1=$(now)
calc_configs=$(grep -o 'Total executions: [0-9]*' "$work/calculon.log" | grep -o '[0-9]*$')
calc_own_rate=$(grep -o 'Calculation rate: [0-9.]*' "$work/calculon.log" | grep -o '[0-9.]*$')
calc_s=$(python3 -c "print($t1 - $t0)")

# ParaScope: median of 5 for each step model.
median_search() { # args: extra flags
  local secs=() walls=() configs=0
  for i in 1 2 3 4 5; do
    local a b
    a=$(now)
    "$cli" search "$scenario" --gpus 5040 --top 1 --format json "$@" >"$work/ps.json"
    b=$(now)
    secs+=("$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["seconds"])' "$work/ps.json")")
    walls+=("$(python3 -c "print($b - $a)")")
    configs=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["enumerated"])' "$work/ps.json")
  done
  local ms mw
  ms=$(printf '%s\n' "${secs[@]}" | sort -g | sed -n 3p)
  mw=$(printf '%s\n' "${walls[@]}" | sort -g | sed -n 3p)
  echo "$configs $ms $mw"
}
read -r ps_configs ps_closed ps_closed_wall < <(median_search --closed-form)
read -r _ ps_sim ps_sim_wall < <(median_search)

rate() { python3 -c "print(f'{$1 / $2:,.0f}')"; }
ratio() { python3 -c "print(f'{($1 / $2) / ($3 / $4):,.0f}')"; }

echo "Search speed, $(date -u +%Y-%m-%d), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)),"
echo "Calculon $(cd "$calculon_dir" && git rev-parse --short HEAD 2>/dev/null || echo checkout), ParaScope $("$cli" --version | cut -d' ' -f2-):"
echo
echo "| tool | space | configurations | time | configurations/s | vs Calculon |"
echo "|---|---|---|---|---|---|"
printf '| Calculon | Turing-530B, 5,128 A100 | %s | %.1f s (wall; its own timer: %.1f s) | %s (its own timer: %s) | 1× |\n' \
  "$calc_configs" "$calc_s" "$(python3 -c "print($calc_configs / $calc_own_rate)")" "$(rate "$calc_configs" "$calc_s")" \
  "$(python3 -c "print(f'{$calc_own_rate:,.0f}')")"
printf '| ParaScope, closed-form step | Turing-530B, 5,040 A100 | %s | %.3f s (search), %.3f s (wall) | %s | **%s×** |\n' \
  "$ps_configs" "$ps_closed" "$ps_closed_wall" "$(rate "$ps_configs" "$ps_closed")" "$(ratio "$ps_configs" "$ps_closed" "$calc_configs" "$calc_s")"
printf '| ParaScope, simulated step | Turing-530B, 5,040 A100 | %s | %.3f s (search), %.3f s (wall) | %s | %s× |\n' \
  "$ps_configs" "$ps_sim" "$ps_sim_wall" "$(rate "$ps_configs" "$ps_sim")" "$(ratio "$ps_configs" "$ps_sim" "$calc_configs" "$calc_s")"

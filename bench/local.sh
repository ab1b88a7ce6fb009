#!/usr/bin/env bash
# local.sh - N-Queens local search: csearch's min-conflicts layer against
# the textbook baseline (bench/minconflicts.c, target nq_minconflicts).
#
# For each n it runs both RUNS times, interleaved (round k runs csearch,
# then the baseline, both with seed k), and prints one Markdown table of
# medians: wall-clock seconds of the whole process (set-up, search, the
# check of the solution), steps, restarts and peak resident memory, and the
# speed-up of csearch over the baseline.  csearch runs
# configs/nqueens.yaml with task solve and no strategy key (strategy.local
# auto chooses local search); every csearch solution is verified inside
# csearch, every baseline one by its own O(n) check (exit status 0).
#
# usage: bench/local.sh [N...]     (default: 10^3 .. 10^8)
# env:   RUNS (default 3), BUILD (default build)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
BUILD=${BUILD:-$ROOT/build}
CSEARCH=$BUILD/framework/csearch
BASE=$BUILD/bench/nq_minconflicts
RUNS=${RUNS:-3}
[ -x "$CSEARCH" ] && [ -x "$BASE" ] || {
    echo "local.sh: build first (cmake --build --preset release)" >&2
    exit 2
}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 100000 1000000 10000000 100000000)

now() { date +%s%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

"$(dirname "$0")"/machine.sh
echo "| n | csearch s | steps | restarts | peak MB | baseline s | steps | restarts | peak MB | speed-up |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for n in "${sizes[@]}"; do
    cs=() ; bs=()
    for k in $(seq 1 "$RUNS"); do
        t0=$(now)
        json=$("$CSEARCH" "$ROOT/configs/nqueens.yaml" --set task=solve \
            --set params.n="$n" --set strategy.seed="$k" --set output.show=0 --json) ||
            { echo "local.sh: csearch failed at n = $n" >&2; exit 1; }
        t1=$(now)
        cs+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }') $(jq -r '[.steps, .restarts, (.peak_bytes / 1e6), .status] | map(tostring) | join(" ")' <<<"$json")")
        t0=$(now)
        line=$("$BASE" "$n" "$k") || { echo "local.sh: baseline failed at n = $n" >&2; exit 1; }
        t1=$(now)
        bs+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }') $(awk '{ print $3, $4, $5 / 1000 }' <<<"$line")")
    done
    for r in "${cs[@]}"; do
        [ "${r##* }" = complete ] || { echo "local.sh: csearch did not solve n = $n" >&2; exit 1; }
    done
    col() { # col ARRAY-NAME FIELD
        local -n arr=$1
        printf '%s\n' "${arr[@]}" | awk -v f="$2" '{ print $f }' | median
    }
    c_s=$(col cs 1) b_s=$(col bs 1)
    printf '| %s | %.3f | %s | %s | %.1f | %.3f | %s | %s | %.1f | %.2fx |\n' \
        "$n" "$c_s" "$(col cs 2)" "$(col cs 3)" "$(col cs 4)" \
        "$b_s" "$(col bs 2)" "$(col bs 3)" "$(col bs 4)" \
        "$(awk -v a="$c_s" -v b="$b_s" 'BEGIN { print (a > 0) ? b / a : 0 }')"
done

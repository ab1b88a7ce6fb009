#!/usr/bin/env bash
# killer.sh - Killer Sudoku: nodes and time of the published puzzles of
# tests/data/killer under each propagation and selection, and (-a) what the
# cage pass costs plain Sudoku on the general path against another build.
#
# Table 1: for each puzzle and strategy, the uniqueness check (task count,
# limits.solutions 2): nodes (deterministic) and the median of RUNS of the
# search's own seconds (JSON .seconds).
# Table 2 (with -a BASE_BUILD): a file of plain puzzles (SET, default the
# forum's hardest sample) through the general path (kernel generic), this
# build and BASE_BUILD alternating in each round, CPU seconds (user +
# system) of the whole process, medians and the ratio this / base.
#
# usage: bench/killer.sh [-r RUNS] [-b BUILD_DIR] [-a BASE_BUILD_DIR]
#                        [-p PROPAGATE:SELECT] [SET.txt]
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
RUNS=5
BUILD="$ROOT/build"
BASE=
PLAIN="singles:in-order"
while getopts "r:b:a:p:h" opt; do
    case $opt in
    r) RUNS=$OPTARG ;;
    b) BUILD=$OPTARG ;;
    a) BASE=$OPTARG ;;
    p) PLAIN=$OPTARG ;;
    *)
        sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
    esac
done
shift $((OPTIND - 1))
CSEARCH="$BUILD/framework/csearch"
[ -x "$CSEARCH" ] || { echo "killer.sh: no $CSEARCH; build it first" >&2; exit 2; }
SET=${1:-$ROOT/../shared/data/sudoku/forum_hardest_1905_11plus_sample4877.txt}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

"$(dirname "$0")"/machine.sh
echo "Killer Sudoku, load $(cut -d' ' -f1-3 /proc/loadavg), runs $RUNS"
echo
echo "| puzzle | propagate | select | nodes | seconds (median) |"
echo "|---|---|---|---:|---:|"
for f in "$ROOT/configs/sudoku-killer.yaml" "$ROOT"/tests/data/killer/*.yaml; do
    case $f in *-batch.yaml | *-grid.yaml) continue ;; esac
    for p in none singles full; do
        for s in in-order mrv; do
            nodes=
            for _ in $(seq "$RUNS"); do
                json=$("$CSEARCH" "$f" --set task=count --set limits.solutions=2 \
                    --set strategy.propagate=$p --set strategy.select=$s --json) || exit 1
                [ "$(jq .solutions <<<"$json")" = 1 ] || { echo "killer.sh: $f not unique" >&2; exit 1; }
                nodes=$(jq .nodes <<<"$json")
                jq .seconds <<<"$json"
            done >"${TMPDIR:-/tmp}/killer.$$"
            echo "| $(basename "$f" .yaml) | $p | $s | $nodes | $(median <"${TMPDIR:-/tmp}/killer.$$") |"
        done
    done
done
rm -f "${TMPDIR:-/tmp}/killer.$$"

[ -n "$BASE" ] || exit 0
BASE_CSEARCH="$BASE/framework/csearch"
[ -x "$BASE_CSEARCH" ] || { echo "killer.sh: no $BASE_CSEARCH" >&2; exit 2; }
echo
echo "Plain puzzles on the general path ($(basename "$SET"), propagate:select $PLAIN), CPU seconds per round:"
echo
out=$(mktemp) times=$(mktemp)
trap 'rm -f "$out" "$times"' EXIT
TIMEFORMAT='%3U %3S'
for r in $(seq "$RUNS"); do
    for who in this base; do
        bin=$CSEARCH
        [ $who = base ] && bin=$BASE_CSEARCH
        t=$({ time "$bin" "$ROOT/configs/sudoku-batch.yaml" --set params.file="$SET" \
            --set strategy.kernel=generic --set strategy.propagate="${PLAIN%%:*}" \
            --set strategy.select="${PLAIN#*:}" --json >"$out"; } 2>&1)
        echo "$who $r $(awk '{ print $1 + $2 }' <<<"$t") unique $(jq .summary.unique "$out")" | tee -a "$times"
    done
done
a=$(awk '$1 == "this" { print $3 }' "$times" | median)
b=$(awk '$1 == "base" { print $3 }' "$times" | median)
echo
echo "median CPU seconds: this $a, base $b, this / base $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')"

#!/usr/bin/env bash
# projection.sh - what an N-Queens count of n would cost, without counting:
# task estimate's `kernel` figures for the fast kernel (its units, the sum
# of their estimated sizes in nodes, the largest unit) turned into core-hours
# at a measured rate of nodes per core-second (measure it with a one-thread
# count at the largest n you can afford: nodes / user CPU seconds).
# Prints one Markdown table (docs/distributed.md has this machine's).
#
# usage: bench/projection.sh [-c CSEARCH] -r NODES_PER_CORE_SECOND N...
# Example: bench/projection.sh -r 5.6e8 22 23 24 25 26 27
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
CSEARCH=$ROOT/build/framework/csearch
RATE=
while getopts "c:r:h" opt; do
    case $opt in
    c) CSEARCH=$OPTARG ;;
    r) RATE=$OPTARG ;;
    *) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ -n "$RATE" ] && [ $# -gt 0 ] || { echo "projection.sh: give -r RATE and at least one n (try -h)" >&2; exit 2; }

"$(dirname "$0")"/machine.sh
echo "| n | units | est. nodes | core-hours | largest unit | its core-hours |"
echo "|---:|---:|---:|---:|---:|---:|"
for n in "$@"; do
    json=$("$CSEARCH" "$ROOT/configs/nqueens.yaml" --set params.n="$n" \
               --set task=estimate --set strategy.kernel=fast \
               --set strategy.probes=1 --json --no-progress) || exit 1
    jq -r --argjson rate "$RATE" '.estimate |
        "| \(.params_n) | \(.kernel_units) | \(.kernel_work) | \(.kernel_work / $rate / 3600) | unit \(.largest_unit) | \(.largest_work / $rate / 3600) |"' \
        <<<"$(jq --argjson n "$n" '.estimate.params_n = $n' <<<"$json")" |
        awk -F'|' '{ printf "|%s|%s| %.4e | %.4g |%s| %.4g |\n", $2, $3, $4, $5, $6, $7 }'
done

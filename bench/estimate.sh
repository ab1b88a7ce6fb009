#!/usr/bin/env bash
# estimate.sh - task estimate against the true counts: for each n, Knuth's
# estimate of the tree a count searches (strategy.probes probes, seed 0)
# next to that tree's real nodes and solutions, counted with the same
# settings and the generic engine (the tree the probes walk: a counting
# kernel's own tree is another).  Prints one Markdown table.
#
# usage: bench/estimate.sh [-c CSEARCH] [-f row|cell] [-p PROBES] [-t MAX_TRUE] N...
#   -f FORMULATION  strategy.formulation (default row)
#   -p PROBES       strategy.probes (default 10000)
#   -t MAX_TRUE     count the true figures up to this n only (default: all)
# Example: bench/estimate.sh 10 11 12 13 14 15 16
#          bench/estimate.sh -f cell -t 12 10 11 12 13 14 15 16
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
CSEARCH=$ROOT/build/framework/csearch
FORM=row
PROBES=10000
MAX_TRUE=1000
while getopts "c:f:p:t:h" opt; do
    case $opt in
    c) CSEARCH=$OPTARG ;;
    f) FORM=$OPTARG ;;
    p) PROBES=$OPTARG ;;
    t) MAX_TRUE=$OPTARG ;;
    *) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "estimate.sh: give at least one n (try -h)" >&2; exit 2; }
run() { "$CSEARCH" "$ROOT/configs/nqueens.yaml" --json --no-progress \
            --set strategy.formulation="$FORM" --set params.n="$1" "${@:2}"; }

"$(dirname "$0")"/machine.sh
echo "| n | nodes: estimate (95%) | nodes: true | est/true | solutions: estimate (95%) | solutions: true | est/true | seconds: estimate / count |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "$@"; do
    est=$(run "$n" --set task=estimate --set strategy.probes="$PROBES") || exit 1
    line=$(jq -r '.estimate | "\(.nodes|floor) (\(.nodes_low|floor)..\(.nodes_high|floor))|\(.solutions|floor) (\(.solutions_low|floor)..\(.solutions_high|floor))|\(.nodes)|\(.solutions)"' <<<"$est")
    IFS='|' read -r enodes esols rn rs <<<"$line"
    hits=$(jq .solutions <<<"$est")
    [ "$hits" -lt 10 ] && esols="$(jq -r '.estimate.solutions|floor' <<<"$est") ($hits probes hit one)"
    esec=$(jq .seconds <<<"$est")
    if [ "$n" -le "$MAX_TRUE" ]; then
        tru=$(run "$n" --set strategy.kernel=generic) || exit 1
        tn=$(jq .nodes <<<"$tru") ts=$(jq .solutions <<<"$tru") tsec=$(jq .seconds <<<"$tru")
        rn=$(awk -v a="$rn" -v b="$tn" 'BEGIN { printf "%.3f", a / b }')
        rs=$(awk -v a="$rs" -v b="$ts" 'BEGIN { printf "%.3f", a / b }')
    else
        tn=- ts=- tsec=- rn=- rs=-
    fi
    echo "| $n | $enodes | $tn | $rn | $esols | $ts | $rs | $esec / $tsec |"
done

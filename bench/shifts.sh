#!/usr/bin/env bash
# shifts.sh - the Shift Scheduling Benchmark's 24 instances under the default
# strategy, as a Markdown table.
#
# Each instance runs the shortest config a ward manager would write -- model,
# instance, task optimize and limits.seconds, no strategy key -- so the table
# measures what csearch chooses by itself (--json says what it chose).  Per
# instance: the best known value (the data's README), csearch's best cost,
# whether it is within 10% of the best known, the root bound, the final
# bound, the gap, the status, the whole process's seconds, and the seconds to
# the first roster (the set-up, that is the process's seconds less the
# search's, plus the search's seconds to its first solution).  Every roster
# goes through the model's independent checker; a roster it does not pass
# ("hard rules: all kept") fails the script; a run with no roster at all is
# a row with "none".
#
# usage: bench/shifts.sh [-b BUILD_DIR] [-s SECONDS] [-t THREADS]
#                        [-d DATA_DIR] [-x KEY=VALUE]... [INSTANCE...]
# default instances 1 to 24, SECONDS 60 (the whole process: the config gets
# SECONDS - 1, which csearch spends on its set-up and the search together;
# the second left is start-up, the output and the check), THREADS 1; each -x
# goes to csearch as --set KEY=VALUE (-x limits.nodes=N: equal budgets).
# DATA_DIR (default ../shared/data/shifts) holds README.md, whose table
# gives the best known values, and curtois/Instance1.txt ... Instance24.txt.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
BUILD="$ROOT/build"
SECONDS_EACH=60
THREADS=1
DATA="$ROOT/../shared/data/shifts"
EXTRA=()
while getopts "b:s:t:d:x:h" opt; do
    case $opt in
    b) BUILD=$OPTARG ;;
    s) SECONDS_EACH=$OPTARG ;;
    t) THREADS=$OPTARG ;;
    d) DATA=$OPTARG ;;
    x) EXTRA+=(--set "$OPTARG") ;;
    *)
        sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
    esac
done
shift $((OPTIND - 1))
INSTANCES=("$@")
[ ${#INSTANCES[@]} -gt 0 ] || INSTANCES=($(seq 1 24))
CSEARCH="$BUILD/framework/csearch"
[ -x "$CSEARCH" ] || { echo "shifts.sh: no $CSEARCH; build first" >&2; exit 2; }
[ -f "$DATA/README.md" ] || { echo "shifts.sh: no $DATA/README.md" >&2; exit 2; }
command -v jq >/dev/null || { echo "shifts.sh: needs jq" >&2; exit 2; }
limit=$(awk -v s="$SECONDS_EACH" 'BEGIN { print (s > 4 ? s - 1 : s / 2) }')
DATA=$(cd "$DATA" && pwd)

"$(dirname "$0")"/machine.sh
echo "| instance | best known | csearch | within 10%? | root bound | final bound | gap | status | seconds | first roster (s) |"
echo "|---|---:|---:|---|---:|---:|---:|---|---:|---:|"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
for i in "${INSTANCES[@]}"; do
    best=$(awk -F'|' -v i="$i" '$2 + 0 == i && $3 ~ /[0-9]/ { print $3 + 0 }' \
        "$DATA/README.md")
    cat >"$tmp/run.yaml" <<EOF
model: shifts
task: optimize
params: {instance: $DATA/curtois/Instance$i.txt}
limits: {seconds: $limit}
EOF
    start=$(date +%s.%N)
    "$CSEARCH" "$tmp/run.yaml" --threads "$THREADS" ${EXTRA[@]+"${EXTRA[@]}"} --json --no-progress \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    end=$(date +%s.%N)
    if [ $rc -gt 3 ] || ! jq -e . "$tmp/out" >/dev/null 2>&1; then
        echo "shifts.sh: Instance$i: exit $rc:" >&2
        tail -c 600 "$tmp/err" >&2
        exit 1
    fi
    if [ "$(jq '.solutions' "$tmp/out")" = 0 ]; then
        echo "| $i | $best | none | no | $(jq .root_bound "$tmp/out") | - | - | $(jq -r .status "$tmp/out") | - | - |"
        continue
    fi
    if ! jq -e '.boards[0] | map(select(. == "hard rules: all kept (independent check)")) | length == 1' \
        "$tmp/out" >/dev/null 2>&1; then
        echo "shifts.sh: Instance$i: a roster the checker did not pass:" >&2
        jq -r '.boards[0][-2:][]' "$tmp/out" >&2
        exit 1
    fi
    jq -r --arg i "$i" --arg b "$best" --arg t0 "$start" --arg t1 "$end" '
        (($t1 | tonumber) - ($t0 | tonumber)) as $wall
        | ($b | tonumber) as $best
        | (if .cost <= 1.1 * $best then "yes"
           else "no (+\((100 * (.cost - $best) / $best) | floor)%)" end) as $within
        | "| \($i) | \($best) | \(.cost) | \($within) | \(.root_bound) | \(.bound) | \(.gap * 1000 | round / 10)% | \(.status) | \($wall * 100 | round / 100) | \((($wall - .seconds + .first_seconds) * 100 | round) / 100) |"
    ' "$tmp/out"
done

#!/usr/bin/env bash
# shifts.sh - the Shift Scheduling Benchmark's optimize goals, as a table.
#
# For each instance it runs one config with params.instance pointed at the
# benchmark file, under a time limit, and prints one Markdown row: the best
# known value (from the data's README), csearch's best cost, its bound, the
# status, whether the cost is within 10% of the best known value, the
# whole process's wall-clock seconds (set-up included) and the nodes.
# Every roster csearch prints goes through the independent checker; a run
# whose checker line is not "hard rules: all kept" fails the script.
# Instance1 runs configs/shifts-instance1.yaml (a branch and bound that
# proves 607; it stops early when it does), the others -c CONFIG
# (default configs/shifts-instance7.yaml, neighbourhood rounds).
#
# usage: bench/shifts.sh [-b BUILD_DIR] [-c CONFIG] [-s SECONDS]
#                        [-d DATA_DIR] [INSTANCE...]
# default instances 1 to 7; SECONDS (default 60) is the config's
# limits.seconds less the set-up, so the whole run keeps to it: the script
# passes SECONDS - 2.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
BUILD="$ROOT/build"
CONFIG="$ROOT/configs/shifts-instance7.yaml"
SECONDS_EACH=60
DATA="$ROOT/../shared/data/shifts"
while getopts "b:c:s:d:h" opt; do
    case $opt in
    b) BUILD=$OPTARG ;;
    c) CONFIG=$OPTARG ;;
    s) SECONDS_EACH=$OPTARG ;;
    d) DATA=$OPTARG ;;
    *)
        sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
    esac
done
shift $((OPTIND - 1))
INSTANCES=("$@")
[ ${#INSTANCES[@]} -gt 0 ] || INSTANCES=(1 2 3 4 5 6 7)
CSEARCH="$BUILD/framework/csearch"
[ -x "$CSEARCH" ] || { echo "shifts.sh: no $CSEARCH; build first" >&2; exit 2; }
[ -f "$DATA/README.md" ] || { echo "shifts.sh: no $DATA/README.md" >&2; exit 2; }
limit=$(awk -v s="$SECONDS_EACH" 'BEGIN { print (s > 4 ? s - 2 : s / 2) }')

echo "| instance | best known | csearch | bound | status | within 10%? | seconds (whole process) | nodes |"
echo "|---|---:|---:|---:|---|---|---:|---:|"
out=$(mktemp) || exit 2
trap 'rm -f "$out"' EXIT
for i in "${INSTANCES[@]}"; do
    best=$(awk -F'|' -v i="$i" '$2 + 0 == i && $3 ~ /[0-9]/ { print $3 + 0 }' \
        "$DATA/README.md")
    config=$CONFIG
    [ "$i" = 1 ] && config="$ROOT/configs/shifts-instance1.yaml"
    start=$(date +%s.%N)
    "$CSEARCH" "$config" --set "params.instance=$DATA/curtois/Instance$i.txt" \
        --set "limits.seconds=$limit" >"$out" 2>&1
    rc=$?
    end=$(date +%s.%N)
    if ! grep -q "hard rules: all kept" "$out" || [ $rc -gt 3 ]; then
        echo "shifts.sh: Instance$i: exit $rc, no checked roster:" >&2
        tail -5 "$out" >&2
        exit 1
    fi
    field() { awk -v k="$1" '$1 == k { print $2 }' "$out"; }
    cost=$(field cost)
    awk -v i="$i" -v b="$best" -v c="$cost" -v lb="$(field bound)" \
        -v st="$(field status)" -v n="$(field nodes)" -v t0="$start" \
        -v t1="$end" 'BEGIN {
            within = c <= 1.1 * b ? "yes" : sprintf("no (+%.0f%%)", 100 * (c - b) / b)
            printf "| %d | %d | %d | %d | %s | %s | %.2f | %d |\n", i, b, c, lb, st, within, t1 - t0, n
        }'
done

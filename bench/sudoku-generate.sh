#!/usr/bin/env bash
# sudoku-generate.sh - puzzles generated per second: csearch's task
# generate against qqwing (a Debian package: apt-get install qqwing), side
# by side, for comparable puzzles: as few clues as taking them away one by
# one reaches (qqwing's default), rotational symmetry, and each difficulty
# (qqwing's four levels; csearch's task rate scale has the same four, and
# each side's puzzles rated by the other agree, docs/performance.md).
#
# Each round runs every row once, qqwing then csearch, so a slow patch of
# the shared machine hits both alike; the table gives the medians of the
# rounds, per second of wall clock and per second of CPU time (user +
# system, which a busy machine disturbs less), their ratios, and the mean
# clues of the last round's puzzles.  Both run one thread, whole process.
#
# usage: bench/sudoku-generate.sh [-r RUNS] [-b BUILD_DIR] [-q QQWING]
#                                 [-n CSEARCH_COUNT] [-m QQWING_COUNT]
# defaults: 5 runs, 2000 puzzles per csearch run, 200 per qqwing run (20
# for qqwing's simple level: it takes about 0.3 s a puzzle).
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
RUNS=5
BUILD="$ROOT/build"
QQWING=$(command -v qqwing || true)
COUNT=2000
QQCOUNT=200
while getopts "r:b:q:n:m:h" opt; do
    case $opt in
    r) RUNS=$OPTARG ;;
    b) BUILD=$OPTARG ;;
    q) QQWING=$OPTARG ;;
    n) COUNT=$OPTARG ;;
    m) QQCOUNT=$OPTARG ;;
    *)
        sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
    esac
done
CSEARCH="$BUILD/framework/csearch"
[ -x "$CSEARCH" ] || { echo "sudoku-generate.sh: no $CSEARCH; build it first" >&2; exit 2; }
[ -n "$QQWING" ] && [ -x "$QQWING" ] || { echo "sudoku-generate.sh: no qqwing (apt-get install qqwing, or -q PATH)" >&2; exit 2; }

# label | qqwing's options | csearch's --set options
ROWS=("minimal||"
      "rotational|--symmetry rotate180|params.symmetry=rotational"
      "simple|--difficulty simple|params.difficulty=simple"
      "easy|--difficulty easy|params.difficulty=easy"
      "intermediate|--difficulty intermediate|params.difficulty=intermediate"
      "expert|--difficulty expert|params.difficulty=expert")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TIMEFORMAT='%3R %3U %3S' # bash's time: wall, user, system seconds

# timed OUTFILE CMD...: run CMD with stdout to OUTFILE; prints "wall cpu"
timed() {
    local outfile=$1 t
    shift
    t=$( { time "$@" >"$outfile" 2>/dev/null; } 2>&1) || return 1
    echo "$t" | awk '{print $1, $2 + $3}'
}
median() { sort -g | awk '{a[NR] = $1} END {print NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
mean_clues() { awk '{n += gsub(/[1-9]/, "&")} END {printf "%.1f", n / NR}' "$1"; }

"$(dirname "$0")"/machine.sh
echo "Sudoku generation," \
    "nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg), runs $RUNS (median," \
    "whole process, one thread); $($QQWING --version 2>&1 | head -n 1)"
echo

failed=0
for r in $(seq "$RUNS"); do
    for i in "${!ROWS[@]}"; do
        IFS='|' read -r label qopts copts <<<"${ROWS[$i]}"
        qn=$QQCOUNT
        [ "$label" = simple ] && qn=$((QQCOUNT / 10 > 0 ? QQCOUNT / 10 : 1))
        # shellcheck disable=SC2086
        t=$(timed "$tmp/q$i.txt" "$QQWING" --generate "$qn" --one-line $qopts) || failed=1
        echo "$qn $t" >>"$tmp/q$i.times"
        sets=(--set params.count="$COUNT" --set params.seed="$r")
        [ -n "$copts" ] && sets+=(--set "$copts")
        t=$(timed "$tmp/c$i.txt" "$CSEARCH" "$ROOT/configs/sudoku-generate.yaml" "${sets[@]}" --quiet) || failed=1
        echo "$COUNT $t" >>"$tmp/c$i.times"
        [ "$(sort -u "$tmp/c$i.txt" | grep -cxE '[1-9.]{81}')" = "$COUNT" ] ||
            { echo "csearch $label: not $COUNT distinct puzzles" >&2; failed=1; }
    done
done

echo "| puzzles | qqwing puzzles/s (wall) | csearch puzzles/s (wall) | ratio | qqwing puzzles/s (CPU) | csearch puzzles/s (CPU) | ratio | mean clues qqwing / csearch |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for i in "${!ROWS[@]}"; do
    IFS='|' read -r label _ _ <<<"${ROWS[$i]}"
    qw=$(awk '{print $1 / $2}' "$tmp/q$i.times" | median)
    cw=$(awk '{print $1 / $2}' "$tmp/c$i.times" | median)
    qc=$(awk '{print $1 / ($3 > 0 ? $3 : 0.001)}' "$tmp/q$i.times" | median)
    cc=$(awk '{print $1 / ($3 > 0 ? $3 : 0.001)}' "$tmp/c$i.times" | median)
    printf '| %s | %.1f | %.1f | %.1fx | %.1f | %.1f | %.1fx | %s / %s |\n' "$label" \
        "$qw" "$cw" "$(echo "$cw $qw" | awk '{print $1 / $2}')" "$qc" "$cc" \
        "$(echo "$cc $qc" | awk '{print $1 / $2}')" "$(mean_clues "$tmp/q$i.txt")" \
        "$(mean_clues "$tmp/c$i.txt")"
done
exit $failed

#!/usr/bin/env bash
# builds.sh - two csearch builds side by side: the speed and the exact counts
# of the measurements a change to the engine must keep.
#
# usage: bench/builds.sh [-r ROUNDS] [-q] BEFORE_BUILD AFTER_BUILD
#   e.g. bench/builds.sh /tmp/csearch-before build
#
# Each BUILD is a CMake release build directory (framework/csearch and
# bench/nq_plain inside).  Measured, with the scripts next to this one:
#   - N-Queens n = 16 with bench/plain.c, the generic bitmask + mirror
#     engine and the fast kernel, one bench/nqueens.sh -s STRATEGY each,
#     and generic / plain (the goal: <= 1.3);
#   - Sudoku, the fast kernel on the 17-clue set, 49158 puzzles
#     (bench/sudoku.sh -s full:in-order:fast), puzzles/s by the wall clock
#     and by CPU time; the nodes from configs/sudoku-fast.yaml (one run);
#   - shifts: Instances 1-7 (bench/shifts.sh) without a time limit, stopped
#     after a fixed number of nodes, so that their costs are exact
#     (Instance1 proves its optimum before).
# Every round runs each measurement with BEFORE, then at once with AFTER, so
# a slow patch of a shared machine hits both alike; the table gives the
# medians of the rounds by wall clock (the csearch process, as the scripts
# time it) and by CPU time (user + system of the whole script call, which
# other jobs disturb less; it includes the script's own work, about 50 ms
# for nqueens.sh), after / before, and the exact counts of both builds,
# flagged where they differ.
# -r ROUNDS  rounds (default 5: 4-8 minutes on this shared 2-core machine)
# -q         quick: n = 14, every 10th 17-clue puzzle, Instances 1, 2 and 7
#            with 2000000 nodes; 3 rounds unless -r says otherwise
# Both builds run this checkout's scripts and configs.
# Exit status: 0 all counts the same, 1 a count differs or a run failed,
# 2 usage error.
set -u

HERE=$(cd "$(dirname "$0")" && pwd) || exit 2
ROOT=${HERE%/bench}
SUDOKU_DATA="$ROOT/../shared/data/sudoku"

# The header comment above is the help text.
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit "$1"; }
die() { printf 'builds.sh: %s\n' "$1" >&2; exit 2; }

ROUNDS=
QUICK=0
while getopts "r:qh" opt; do
    case $opt in
    r) ROUNDS=$OPTARG ;;
    q) QUICK=1 ;;
    h) usage 0 ;;
    *) usage 2 ;;
    esac
done
shift $((OPTIND - 1))
(($# == 2)) || usage 2
for build in "$@"; do
    if [ ! -x "$build/framework/csearch" ] || [ ! -x "$build/bench/nq_plain" ]; then
        die "$build: no framework/csearch or bench/nq_plain (a built release tree?)"
    fi
done
BUILD_OF=([0]=$(cd "$1" && pwd) [1]=$(cd "$2" && pwd))
SIDES=(before after) # the order within a round; index into BUILD_OF

if ((QUICK)); then
    NQ_N=14 SUDOKU_SET="$SUDOKU_DATA/17clue_sample4916.txt"
    SHIFTS_NODES=2000000 SHIFTS_INSTANCES=(1 2 7) ROUNDS=${ROUNDS:-3}
else
    NQ_N=16 SUDOKU_SET="$SUDOKU_DATA/17clue_49158.txt"
    SHIFTS_NODES=15000000 SHIFTS_INSTANCES=(1 2 3 4 5 6 7) ROUNDS=${ROUNDS:-5}
fi
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "ROUNDS must be a positive integer"
[ -r "$SUDOKU_SET" ] || die "cannot read $SUDOKU_SET"

TMP=$(mktemp -d) || exit 2
trap 'rm -rf -- "$TMP"' EXIT
trap 'exit 130' INT TERM

# The rosters stop after SHIFTS_NODES nodes and have no time limit (none of
# the time-shared moves then): the node limit is exact and the rounds
# deterministic, so the costs can be compared; shifts.sh -s is only a
# safety net.
# Per measurement ID and side ("ID SIDE"): WALL and CPU hold one value per
# round, COUNTS the exact counts of the first round, VARIED a mark when a
# later round's counts were not the same, LAST_WALL / LAST_CPU this round's
# values.  IDS keeps the order of the table.
declare -A WALL=() CPU=() LAST_WALL=() LAST_CPU=() COUNTS=() VARIED=()
declare -A LABEL=() FORMAT=() SUDOKU_NODES=()
IDS=()
FAILED=0

# record ID SIDE WALL CPU COUNTS LABEL FORMAT: one round's result; an empty
# WALL or CPU (a failed run) adds only the counts.
record() {
    local key="$1 $2"
    if [[ -z ${LABEL[$1]:-} ]]; then
        IDS+=("$1")
        LABEL[$1]=$6 FORMAT[$1]=$7
    fi
    LAST_WALL[$key]=$3 LAST_CPU[$key]=$4
    [[ -n $3 ]] && WALL[$key]+="$3 "
    [[ -n $4 ]] && CPU[$key]+="$4 "
    if [[ -z ${COUNTS[$key]+set} ]]; then
        COUNTS[$key]=$5
    elif [[ ${COUNTS[$key]} != "$5" ]]; then
        VARIED[$key]=1
    fi
}

# run SIDE SCRIPT ARGS...: run bench/SCRIPT with -b SIDE's build, its
# output into $TMP/out, and set RUN_CPU to the CPU seconds (user + system)
# of the script and all it started; a failure is reported (with its
# stderr), counted and returned.
TIMEFORMAT='%3U %3S' # bash's time
run() {
    local side=$1 script=$2 rc
    shift 2
    [ -t 2 ] && printf '\rround %s/%s: %s, %s build     ' "$ROUND" "$ROUNDS" "$script" "${SIDES[$side]}" >&2
    { time "$HERE/$script" -b "${BUILD_OF[$side]}" "$@" >"$TMP/out" 2>"$TMP/err"; } 2>"$TMP/time"
    rc=$?
    RUN_CPU=$(awk '{ print $1 + $2 }' "$TMP/time")
    if ((rc != 0)); then
        printf 'builds.sh: %s %s failed with the %s build:\n' "$script" "$*" "${SIDES[$side]}" >&2
        tail -n 5 "$TMP/err" >&2
        FAILED=1
        return 1
    fi
}

# The cells of the Markdown table rows in $TMP/out, tab-separated.
cells() { sed -n '/^|/{s/^| *//; s/ *|$//; s/ *| */\t/g; p}' "$TMP/out"; }

# measure_nqueens SIDE STRATEGY: one nqueens.sh run of n = NQ_N.
measure_nqueens() {
    local side=$1 id label n sol uniq nodes secs counts
    case $2 in
    plain) id=nq-plain label="bench/plain.c" ;;
    bitmask+mirror) id=nq-generic label="generic bitmask+mirror" ;;
    fast) id=nq-fast label="fast kernel" ;;
    esac
    run "$side" nqueens.sh -r 1 -s "$2" "$NQ_N" "$NQ_N" || RUN_CPU=''
    while IFS=$'\t' read -r n _ sol uniq nodes secs _; do
        [[ $n =~ ^[0-9]+$ ]] || continue
        [[ $sol == error ]] && secs='' # nqueens.sh has said why
        counts="solutions $sol"
        [[ $uniq != - ]] && counts+=", unique $uniq"
        [[ $nodes != - ]] && counts+=", nodes $nodes"
        record "$id" "$side" "$secs" "$RUN_CPU" "$counts" "N-Queens n=$NQ_N, $label (s)" %.3f
    done < <(cells)
}

# nqueens_ratio SIDE: generic / plain of SIDE's runs in this round.
nqueens_ratio() {
    local g="nq-generic $1" p="nq-plain $1"
    record nq-ratio "$1" "$(ratio "${LAST_WALL[$g]:-}" "${LAST_WALL[$p]:-}")" \
        "$(ratio "${LAST_CPU[$g]:-}" "${LAST_CPU[$p]:-}")" "" \
        "generic / plain, n=$NQ_N (goal <= 1.3)" %.3f
}

# ratio A B: A / B, or nothing if either is missing.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b > 0) print a / b }'; }

# The exact nodes of the Sudoku set (configs/sudoku-fast.yaml, untimed).
sudoku_nodes() {
    local got
    got=$("${BUILD_OF[$1]}/framework/csearch" "$ROOT/configs/sudoku-fast.yaml" --json \
        --set "params.file=$SUDOKU_SET" 2>/dev/null |
        jq -r '"\(.summary.unique) unique, nodes \(.summary.nodes)"' 2>/dev/null)
    printf '%s' "${got:-no nodes (configs/sudoku-fast.yaml failed)}"
}

# measure_sudoku SIDE: one sudoku.sh run; its own rates by wall clock and
# by CPU time of csearch.
measure_sudoku() {
    local side=$1 ok=1 set puzzles rate cpu_rate guesses
    [[ -n ${SUDOKU_NODES[$side]:-} ]] || SUDOKU_NODES[$side]=$(sudoku_nodes "$side")
    run "$side" sudoku.sh -r 1 -s full:in-order:fast "$SUDOKU_SET" || ok=0
    while IFS=$'\t' read -r set puzzles _ _ _ rate cpu_rate guesses _; do
        [[ $puzzles =~ ^[0-9]+$ ]] || continue
        ((ok)) || rate='' cpu_rate='' # not every puzzle unique: no rate
        record sudoku "$side" "$rate" "$cpu_rate" \
            "puzzles $puzzles, ${SUDOKU_NODES[$side]}, guesses/puzzle $guesses" \
            "Sudoku fast kernel, $set (puzzles/s)" %.0f
    done < <(cells)
}

# measure_shifts SIDE INSTANCE: one shifts.sh run.
measure_shifts() {
    local side=$1 i cost root bound status secs label
    run "$side" shifts.sh -x limits.seconds=0 -x "limits.nodes=$SHIFTS_NODES" \
        -s 600 "$2" || RUN_CPU=''
    while IFS=$'\t' read -r i _ cost _ root bound _ status secs _; do
        [[ $i =~ ^[0-9]+$ ]] || continue
        label="shifts Instance$i, $SHIFTS_NODES nodes (s)"
        ((i == 1)) && label="shifts Instance1 proof (s)"
        record "shifts-$i" "$side" "$secs" "$RUN_CPU" \
            "cost $cost, root bound $root, bound $bound, $status" "$label" %.2f
    done < <(cells)
}

# What a build was made from: its source directory and, if that is a git
# checkout, the commit.
describe_build() {
    local src commit
    src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$1/CMakeCache.txt" 2>/dev/null)
    commit=$(git -C "${src:-/nonexistent}" describe --always --dirty 2>/dev/null)
    printf '%s (source %s%s)' "$1" "${src:-unknown}" "${commit:+, commit $commit}"
}

print_table() {
    local id cb ca flag goal diffs=0
    echo "| measurement | before | after | after/before | rounds' after/before" \
        "| CPU before | CPU after | CPU after/before | counts, before | counts, after |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---|---|"
    for id in "${IDS[@]}"; do
        cb=${COUNTS[$id 0]:-} ca=${COUNTS[$id 1]:-} goal=0
        if [[ $id == nq-ratio ]]; then # the goal instead of counts
            goal=1
        elif [[ $ca == "$cb" && -z ${VARIED[$id 0]:-}${VARIED[$id 1]:-} ]]; then
            ca=same
        else
            ca="**DIFFERS**: $ca"
            diffs=$((diffs + 1))
        fi
        flag=" (varied between rounds)"
        [[ -n ${VARIED[$id 0]:-} ]] && cb+=$flag
        [[ -n ${VARIED[$id 1]:-} ]] && ca+=$flag
        awk -v l="${LABEL[$id]}" -v f="${FORMAT[$id]}" -v cb="$cb" -v ca="$ca" -v goal="$goal" \
            -v wb="${WALL[$id 0]:-}" -v wa="${WALL[$id 1]:-}" \
            -v pb="${CPU[$id 0]:-}" -v pa="${CPU[$id 1]:-}" "$TABLE_ROW"
    done
    echo
    if ((diffs)); then
        echo "**$diffs measurement(s) with counts that differ.**"
        FAILED=1
    else
        echo "Every count the same in both builds."
    fi
}

# awk: one row of the table from the values of the rounds (space-separated
# lists wb, wa: wall clock before and after; pb, pa: CPU); with goal=1 the
# counts columns say whether generic / plain is within the issue's 1.3.
TABLE_ROW='
function median(list,    v, n, i, j, t) {
    n = split(list, v, " ")
    for (i = 2; i <= n; i++) # insertion sort: a handful of rounds
        for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    if (n == 0) return ""
    return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function cell(x) { return x == "" ? "-" : sprintf(f, x) }
function ratio(a, b) { return (a != "" && b > 0) ? sprintf("%.3f", a / b) : "-" }
function verdict(wall, cpu) {
    return (wall == "" || cpu == "") ? "-" : sprintf("wall clock: %s, CPU: %s",
        wall <= 1.3 ? "met" : "**not met**", cpu <= 1.3 ? "met" : "**not met**")
}
# The lowest and highest ratio of a round'"'"'s after to its before.
function spread(bs, as,    n, bv, av, i, q, lo, hi) {
    n = split(bs, bv, " ")
    if (n < 2 || split(as, av, " ") != n) return "-"
    for (i = 1; i <= n; i++) {
        if (bv[i] <= 0) return "-"
        q = av[i] / bv[i]
        if (i == 1 || q < lo) lo = q
        if (i == 1 || q > hi) hi = q
    }
    return sprintf("%.2f-%.2f", lo, hi)
}
BEGIN {
    b = median(wb); a = median(wa); cpub = median(pb); cpua = median(pa)
    if (goal) { cb = verdict(b, cpub); ca = verdict(a, cpua) }
    printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", l, cell(b), cell(a),
           ratio(a, b), spread(wb, wa), cell(cpub), cell(cpua), ratio(cpua, cpub), cb, ca
}'

command -v jq >/dev/null || die "jq is needed"
start=$(date +%s)
for ((ROUND = 1; ROUND <= ROUNDS; ROUND++)); do
    for strategy in plain bitmask+mirror fast; do
        for side in 0 1; do measure_nqueens "$side" "$strategy"; done
    done
    for side in 0 1; do nqueens_ratio "$side"; done
    for side in 0 1; do measure_sudoku "$side"; done
    for instance in "${SHIFTS_INSTANCES[@]}"; do
        for side in 0 1; do measure_shifts "$side" "$instance"; done
    done
done
[ -t 2 ] && printf '\r%60s\r' '' >&2

"$(dirname "$0")"/machine.sh
echo "Before and after," \
    "nproc $(nproc), rounds $ROUNDS$( ((QUICK)) && echo ' (quick)'), $(($(date +%s) - start)) s in all"
echo "before: $(describe_build "${BUILD_OF[0]}")"
echo "after:  $(describe_build "${BUILD_OF[1]}")"
echo "Medians of the rounds: wall clock of the csearch process; CPU: user + system seconds"
echo "of the script call (csearch and the script's own work; Sudoku: csearch's puzzles per"
echo "CPU second).  after/before < 1 is faster for seconds, > 1 for puzzles/s."
echo
print_table
exit "$FAILED"

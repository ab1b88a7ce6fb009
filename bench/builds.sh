#!/usr/bin/env bash
# builds.sh - two csearch builds side by side: the speed and the exact counts
# of the measurements the engine redesign (issue 12) must keep.
#
# usage: bench/builds.sh [-r ROUNDS] [-q] BEFORE_BUILD AFTER_BUILD
#   e.g. bench/builds.sh /tmp/csearch-before build
#
# Each BUILD is a CMake release build directory (framework/csearch and
# bench/nq_plain inside).  Measured, with the scripts next to this one:
#   - N-Queens n = 16 with the fast kernel, the generic bitmask + mirror
#     engine and bench/plain.c, and generic / plain (the goal: <= 1.3)
#     (bench/nqueens.sh -s plain,bitmask+mirror,fast);
#   - Sudoku, the fast kernel on the 17-clue set, 49158 puzzles
#     (bench/sudoku.sh -s full:in-order:fast), puzzles/s by the wall clock
#     and by CPU time; the nodes from configs/sudoku-fast.yaml (one run);
#   - shifts: Instance1's proof (configs/shifts-instance1.yaml) and
#     Instances 2-7 with configs/shifts-instance7.yaml stopped after a fixed
#     number of nodes, so that their costs are exact (bench/shifts.sh).
# Every round runs each measurement with BEFORE, then at once with AFTER, so
# a slow patch of a shared machine hits both alike; the table gives the
# medians of the rounds (whole-process wall clock), after / before, and the
# exact counts of both, flagged where they differ.  -r: rounds (default 5;
# the full run takes 4-5 minutes on a shared 2-core machine).  -q: quick,
# small sizes (n = 14, every 10th 17-clue puzzle, 2000000 nodes on
# Instances 2 and 7), 3 rounds unless -r says otherwise.
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

# Instances 2-7 stop after SHIFTS_NODES nodes: the node limit is exact and
# the rounds deterministic, so the costs can be compared; the time limit
# (shifts.sh -s, less 2 s) is only a safety net.
SHIFTS_CONFIG="$TMP/shifts-nodes.yaml"
sed "s/^limits: .*/limits: {nodes: $SHIFTS_NODES}/" \
    "$ROOT/configs/shifts-instance7.yaml" >"$SHIFTS_CONFIG"
grep -q "nodes: $SHIFTS_NODES" "$SHIFTS_CONFIG" ||
    die "configs/shifts-instance7.yaml has no 'limits:' line to put the node limit in"

# Per measurement ID and side: VALUES "ID SIDE" holds one value per round,
# COUNTS the exact counts of the first round, VARIED a mark when a later
# round's counts were not the same.  IDS keeps the order of the table.
declare -A VALUES=() COUNTS=() VARIED=() LABEL=() FORMAT=() SUDOKU_NODES=()
IDS=()
FAILED=0

# record ID SIDE VALUE COUNTS LABEL FORMAT: one round's result; an empty
# VALUE (a failed run) adds only its counts.
record() {
    local key="$1 $2"
    if [[ -z ${LABEL[$1]:-} ]]; then
        IDS+=("$1")
        LABEL[$1]=$5 FORMAT[$1]=$6
    fi
    [[ -n $3 ]] && VALUES[$key]+="$3 "
    if [[ -z ${COUNTS[$key]+set} ]]; then
        COUNTS[$key]=$4
    elif [[ ${COUNTS[$key]} != "$4" ]]; then
        VARIED[$key]=1
    fi
}

# run SIDE SCRIPT ARGS...: run bench/SCRIPT with -b SIDE's build, its
# output into $TMP/out; a failure is reported (with its stderr), counted
# and returned.
run() {
    local side=$1 script=$2
    shift 2
    [ -t 2 ] && printf '\rround %s/%s: %s, %s build ' "$ROUND" "$ROUNDS" "$script" "${SIDES[$side]}" >&2
    if ! "$HERE/$script" -b "${BUILD_OF[$side]}" "$@" >"$TMP/out" 2>"$TMP/err"; then
        printf 'builds.sh: %s failed with the %s build:\n' "$script" "${SIDES[$side]}" >&2
        tail -n 5 "$TMP/err" >&2
        FAILED=1
        return 1
    fi
}

# The cells of the Markdown table rows in $TMP/out, tab-separated.
cells() { sed -n '/^|/{s/^| *//; s/ *|$//; s/ *| */\t/g; p}' "$TMP/out"; }

measure_nqueens() {
    local side=$1 name sol uniq nodes secs plain='' generic=''
    run "$side" nqueens.sh -r 1 -s plain,bitmask+mirror,fast "$NQ_N" "$NQ_N"
    while IFS=$'\t' read -r _ name sol uniq nodes secs _; do
        [[ $sol == error ]] && secs='' # nqueens.sh has said why
        case $name in
        plain) plain=$secs
            # nqueens.sh shows bitmask+mirror's nodes for plain: leave them out
            record nq-plain "$side" "$secs" "solutions $sol" \
                "N-Queens n=$NQ_N, bench/plain.c (s)" %.3f ;;
        bitmask+mirror) generic=$secs
            record nq-generic "$side" "$secs" "solutions $sol, nodes $nodes" \
                "N-Queens n=$NQ_N, generic bitmask+mirror (s)" %.3f ;;
        fast)
            record nq-fast "$side" "$secs" "solutions $sol, unique $uniq, nodes $nodes" \
                "N-Queens n=$NQ_N, fast kernel (s)" %.3f ;;
        esac
    done < <(cells)
    [[ -n $plain && -n $generic ]] || return
    record nq-ratio "$side" "$(awk -v g="$generic" -v p="$plain" 'BEGIN { print g / p }')" \
        "" "generic / plain, n=$NQ_N (goal <= 1.3)" %.3f
}

# The exact nodes of the Sudoku set (configs/sudoku-fast.yaml, untimed).
sudoku_nodes() {
    local got
    got=$("${BUILD_OF[$1]}/framework/csearch" "$ROOT/configs/sudoku-fast.yaml" --json \
        --set "params.file=$SUDOKU_SET" 2>/dev/null |
        jq -r '"\(.summary.unique) unique, nodes \(.summary.nodes)"' 2>/dev/null)
    printf '%s' "${got:-no nodes (configs/sudoku-fast.yaml failed)}"
}

measure_sudoku() {
    local side=$1 ok=1 set puzzles rate cpu_rate guesses counts
    [[ -n ${SUDOKU_NODES[$side]:-} ]] || SUDOKU_NODES[$side]=$(sudoku_nodes "$side")
    run "$side" sudoku.sh -r 1 -s full:in-order:fast "$SUDOKU_SET" || ok=0
    while IFS=$'\t' read -r set puzzles _ _ _ rate cpu_rate guesses _; do
        [[ $puzzles =~ ^[0-9]+$ ]] || continue
        ((ok)) || rate='' cpu_rate='' # not every puzzle unique: no rate
        counts="puzzles $puzzles, ${SUDOKU_NODES[$side]}, guesses/puzzle $guesses"
        record sudoku-wall "$side" "$rate" "$counts" \
            "Sudoku fast kernel, $set (puzzles/s)" %.0f
        record sudoku-cpu "$side" "$cpu_rate" "$counts" \
            "Sudoku fast kernel, $set (puzzles/CPU-s)" %.0f
    done < <(cells)
}

measure_shifts() {
    local side=$1 i cost bound status secs nodes label
    run "$side" shifts.sh -c "$SHIFTS_CONFIG" -s 62 "${SHIFTS_INSTANCES[@]}"
    while IFS=$'\t' read -r i _ cost bound status _ secs nodes; do
        [[ $i =~ ^[0-9]+$ ]] || continue
        label="shifts Instance$i, $SHIFTS_NODES nodes (s)"
        ((i == 1)) && label="shifts Instance1 proof, shifts-instance1.yaml (s)"
        record "shifts-$i" "$side" "$secs" \
            "cost $cost, bound $bound, $status, nodes $nodes" "$label" %.2f
    done < <(cells)
}

# The median of the numbers given as arguments.
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
        END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# What a build was made from: its source directory and, if that is a git
# checkout, the commit.
describe_build() {
    local src commit
    src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$1/CMakeCache.txt" 2>/dev/null)
    commit=$(git -C "${src:-/nonexistent}" describe --always --dirty 2>/dev/null)
    printf '%s (source %s%s)' "$1" "${src:-unknown}" "${commit:+, commit $commit}"
}

# Whether generic / plain ($1) meets the issue's goal.
goal() {
    awk -v r="$1" 'BEGIN { print r == "" ? "-" : r <= 1.3 ? "goal met" : "**goal not met**" }'
}

print_table() {
    local id b a cb ca flag diffs=0
    echo "| measurement | before | after | after/before | rounds' after/before | counts, before | counts, after |"
    echo "|---|---:|---:|---:|---:|---|---|"
    for id in "${IDS[@]}"; do
        # shellcheck disable=SC2086  # the values are space-separated on purpose
        b=$(median ${VALUES[$id 0]:-}) a=$(median ${VALUES[$id 1]:-})
        cb=${COUNTS[$id 0]:-} ca=${COUNTS[$id 1]:-}
        if [[ $id == nq-ratio ]]; then # the goal, not a count
            cb=$(goal "$b") ca=$(goal "$a")
        elif [[ $ca == "$cb" && -z ${VARIED[$id 0]:-}${VARIED[$id 1]:-} ]]; then
            ca=same
        else
            ca="**DIFFERS**: $ca"
            diffs=$((diffs + 1))
        fi
        flag=" (varied between rounds)"
        [[ -n ${VARIED[$id 0]:-} ]] && cb+=$flag
        [[ -n ${VARIED[$id 1]:-} ]] && ca+=$flag
        awk -v l="${LABEL[$id]}" -v b="$b" -v a="$a" -v f="${FORMAT[$id]}" \
            -v bs="${VALUES[$id 0]:-}" -v as="${VALUES[$id 1]:-}" \
            -v cb="$cb" -v ca="$ca" 'BEGIN {
                r = (b > 0 && a != "") ? sprintf("%.3f", a / b) : "-"
                printf "| %s | %s | %s | %s | %s | %s | %s |\n",
                       l, cell(b, f), cell(a, f), r, spread(bs, as), cb, ca }
            function cell(x, f) { return x == "" ? "-" : sprintf(f, x) }
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
            }'
    done
    echo
    if ((diffs)); then
        echo "**$diffs measurement(s) with counts that differ.**"
        FAILED=1
    else
        echo "Every count the same in both builds."
    fi
}

command -v jq >/dev/null || die "jq is needed"
start=$(date +%s)
for ((ROUND = 1; ROUND <= ROUNDS; ROUND++)); do
    for side in 0 1; do measure_nqueens "$side"; done
    for side in 0 1; do measure_sudoku "$side"; done
    for side in 0 1; do measure_shifts "$side"; done
done
[ -t 2 ] && printf '\r%60s\r' '' >&2

echo "Before and after, $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m)," \
    "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
    "nproc $(nproc), rounds $ROUNDS$( ((QUICK)) && echo ' (quick)'), $(($(date +%s) - start)) s in all"
echo "before: $(describe_build "${BUILD_OF[0]}")"
echo "after:  $(describe_build "${BUILD_OF[1]}")"
echo "Medians of the rounds, each run the whole process; after/before < 1 is faster"
echo "for seconds, > 1 for puzzles/s."
echo
print_table
exit "$FAILED"

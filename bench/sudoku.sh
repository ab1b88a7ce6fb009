#!/usr/bin/env bash
# sudoku.sh - Sudoku batch speed of csearch's strategies, side by side.
#
# For each puzzle set it checks every puzzle for uniqueness (task count,
# limits.solutions 2: the search stops at a second solution) with each
# strategy - propagation none, singles, full, each with in-order and MRV
# selection on the general path, then the fast 9 x 9 kernel (propagate full)
# with its own order and with the engine's MRV, then the default config (no
# strategy keys: what a user who writes none gets) and, given -T, tdoku (a
# local build of github.com/t-dillon/tdoku, driven by bench/tdoku_file.c
# with limit 2, the same check) - and prints one Markdown
# table: puzzles per second of the whole process (wall clock, and per second
# of CPU time, user + system, which a busy machine disturbs less), medians
# of the rounds, guesses per puzzle, and the ratio of wall times to the
# plain MRV search (propagation none, MRV) and to tdoku, measured in the
# same rounds.
# Rounds run every strategy once in a fixed order, so a slow patch of the
# machine hits all of them alike.  Every run must report every puzzle
# unique (the sets hold only such puzzles) or the script fails.
#
# usage: bench/sudoku.sh [-r RUNS] [-b BUILD_DIR] [-t THREADS] [-s LIST]
#                        [-T TDOKU_DIR] [SET.txt[:REPEAT]...]
# -s: only these strategies, comma-separated PROPAGATE:SELECT:KERNEL or
# default or tdoku, e.g. -s none:mrv:generic,full:in-order:fast (a short
# run; without none:mrv:generic there is no ratio to plain MRV).
# -T: tdoku's source tree, built (cmake: its target tdoku_static, in
# TDOKU_DIR/build, with tdoku's own default -O3 -march=native); the driver
# is compiled with $CC (default cc).  -T may be given twice (say a clang
# build and a gcc build): each runs in the same rounds, the first is the
# "vs tdoku" reference and the second's ratio is printed beside it.
# SET.txt:20 checks the set 20 times over
# (one file).
# default sets: ../shared/data/sudoku/{17clue_sample4916, top1465,
# forum_hardest_1905_11plus_sample4877}.txt next to this repository.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
RUNS=3
BUILD="$ROOT/build"
THREADS=1
ONLY=
TDOKU=
TDOKU2=
while getopts "r:b:t:s:T:h" opt; do
    case $opt in
    r) RUNS=$OPTARG ;;
    b) BUILD=$OPTARG ;;
    t) THREADS=$OPTARG ;;
    s) ONLY=",$OPTARG," ;;
    T) if [ -z "$TDOKU" ]; then TDOKU=$OPTARG; else TDOKU2=$OPTARG; fi ;;
    *)
        sed -n '2,/^set -u/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'
        exit 2
        ;;
    esac
done
shift $((OPTIND - 1))
CSEARCH="$BUILD/framework/csearch"
if [ ! -x "$CSEARCH" ]; then
    echo "sudoku.sh: no $CSEARCH; build it first:" >&2
    echo "  cmake --preset release && cmake --build --preset release" >&2
    exit 2
fi
DATA="$ROOT/../shared/data/sudoku"
if [ $# -eq 0 ]; then
    set -- "$DATA/17clue_sample4916.txt" "$DATA/top1465.txt" \
        "$DATA/forum_hardest_1905_11plus_sample4877.txt"
fi

# name: propagate select kernel (plain MRV first: the ratios' reference);
# "default" is the config without strategy keys, "tdoku" the yardstick
STRATEGIES=("none mrv generic" "none in-order generic" "singles mrv generic"
            "singles in-order generic" "full mrv generic"
            "full in-order generic" "full in-order fast" "full mrv fast"
            "default" "tdoku" "tdoku2")
# the plain in-order search (no propagation) takes minutes per set: skip it
# unless SUDOKU_ALL=1
skip() {
    [ "$1" = tdoku ] && [ -z "$TDOKU" ] && return 0
    [ "$1" = tdoku2 ] && [ -z "$TDOKU2" ] && return 0
    [ "$1" = tdoku2 ] && [ -n "$ONLY" ] && [[ $ONLY == *",tdoku,"* ]] && return 1
    if [ -n "$ONLY" ]; then
        [[ $ONLY != *",${1// /:},"* ]]
        return
    fi
    [ "${SUDOKU_ALL:-0}" = 1 ] && return 1
    [ "$1" = "none in-order generic" ]
}

failed=0
config=$(mktemp --suffix=.yaml)
json=$(mktemp) timing=$(mktemp) work=$(mktemp -d)
trap 'rm -rf "$config" "$json" "$timing" "$work"' EXIT
if [ -n "$TDOKU" ]; then
    lib="$TDOKU/build/libtdoku_static.a"
    if [ ! -r "$lib" ] || [ ! -r "$TDOKU/include/tdoku.h" ]; then
        echo "sudoku.sh: no $lib or $TDOKU/include/tdoku.h; build tdoku:" >&2
        echo "  cmake -S $TDOKU -B $TDOKU/build -DCMAKE_BUILD_TYPE=Release && make -C $TDOKU/build tdoku_static" >&2
        exit 2
    fi
    "${CC:-cc}" -O3 -march=native -o "$work/tdoku_file" \
        "$ROOT/bench/tdoku_file.c" -I "$TDOKU/include" "$lib" -lstdc++ -lm ||
        exit 2
fi
if [ -n "$TDOKU2" ]; then
    "${CC:-cc}" -O3 -march=native -o "$work/tdoku_file2" \
        "$ROOT/bench/tdoku_file.c" -I "$TDOKU2/include" \
        "$TDOKU2/build/libtdoku_static.a" -lstdc++ -lm || exit 2
fi
TIMEFORMAT='%3R %3U %3S' # bash's time: wall, user, system seconds

"$(dirname "$0")"/machine.sh
echo "Sudoku uniqueness check," \
    "nproc $(nproc), threads $THREADS, runs $RUNS (median, whole process)"
echo
echo "| set | puzzles | propagate | select | kernel | puzzles/s | puzzles/CPU-s | guesses/puzzle | vs plain MRV | vs tdoku${TDOKU2:+ (1st / 2nd -T)} |"
echo "|---|---:|---|---|---|---:|---:|---:|---:|---:|"
for arg in "$@"; do
    set=${arg%:*} repeat=1
    [ "$set" != "$arg" ] && repeat=${arg##*:}
    if [ ! -r "$set" ] || ! [ "$repeat" -ge 1 ] 2>/dev/null; then
        echo "sudoku.sh: cannot read $arg" >&2
        exit 2
    fi
    name=$(basename "$set")
    set=$(realpath "$set") # the config lives in /tmp
    if [ "$repeat" -gt 1 ]; then
        name="$name x$repeat"
        for ((k = 0; k < repeat; k++)); do cat "$set"; done >"$work/set.txt"
        set="$work/set.txt"
    fi
    puzzles=$(grep -c . "$set")
    declare -A times=() cpus=() guesses=()
    for ((round = 1; round <= RUNS; round++)); do
        for s in "${STRATEGIES[@]}"; do
            skip "$s" "$set" && continue
            read -r prop sel kernel <<<"$s"
            if [ "$s" = tdoku ] || [ "$s" = tdoku2 ]; then
                exe=$work/tdoku_file
                [ "$s" = tdoku2 ] && exe=$work/tdoku_file2
                { time "$exe" "$set" >"$json"; } 2>"$timing"
            else
                if [ "$s" = default ]; then
                    printf 'model: sudoku\nparams: {file: %s}\ntask: count\nlimits: {solutions: 2}\n' \
                        "$set" >"$config"
                else
                    printf 'model: sudoku\nparams: {file: %s}\ntask: count\nstrategy: {propagate: %s, select: %s, kernel: %s}\nlimits: {solutions: 2}\n' \
                        "$set" "$prop" "$sel" "$kernel" >"$config"
                fi
                { time "$CSEARCH" "$config" --json --threads "$THREADS" >"$json"; } 2>"$timing"
            fi
            read -r wall user sys <"$timing"
            unique=$(jq .summary.unique "$json")
            if [ "$unique" != "$puzzles" ]; then
                echo "sudoku.sh: $set $s: $unique of $puzzles unique" >&2
                failed=1
            fi
            times[$s]+="$wall "
            cpus[$s]+="$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') "
            guesses[$s]=$(jq .summary.guesses_per_instance "$json")
        done
    done
    median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
    ref=$(median <<<"${times[none mrv generic]:-}")
    yard=$(median <<<"${times[tdoku]:-}")
    yard2=$(median <<<"${times[tdoku2]:-}")
    for s in "${STRATEGIES[@]}"; do
        read -r prop sel kernel <<<"$s"
        case $s in
        default) prop="(none given)" sel=- kernel=auto ;;
        tdoku) prop="tdoku ${TDOKU##*/}" sel=- kernel=- ;;
        tdoku2) prop="tdoku ${TDOKU2##*/}" sel=- kernel=- ;;
        esac
        if skip "$s" "$set"; then
            [ -n "$ONLY" ] || [[ $s == tdoku* ]] && continue # not asked for
            echo "| $name | $puzzles | $prop | $sel | $kernel | skipped | - | - | - | - |"
            continue
        fi
        t=$(median <<<"${times[$s]}")
        c=$(median <<<"${cpus[$s]}")
        awk -v set="$name" -v n="$puzzles" -v p="$prop" -v s="$sel" \
            -v k="$kernel" -v t="$t" -v c="$c" -v ref="$ref" -v yard="$yard" \
            -v g="${guesses[$s]}" -v yard2="$yard2" \
            'BEGIN { cps = (c > 0) ? sprintf("%.0f", n / c) : "-"
                     ratio = (ref > 0) ? sprintf("%.2fx", ref / t) : "-"
                     vs = (yard > 0) ? sprintf("%.2fx", yard / t) : "-"
                     if (yard2 > 0) vs = vs sprintf(" / %.2fx", yard2 / t)
                     printf "| %s | %d | %s | %s | %s | %.0f | %s | %.2f | %s | %s |\n", set, n, p, s, k, n / t, cps, g, ratio, vs }'
    done
    unset times cpus guesses
done
exit $failed

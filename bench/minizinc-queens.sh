#!/usr/bin/env bash
# minizinc-queens.sh - all solutions of MiniZinc's own N-Queens model
# (queens/queens.mzn of github.com/MiniZinc/minizinc-benchmarks, fetched
# outside this repository), fzn-csearch against Gecode's fzn-gecode.
#
# For each n the model is flattened once per solver with its own library
# (csearch's mznlib; Gecode's), then each solver counts every solution
# (-a, one thread, output to a file whose solution lines are counted),
# in interleaved rounds, the order alternating.  Printed: the CPU (lscpu),
# then per n the solutions of each (they must agree), the median wall
# and CPU seconds of each, and Gecode's over csearch's.  Flattening is not
# timed.
#
# usage: bench/minizinc-queens.sh [-r ROUNDS] [-c FZN_CSEARCH]
#                                 [-g FZN_GECODE] QUEENS.mzn [N ...]
# default: 3 rounds, n = 10..14, the fzn-csearch under build/.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
ROUNDS=3
CSEARCH=$ROOT/build/models/fzn-csearch
GECODE=fzn-gecode
while getopts "r:c:g:h" opt; do
    case $opt in
    r) ROUNDS=$OPTARG ;;
    c) CSEARCH=$OPTARG ;;
    g) GECODE=$OPTARG ;;
    *) sed -n '2,/^set -u/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
model=${1:?usage: minizinc-queens.sh [-r ROUNDS] QUEENS.mzn [N ...]}
shift
sizes=("$@")
((${#sizes[@]})) || sizes=(10 11 12 13 14)
[ -x "$CSEARCH" ] || { echo "no fzn-csearch at $CSEARCH (build first)" >&2; exit 2; }
command -v "$GECODE" >/dev/null || { echo "no $GECODE (apt-get install flatzinc)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/solvers"
sed -e 's|@PROJECT_VERSION@|bench|' \
    -e "s|@CSEARCH_MSC_MZNLIB@|$ROOT/models/flatzinc/mznlib|" \
    -e "s|@CSEARCH_MSC_EXECUTABLE@|$CSEARCH|" \
    "$ROOT/models/flatzinc/csearch.msc.in" >"$work/solvers/csearch.msc"
export MZN_SOLVER_PATH=$work/solvers

"$(dirname "$0")"/machine.sh

# timed SOLVER FZN: "WALL CPU SOLUTIONS" of one run (bash's time: ms)
timed() {
    local out=$work/out TIMEFORMAT='%3R %3U %3S'
    { time "$1" -a "$2" >"$out" 2>/dev/null; } 2>"$work/time"
    awk -v s="$(grep -c '^----------$' "$out")" \
        '{ printf "%.3f %.3f %s\n", $1, $2 + $3, s }' "$work/time"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%3s %9s %9s %9s %9s %9s %9s %7s\n' n solutions c-wall c-cpu g-wall g-cpu g-sols gecode/c
for n in "${sizes[@]}"; do
    minizinc --solver org.csearch.csearch -c "$model" -D "n=$n" -o "$work/c.fzn" \
        --no-output-ozn 2>"$work/flat.err" || { cat "$work/flat.err" >&2; exit 1; }
    minizinc --solver org.gecode.gecode -c "$model" -D "n=$n" -o "$work/g.fzn" \
        --no-output-ozn 2>"$work/flat.err" || { cat "$work/flat.err" >&2; exit 1; }
    : >"$work/c.t"
    : >"$work/g.t"
    for ((r = 0; r < ROUNDS; r++)); do
        if ((r % 2 == 0)); then
            timed "$CSEARCH" "$work/c.fzn" >>"$work/c.t"
            timed "$GECODE" "$work/g.fzn" >>"$work/g.t"
        else
            timed "$GECODE" "$work/g.fzn" >>"$work/g.t"
            timed "$CSEARCH" "$work/c.fzn" >>"$work/c.t"
        fi
    done
    cw=$(cut -d' ' -f1 "$work/c.t" | median) cc=$(cut -d' ' -f2 "$work/c.t" | median)
    gw=$(cut -d' ' -f1 "$work/g.t" | median) gc=$(cut -d' ' -f2 "$work/g.t" | median)
    cs=$(cut -d' ' -f3 "$work/c.t" | sort -u | tr '\n' ' ')
    gs=$(cut -d' ' -f3 "$work/g.t" | sort -u | tr '\n' ' ')
    printf '%3s %9s %9s %9s %9s %9s %9s %7.2f\n' "$n" "$cs" "$cw" "$cc" "$gw" "$gc" "$gs" \
        "$(awk -v a="$gw" -v b="$cw" 'BEGIN { print (b > 0 ? a / b : 0) }')"
done

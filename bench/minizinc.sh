#!/usr/bin/env bash
# minizinc.sh - fzn-csearch against Gecode's fzn-gecode on MiniZinc
# instances, side by side, scored as the MiniZinc Challenge scores.
#
# Each instance (a model and its data file, or a model alone) is flattened
# once per solver with that solver's own library: csearch's mznlib (a
# solver config made from models/flatzinc/csearch.msc.in) and Gecode's
# (--solver gecode; where Debian's stale Gecode library cannot flatten the
# model, the MiniZinc std library, -G std, and the row says so).  Both are
# flattened with --output-mode dzn --output-objective, so solns2out reports
# each solution's objective.  Then each solver runs with one thread (-p 1)
# and a time limit (its own -t, and a kill 10 s later), with the model's
# search annotations (fixed) and with free search (-f); optimisation runs
# pass -a so that every improving solution is printed.  The two solvers
# alternate which goes first, instance by instance, so a slow patch of the
# machine hits both alike.
#
# Columns: instance, mode, solver, solved (a solution for a satisfaction
# problem, optimality or unsatisfiability proved for an optimisation one),
# status (opt, sat, unsat, unknown, error, noflat), best objective, wall
# time of the solver (flattening excluded).  Then the Challenge's Borda
# scores per instance and mode for the pair (rules of 2024/2025):
#   complete: solved(s) = a solution found or unsatisfiability proved; s
#     beats s' (1 point) when solved and s' not, or (optimisation) optimal
#     and s' not, or a better objective; equal answers split the point by
#     time, t(s') / (t(s) + t(s')), with times floored to seconds and 0.5
#     when both are 0; an unsolved s scores 0.
#   incomplete: as complete without the optimality test, and equal
#     optimisation answers score 0.5 each whatever the times.
# Totals per mode, and the geometric mean of csearch's time over Gecode's
# on the instances both solve (solved as in the table).  Contradictory
# answers (one proves unsatisfiable or optimal what the other beats) are
# reported and the refuted answer counts as unsolved.
#
# usage: bench/minizinc.sh [-t SECONDS] [-F SECONDS] [-c FZN_CSEARCH]
#                          [-g FZN_GECODE] [-m fixed,free] [-l LIST]
#                          [-L LOCKFILE] [-o OUT_DIR] INSTANCE_DIR
# -t: time limit per run (60); -F: per flattening (60).
# -c: fzn-csearch (default: the one under build/); -g: fzn-gecode.
# -m: search modes to run (fixed, free or both: the default).
# -l: the instances, one a line, "MODEL<TAB>DATA" or "MODEL<TAB>-", paths
#     relative to INSTANCE_DIR (e.g. the challenge's flattenable.txt);
#     default: every directory under INSTANCE_DIR with .mzn files, each
#     model with each .dzn/.json beside it, or alone when there is none.
# -L: run every flattening and every solver run under flock LOCKFILE (a
#     machine shared with other jobs; times are taken inside the lock).
# -o: keep the FlatZinc, outputs and results.tsv there.
# -R RESULTS.tsv: run nothing, score a results.tsv kept by -o.
# The instances are fetched outside the repository, never vendored: the
# MiniZinc Challenge problems are in github.com/MiniZinc/minizinc.github.io
# under public/challenge/YEAR/.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
LIMIT=60
FLAT_LIMIT=60
CSEARCH=
GECODE=fzn-gecode
MODES=fixed,free
LIST=
LOCK=
OUT=
RESCORE=
while getopts "t:F:c:g:m:l:L:o:R:h" opt; do
    case $opt in
    t) LIMIT=$OPTARG ;;
    F) FLAT_LIMIT=$OPTARG ;;
    c) CSEARCH=$OPTARG ;;
    g) GECODE=$OPTARG ;;
    m) MODES=$OPTARG ;;
    l) LIST=$OPTARG ;;
    L) LOCK=$OPTARG ;;
    o) OUT=$OPTARG ;;
    R) RESCORE=$OPTARG ;;
    *)
        sed -n '2,/^set -u/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'
        exit 2
        ;;
    esac
done
shift $((OPTIND - 1))

# score RESULTS: the Borda table, the totals and the time ratio.
score() {
    awk -F'\t' '
    function better(k, a, b) { # is objective a better than b for kind k
        return k == "min" ? a + 0 < b + 0 : a + 0 > b + 0
    }
    function tsplit(ta, tb) { # the time share of a against b (floored seconds)
        ta = int(ta); tb = int(tb)
        return (ta + tb == 0) ? 0.5 : tb / (ta + tb)
    }
    # score(k, a-fields, b-fields, complete): the points of a against b
    function score(k, sa, oa, ta, sb, ob, tb, complete,   solveda, solvedb, opta, optb) {
        solveda = (sa == "sat" || sa == "opt" || sa == "unsat")
        solvedb = (sb == "sat" || sb == "opt" || sb == "unsat")
        if (!solveda) return 0
        if (!solvedb) return 1
        if (k == "sat" || sa == "unsat" || sb == "unsat") return tsplit(ta, tb)
        if (complete) {
            opta = (sa == "opt"); optb = (sb == "opt")
            if (opta && !optb) return 1
            if (optb && !opta) return 0
        }
        if (oa != "-" && ob != "-" && better(k, oa, ob)) return 1
        if (oa != "-" && ob != "-" && better(k, ob, oa)) return 0
        return complete ? tsplit(ta, tb) : 0.5
    }
    {
        key = $1 "\t" $2
        if (!(key in seen)) { seen[key] = 1; keys[++n] = key }
        kind[key] = $4; st[key, $3] = $5; obj[key, $3] = $6; t[key, $3] = $7
    }
    END {
        printf "%-58s %-5s %16s %16s\n", "Borda per instance", "mode", "complete c/g", "incomplete c/g"
        for (i = 1; i <= n; i++) {
            key = keys[i]; k = kind[key]
        name = key; sub(/\t/, " ", name)
            sc = st[key, "csearch"]; sg = st[key, "gecode"]
            oc = obj[key, "csearch"]; og = obj[key, "gecode"]
            # a refuted answer is unsolved: unsat against a solution, or an
            # optimum the other solver beats
            if (sc == "unsat" && (sg == "sat" || sg == "opt")) { print "CONFLICT " name ": csearch says unsatisfiable"; sc = "wrong" }
            if (sg == "unsat" && (sc == "sat" || sc == "opt")) { print "CONFLICT " name ": gecode says unsatisfiable"; sg = "wrong" }
            if (k != "sat" && oc != "-" && og != "-") {
                if (sc == "opt" && better(k, og, oc)) { print "CONFLICT " name ": gecode beats csearch'"'"'s optimum"; sc = "wrong" }
                if (sg == "opt" && better(k, oc, og)) { print "CONFLICT " name ": csearch beats gecode'"'"'s optimum"; sg = "wrong" }
            }
            split(key, km, "\t"); m = km[2]; modes[m] = 1
            cc = score(k, sc, oc, t[key, "csearch"], sg, og, t[key, "gecode"], 1)
            cg = score(k, sg, og, t[key, "gecode"], sc, oc, t[key, "csearch"], 1)
            ic = score(k, sc, oc, t[key, "csearch"], sg, og, t[key, "gecode"], 0)
            ig = score(k, sg, og, t[key, "gecode"], sc, oc, t[key, "csearch"], 0)
            printf "%-58s %-5s %7.3f %7.3f  %7.3f %7.3f\n", km[1], m, cc, cg, ic, ig
            C[m] += cc; G[m] += cg; IC[m] += ic; IG[m] += ig; N[m]++
            fc = (sc == "opt" || sc == "unsat" || (k == "sat" && sc == "sat"))
            fg = (sg == "opt" || sg == "unsat" || (k == "sat" && sg == "sat"))
            SC[m] += fc; SG[m] += fg
            if (fc && fg) {
                a = t[key, "csearch"]; b = t[key, "gecode"]
                if (a < 0.01) a = 0.01
                if (b < 0.01) b = 0.01
                L[m] += log(a / b); B[m]++
            }
        }
        printf "\n%-6s %9s %8s %8s %18s %18s %26s\n", "mode", "instances", "solved c", "solved g",
            "Borda complete c/g", "incomplete c/g", "geomean time c/g (both)"
        split("fixed free", order, " ")
        for (j = 1; j <= 2; j++) if (order[j] in modes) { done[order[j]] = 1; row(order[j]) }
        for (m in modes) if (!(m in done)) row(m)
    }
    function row(m) {
        printf "%-6s %9d %8d %8d %8.2f %9.2f %8.2f %9.2f %17s\n", m, N[m], SC[m], SG[m],
            C[m], G[m], IC[m], IG[m],
            B[m] ? sprintf("%.3f (%d)", exp(L[m] / B[m]), B[m]) : "-"
    }' "$1"
}

if [ -n "$RESCORE" ]; then
    score "$RESCORE"
    exit
fi
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
    echo "usage: bench/minizinc.sh [options] INSTANCE_DIR (-h: help)" >&2
    exit 2
fi
DIR=$(cd "$1" && pwd)
if [ -z "$CSEARCH" ]; then
    CSEARCH=$(find "$ROOT/build" -name fzn-csearch -type f -perm -u+x 2>/dev/null | head -n 1)
fi
for exe in minizinc "$CSEARCH" "$GECODE"; do
    if [ -z "$exe" ] || ! command -v "$exe" >/dev/null 2>&1; then
        echo "minizinc.sh: cannot run '${exe:-fzn-csearch}' (build fzn-csearch, or -c PATH)" >&2
        exit 2
    fi
done
CSEARCH=$(command -v "$CSEARCH")
GECODE=$(command -v "$GECODE")
if [ -n "$OUT" ]; then
    mkdir -p "$OUT" || exit 2
else
    OUT=$(mktemp -d) || exit 2
    trap 'rm -rf "$OUT"' EXIT
fi
OUT=$(cd "$OUT" && pwd)

# The CPU first: a figure holds for its class of machine only.
"$(dirname "$0")"/machine.sh
echo "limit ${LIMIT}s per run, one thread, modes $MODES; fzn-csearch $CSEARCH, $GECODE"
echo

# csearch's solver config, from the template, for this build.
mkdir -p "$OUT/solvers"
sed -e 's|@PROJECT_VERSION@|bench|' \
    -e "s|@CSEARCH_MSC_MZNLIB@|$ROOT/models/flatzinc/mznlib|" \
    -e "s|@CSEARCH_MSC_EXECUTABLE@|$CSEARCH|" \
    "$ROOT/models/flatzinc/csearch.msc.in" >"$OUT/solvers/csearch.msc"
export MZN_SOLVER_PATH=$OUT/solvers

# locked CMD...: CMD, under the lock when there is one.
locked() {
    if [ -n "$LOCK" ]; then
        flock "$LOCK" "$@"
    else
        "$@"
    fi
}

# flatten SOLVER MODEL DATA BASE: BASE.fzn and BASE.ozn; prints the library
# used (csearch, gecode, std) or "fail".
flatten() {
    local solver=$1 model=$2 data=$3 base=$4 d=()
    [ "$data" != - ] && d=("$DIR/$data")
    local common=(--output-mode dzn --output-objective "$DIR/$model" "${d[@]}"
        -o "$base.fzn" --ozn "$base.ozn")
    if [ "$solver" = csearch ]; then
        locked timeout -k 5 "$FLAT_LIMIT" minizinc -c --solver org.csearch.csearch \
            "${common[@]}" </dev/null >"$base.flat.log" 2>&1 && echo csearch && return
    else
        locked timeout -k 5 "$FLAT_LIMIT" minizinc -c --solver org.gecode.gecode \
            "${common[@]}" </dev/null >"$base.flat.log" 2>&1 && echo gecode && return
        locked timeout -k 5 "$FLAT_LIMIT" minizinc -c --solver org.gecode.gecode -G std \
            "${common[@]}" </dev/null >>"$base.flat.log" 2>&1 && echo std && return
    fi
    echo fail
}

# timed_run EXE ARGS...: runs it (under the lock), stdout to $run_out;
# sets run_rc and run_secs, measured inside the lock.
timed_run() {
    local t
    t=$(locked bash -c '
        s=$(date +%s.%N)
        timeout -k 5 "$1" "${@:3}" </dev/null >"$2" 2>"$2.err"
        rc=$?
        awk -v rc=$rc -v a="$s" -v b="$(date +%s.%N)" "BEGIN { print rc, b - a }"' _ \
        $((LIMIT + 10)) "$run_out" "$@")
    run_rc=${t%% *}
    run_secs=$(printf '%.2f' "${t#* }")
}

# One line per run into results.tsv:
# instance mode solver kind status objective seconds library
results=$OUT/results.tsv
: >"$results"
run() { # INSTANCE MODE SOLVER BASE KIND LIBRARY
    local inst=$1 mode=$2 solver=$3 base=$4 kind=$5 lib=$6
    if [ "$lib" = fail ]; then
        printf '%s\t%s\t%s\t%s\tnoflat\t-\t%s\t%s\n' "$inst" "$mode" "$solver" "$kind" \
            "$LIMIT" "$lib" >>"$results"
        return
    fi
    local exe=$CSEARCH flags=(-p 1 -t $((LIMIT * 1000)))
    [ "$solver" = gecode ] && exe=$GECODE
    [ "$mode" = free ] && flags+=(-f)
    [ "$kind" != sat ] && flags+=(-a)
    run_out=$base.$mode.raw
    timed_run "$exe" "${flags[@]}" "$base.fzn"
    minizinc --ozn-file "$base.ozn" <"$run_out" >"$base.$mode.out" 2>/dev/null
    local out=$base.$mode.out status obj
    obj=$(sed -n 's/^_objective = \(-\{0,1\}[0-9.e+-]*\);$/\1/p' "$out" | tail -n 1)
    if grep -q '^=====UNSATISFIABLE=====$' "$out"; then
        status=unsat
    elif grep -q '^==========$' "$out" && [ "$kind" != sat ]; then
        status=opt
    elif grep -q '^----------$' "$out"; then
        status=sat
    elif [ "$run_rc" -ne 0 ] && [ "$run_rc" -ne 124 ] && [ "$run_rc" -ne 137 ]; then
        status=error
    else
        status=unknown
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$inst" "$mode" "$solver" "$kind" "$status" \
        "${obj:--}" "$run_secs" "$lib" >>"$results"
}


if [ -n "$LIST" ]; then
    instances=$(grep -v '^#' "$LIST")
else
    instances=$(cd "$DIR" && find . -name '*.mzn' -printf '%h\n' | sort -u | while read -r d; do
        data=$(find "$d" -maxdepth 1 \( -name '*.dzn' -o -name '*.json' \) | sort)
        for m in $(find "$d" -maxdepth 1 -name '*.mzn' | sort); do
            if [ -z "$data" ]; then
                printf '%s\t-\n' "${m#./}"
            else
                for x in $data; do printf '%s\t%s\n' "${m#./}" "${x#./}"; done
            fi
        done
    done)
fi

printf '%-58s %-5s %-7s %-6s %-7s %12s %8s\n' instance mode solver solved status objective time
i=0
while IFS=$'\t' read -r model data <&4; do
    [ -z "$model" ] && continue
    i=$((i + 1))
    inst=${model%.mzn}
    [ "$data" != - ] && inst="$inst+$(basename "${data%.*}")"
    base=$OUT/$i
    libc=$(flatten csearch "$model" "$data" "$base.csearch")
    libg=$(flatten gecode "$model" "$data" "$base.gecode")
    kind=sat
    for f in "$base.csearch.fzn" "$base.gecode.fzn"; do
        [ -s "$f" ] || continue
        grep -q '^solve .*minimize' "$f" && kind=min
        grep -q '^solve .*maximize' "$f" && kind=max
        break
    done
    order="csearch gecode"
    [ $((i % 2)) -eq 0 ] && order="gecode csearch"
    for mode in ${MODES//,/ }; do
        for solver in $order; do
            lib=$libc
            [ "$solver" = gecode ] && lib=$libg
            run "$inst" "$mode" "$solver" "$base.$solver" "$kind" "$lib"
            tail -n 1 "$results" | awk -F'\t' '{
                solved = ($5 == "unsat" || $5 == "opt" || ($4 == "sat" && $5 == "sat")) ? "yes" : "no"
                lib = ($3 == "gecode" && $8 == "std") ? " (std lib)" : ""
                printf "%-58s %-5s %-7s %-6s %-7s %12s %8s%s\n", $1, $2, $3, solved, $5, $6, $7, lib }'
        done
    done
    rm -f "$base".*.fzn
done 4<<<"$instances"

echo
score "$results"

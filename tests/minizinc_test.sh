#!/bin/bash
# minizinc_test.sh - fzn-csearch against the MiniZinc corpus:
#   tests/minizinc_test.sh FZN-CSEARCH SOURCE_DIR [SCRATCH_DIR]
# For each row of tests/data/minizinc/expected.tsv (model, data or -, kind
# count|optimum|unsat, Gecode's answer) the model is flattened once with
# csearch's mznlib (a solver config made from models/flatzinc/csearch.msc.in
# in the scratch folder), fzn-csearch runs on it (-a to count, plain to
# optimise), solns2out (minizinc --ozn-file) reads its output, and the
# count, the final objective (with optimality proved: ==========) or
# =====UNSATISFIABLE===== must equal the table's.  Counts must also be
# made of distinct solutions.
#
# Every solution fzn-csearch prints is checked independently: the model is
# flattened a second time with Gecode's library (minizinc -c --solver
# gecode --output-mode dzn), so both FlatZinc files declare the model's own
# decision variables under their MiniZinc names; the printed values (and
# the objective solns2out reports) are added to that FlatZinc as int_eq /
# bool_eq constraints and fzn-gecode must find it satisfiable.  This is
# the "solution as extra constraints" check of MiniZinc without paying a
# full minizinc run (~0.1 s) per solution: one fzn-gecode run is ~0.02 s.
#
# One line per row: PASS or FAIL, the figures, the solutions checked.
# Exit 1 on any failure, 77 (skipped) when minizinc or Gecode is missing.
# Environment: MINIZINC (minizinc), CHECK_FZN (fzn-gecode), TIMEOUT
# (seconds per fzn-csearch run, 60), ONLY and SKIP (regexes on the model
# name: run only those, leave those out), CHECK_MAX (check at most N
# solutions of each row, evenly spread over them, the first and the last
# among them; 100 by default, which keeps the suite's run near a minute
# instead of six; 0: all), CSEARCH (the csearch
# command: each row also through `csearch CONFIG` with model: flatzinc,
# which must give the same count, optimum or infeasibility; needs jq), FLAGS
# (more flags for fzn-csearch, e.g. "-f -t 2000").  fzn_gecode_shim.sh has
# no int_pow: SKIP=pow_var with it.
set -u

fzn=${1:?usage: minizinc_test.sh FZN-CSEARCH SOURCE_DIR [SCRATCH_DIR]}
src=${2:?usage: minizinc_test.sh FZN-CSEARCH SOURCE_DIR [SCRATCH_DIR]}
mzn=${MINIZINC:-minizinc}
check_fzn=${CHECK_FZN:-fzn-gecode}
timeout=${TIMEOUT:-60}
only=${ONLY:-}
skip=${SKIP:-}
check_max=${CHECK_MAX:-100}
cli=${CSEARCH:-}

if ! command -v "$mzn" >/dev/null 2>&1; then
    echo "SKIP: $mzn not installed"
    exit 77
fi
if ! command -v "$check_fzn" >/dev/null 2>&1 ||
    ! "$mzn" --solvers 2>/dev/null | grep -q 'org\.gecode\.gecode'; then
    echo "SKIP: the solution checker needs Gecode (--solver gecode, $check_fzn)"
    exit 77
fi
fzn=$(command -v "$fzn") || { echo "FAIL: no executable $1"; exit 1; }
src=$(cd "$src" && pwd) || exit 1
data=$src/tests/data/minizinc

if [ $# -ge 3 ]; then
    scratch=$3
    mkdir -p "$scratch" || exit 1
else
    scratch=$(mktemp -d) || exit 1
    trap 'rm -rf "$scratch"' EXIT
fi
scratch=$(cd "$scratch" && pwd)

# A solver config for this build: the template with absolute paths.
mkdir -p "$scratch/solvers"
sed -e 's|@PROJECT_VERSION@|test|' \
    -e "s|@CSEARCH_MSC_MZNLIB@|$src/models/flatzinc/mznlib|" \
    -e "s|@CSEARCH_MSC_EXECUTABLE@|$fzn|" \
    "$src/models/flatzinc/csearch.msc.in" >"$scratch/solvers/csearch.msc"
export MZN_SOLVER_PATH=$scratch/solvers
if ! "$mzn" --solvers 2>&1 | grep -q 'org\.csearch\.csearch'; then
    echo "FAIL: minizinc does not load $scratch/solvers/csearch.msc"
    exit 1
fi

# solution_constraints RAW: one line per solution printed in RAW (FlatZinc
# output), holding the FlatZinc constraints that fix its values, ';'-ended.
solution_constraints() {
    awk '
    function fix(name, v) {
        if (v == "true" || v == "false") return "constraint bool_eq(" name ", " v ");"
        return "constraint int_eq(" name ", " v ");"
    }
    /^----------$/ { print line; line = ""; next }
    / = / {
        name = $1
        v = substr($0, index($0, " = ") + 3)
        sub(/;[ \t]*$/, "", v)
        if (v ~ /^array[0-9]+d\(/) {
            v = substr(v, index(v, "[") + 1)
            sub(/\][ \t]*\)$/, "", v)
            n = split(v, e, /, */)
            for (k = 1; k <= n; k++)
                if (e[k] != "") line = line fix(name "[" k "]", e[k])
        } else if (v ~ /^(-?[0-9]+|true|false)$/) {
            line = line fix(name, v)
        } else {
            line = line "UNCHECKABLE " name ";"
        }
    }' "$1"
}

# result PASS|FAIL TEXT: the row's line.
result() {
    echo "$1 $label: $2"
    [ "$1" = FAIL ] && failures=$((failures + 1))
}

failures=0
rows=0
while IFS=$'\t' read -r model dat kind want <&4; do
    case $model in model | '' | '#'*) continue ;; esac
    [ -n "$only" ] && ! [[ $model =~ $only ]] && continue
    [ -n "$skip" ] && [[ $model =~ $skip ]] && continue
    rows=$((rows + 1))
    base=${model%.mzn}
    [ "$dat" != - ] && base=$base-${dat%.dzn}
    w=$scratch/$base
    dzn=()
    [ "$dat" != - ] && dzn=("$data/$dat")
    label="$model $dat $kind"

    if ! "$mzn" -c --solver org.csearch.csearch --output-mode dzn \
        --output-objective "$data/$model" "${dzn[@]}" \
        -o "$w.fzn" --ozn "$w.ozn" </dev/null 2>"$w.flat.err"; then
        result FAIL "flattening with csearch's mznlib failed: $(head -c 300 "$w.flat.err")"
        continue
    fi
    goal=satisfy
    grep -Eq '^solve .*(minimize|maximize)' "$w.fzn" && goal=optimize
    read -r -a flags <<<"${FLAGS:-}"
    [ "$goal" = satisfy ] && flags+=(-a)

    start=$(date +%s.%N)
    timeout "$timeout" "$fzn" "${flags[@]}" "$w.fzn" </dev/null >"$w.raw" 2>"$w.run.err"
    status=$?
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    if [ $status -ne 0 ]; then
        result FAIL "fzn-csearch exited $status after ${secs}s: $(head -c 300 "$w.run.err")"
        continue
    fi
    if ! "$mzn" --ozn-file "$w.ozn" <"$w.raw" >"$w.out" 2>"$w.s2o.err"; then
        result FAIL "solns2out rejected the output: $(head -c 300 "$w.s2o.err")"
        continue
    fi
    nsol=$(grep -c -- '^----------$' "$w.out")
    complete=no
    grep -q '^==========$' "$w.out" && complete=yes
    unsat=no
    grep -q '^=====UNSATISFIABLE=====$' "$w.out" && unsat=yes
    objective=$(sed -n 's/^_objective = \(-\{0,1\}[0-9]*\);$/\1/p' "$w.out" | tail -n 1)

    case $kind in
    count) got=$nsol ok=$([ "$complete" = yes ] && [ "$nsol" = "$want" ] && echo y) ;;
    optimum) got=${objective:-none} ok=$([ "$complete" = yes ] && [ "$got" = "$want" ] && echo y) ;;
    unsat) got=$([ "$unsat" = yes ] && echo UNSAT || echo "$nsol solutions") want=UNSAT
           ok=$([ "$unsat" = yes ] && [ "$nsol" = 0 ] && echo y) ;;
    *) result FAIL "unknown kind '$kind' in expected.tsv"; continue ;;
    esac
    if [ "$ok" != y ]; then
        result FAIL "got $got (search complete: $complete), expected $want, ${secs}s"
        continue
    fi

    # Distinct solutions: the same assignment printed twice would make a
    # wrong count look right.
    solution_constraints "$w.raw" >"$w.sols"
    if [ "$kind" = count ] && [ "$(sort "$w.sols" | uniq -d | wc -l)" -ne 0 ]; then
        result FAIL "a solution is printed twice"
        continue
    fi

    # The checker's FlatZinc: the same model through Gecode's library.
    if ! "$mzn" -c --solver org.gecode.gecode --output-mode dzn \
        "$data/$model" "${dzn[@]}" -o "$w.check.fzn" --no-output-ozn \
        </dev/null 2>"$w.check.err"; then
        result FAIL "flattening the checker with Gecode failed: $(head -c 300 "$w.check.err")"
        continue
    fi
    objvar=$(sed -En 's/^solve .*(minimize|maximize) (.*);$/\2/p' "$w.check.fzn")
    sed '/^solve /,$d' "$w.check.fzn" >"$w.check.head"
    grep '^solve ' "$w.check.fzn" >"$w.check.tail"
    sed -n 's/^_objective = \(-\{0,1\}[0-9]*\);$/\1/p' "$w.out" >"$w.objs"
    checked=0 bad="" index=0
    # solution i (from 0) is checked when i * (check_max - 1) crosses a
    # multiple of total - 1: check_max of them, spread, first and last in
    total=$(wc -l <"$w.sols")
    exec 3<"$w.objs"
    while IFS= read -r cons; do
        index=$((index + 1))
        obj=
        [ -n "$objvar" ] && IFS= read -r obj <&3
        if [ "$check_max" -gt 1 ] && [ "$total" -gt "$check_max" ]; then
            a=$(((index - 1) * (check_max - 1) / (total - 1)))
            b=$(((index - 2) * (check_max - 1) / (total - 1)))
            [ "$index" -eq 1 ] || [ "$a" -ne "$b" ] || continue
        elif [ "$check_max" -eq 1 ] && [ "$index" -gt 1 ]; then
            continue
        fi
        checked=$((checked + 1))
        if [[ $cons == *UNCHECKABLE* ]]; then
            bad="solution $index has a value the checker cannot read: ${cons#*UNCHECKABLE }"
            break
        fi
        {
            cat "$w.check.head"
            tr ';' '\n' <<<"$cons" | sed '/^$/d; s/$/;/'
            [ -n "$obj" ] && echo "constraint int_eq($objvar, $obj);"
            cat "$w.check.tail"
        } >"$w.check1.fzn"
        if ! timeout "$timeout" "$check_fzn" "$w.check1.fzn" </dev/null 2>&1 |
            grep -q -- '^----------$'; then
            bad="solution $index violates the model (see $w.check1.fzn)"
            break
        fi
    done <"$w.sols"
    exec 3<&-
    if [ -n "$bad" ]; then
        result FAIL "$got as expected, but $bad"
        continue
    fi
    printed=$(wc -l <"$w.sols")
    if [ "$printed" -ne "$nsol" ]; then
        result FAIL "solns2out counted $nsol solutions, the raw output holds $printed"
        continue
    fi

    # The same FlatZinc through `csearch CONFIG` (model: flatzinc): the
    # count (on two threads: work units), the optimum (the cost is the objective, negated when
    # maximising) or infeasible.
    also=""
    if [ -n "$cli" ]; then
        printf 'model: flatzinc\nparams:\n  file: %s\n' "$w.fzn" >"$w.yaml"
        threads=1
        case $kind in
        count) task=count filter=.solutions expect=$want threads=2 ;;
        optimum) task=optimize filter='(if .status == "optimal" then .cost else "not proved" end)'
                 expect=$want
                 grep -Eq '^solve .*maximize' "$w.fzn" && expect=$((-want)) ;;
        unsat) task=solve filter=.status expect=infeasible ;;
        esac
        clig=$(timeout "$timeout" "$cli" "$w.yaml" --set task=$task --threads $threads \
            --json 2>"$w.cli.err" |
            jq -r "$filter" 2>/dev/null)
        if [ "$clig" != "$expect" ]; then
            result FAIL "$got as expected, but csearch --set task=$task gives '$clig', not $expect: $(head -c 200 "$w.cli.err")"
            continue
        fi
        also=", csearch agrees"
    fi
    result PASS "$got (expected $want), ${secs}s, $checked solution(s) checked by Gecode$also"
done 4<"$data/expected.tsv"

if [ "$rows" -eq 0 ]; then
    echo "FAIL: no rows run"
    exit 1
fi
if [ "$failures" -ne 0 ]; then
    echo "$failures of $rows MiniZinc models failed"
    exit 1
fi
echo "all $rows MiniZinc models passed"

#!/usr/bin/env bash
# docs_test.sh - runs the command blocks of README.md and docs/*.md, so the
# docs cannot drift from what csearch does.
#
#   usage: docs_test.sh BUILD_DIR SOURCE_DIR
#
# A command block is a fenced ```sh (or bash, console) block, or a block
# whose first line is `$ COMMAND`.  Each one has a marker on the line before
# it (README.md, "Docs that run"), else the test fails:
#   <!-- runnable -->         a ```sh block, run as pasted by bash -e from the
#                             checkout (a scratch copy of it: build/, configs/,
#                             tests/, examples/ linked); scripts/deps.sh,
#                             scripts/test.sh and cmake are stubs that do
#                             nothing, the build being this one.
#   <!-- runnable output -->  the block after a runnable block: its stdout.
#   <!-- runnable transcript --> a ```text block of `$ COMMAND` lines, each
#                             followed by its stdout (`exit N` as above).
#   <!-- not run: REASON -->  a block the test cannot run (it takes minutes,
#                             needs MPI or Slurm, writes outside the
#                             checkout, ...), with the reason.
# Output is compared line by line, exactly (a line `...` in the doc stands
# for any lines), except what varies from run to run or machine to machine
# (steady, below); for a block expected to fail, stderr is compared.  The
# man page's EXAMPLES run too, from an empty folder with csearch on PATH.
set -u
build=$(cd "$1" && pwd) || exit 2
src=$(cd "$2" && pwd) || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0 blocks=0

# The scratch checkout: what the blocks read, linked; what they write stays here.
work=$tmp/checkout
mkdir -p "$work/scripts" "$tmp/bin"
for d in configs tests examples docs; do ln -s "$src/$d" "$work/$d"; done
ln -s "$build" "$work/build"
for stub in "$work/scripts/deps.sh" "$work/scripts/test.sh" "$tmp/bin/cmake"; do
    printf '#!/bin/sh\nexit 0\n' >"$stub"
    chmod +x "$stub"
done
export PATH="$tmp/bin:$PATH" HOME="$tmp/home" TMPDIR="$tmp"

# steady FILE: what does not vary from run to run or machine to machine:
# without the lines `seconds`, `nodes/s`, `steps/s`, `isa` and `peak`; the
# JSON fields seconds (a time, not a limit's 0), nodes_per_second, isa and
# isa_reason with their values masked; a compare table's rows without their
# seconds (fields 7 and 10) and with single spaces, since the column widths
# follow the seconds.
steady() {
    grep -Ev '^(seconds|nodes/s|steps/s|isa|peak) ' "$1" |
        sed -E 's/"seconds": [0-9]+\.[0-9e+-]+/"seconds": _/g; s/"nodes_per_second": [0-9.e+-]+/"nodes_per_second": _/g
                s/"(isa|isa_reason)": "[^"]*"/"\1": _/g' |
        awk '$1 == "n" && $2 == "strategy" { $1 = $1 }
             NF == 10 && $1 ~ /^[0-9]+$/ && $7 ~ /^[0-9.]+$/ { $7 = "_"; $10 = "_" }
             { print }'
}

# gaps WANT GOT: GOT is WANT where each line `...` of WANT (or `... (NOTE)`)
# stands for any lines: the runs of lines between them are found in GOT in order (each at
# its first place: that leaves the most room for the next), the first at
# GOT's start unless WANT starts with `...`, the last at its end unless
# WANT ends with one.
gaps() {
    awk '
        BEGIN { k = 1 }
        NR == FNR {
            if ($0 ~ /^ *\.\.\.( \(.*\))? *$/) { if (len[k]) k++; free[k] = 1; next }
            run[k, ++len[k]] = $0
            next
        }
        { got[++n] = $0 }
        function at(k, p,   i) {
            if (p + len[k] - 1 > n) return 0
            for (i = 1; i <= len[k]; i++) if (got[p + i - 1] != run[k, i]) return 0
            return 1
        }
        END {
            runs = len[k] ? k : k - 1; tail = !len[k]; pos = 1
            for (j = 1; j <= runs; j++) {
                if (j == runs && !tail) p = n - len[j] + 1
                else if (!free[j]) p = pos
                else for (p = pos; p <= n && !at(j, p); p++) ;
                if (p < pos || !at(j, p) || (!free[j] && p != pos)) exit 1
                pos = p + len[j]
            }
            if (!tail && pos != n + 1) exit 1
        }
    ' "$1" "$2"
}

# check WHERE STATUS SCRIPT [EXPECTED]: run SCRIPT in the scratch checkout;
# it must exit STATUS and, when EXPECTED is given, print it (steady lines):
# on stdout, or for a STATUS other than 0 on stderr (then stdout after it).
check() {
    local where=$1 want=$2 script=$3 expected=${4-} got
    blocks=$((blocks + 1))
    (cd "$work" && bash -e "$script") >"$tmp/out" 2>"$tmp/err"
    got=$?
    [ "$want" -ne 0 ] && cat "$tmp/err" "$tmp/out" >"$tmp/both" && mv "$tmp/both" "$tmp/out"
    if [ "$got" -ne "$want" ]; then
        echo "FAIL: $where: the block exits $got, not $want"
        sed 's/^/    /' "$tmp/err" | head -5
        failures=$((failures + 1))
        return
    fi
    [ -n "$expected" ] || return
    steady "$expected" >"$tmp/want"
    steady "$tmp/out" >"$tmp/got"
    if grep -qE '^ *\.\.\.( \(.*\))? *$' "$tmp/want"; then
        gaps "$tmp/want" "$tmp/got" && return
        diff "$tmp/want" "$tmp/got" >"$tmp/diff"
        echo "FAIL: $where: output differs (< doc, where ... stands for any lines; > run)"
        sed 's/^/    /' "$tmp/diff" | head -20
        failures=$((failures + 1))
    elif ! diff "$tmp/want" "$tmp/got" >"$tmp/diff"; then
        echo "FAIL: $where: output differs (< doc, > run)"
        sed 's/^/    /' "$tmp/diff" | head -20
        failures=$((failures + 1))
    fi
}

# Split every doc into its marked blocks: NAME.N.sh (a runnable block),
# NAME.N.out (its output block), NAME.N.tx (a transcript), each file
# starting with a line `LINE STATUS` (where the block opens in the doc, the
# exit status expected).
# Blocks that are neither go to unmarked as `DOC:LINE`.
extract() {
    awk -v dir="$tmp/blocks" -v name="$2" -v doc="$3" -v unmarked="$tmp/unmarked" '
        function marker(kind) {
            mark = kind; status = 0
            if (match($0, /exit [0-9]+/)) status = substr($0, RSTART + 5, RLENGTH - 5)
        }
        /^<!-- runnable( exit [0-9]+)? -->$/            { marker("sh"); next }
        /^<!-- runnable output -->$/                    { marker("out"); next }
        /^<!-- runnable transcript( exit [0-9]+)? -->$/ { marker("tx"); next }
        /^<!-- not run: [^ ].* -->$/                    { marker("skip"); next }
        /^```/ && !inside {
            inside = 1; opened = FNR; first = 1; kept = mark
            if (!mark && substr($0, 4) ~ /^(sh|bash|console)$/) { print doc ":" FNR >> unmarked; kept = "x" }
            if (mark == "sh" || mark == "tx") n++
            file = (mark && mark != "skip") ? sprintf("%s/%s.%03d.%s", dir, name, n, mark) : ""
            if (file) print FNR, status > file
            mark = ""
            next
        }
        /^```/ && inside { inside = 0; if (file) close(file); file = ""; next }
        inside && first  { first = 0; if (!kept && /^\$ /) print doc ":" opened >> unmarked }
        inside && file   { print > file }
        !/^[[:space:]]*$/ { mark = "" }
    ' "$1"
}
mkdir -p "$tmp/blocks"
for doc in "$src/README.md" "$src"/docs/*.md; do
    extract "$doc" "$(basename "$doc" .md)" "${doc#"$src"/}"
done
if [ -s "$tmp/unmarked" ]; then
    while read -r where; do
        echo "FAIL: $where: a command block neither run nor marked <!-- not run: REASON -->"
        failures=$((failures + 1))
    done <"$tmp/unmarked"
fi

for block in "$tmp"/blocks/*; do
    [ -e "$block" ] || continue
    name=$(basename "$block")
    doc=${name%%.*}.md
    read -r line status <"$block"
    case $block in
    *.sh)
        tail -n +2 "$block" >"$tmp/script"
        expected=
        if [ -e "${block%.sh}.out" ]; then
            tail -n +2 "${block%.sh}.out" >"$tmp/expected"
            expected=$tmp/expected
        fi
        check "$doc:$line" "$status" "$tmp/script" "$expected"
        ;;
    *.tx) # each `$ COMMAND` (its lines ending in \ joined) with the lines up to the next one
        tail -n +2 "$block" | awk '/^\$ / { while (/\\$/ && (getline more) > 0) $0 = substr($0, 1, length($0) - 1) more }
                                   { print }' >"$tmp/transcript"
        k=0
        while IFS= read -r command; do
            k=$((k + 1))
            awk -v k="$k" '/^\$ /{n++; next} n == k' "$tmp/transcript" >"$tmp/expected"
            printf '%s\n' "$command" >"$tmp/script"
            check "$doc:$line: $command" "$status" "$tmp/script" "$tmp/expected"
        done < <(sed -n 's/^\$ //p' "$tmp/transcript")
        ;;
    esac
done

# The man page's examples, as rendered, run as an installed csearch runs
# them: on PATH, from an empty folder (configs/ is not installed).
if command -v groff >/dev/null; then
    mkdir -p "$tmp/manpage"
    {
        echo "cd '$tmp/manpage'; PATH='$build/framework':\$PATH"
        groff -man -Tascii -P-cbu "$src/docs/csearch.1" 2>/dev/null |
            sed -n '/^EXAMPLES/,/^SEE ALSO/p' | grep -E '^ {10,}[^ ]' | sed 's/^ *//'
    } >"$tmp/script"
    grep -q csearch "$tmp/script" || { echo "FAIL: csearch.1: no example found"; failures=$((failures + 1)); }
    check "csearch.1: EXAMPLES" 0 "$tmp/script"
else
    echo "FAIL: groff is missing (scripts/deps.sh installs it): the man page's examples not run"
    failures=$((failures + 1))
fi

if [ "$blocks" -eq 0 ]; then
    echo "FAIL: no runnable block found"
    exit 1
fi
if [ "$failures" -ne 0 ]; then
    echo "$failures of $blocks doc block(s) failed"
    exit 1
fi
echo "all $blocks runnable doc blocks passed"

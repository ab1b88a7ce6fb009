#!/usr/bin/env bash
# docs_test.sh - runs the command blocks of README.md and docs/*.md that are
# marked runnable, so the docs cannot drift from what csearch does.
#
#   usage: docs_test.sh BUILD_DIR SOURCE_DIR
#
# Markers, on the line before a fenced block (README.md, "Docs that run"):
#   <!-- runnable -->         a ```sh block, run as pasted by bash -e from the
#                             checkout (a scratch copy of it: build/, configs/,
#                             tests/, examples/ linked); scripts/deps.sh,
#                             scripts/test.sh and cmake are stubs that do
#                             nothing, the build being this one.
#   <!-- runnable output -->  the block after a runnable block: its stdout.
#   <!-- runnable transcript --> a ```text block of `$ COMMAND` lines, each
#                             followed by its stdout.
# Output is compared line by line, exactly, except the lines that vary from
# run to run or machine to machine: `seconds ...`, `nodes/s ...` and `isa ...`.
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

# steady FILE: the lines that do not vary from run to run.
steady() { grep -Ev '^(seconds|nodes/s|isa) ' "$1"; }

# check WHERE STATUS SCRIPT [EXPECTED]: run SCRIPT in the scratch checkout;
# it must exit STATUS and, when EXPECTED is given, print it (steady lines).
check() {
    local where=$1 want=$2 script=$3 expected=${4-} got
    blocks=$((blocks + 1))
    (cd "$work" && bash -e "$script") >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL: $where: the block exits $got, not $want"
        sed 's/^/    /' "$tmp/err" | head -5
        failures=$((failures + 1))
        return
    fi
    if [ -n "$expected" ] && ! diff <(steady "$expected") <(steady "$tmp/out") >"$tmp/diff"; then
        echo "FAIL: $where: output differs (< doc, > run)"
        sed 's/^/    /' "$tmp/diff" | head -20
        failures=$((failures + 1))
    fi
}

# Split every doc into its marked blocks: NAME.N.sh (a runnable block),
# NAME.N.out (its output block), NAME.N.tx (a transcript), each file
# starting with a line `LINE STATUS` (where the block opens in the doc, the
# exit status expected).
extract() {
    awk -v dir="$tmp/blocks" -v name="$2" '
        function marker(kind) {
            mark = kind; status = 0
            if (match($0, /exit [0-9]+/)) status = substr($0, RSTART + 5, RLENGTH - 5)
        }
        /^<!-- runnable( exit [0-9]+)? -->$/            { marker("sh"); next }
        /^<!-- runnable output -->$/                    { marker("out"); next }
        /^<!-- runnable transcript( exit [0-9]+)? -->$/ { marker("tx"); next }
        /^```/ && !inside {
            inside = 1
            if (mark == "sh" || mark == "tx") n++
            file = mark ? sprintf("%s/%s.%03d.%s", dir, name, n, mark) : ""
            if (file) print FNR, status > file
            mark = ""
            next
        }
        /^```/ && inside { inside = 0; if (file) close(file); file = ""; next }
        inside && file   { print > file }
        !/^[[:space:]]*$/ { mark = "" }
    ' "$1"
}
mkdir -p "$tmp/blocks"
for doc in "$src/README.md" "$src"/docs/*.md; do
    extract "$doc" "$(basename "$doc" .md)"
done

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
    *.tx) # each `$ COMMAND` with the lines up to the next one
        tail -n +2 "$block" >"$tmp/transcript"
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

if [ "$blocks" -eq 0 ]; then
    echo "FAIL: no runnable block found"
    exit 1
fi
if [ "$failures" -ne 0 ]; then
    echo "$failures of $blocks doc block(s) failed"
    exit 1
fi
echo "all $blocks runnable doc blocks passed"

#!/bin/sh
# run.sh BUILD SECONDS [HARNESS...] - run each libFuzzer harness of BUILD
# (a build with CSEARCH_FUZZ=ON, e.g. build-fuzz) for SECONDS on its seed
# corpus (tests/fuzz/seeds.sh), two at a time; default: all seven.  Prints
# each harness's last status line (executions, cov, ft) and fails if one
# found a crash, a leak, a timeout or an out-of-memory (the input is kept
# in the work folder, printed).  CI runs it for 30 seconds (scripts/test.sh).
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=$1
secs=$2
shift 2 || { echo "usage: run.sh BUILD SECONDS [HARNESS...]" >&2; exit 2; }
[ $# -gt 0 ] || set -- config sudoku curtois roster_spec roster_csv checkpoint flatzinc
work=$(mktemp -d "${TMPDIR:-/tmp}/csearch-fuzz.XXXXXX")
"$here/seeds.sh" "$work/seeds"

one() {
    h=$1
    mkdir -p "$work/$h"
    dict=""
    case $h in
    config | roster_spec) dict="-dict=$here/config.dict" ;;
    flatzinc) dict="-dict=$here/flatzinc.dict" ;;
    esac
    if "$build/tests/fuzz/fuzz_$h" -max_total_time="$secs" -timeout=10 \
        -max_len=16384 -print_final_stats=1 $dict \
        -artifact_prefix="$work/$h-" "$work/$h" "$work/seeds/$h" \
        >"$work/$h.log" 2>&1; then
        echo "fuzz_$h: $(grep -E '^#[0-9]+' "$work/$h.log" | tail -n 1)"
    else
        echo "fuzz_$h: FAILED, see $work/$h.log:" >&2
        grep -E 'ERROR|SUMMARY|Test unit written' "$work/$h.log" >&2 || true
        return 1
    fi
}

status=0
while [ $# -gt 0 ]; do
    one "$1" & a=$!
    b=""
    if [ $# -gt 1 ]; then one "$2" & b=$!; shift; fi
    shift
    wait $a || status=1
    [ -z "$b" ] || wait $b || status=1
done
[ $status -ne 0 ] || rm -rf "$work"
exit $status

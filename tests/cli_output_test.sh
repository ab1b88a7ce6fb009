#!/bin/bash
# cli_output_test.sh - where results go and what the command refuses before
# it searches: output.file for every task (a batch's lines too), an output
# that is one of the inputs, a file that cannot take the results, a closed
# stdout, boards that cannot be drawn, special files as inputs, and limits
# that bound the whole run.  Usage: cli_output_test.sh CSEARCH SOURCE_DIR
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"
# csearch bounded by timeout, for the runs that used to hang (124: it did)
printf '#!/bin/sh\nexec timeout -k 2 10 "%s" "$@"\n' "$csearch" >"$tmp/csearch10"
chmod +x "$tmp/csearch10"

# --- output.file takes a batch's lines (generate, rate, a batch count) ---
echo data >"$tmp/g.txt"
run 0 configs/sudoku-generate.yaml --set params.count=1 --set output.file="$tmp/g.txt" --quiet
[ "$(cat "$tmp/g.txt")" = ".2...796.8.6..4....7...92.5....1.5..5.....4.93......12...8..3....2...6......26..." ] ||
    fail "generate: output.file holds '$(head -c 300 "$tmp/g.txt")'"
[ ! -s "$out" ] || fail "generate --quiet with output.file: stdout '$(head -c 300 "$out")'"
run 0 configs/sudoku-batch.yaml --set output.file="$tmp/b.txt"
[ "$(sort -u "$tmp/b.txt")" = 1 ] || fail "batch count: output.file holds '$(head -c 300 "$tmp/b.txt")'"
[ "$(wc -l <"$tmp/b.txt")" = 20 ] || fail "batch count: output.file has $(wc -l <"$tmp/b.txt") lines, not 20"
[ "$(head -n 1 "$out")" = "instances    20" ] || fail "batch count: stdout starts '$(head -n 1 "$out")'"
run 0 configs/sudoku-batch.yaml --set task=rate --set output.format=csv --set output.file="$tmp/r.csv"
[ "$(head -n 1 "$tmp/r.csv")" = "index,status,solutions,nodes,result" ] || fail "rate csv: output.file starts '$(head -n 1 "$tmp/r.csv")'"
[ "$(wc -l <"$tmp/r.csv")" = 21 ] || fail "rate csv: output.file has $(wc -l <"$tmp/r.csv") lines, not 21"
[ ! -s "$out" ] || fail "rate csv with output.file: stdout '$(head -c 300 "$out")'"

# --- an output that is one of the run's inputs is refused before it is cut ---
cp configs/nqueens.yaml "$tmp/c.yaml"
run 2 "$tmp/c.yaml" --set task=solve --set output.file="$tmp/c.yaml"
expect_stderr "csearch: --set output.file=$tmp/c.yaml: cannot write '$tmp/c.yaml': it is an input of this run"
cmp -s configs/nqueens.yaml "$tmp/c.yaml" || fail "output.file on the config changed the config"
ln -s c.yaml "$tmp/link.yaml"
run 2 "$tmp/c.yaml" --set task=solve --set output.format=html --set output.file="$tmp/link.yaml"
expect_stderr "csearch: --set output.file=$tmp/link.yaml: cannot write '$tmp/link.yaml': it is an input of this run"
run 2 "$tmp/c.yaml" --set task=solve --trace-html "$tmp/c.yaml"
expect_stderr "csearch: --set output.trace_html=$tmp/c.yaml: cannot write '$tmp/c.yaml': it is an input of this run"
cmp -s configs/nqueens.yaml "$tmp/c.yaml" || fail "--trace-html on the config changed the config"
cp tests/data/sudoku_plb_hard20.txt "$tmp/p.txt"
run 2 configs/sudoku-batch.yaml --set params.file="$tmp/p.txt" --set output.file="$tmp/p.txt"
expect_stderr "csearch: --set output.file=$tmp/p.txt: cannot write '$tmp/p.txt': it is an input of this run"
cmp -s tests/data/sudoku_plb_hard20.txt "$tmp/p.txt" || fail "output.file on params.file changed the puzzles"
run 2 configs/nqueens.yaml --checkpoint "$tmp/x.log" --set output.file="$tmp/x.log"
expect_stderr "csearch: --set output.file=$tmp/x.log: cannot write '$tmp/x.log': it is an input of this run ('$tmp/x.log')"
[ ! -e "$tmp/x.log" ] || fail "a refused output.file on the checkpoint left it behind"
run 0 configs/nqueens.yaml --checkpoint "$tmp/x.log"
cp "$tmp/x.log" "$tmp/x0.log"
run 2 merge configs/nqueens.yaml "$tmp/x.log" --set output.file="$tmp/x.log"
expect_stderr "csearch: --set output.file=$tmp/x.log: cannot write '$tmp/x.log': it is an input of this run ('$tmp/x.log')"
cmp -s "$tmp/x.log" "$tmp/x0.log" || fail "output.file on a merge log changed it"

# --- output.file is tried before the search: a full disk says why at once ---
run 2 configs/nqueens.yaml --set task=solve --set output.file=/dev/full
expect_stderr "csearch: --set output.file=/dev/full: cannot write '/dev/full': No space left on device"
[ ! -s "$out" ] || fail "output.file=/dev/full: stdout '$(head -c 300 "$out")'"
# a write that fails during the search (here past ulimit -f) names its reason
(
    failures=0
    ulimit -f 100
    run 2 configs/nqueens-million.yaml --set params.n=100000 --set output.file="$tmp/m.txt" --quiet
    expect_stderr "csearch: writing '$tmp/m.txt' failed: File too large"
    expect_line "solutions  1"
    [ "$failures" = 0 ] || exit 1
) || fail "output.file past ulimit -f"

# --- a closed stdout is refused at the start, not after a 10^8-queen search ---
"$tmp/csearch10" configs/nqueens.yaml --set task=solve --set params.n=100000000 >&- 2>"$err"
got=$?
[ "$got" = 2 ] || fail "closed stdout: exit $got, expected 2"
expect_stderr "csearch: standard output is closed: the results would be lost (redirect it, e.g. >/dev/null)"

# --- csv and html cannot draw a board of 10^5 rows: said before the search ---
for format in csv html; do
    run 2 configs/nqueens.yaml --set task=solve --set params.n=100000 --set output.format=$format
    expect_stderr "csearch: --set output.format=$format: output.format $format cannot draw a board of 100000 rows (at most 64); output.format: columns writes it"
    [ ! -s "$out" ] || fail "$format of n = 10^5: stdout '$(head -c 300 "$out")'"
done
run 0 configs/nqueens.yaml --set task=solve --set params.n=64 --set output.format=csv
[ "$(wc -l <"$out")" = 2 ] || fail "csv of n = 64: $(wc -l <"$out") lines, not 2"

# --- limits.seconds bounds a whole batch (generate, rate, a batch count) ---
(
    failures=0
    csearch=$tmp/csearch10
    # (exit 3 and status limit, not timeout's 124: the limit ended it)
    run 3 configs/sudoku-generate.yaml --set params.count=1000000000 --set limits.seconds=1
    expect_line "status       limit"
    grep -Eq '^[.1-9]{81}$' "$out" || fail "generate under limits.seconds=1: no puzzle kept"
    run 3 configs/sudoku-generate.yaml --set params.count=1000000000 --set limits.seconds=0.5 --threads 2 --json
    expect_json '[.status, (.summary.instances > 0), (.summary.instances == (.results | length))] | map(tostring) | join(" ")' "limit true true"
    [ "$failures" = 0 ] || exit 1
) || fail "limits.seconds on a batch"

# --- memory that cannot be had is refused at set-up, with what it needs
# (not under AddressSanitizer: its shadow memory needs terabytes of address
# space, which ulimit -v takes away before main) ---
if grep -qa __asan_init "$csearch"; then
    echo "skipped under AddressSanitizer: n = 10^9 under ulimit -v 4000000"
else
    (
        failures=0
        ulimit -v 4000000
        csearch=$tmp/csearch10
        run 2 configs/nqueens.yaml --set task=solve --set params.n=1000000000
        expect_stderr "csearch: --set params.n=1000000000: n = 1000000000 needs 8.6 GB for local search, more than this process can allocate"
        [ "$failures" = 0 ] || exit 1
    ) || fail "n = 10^9 under ulimit -v 4000000"
fi

# --- a FIFO never holds the run: as the config, a merge log or params.file
# under rate it waits a second for a writer, as output.file it needs a
# reader now; each run is bounded by timeout (124: it hung) ---
mkfifo "$tmp/fifo"
(
    failures=0
    csearch=$tmp/csearch10
    run 2 "$tmp/fifo"
    expect_stderr "csearch: $tmp/fifo: cannot read: a FIFO that nobody writes to"
    run 2 merge configs/nqueens.yaml "$tmp/fifo"
    expect_stderr "csearch: $tmp/fifo: cannot read log: a FIFO that nobody writes to"
    run 2 configs/sudoku-batch.yaml --set task=rate --set params.file="$tmp/fifo"
    expect_stderr "csearch: --set params.file=$tmp/fifo: cannot read '$tmp/fifo': a FIFO that nobody writes to"
    run 2 configs/nqueens.yaml --set task=solve --set output.file="$tmp/fifo"
    expect_stderr "csearch: --set output.file=$tmp/fifo: cannot write '$tmp/fifo': a FIFO that nobody reads"
    # with a writer and a reader it still streams
    printf 'model: nqueens\nparams: {n: 6}\n' >"$tmp/fifo" &
    run 0 "$tmp/fifo"
    expect_line "solutions  4"
    wait
    [ "$failures" = 0 ] || exit 1
) || fail "FIFOs"

# --- compare refuses an n beyond the model's limit before it sets up the
# others (n = 4 .. 28 took 817 MB and 5 s before n = 29 was refused) ---
printf 'model: nqueens\ntask: count\ncompare:\n  n: {from: 4, to: 1000}\n  strategies:\n    - {name: plain}\n' >"$tmp/cmp.yaml"
# (the largest n is named: it was checked before any other was set up)
"$tmp/csearch10" compare "$tmp/cmp.yaml" >"$out" 2>"$err"
got=$?
[ "$got" = 2 ] || fail "compare n = 4 .. 1000: exit $got, expected 2"
expect_stderr "csearch: $tmp/cmp.yaml:4:13: strategy 'plain', n = 1000: n = 1000 is beyond the limit of the bitmask state (at most 64)"

cli_finish "output"

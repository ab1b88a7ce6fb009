#!/usr/bin/env bash
# cli_generate_test.sh - Sudoku's tasks generate and rate through the CLI:
# 200 puzzles for a fixed seed, each with one solution by both solver paths,
# pinned by their first line and checksum; clue targets, rotational
# symmetry and difficulties kept; pinned ratings of known puzzles; the bad
# keys' one-line messages.
# usage: cli_generate_test.sh CSEARCH SOURCE_DIR
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"

gen=configs/sudoku-generate.yaml
# check_unique FILE: every line of FILE has one solution, by the fast
# kernel and by the general path
check_unique() {
    local kernel n
    n=$(wc -l <"$1")
    for kernel in fast generic; do
        "$csearch" configs/sudoku-batch.yaml --set params.file="$1" \
            --set strategy.kernel=$kernel --quiet >"$tmp/check" 2>&1 ||
            fail "$1: the $kernel path's check failed: $(head -c 300 "$tmp/check")"
        [ "$(grep -cx 1 "$tmp/check")" = "$n" ] || fail "$1: not all $n unique by the $kernel path: $(sort "$tmp/check" | uniq -c | head -c 300)"
    done
}
# clue_counts FILE: the clues of all its lines together
clue_counts() { tr -d '.\n' <"$1" | wc -c; }

# --- 200 puzzles for seed 1: pinned, distinct, one solution each ---
run 0 $gen --set params.count=200 --quiet
[ ! -s "$err" ] || fail "generate wrote to stderr: $(head -c 300 "$err")"
[ "$(wc -l <"$out")" = 200 ] || fail "generate: $(wc -l <"$out") lines, not 200"
[ "$(grep -cxE '[1-9.]{81}' "$out")" = 200 ] || fail "generate: not all lines 81 cells"
[ "$(sort -u "$out" | wc -l)" = 200 ] || fail "generate: puzzles repeat"
[ "$(head -n 1 "$out")" = ".2...796.8.6..4....7...92.5....1.5..5.....4.93......12...8..3....2...6......26..." ] || fail "generate: first puzzle $(head -n 1 "$out")"
[ "$(cksum <"$out")" = "1963484439 16400" ] || fail "generate: checksum $(cksum <"$out")"
cp "$out" "$tmp/200.txt"
check_unique "$tmp/200.txt"
# the same on two threads, and the first 20 are the config's own 20
run 0 $gen --set params.count=200 --quiet --threads 2
cmp -s "$out" "$tmp/200.txt" || fail "generate on 2 threads differs"
run 0 $gen --quiet
[ "$(cat "$out")" = "$(head -n 20 "$tmp/200.txt")" ] || fail "generate: count 20 is not the first 20 of 200"
run 0 $gen --set params.seed=2 --set params.count=5 --quiet
[ "$(head -n 1 "$out")" != "$(head -n 1 "$tmp/200.txt")" ] || fail "seed 2 gives seed 1's puzzle"
# the summary and JSON
run 0 $gen
expect_line "unique       20"
run 0 $gen --set params.count=2 --json
expect_json '.results[0].puzzle' ".2...796.8.6..4....7...92.5....1.5..5.....4.93......12...8..3....2...6......26..."
expect_json '[.summary.instances, .summary.unique] | map(tostring) | join(" ")' "2 2"

# --- targets: a clue count, rotational symmetry, difficulties ---
run 0 $gen --set params.clues=30 --quiet
[ "$(grep -cxE '([1-9][.]*){30}|[.]+([1-9][.]*){30}' "$out")" = 20 ] || fail "clues 30: $(head -n 3 "$out")"
[ "$(clue_counts "$out")" = 600 ] || fail "clues 30: $(clue_counts "$out") clues in 20 puzzles"
cp "$out" "$tmp/30.txt"
check_unique "$tmp/30.txt"
run 0 $gen --set params.symmetry=rotational --set params.clues=28 --quiet
[ "$(clue_counts "$out")" = 560 ] || fail "rotational 28: $(clue_counts "$out") clues"
while read -r p; do
    [ "$(echo "$p" | tr '1-9' 'x')" = "$(echo "$p" | rev | tr '1-9' 'x')" ] || fail "not rotational: $p"
done <"$out"
cp "$out" "$tmp/rot.txt"
check_unique "$tmp/rot.txt"
run 0 $gen --set params.symmetry=rotational --quiet
while read -r p; do
    [ "$(echo "$p" | tr '1-9' 'x')" = "$(echo "$p" | rev | tr '1-9' 'x')" ] || fail "not rotational: $p"
done <"$out"
level=1
for d in simple easy intermediate expert; do
    run 0 $gen --set params.difficulty=$d --quiet
    cp "$out" "$tmp/$d.txt"
    check_unique "$tmp/$d.txt"
    run 0 configs/sudoku-batch.yaml --set params.file="$tmp/$d.txt" --set task=rate --quiet
    [ "$(cut -d: -f1 "$out" | sort -u)" = "$level $d" ] || fail "difficulty $d rated $(cut -d: -f1 "$out" | sort | uniq -c | tr '\n' ' ')"
    level=$((level + 1))
done

# --- rate: pinned ratings, the same every run ---
printf '%s\n' \
    53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 \
    .......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6... \
    >"$tmp/known.txt"
head -n 5 tests/data/sudoku_top95_head20.txt >>"$tmp/known.txt"
head -n 1 tests/data/sudoku_multisol_head20.txt >>"$tmp/known.txt"
run 0 configs/sudoku-batch.yaml --set params.file="$tmp/known.txt" --set task=rate --quiet
cp "$out" "$tmp/rated"
[ "$(cat "$out")" = "1 simple: naked singles 51, guesses 0
4 expert: hidden singles 1, guesses 8
3 intermediate: naked singles 46, hidden singles 18, locked candidates 7, guesses 0
3 intermediate: naked singles 51, hidden singles 13, locked candidates 6, guesses 0
3 intermediate: naked singles 48, hidden singles 16, locked candidates 6, guesses 0
4 expert: naked singles 7, hidden singles 14, locked candidates 11, naked pairs 2, hidden pairs 5, guesses 4
4 expert: hidden singles 2, locked candidates 7, hidden pairs 1, guesses 5
2 or more" ] || fail "ratings: $(cat "$out")"
run 0 configs/sudoku-batch.yaml --set params.file="$tmp/known.txt" --set task=rate --quiet --threads 2
cmp -s "$out" "$tmp/rated" || fail "ratings on 2 threads differ"
run 0 configs/sudoku.yaml --set task=rate --json
expect_json '.results[0].rating' "4 expert: hidden singles 1, guesses 8"
run 2 tests/data/sudoku-batch-mixed.yaml --set task=rate --quiet
[ "$(sed -n 3,4p "$out" | tr '\n' '|')" = "2 or more|no solution|" ] || fail "rate a mixed batch: $(tr '\n' '|' <"$out")"

# --- bad keys: one line each ---
run 2 $gen --set params.count=0
expect_stderr "csearch: --set params.count=0: 'params.count' must be between 1 and 1000000000, not 0"
run 2 $gen --set params.clues=16
expect_stderr "csearch: --set params.clues=16: 'params.clues' must be between 17 and 81, not 16"
run 2 $gen --set params.difficulty=hard
expect_stderr "csearch: --set params.difficulty=hard: unknown value 'hard' for 'params.difficulty'; expected one of: any, simple, easy, intermediate, expert"
run 2 $gen --set params.symmetry=mirror
expect_stderr "csearch: --set params.symmetry=mirror: unknown value 'mirror' for 'params.symmetry'; expected one of: none, rotational"
run 2 $gen --set params.puzzle=.
expect_stderr "csearch: --set params.puzzle=.: task generate makes its own puzzles: drop 'params.puzzle'"
run 2 $gen --set params.diagonals=true
expect_stderr "csearch: configs/sudoku-generate.yaml:10:7: task generate makes plain 9 x 9 puzzles (no variants, kernel auto or fast)"
run 2 configs/sudoku.yaml --set task=generate
expect_stderr "csearch: configs/sudoku.yaml:14:11: task generate makes its own puzzles: drop 'params.puzzle'"
printf 'model: sudoku\ntask: generate\n' | "$csearch" - >"$out" 2>"$err"
expect_stderr "csearch: <stdin>:1:1: missing key 'params.count' (how many puzzles to generate)"
run 2 configs/sudoku-batch.yaml --set params.seed=3
expect_stderr "csearch: --set params.seed=3: 'params.seed' is for task generate"
run 2 configs/sudoku-batch.yaml --set task=rate --set strategy.kernel=generic
expect_stderr "csearch: --set task=rate: task rate needs plain 9 x 9 grids (no variants, kernel auto or fast)"
# rate's grids other than 9 x 9, at the puzzle: the key, a batch's line
run 2 configs/sudoku.yaml --set task=rate --set params.puzzle=1234341221434321
expect_stderr "csearch: --set params.puzzle=1234341221434321: the puzzle is 4 x 4: task rate rates 9 x 9 grids only"
[ ! -s "$out" ] || fail "rate of a 4 x 4 puzzle wrote $(head -c 300 "$out")"
run 2 configs/sudoku-batch.yaml --set params.file=tests/data/sudoku_batch_sizes.txt --set task=rate --quiet
expect_stderr "csearch: tests/data/sudoku_batch_sizes.txt:2:1: puzzle 2 is 4 x 4: task rate rates 9 x 9 grids only"
# a target generate cannot meet is blamed on it, not on params.count
run 2 $gen --set params.count=1 --set params.clues=17 --quiet
expect_stderr "csearch: --set params.clues=17: puzzle 1: none of 17 clues found in 10000 tries"
run 2 $gen --set params.count=1 --set params.clues=70 --set params.difficulty=expert --quiet
expect_stderr "csearch: --set params.clues=70: puzzle 1: none of 70 clues, difficulty expert found in 10000 tries"
run 2 configs/nqueens.yaml --set task=rate
expect_stderr "csearch: --set task=rate: model nqueens cannot do task 'rate' (it can: count, solve, enumerate, estimate)"

cli_finish "generate and rate"

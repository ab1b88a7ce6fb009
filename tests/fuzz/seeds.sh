#!/bin/sh
# seeds.sh OUT - the fuzzers' seed corpora, one folder per harness under OUT,
# from what the repository holds: configs/, tests/data (puzzle files, the
# Curtois instances, bad inputs, FlatZinc files), examples/minizinc and
# tests/fuzz/seeds (logs, rosters, FlatZinc, and inputs the fuzzers found).
# A Sudoku or checkpoint seed starts with the harness's settings byte.
set -e
src=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
[ -n "$out" ] || { echo "usage: seeds.sh OUT" >&2; exit 2; }
for h in config sudoku curtois roster_spec roster_csv checkpoint flatzinc; do
    mkdir -p "$out/$h"
done
for f in "$src"/configs/*.yaml "$src"/tests/data/*.yaml "$src"/tests/data/bad/*.yaml \
         "$src"/tests/data/trace/*.yaml "$src"/examples/*/*.yaml; do
    cp "$f" "$out/config/$(basename "$f")"
done
cp "$src"/configs/shifts*.yaml "$src"/tests/fuzz/seeds/roster_spec/* "$out/roster_spec/"
# each puzzle file with settings 0 (auto kernel, singles) and 0x39 (generic
# kernel, full propagation, diagonals, windoku); files cut to 4 lines
for f in "$src"/tests/data/sudoku_*.txt; do
    b=$(basename "$f" .txt)
    { printf '\000'; head -n 4 "$f"; } >"$out/sudoku/$b-0"
    { printf '\071'; head -n 4 "$f"; } >"$out/sudoku/$b-57"
done
for f in "$src"/tests/data/shifts/*.txt; do
    cp "$f" "$out/curtois/$(basename "$f")"
done
cp "$src"/tests/fuzz/seeds/roster_csv/* "$out/roster_csv/"
cp "$src"/tests/fuzz/seeds/checkpoint/* "$out/checkpoint/"
cp "$src"/tests/fuzz/seeds/flatzinc/* "$src"/tests/data/flatzinc/*.fzn \
    "$src"/examples/minizinc/*.fzn "$out/flatzinc/"

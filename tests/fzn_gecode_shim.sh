#!/bin/bash
# fzn_gecode_shim.sh - stands in for fzn-csearch by running Gecode's
# fzn-gecode (6.2) on FlatZinc flattened with csearch's mznlib, so that
# the MiniZinc tests, the install layout and the benchmark can be run
# before fzn-csearch exists or against a known-good solver:
#   FZN=tests/fzn_gecode_shim.sh tests/minizinc_test.sh ...
# It renames csearch's native globals to the names Gecode 6.2 registers
# (csearch_circuit and csearch_inverse carry their offsets in another
# order) and drops the flags fzn-gecode lacks (-i: it prints every
# improving solution anyway; -v).  The FlatZinc file is the last argument.
set -u
args=()
while [ $# -gt 1 ]; do
    case $1 in
        -i | -v) ;;
        *) args+=("$1") ;;
    esac
    shift
done
[ $# -eq 1 ] || { echo "usage: $0 [flags] FILE.fzn" >&2; exit 2; }
tmp=$(mktemp --suffix=.fzn) || exit 2
trap 'rm -f "$tmp"' EXIT
arr='(\[[^]]*\]|[A-Za-z_][A-Za-z0-9_]*)'
num='(-?[0-9]+)'
sed -E \
    -e 's/^constraint fzn_all_different_int\(/constraint all_different_int(/' \
    -e 's/^constraint fzn_table_int\(/constraint gecode_table_int(/' \
    -e 's/^constraint fzn_count_eq\(/constraint count(/' \
    -e 's/^constraint fzn_global_cardinality\(/constraint gecode_global_cardinality(/' \
    -e 's/^constraint fzn_lex_lesseq_int\(/constraint array_int_lq(/' \
    -e 's/^constraint fzn_cumulative\(/constraint cumulatives(/' \
    -e "s/^constraint csearch_circuit\($arr,$num\)/constraint gecode_circuit(\\2,\\1)/" \
    -e "s/^constraint csearch_inverse\($arr,$num,$arr,$num\)/constraint inverse_offsets(\\1,\\4,\\3,\\2)/" \
    "$1" >"$tmp" || exit 2
fzn-gecode "${args[@]}" "$tmp"

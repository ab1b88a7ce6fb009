#!/bin/bash
# keys_test.sh CSEARCH SRC - docs/keys.md is what `csearch --list
# --markdown` prints: the key reference is generated from the option
# tables, never edited by hand.  On a difference, prints it; regenerate
# with  csearch --list --markdown > docs/keys.md
set -u
csearch=$1
src=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$csearch" --list --markdown >"$out" || { echo "csearch --list --markdown failed"; exit 1; }
if ! diff -u "$src/docs/keys.md" "$out"; then
    echo "docs/keys.md differs from csearch --list --markdown (above)"
    exit 1
fi
echo "docs/keys.md is current ($(wc -l <"$out") lines)"

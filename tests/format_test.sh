#!/bin/bash
# format_test.sh SRC - every C file of the tree is as the committed
# .clang-format writes it (clang-format-14, Debian 12's).  A file that
# differs is named with the first lines of its diff; fix with
#   clang-format-14 -i FILE
# Skipped (77) where clang-format-14 is missing.
set -u
src=$1
command -v clang-format-14 >/dev/null || { echo "no clang-format-14: skipped"; exit 77; }
cd "$src" || exit 1
bad=0
checked=0
while IFS= read -r f; do
    checked=$((checked + 1))
    if ! clang-format-14 --style=file "$f" | cmp -s - "$f"; then
        echo "not formatted: $f"
        clang-format-14 --style=file "$f" | diff "$f" - | head -n 6
        bad=$((bad + 1))
    fi
done < <(find framework models tests examples bench \
    \( -name '*.c' -o -name '*.h' \) -type f | sort)
echo "$checked files checked, $bad not formatted"
[ "$checked" -gt 100 ] && [ "$bad" -eq 0 ]

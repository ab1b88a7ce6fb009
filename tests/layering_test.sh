#!/bin/bash
# layering_test.sh OBJDIR - the files of libcsearch call each other without
# a circle: for every object file of OBJDIR (the library's, as CMake builds
# them), the functions it uses that another file defines make an edge
# (nm), and tsort must order them.  Prints the edges, then tsort's verdict;
# a circle is named by tsort's "input contains a loop" lines.
set -u
dir=$1
shopt -s nullglob
objs=("$dir"/*.o)
[ ${#objs[@]} -gt 10 ] || { echo "no object files in $dir"; exit 1; }
defs=$(mktemp)
edges=$(mktemp)
trap 'rm -f "$defs" "$edges"' EXIT
for o in "${objs[@]}"; do
    f=$(basename "$o" .o)
    nm --defined-only -g "$o" | awk -v f="$f" 'NF == 3 { print $3, f }'
done | sort -u >"$defs"
for o in "${objs[@]}"; do
    f=$(basename "$o" .o)
    nm -u "$o" | awk '{ print $NF }' | sort -u |
        join - "$defs" | awk -v f="$f" '$2 != f { print f, $2 }'
done | sort -u >"$edges"
awk '{ print $1, "->", $2 }' "$edges"
if tsort "$edges" 2>&1 >/dev/null | grep -q loop; then
    tsort "$edges" 2>&1 >/dev/null
    echo "FAIL: a circle of files"
    exit 1
fi
echo "$(wc -l <"$edges") edges between ${#objs[@]} files, no circle"

#!/usr/bin/env bash
# install_test.sh - what `cmake --install` delivers, used as a packager and
# a user would: the files in their places (shared and static library,
# headers, command, man page, completion, CMake package, csearch.pc); the
# man page clean under `groff -ww -man -z` and its options exactly those
# of `csearch --help`; an example built with pkg-config (shared, and static
# against libcsearch.a) and run; the bash completion answering.  The CMake
# build of the examples against the same kind of install: examples_test.sh.
# usage: install_test.sh BUILD_DIR SOURCE_DIR C_COMPILER
set -u
. "$(dirname "$0")/cli_lib.sh" # fail, cli_finish
build=$1 src=$2 cc=$3
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; echo "FAIL: cmake --install"; exit 1; }
csearch=$prefix/bin/csearch

# --- the files ---
version=$("$csearch" --version | awk '{print $2}')
for f in bin/csearch lib/libcsearch.so "lib/libcsearch.so.$version" lib/libcsearch.a \
         lib/cmake/csearch/csearchConfig.cmake lib/cmake/csearch/csearchConfigVersion.cmake \
         lib/pkgconfig/csearch.pc lib/pkgconfig/csearch-static.pc share/man/man1/csearch.1 \
         share/bash-completion/completions/csearch; do
    [ -e "$prefix/$f" ] || fail "not installed: $f"
done
for f in bin/fzn-csearch share/minizinc/solvers/csearch.msc \
         share/minizinc/csearch/redefinitions.mzn; do
    [ -e "$prefix/$f" ] || fail "not installed: $f"
done
# the MiniZinc solver as a user reaches it: the .msc names fzn-csearch and
# the mznlib relative to itself (8 queens: 92 solutions)
if command -v minizinc >/dev/null; then
    n=$(cd "$tmp" && MZN_SOLVER_PATH=$prefix/share/minizinc/solvers \
        minizinc --solver csearch -a -D n=8 "$src/examples/minizinc/queens.mzn" 2>&1 |
        grep -c '^----------$')
    [ "$n" = 92 ] || fail "minizinc --solver csearch -a queens.mzn: $n solutions, not 92"
fi
for h in "$src"/framework/include/csearch/*.h; do
    cmp -s "$h" "$prefix/include/csearch/$(basename "$h")" || fail "header not installed: $(basename "$h")"
done
# libcsearch.a holds the engine's public symbols
nm -g --defined-only "$prefix/lib/libcsearch.a" 2>/dev/null | grep -qw cs_job_setup ||
    fail "libcsearch.a lacks cs_job_setup"

# --- the man page ---
if command -v groff >/dev/null; then
    warnings=$(groff -ww -man -z "$prefix/share/man/man1/csearch.1" 2>&1)
    [ -z "$warnings" ] || fail "groff -ww -man -z: $warnings"
else
    fail "groff is missing (scripts/deps.sh installs it)"
fi
# every option of --help is on the page and the page has no other: the
# names in --help's options block (with "--progress ...; --no-progress"),
# plus -q, which --help names only among compare's refusals
{ "$csearch" --help | sed -n '/^options:/,/^$/p' | grep -oE -- '(^|[ ;,/])--?[a-z][a-z-]*|^  --( |$)' |
    sed -E 's/^[ ;,/]+//; s/ +$//'; "$csearch" --help | grep -oE -- ' -q,' | tr -d ' ,'; } | sort -u >"$tmp/help.opts"
sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$src/docs/csearch.1" | grep -A1 '^\.TP' |
    grep -oE '^\.B[IR]? \\-(\\-)?[a-z\\-]+|", " \\-[a-z]' |
    sed -E 's/^\.B[IR]? //; s/^", " //; s/\\-/-/g' | sort -u >"$tmp/man.opts"
[ "$(wc -l <"$tmp/help.opts")" -ge 15 ] || fail "--help options not found: $(cat "$tmp/help.opts")"
diff "$tmp/help.opts" "$tmp/man.opts" >"$tmp/opts.diff" ||
    fail "options of --help (<) and of csearch.1 (>) differ: $(cat "$tmp/opts.diff")"

# --- an example built with pkg-config ---
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[ "$(pkg-config --modversion csearch)" = "$version" ] || fail "pkg-config --modversion: $(pkg-config --modversion csearch)"
ex=$src/examples/map-colouring
mkdir -p "$tmp/map/build"
cp "$ex/australia.yaml" "$tmp/map/"
# the program, against libcsearch.so (found at run time by the rpath
# csearch.pc gives it: nothing else to add or set)
$cc -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$tmp/map/build/map-colour" "$ex/main.c" "$ex/map.c" \
    $(pkg-config --cflags --libs csearch) 2>"$tmp/cc.log" ||
    fail "pkg-config build of map-colour: $(cat "$tmp/cc.log")"
# the plugin the config names
$cc -std=c11 -Wall -Wextra -Wpedantic -Werror -shared -fPIC -o "$tmp/map/build/libmap.so" "$ex/map.c" \
    $(pkg-config --cflags csearch) 2>"$tmp/cc.log" || fail "pkg-config build of libmap.so: $(cat "$tmp/cc.log")"
# the program again, static: libcsearch.a and what it needs, as
# csearch-static.pc says (with or without --static)
[ "$(pkg-config --modversion csearch-static)" = "$version" ] || fail "pkg-config --modversion csearch-static: $(pkg-config --modversion csearch-static)"
$cc -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$tmp/map/build/map-colour-static" "$ex/main.c" "$ex/map.c" \
    $(pkg-config --cflags --libs csearch-static) \
    2>"$tmp/cc.log" || fail "static pkg-config build of map-colour: $(cat "$tmp/cc.log")"
readelf -d "$tmp/map/build/map-colour-static" | grep -q 'NEEDED.*libcsearch' &&
    fail "map-colour-static still needs libcsearch.so"
cd "$tmp/map" || exit 1
counts="18 colourings (complete), 52 nodes, 102 checks, 0 fails"
[ "$(build/map-colour australia.yaml 2>&1)" = "$counts" ] || fail "map-colour (pkg-config): $(build/map-colour australia.yaml 2>&1)"
[ "$(build/map-colour-static australia.yaml 2>&1)" = "$counts" ] || fail "map-colour-static: $(build/map-colour-static australia.yaml 2>&1)"
"$csearch" australia.yaml >"$tmp/out" 2>&1 || fail "csearch with the pkg-config plugin: $(cat "$tmp/out")"
grep -qx "solutions  18" "$tmp/out" || fail "csearch with the pkg-config plugin: $(cat "$tmp/out")"
cd "$src" || exit 1

# --- bash completion, as installed, for the installed csearch ---
complete_line() { # WORDS...: what the completion offers for the last word
    PATH=$prefix/bin:$PATH bash -c '. "$0"; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        _csearch; printf "%s\n" "${COMPREPLY[*]}"' \
        "$prefix/share/bash-completion/completions/csearch" "$@"
}
[ "$(complete_line csearch x --thr)" = "--threads" ] || fail "completion of --thr: $(complete_line csearch x --thr)"
[ "$(complete_line csearch x --set strategy.symm)" = "strategy.symmetry=" ] ||
    fail "completion of a key: $(complete_line csearch x --set strategy.symm)"
[ "$(complete_line csearch x --set strategy.symmetry=)" = "strategy.symmetry=none strategy.symmetry=mirror strategy.symmetry=d4" ] ||
    fail "completion of a key's choices: $(complete_line csearch x --set strategy.symmetry=)"
[ "$(complete_line csearch x --set model=)" = "model=flatzinc model=nqueens model=shifts model=sudoku" ] ||
    fail "completion of the models: $(complete_line csearch x --set model=)"
[ "$(complete_line csearch x --set task = o)" = "optimize" ] ||
    fail "completion after a split '=': $(complete_line csearch x --set task = o)"
# every option of --help is offered after "--"
for o in $(grep -- '^--.' "$tmp/help.opts"); do
    complete_line csearch x -- | tr ' ' '\n' | grep -qxF -- "$o" || fail "completion lacks $o"
done

cli_finish "install"

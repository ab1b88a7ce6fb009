#!/usr/bin/env bash
# examples_test.sh - the examples as a user builds them: install this build
# into a temporary prefix (cmake --install), copy each example out of the
# tree, build it there against the installed csearch (find_package), then
# run its config unchanged through the installed csearch (the plugin) and
# its program of its own, comparing the exact output.
# usage: examples_test.sh BUILD_DIR SOURCE_DIR C_COMPILER
set -u
. "$(dirname "$0")/cli_lib.sh" # fail, cli_finish
build=$1 src=$2 cc=$3
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix out=$tmp/out err=$tmp/err

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; echo "FAIL: cmake --install"; exit 1; }
csearch=$prefix/bin/csearch
[ "$(readelf -d "$csearch" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')" = '$ORIGIN/../lib' ] ||
    fail "installed csearch does not find its library beside it: $(readelf -d "$csearch" | grep -E 'RPATH|RUNPATH')"

# Ninja when there is one: half the time of make for these small builds
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

# copy_sources FROM TO: the example's sources only.  The README tells users
# to build in the example's build/, and a CMakeCache.txt copied from there
# would make cmake refuse the copy ("directory is different").
copy_sources() {
    mkdir -p "$2" &&
        tar -C "$1" --exclude='./build*' -cf - . | tar -C "$2" -xf -
}
# a user's build directory inside an example stays behind
mkdir -p "$tmp/user/build-debug" "$tmp/user/build/CMakeFiles" "$tmp/user/src"
touch "$tmp/user/build/CMakeCache.txt" "$tmp/user/CMakeLists.txt" "$tmp/user/src/a.c"
copy_sources "$tmp/user" "$tmp/user-copy"
[ "$(cd "$tmp/user-copy" && find . | sort | tr '\n' ' ')" = ". ./CMakeLists.txt ./src ./src/a.c " ] ||
    fail "copy_sources copied: $(cd "$tmp/user-copy" && find . | sort | tr '\n' ' ')"

# build NAME: copy examples/NAME to $tmp/NAME and build it in its build/
build() {
    copy_sources "$src/examples/$1" "$tmp/$1"
    if ! { cmake "${generator[@]}" -S "$tmp/$1" -B "$tmp/$1/build" -DCMAKE_PREFIX_PATH="$prefix" \
            -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS=-Werror &&
           cmake --build "$tmp/$1/build"; } >"$tmp/$1.log" 2>&1; then
        echo "$1" >>"$tmp/broken"
    fi
}
# both at once (a background build cannot count failures: it leaves a note)
build map-colouring &
build knights-tour &
build langford &
wait
if [ -s "$tmp/broken" ]; then
    for name in $(cat "$tmp/broken"); do
        cat "$tmp/$name.log"
        fail "building $name against the installed csearch"
    done
fi

# run EXPECTED_STATUS EXPECTED_STDOUT COMMAND...: stdout without timings,
# its lines joined with |
run() {
    local want=$1 text=$2
    shift 2
    "$@" 2>"$err" | grep -Ev '^(seconds|nodes/s) ' | tr '\n' '|' >"$out"
    local got=${PIPESTATUS[0]}
    [ "$got" = "$want" ] || fail "$* exited $got, expected $want ($(head -c 300 "$err"))"
    [ "$(cat "$out")" = "$text" ] || fail "$*: stdout '$(cat "$out")', expected '$text'"
}

cd "$tmp/map-colouring" || exit 1
run 0 "solutions  18|status     complete|nodes      52|checks     102|fails      0|max depth  7|" \
    "$csearch" australia.yaml
run 0 "WA   red|NT   green|SA   blue|Q    red|NSW  green|V    red|T    red||solutions  1|status     complete|nodes      8|checks     11|fails      0|max depth  7|" \
    "$csearch" australia.yaml --set task=solve --set strategy.select=mrv
run 0 "18 colourings (complete), 52 nodes, 102 checks, 0 fails|" \
    build/map-colour australia.yaml
run 0 "colouring 1:|  WA   red|  NT   green|  SA   blue|  Q    red|  NSW  green|  V    red|  T    red|1 colouring (complete), 8 nodes, 11 checks, 0 fails|" \
    build/map-colour australia.yaml task=solve strategy.select=mrv
run 2 "" build/map-colour australia.yaml strategy.prune=backward
[ "$(cat "$err")" = "map-colour: --set strategy.prune=backward: unknown value 'backward' for 'strategy.prune'; expected one of: none, forward" ] ||
    fail "map-colour bad value: $(cat "$err")"

cd "$tmp/knights-tour" || exit 1
run 0 "solutions  304|status     complete|nodes      1735079|checks     6191826|fails      625004|max depth  24|" \
    "$csearch" knights-tour.yaml
run 0 " 8  16 31 12 51 26 29 10 63| 7  13 50 15 30 11 64 25 28| 6  32 17 52 47 54 27 62  9| 5  49 14 55 36 61 38 45 24| 4  18 33 48 53 46 59  8 39| 3   3 56 35 60 37 42 23 44| 2  34 19  2  5 58 21 40  7| 1   1  4 57 20 41  6 43 22|    a  b  c  d  e  f  g  h|64 nodes, 330 checks, 0 fails|" \
    build/knights-tour
run 0 " 5  25 14  3  8 19| 4   4  9 18 13  2| 3  15 24  1 20  7| 2  10  5 22 17 12| 1  23 16 11  6 21|    a  b  c  d  e|25 nodes, 94 checks, 0 fails|" \
    build/knights-tour 5x5 c3
run 0 " 6  18  9  6 25 16 31| 5   7 26 17 32  5 24| 4  10 19  8 23 30 15| 3  27 36 29 14 33  4| 2  20 11  2 35 22 13| 1   1 28 21 12  3 34|    a  b  c  d  e  f|38 nodes, 154 checks, 2 fails|" \
    build/knights-tour 6x6 a1 closed
cd "$tmp/langford" || exit 1
run 0 "solutions  52|status     complete|nodes      668|checks     6837|fails      272|max depth  7|" \
    "$csearch" langford.yaml

cd "$tmp/knights-tour" || exit 1
run 2 "" build/knights-tour 9x9
[ "$(cat "$err")" = "knights-tour: --set params.rows=9: 'params.rows' must be between 1 and 8, not 9" ] ||
    fail "knights-tour 9x9: $(cat "$err")"

cli_finish "example"

#!/usr/bin/env bash
# plugin_cli_test.sh - models from plugins through the csearch command: the
# example configs with the example models built in this tree, the plugin:
# path taken from the config's folder, and refused plugins with their exact
# one-line message, exit status 2 and nothing on stdout.
# usage: plugin_cli_test.sh CSEARCH SOURCE_DIR LIBMAP LIBKNIGHT LIBBADABI
#        LIBNONAME LIBLANGFORD LIBLIAR
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"
libmap=$3 libknight=$4 libbadabi=$5 libnoname=$6 liblangford=$7 libliar=$8

# run EXPECTED_STATUS ARGS...: cli_lib's run, but stdout without the timing
# lines in $out
run() {
    local want=$1
    shift
    "$csearch" "$@" 2>"$err" | grep -Ev '^(seconds|nodes/s) ' >"$out"
    local got=${PIPESTATUS[0]}
    [ "$got" = "$want" ] || fail "csearch $* exited $got, expected $want ($(head -c 300 "$err"))"
}
expect_out() { # TEXT: the whole of stdout, lines joined with |
    local got
    got=$(tr '\n' '|' <"$out")
    [ "$got" = "$1" ] || fail "stdout: '$got', expected '$1'"
}
expect_err() {
    [ "$(cat "$err")" = "$1" ] || fail "stderr: '$(cat "$err")', expected '$1'"
    [ -s "$out" ] && fail "stdout not empty: $(head -c 200 "$out")"
}

map=examples/map-colouring/australia.yaml
knight=examples/knights-tour/knights-tour.yaml

# --- the example configs, each plugin named with --set ---
run 0 $map --set plugin="$libmap"
expect_out "solutions  18|status     complete|nodes      52|checks     102|fails      0|max depth  7|"
run 0 $map --set plugin="$libmap" --set task=solve --set strategy.select=mrv
expect_out "WA   red|NT   green|SA   blue|Q    red|NSW  green|V    red|T    red||solutions  1|status     complete|nodes      8|checks     11|fails      0|max depth  7|"
# the page's domain matrix from the hooks alone (the plugin has no page
# code): after WA = red (0), NT and SA lose red; after NT = green (1), SA
# keeps blue and Q loses green
run 0 $map --set plugin="$libmap" --set output.stats=false --trace-html "$tmp/map.html"
sed -n '/<script id="data"/,/<\/script>/p' "$tmp/map.html" |
    sed -e 's/^<script id="data" type="application\/json">//' -e 's/<\/script>$//' >"$tmp/map.json"
[ "$(jq -c '[.domains.vars, .domains.lo, .domains.width, [.nodes[0:3][] | .dm]]' "$tmp/map.json")" = '[["x0","x1","x2","x3","x4","x5","x6"],0,3,[".....................","#xxx..x..............","#xxx#xxx..x.........."]]' ] ||
    fail "map page's domain matrix: $(jq -c '[.domains, [.nodes[0:3][] | .dm]]' "$tmp/map.json")"
run 0 $map --set plugin="$libmap" --set strategy.prune=forward --json
[ "$(jq -c '[.model, .task, .strategy.prune, .solutions, .nodes, .checks]' "$out")" = '["map","count","forward",18,52,156]' ] ||
    fail "map --json: $(cat "$out")"
[ "$(jq -c .params "$out")" = '{"map":{"WA":["NT","SA"],"NT":["WA","SA","Q"],"SA":["WA","NT","Q","NSW","V"],"Q":["NT","SA","NSW"],"NSW":["Q","SA","V"],"V":["SA","NSW"],"T":[]},"colours":["red","green","blue"]}' ] ||
    fail "map --json params: $(jq -c .params "$out")"
run 0 $knight --set plugin="$libknight"
expect_out "solutions  304|status     complete|nodes      1735079|checks     6191826|fails      625004|max depth  24|"
run 0 $knight --set plugin="$libknight" --set task=solve --set strategy.order=warnsdorff
expect_out "  7 10 15 20  5| 16 21  6  9 14| 11  8 23  4 19| 22 17  2 13 24|  1 12 25 18  3||solutions  1|status     complete|nodes      25|checks     92|fails      0|max depth  24|"
# --list with a config lists its plugin's models too
run 0 $map --set plugin="$libmap" --list
grep -qxF "  map: colour a map (given in YAML) so that neighbours differ" "$out" || fail "--list lacks map: $(head -c 300 "$out")"
grep -qxF "    strategy.prune       none | forward  (default none)" "$out" || fail "--list lacks strategy.prune"
grep -qxF "  nqueens: place n queens on an n x n board, none attacking another" "$out" || fail "--list lacks nqueens"
run 0 --list
grep -qF "map:" "$out" && fail "--list without a config lists map"
# a model of a plugin is checked like a built-in one
run 2 $knight --set plugin="$libknight" --set strategy.select=mrv
expect_err "csearch: --set strategy.select=mrv: model knight cannot select mrv with these settings"

# --- plugin: is relative to the config's folder ---
mkdir -p "$tmp/map/build"
cp $map "$tmp/map/"
run 2 "$tmp/map/australia.yaml"
expect_err "csearch: $tmp/map/australia.yaml:6:9: cannot load plugin: $tmp/map/build/libmap.so: cannot open shared object file: No such file or directory"
cp "$libmap" "$tmp/map/build/libmap.so"
run 0 "$tmp/map/australia.yaml" --set output.stats=false
expect_out "solutions  18|status     complete|"
(cd "$tmp/map" && "$csearch" australia.yaml --set output.stats=false) >"$out" 2>"$err" ||
    fail "relative config: $(cat "$err")"
expect_out "solutions  18|status     complete|"

# --- Langford pairs (the guide's 117-line plugin): twice OEIS A014552, a
# sequence and its reversal, counted by weights over half the tree ---
langford=examples/langford/langford.yaml
for nc in 3:2:4 4:2:13 7:52:668 8:300:4092 11:35584:825648; do
    IFS=: read -r n want nodes <<<"$nc"
    run 0 $langford --set plugin="$liblangford" --set params.n="$n" --json
    got=$(jq -c '[.solutions, .nodes, .status]' "$out")
    [ "$got" = "[$want,$nodes,\"complete\"]" ] ||
        fail "langford n=$n: $got, expected [$want,$nodes,\"complete\"]"
done
run 0 $langford --set plugin="$liblangford" --set params.n=8 --threads 2 --json
[ "$(jq .solutions "$out")" = 300 ] || fail "langford n=8, 2 threads: $(jq .solutions "$out")"
run 0 $langford --set plugin="$liblangford" --set params.n=3 --set task=enumerate
expect_out "3 1 2 1 3 2||2 3 1 2 1 3||solutions  2|status     complete|nodes      4|checks     8|fails      0|max depth  3|"

# --- refused plugins ---
run 2 $map --set plugin="$libbadabi"
abi=$(sed -n 's/^#define CS_ABI_VERSION \([0-9]*\).*/\1/p' framework/include/csearch/model.h)
expect_err "csearch: --set plugin=$libbadabi: plugin '$libbadabi' was built for ABI version $((abi + 1)), this csearch has $abi"
# a model with no name: refused at the plugin: key, not a crash
printf 'plugin: %s\nmodel: map\n' "$libnoname" >"$tmp/noname.yaml"
run 2 "$tmp/noname.yaml"
expect_err "csearch: $tmp/noname.yaml:1:9: plugin '$libnoname': a model has no name"
run 2 $map --set plugin=README.md
expect_err "csearch: --set plugin=README.md: cannot load plugin: ./README.md: invalid ELF header"
run 2 $map --set plugin="$libknight"
expect_err "csearch: $map:7:8: unknown model 'map' (csearch --list shows the models)"

# --- a solution that fails its model's check: internal error, exit 70 ---
printf 'model: liar\ntask: solve\n' >"$tmp/liar.yaml"
"$csearch" "$tmp/liar.yaml" --set plugin="$libliar" >"$out" 2>"$err"
got=$?
[ "$got" = 70 ] || fail "liar: exit $got, expected 70"
[ "$(cat "$err")" = "csearch: internal error: the solution found fails its independent check; nothing printed (please report)" ] ||
    fail "liar stderr: $(cat "$err")"
grep -qx "status     unverified" "$out" || fail "liar stdout: $(cat "$out")"

cli_finish "plugin CLI"

#!/usr/bin/env bash
# cli_compare_test.sh - `csearch compare` as a user meets it: every
# configs/compare-*.yaml at a small n with its exact counts, the table, the
# CSV and the SVG plot, JSON, limits and Ctrl-C, and every mistake in a
# compare section with its position and message.
# usage: cli_compare_test.sh CSEARCH SOURCE_DIR
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"

# rows EXPECTED: the JSON rows, one "n strategy solutions nodes
# checks fails" line each (all deterministic), against EXPECTED
rows() {
    local got
    got=$(jq -r '.rows[] | [.n, .strategy, .solutions, .nodes, .checks, .fails] | map(tostring) | join(" ")' "$out" 2>&1) ||
        fail "not JSON: $(head -c 300 "$out")"
    [ "$got" = "$1" ] || fail "rows: got
$got
expected
$1"
}

files="--set compare.csv=$tmp/c.csv --set compare.plot=$tmp/p.svg"

# --- every comparison config at a small n: exact counts -------------------
run 0 compare configs/compare-row-cell.yaml --set compare.n=6 $files --json
rows "6 row 4 153 894 46
6 cell 4 2635 15983 1740
6 cell+prune 4 611 2506 494"
run 0 compare configs/compare-states.yaml --set compare.n=6 $files --json
rows "6 set 4 153 894 46
6 array 4 153 894 46
6 bitmask 4 153 149 46"
[ "$(jq -r '[.repeat, .clock] | join(" ")' "$out")" = "3 cpu" ] || fail "states: repeat, clock $(head -c 200 "$out")"
run 0 compare configs/compare-brute-force.yaml --set compare.n=6 $files --json
rows "6 brute-force 4 1957 3010 716
6 bitmask 4 153 149 46"
run 0 compare configs/compare-mirror.yaml --set compare.n=6 $files --json
rows "6 no-mirror 4 153 149 46
6 mirror 4 77 75 23"
run 0 compare configs/compare-mrv.yaml --set compare.n=6 $files --json
rows "6 in-order 4 131 1447 44
6 mrv 4 119 2829 36"
[ "$(jq -r '[.model, .task, .status, .csv, .plot] | join(" ")' "$out")" = "nqueens count complete $tmp/c.csv $tmp/p.svg" ] ||
    fail "json head: $(head -c 300 "$out")"

# --- the table: ratios to the first strategy at the same n ----------------
# (seconds, column 7, and its ratio vary; everything else is exact)
run 0 compare configs/compare-mrv.yaml --set compare.n.from=5 --set compare.n.to=6 $files
[ "$(head -n 1 "$out")" = "n  strategy  solutions  nodes  checks  fails   seconds  x nodes  x checks  x seconds" ] ||
    fail "table header: $(head -n 1 "$out")"
[ "$(awk 'NR > 1 && NR <= 5 {print $1, $2, $3, $4, $5, $6, $8, $9}' "$out")" = "5 in-order 10 54 440 4 1.00 1.00
5 mrv 10 54 915 4 1.00 2.08
6 in-order 4 131 1447 44 1.00 1.00
6 mrv 4 119 2829 36 0.91 1.96" ] || fail "table rows: $(cat "$out")"
[ "$(tail -n 3 "$out")" = "x: ratio to strategy 'in-order' at the same n; seconds: CPU time, median of 3 runs
csv   $tmp/c.csv
plot  $tmp/p.svg" ] || fail "table footer: $(tail -n 3 "$out")"

# --- CSV: a header, a line per run ------------------------------------------
[ "$(head -n 1 "$tmp/c.csv")" = "n,strategy,status,solutions,nodes,checks,fails,seconds,nodes_ratio,checks_ratio,seconds_ratio" ] ||
    fail "csv header: $(head -n 1 "$tmp/c.csv")"
[ "$(cut -d, -f1-7,9,10 "$tmp/c.csv" | tail -n +2)" = "5,in-order,complete,10,54,440,4,1,1
5,mrv,complete,10,54,915,4,1,2.07955
6,in-order,complete,4,131,1447,44,1,1
6,mrv,complete,4,119,2829,36,0.908397,1.95508" ] || fail "csv rows: $(cat "$tmp/c.csv")"

# --- the plot: well-formed SVG, three charts, a line per strategy each ----
if command -v xmllint >/dev/null; then
    xmllint --noout "$tmp/p.svg" || fail "plot is not well-formed XML"
fi
[ "$(grep -c '<path ' "$tmp/p.svg")" = 6 ] || fail "plot: $(grep -c '<path ' "$tmp/p.svg") lines, expected 6"
[ "$(grep -c '<circle ' "$tmp/p.svg")" = 12 ] || fail "plot: $(grep -c '<circle ' "$tmp/p.svg") points, expected 12"
for text in ">seconds (log scale)<" ">nodes (log scale)<" ">checks (log scale)<" \
    ">in-order<" ">mrv<" ">configs/compare-mrv.yaml<"; do
    grep -qF -- "$text" "$tmp/p.svg" || fail "plot lacks '$text'"
done
# checks span 440 .. 2829: that axis runs from 10^2 to 10^4
grep -qF '>10<tspan dy="-6" font-size="9">4</tspan>' "$tmp/p.svg" || fail "plot: no 10^4 tick"

# --- a config holding a compare section runs it without the word too ------
run 0 configs/compare-mirror.yaml --set compare.n=8 $files --json
rows "8 no-mirror 92 2057 1965 644
8 mirror 92 1029 983 322"
cmp -s <(jq -c '[.rows[].nodes]' "$out") <(echo '[2057,1029]') || fail "plain run: $(head -c 200 "$out")"

# --- limits and Ctrl-C: the rows so far, exit 3 and 130 ---------------------
run 3 compare configs/compare-mirror.yaml --set compare.n=8 --set limits.nodes=1100 --set compare.clock=wall $files --json
[ "$(jq -r '[.clock, .status, (.rows | map(.status) | join(","))] | join(" ")' "$out")" = "wall limit limit,complete" ] ||
    fail "limit: $(head -c 300 "$out")"
signal_run INT 2 130 compare configs/compare-row-cell.yaml --set compare.n=12 $files --json
[ "$(jq -r '[.status, (.rows | map(.strategy + ":" + .status) | join(","))] | join(" ")' "$out")" = "interrupted row:complete,cell:interrupted" ] ||
    fail "Ctrl-C: $(head -c 300 "$out")"
# SIGTERM: the same, exit 143
signal_run TERM 2 143 compare configs/compare-row-cell.yaml --set compare.n=12 $files --json
[ "$(jq -r '[.status, (.rows | map(.strategy + ":" + .status) | join(","))] | join(" ")' "$out")" = "interrupted row:complete,cell:interrupted" ] ||
    fail "SIGTERM: $(head -c 300 "$out")"

# --- mistakes: one line on stderr at the right place, nothing on stdout ---
bad() { # MESSAGE ARGS...: exit 2 with exactly that message
    local message=$1
    shift
    run 2 "$@"
    [ "$(cat "$err")" = "csearch: $message" ] || fail "$*: got '$(cat "$err")', expected 'csearch: $message'"
    [ ! -s "$out" ] || fail "$*: stdout not empty"
}
yaml() { # NAME LINE...: a config file in $tmp
    local name=$tmp/$1
    shift
    printf '%s\n' "$@" >"$name"
}
head="model: nqueens"
yaml typo.yaml "$head" "compare:" "  n: 6" "  strategis: []"
bad "$tmp/typo.yaml:4:3: unknown key 'compare.strategis'; did you mean 'compare.strategies'?" compare "$tmp/typo.yaml"
yaml value.yaml "$head" "compare:" "  n: 6" "  strategies:" "    - name: x" "      set: { strategy.state: sett }"
bad "$tmp/value.yaml:6:30: strategy 'x', n = 6: unknown value 'sett' for 'strategy.state'; expected one of: array, bitmask, set" compare "$tmp/value.yaml"
yaml brute.yaml "$head" "strategy: { symmetry: none }" "compare:" "  n: [10, 13]" "  strategies:" "    - name: bf" "      set: { strategy.search: brute-force }"
bad "$tmp/brute.yaml:4:11: strategy 'bf', n = 13: search brute-force tries all n! permutations; n = 13 is refused (at most 12)" compare "$tmp/brute.yaml"
yaml twice.yaml "$head" "compare:" "  strategies:" "    - name: a" "    - name: a"
bad "$tmp/twice.yaml:5:13: strategy name 'a' is used twice" compare "$tmp/twice.yaml"
yaml range.yaml "$head" "compare:" "  n: { from: 8, to: 6 }" "  strategies: [ { name: a } ]"
bad "$tmp/range.yaml:3:21: 'compare.n.to' must not be below compare.n.from (8), not 6" compare "$tmp/range.yaml"
yaml order.yaml "$head" "compare:" "  n: [8, 6]" "  strategies: [ { name: a } ]"
bad "$tmp/order.yaml:3:10: 'compare.n' must increase: 6 after 8" compare "$tmp/order.yaml"
yaml own-n.yaml "$head" "compare:" "  n: 6" "  strategies:" "    - name: a" "      set: { params.n: 7 }"
bad "$tmp/own-n.yaml:6:14: a strategy cannot set 'params.n': compare.n gives it" compare "$tmp/own-n.yaml"
yaml nested.yaml "$head" "compare:" "  n: 6" "  strategies:" "    - name: a" "      set: { strategy: { state: set } }"
bad "$tmp/nested.yaml:6:24: 'strategy' in compare.strategies[1].set needs a single value; write dotted keys (strategy.state: set)" compare "$tmp/nested.yaml"
yaml no-n.yaml "$head" "compare:" "  strategies: [ { name: a } ]" "  plot: x.svg"
bad "$tmp/no-n.yaml:4:9: a plot needs compare.n (its x axis)" compare "$tmp/no-n.yaml"
yaml empty.yaml "$head" "compare:" "  n: 6" "  strategies: []"
bad "$tmp/empty.yaml:4:15: 'compare.strategies' must be a non-empty list of {name, set} mappings" compare "$tmp/empty.yaml"
yaml scalar.yaml "$head" "compare: yes"
bad "$tmp/scalar.yaml:2:10: 'compare' must be a mapping" compare "$tmp/scalar.yaml"
yaml batch.yaml "model: sudoku" "params: { file: $PWD/tests/data/sudoku_top95_head20.txt }" "compare:" "  strategies: [ { name: a } ]"
bad "$tmp/batch.yaml: strategy 'a': a batch (a file of instances) cannot be compared" "$tmp/batch.yaml"
bad "configs/nqueens.yaml:4:1: no 'compare' section: nothing to compare (docs/compare.md)" compare configs/nqueens.yaml
bad "--set compare.plot=/nonexistent/p.svg: cannot write '/nonexistent/p.svg': No such file or directory" \
    compare configs/compare-mirror.yaml --set compare.n=6 --set compare.csv=$tmp/c.csv --set compare.plot=/nonexistent/p.svg
bad "--set compare.repeat=0: 'compare.repeat' must be between 1 and 100, not 0" \
    compare configs/compare-mirror.yaml --set compare.repeat=0
# numbers beyond 64 bits get the key's own range, not int64's
bad "--set compare.n.step=99999999999999999999: 'compare.n.step' must be between 1 and 9000000000000000000, not 99999999999999999999" \
    compare configs/compare-mirror.yaml --set compare.n.from=4 --set compare.n.to=6 --set compare.n.step=99999999999999999999
bad "--set compare.clock=sundial: unknown value 'sundial' for 'compare.clock'; expected one of: wall, cpu" \
    compare configs/compare-mirror.yaml --set compare.clock=sundial
bad "compare cannot take --checkpoint: checkpoints are for counts, not comparisons" compare configs/compare-mirror.yaml --checkpoint "$tmp/ck"
# the options of a single run are refused, not ignored
bad "compare cannot take --resume: checkpoints are for counts, not comparisons" compare configs/compare-mirror.yaml --resume "$tmp/ck"
bad "compare cannot take --units: slices are for counts, not comparisons" compare configs/compare-mirror.yaml --units 0:3
bad "compare cannot take --trace: trace one config, not a comparison" compare configs/compare-mirror.yaml --trace
bad "compare cannot take --trace-html: trace one config, not a comparison" configs/compare-mirror.yaml --trace-html "$tmp/t.html"
bad "compare cannot take --tree: trace one config, not a comparison" compare --tree "$tmp/t.dot" configs/compare-mirror.yaml
bad "compare cannot take --progress: it shows no progress line" compare configs/compare-mirror.yaml --progress
bad "--set output.tree=t.dot: compare cannot take 'output.tree': trace one config, not a comparison" \
    compare configs/compare-mirror.yaml --set output.tree=t.dot
yaml traced.yaml "model: nqueens" "output: { trace: true }" "compare:" "  strategies: [ { name: a } ]"
bad "$tmp/traced.yaml:2:18: compare cannot take 'output.trace': trace one config, not a comparison" compare "$tmp/traced.yaml"
[ -e "$tmp/t.html" ] || [ -e "$tmp/t.dot" ] && fail "a refused trace file was written"

# --- two strategies as one tree (compare.tree_html) ------------------------
page_json() { sed -n '/<script id="data"/,/<\/script>/p' "$1" | sed -e 's/^<script id="data" type="application\/json">//' -e 's/<\/script>$//'; }
yaml one.yaml "model: nqueens" "params: { n: 6 }" "task: count" "strategy: { state: array, symmetry: none }"
yaml merged.yaml "model: nqueens" "params: { n: 6 }" "task: count" "strategy: { state: array, symmetry: none }" \
    "compare:" "  strategies:" "    - {name: in-order, set: {strategy.select: in-order}}" \
    "    - {name: mrv, set: {strategy.select: mrv}}" "  tree_html: $tmp/merged.html"
run 0 compare "$tmp/merged.yaml"
page_json "$tmp/merged.html" >"$tmp/merged.json"
# each side's nodes per depth are those of its own traced run
for s in in-order mrv; do
    run 0 "$tmp/one.yaml" --set strategy.select=$s --trace-html "$tmp/$s.html"
    levels=$(page_json "$tmp/$s.html" | jq -c '[.nodes | group_by(.d)[] | length]')
    [ "$(jq -c --arg s $s '.runs[] | select(.name == $s) | .levels' "$tmp/merged.json")" = "$levels" ] ||
        fail "merged page, $s per level: $(jq -c .runs "$tmp/merged.json"), its own run: $levels"
    # and the merged tree holds exactly the nodes of that side
    side=$([ $s = in-order ] && echo 1 || echo 2)
    [ "$(jq --argjson b $side '[.nodes[] | select(.s % (2 * $b) >= $b)] | length' "$tmp/merged.json")" = "$(page_json "$tmp/$s.html" | jq '.nodes | length')" ] ||
        fail "merged page: the $s side's nodes"
done
[ "$(jq -c '[.runs[] | .levels]' "$tmp/merged.json")" = '[[1,6,20,36,46,40,4],[1,6,20,36,36,16,4]]' ] ||
    fail "merged page levels: $(jq -c '[.runs[] | .levels]' "$tmp/merged.json")"
find_chromium
if [ -n "$chromium" ]; then
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --virtual-time-budget=3000 \
        --dump-dom "file://$tmp/merged.html?selftest" >"$tmp/dom.html" 2>/dev/null || fail "chromium failed on the merged page"
    sed -n '/<pre id="selftest">/,/<\/pre>/p' "$tmp/dom.html" | sed -e 's/<pre id="selftest">//' -e 's/<\/pre>//' >"$tmp/merged.txt"
    printf '%s\n' "drawn: both 105, in-order only 48, mrv only 14, parting 26" "depth in-order mrv shared" \
        "0 1 1 1" "1 6 6 6" "2 20 20 20" "3 36 36 36" "4 46 36 30" "5 40 16 10" "6 4 4 2" >"$tmp/merged.want"
    diff -u "$tmp/merged.want" "$tmp/merged.txt" >&2 || fail "the merged page as drawn"
else
    echo "SKIP: $no_chromium; the merged page was not drawn"
fi
yaml three.yaml "$head" "compare:" "  strategies: [ {name: a}, {name: b}, {name: c} ]" "  tree_html: t.html"
bad "$tmp/three.yaml:4:14: compare.tree_html merges the trees of two strategies on one problem: give two strategies and at most one n" compare "$tmp/three.yaml"
yaml twon.yaml "$head" "compare:" "  n: [5, 6]" "  strategies: [ {name: a}, {name: b} ]" "  tree_html: t.html"
bad "$tmp/twon.yaml:5:14: compare.tree_html merges the trees of two strategies on one problem: give two strategies and at most one n" compare "$tmp/twon.yaml"
yaml threads.yaml "$head" "compare:" "  strategies: [ {name: a}, {name: b, set: {strategy.threads: 2}} ]" "  tree_html: $tmp/t.html"
run 2 compare "$tmp/threads.yaml"
grep -qF "compare.tree_html follows one search per strategy: use one thread" "$err" || fail "tree_html with threads: $(cat "$err")"

# --- help and --list name it ------------------------------------------------
run 0 --help
grep -qF "csearch compare CONFIG [options]" "$out" || fail "--help lacks compare"
run 0 --list
grep -qF "    compare              mapping" "$out" || fail "--list lacks the compare key"

# --- README's compare block runs as pasted (the binary: this build's) ---
sed -n '/^repo=\$PWD && cd \/tmp/,/^```/p' README.md | sed '$d' |
    sed -e "s|cd /tmp|cd $tmp|" -e "s|\$repo/build/framework/csearch|$csearch|" >"$tmp/readme.sh"
[ "$(grep -c ' compare ' "$tmp/readme.sh")" = 5 ] || fail "README compare block not found: $(cat "$tmp/readme.sh")"
bash -e "$tmp/readme.sh" >"$out" 2>"$err" || fail "README compare block: $(head -c 300 "$err")"
[ -s "$tmp/compare-mrv.svg" ] || fail "README compare block wrote no plot"

cli_finish "compare CLI"

#!/usr/bin/env bash
# cli_trace_test.sh - --trace, --trace-html and --tree as a user meets them:
# the 4-queens traces against stored expected output, the DOT tree parsed by
# Graphviz, the HTML page clicked through in headless Chromium, the node cap,
# the page of a local search (a frame per start and step), and every refusal
# with its exact message.  Graphviz and Chromium parts are
# skipped (and say so) where those programs are not installed.
# usage: cli_trace_test.sh CSEARCH SOURCE_DIR
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"
data=tests/data/trace

# The output without the two lines that vary from run to run.
steady() { grep -v -e '^seconds ' -e '^nodes/s ' "$1"; }

expect_file() { # EXPECTED_FILE ACTUAL_FILE
    diff -u "$1" "$2" >"$tmp/diff" || fail "$2 differs from $1: $(head -n 20 "$tmp/diff")"
}

# --- the text trace: 4-queens, stored, and it fits on a screen ---
run 0 configs/nqueens-trace.yaml
steady "$out" >"$tmp/trace.txt"
expect_file $data/nqueens4-bitmask.txt "$tmp/trace.txt"
[ "$(wc -l <"$out")" -le 70 ] || fail "4-queens trace is $(wc -l <"$out") lines, more than a screen"
[ ! -s "$err" ] || fail "trace wrote to stderr: $(cat "$err")"

# the tutorial shows this very trace (all but the timing lines)
awk '/^\$ build\/framework\/csearch configs\/nqueens-trace.yaml$/ {on = 1; next}
     on && /^```/ {exit} on' docs/tutorial.md | steady /dev/stdin >"$tmp/tutorial.txt"
expect_file $data/nqueens4-bitmask.txt "$tmp/tutorial.txt"

# the array state shows its arrays; forward checking prunes
run 0 configs/nqueens-trace.yaml --set strategy.state=array --set strategy.prune=forward
steady "$out" >"$tmp/trace.txt"
expect_file $data/nqueens4-array-forward.txt "$tmp/trace.txt"

# the set state shows the lines its hash set holds as the arrays would:
# the same trace line for line (only the checks differ)
run 0 configs/nqueens-trace.yaml --set strategy.state=set --set strategy.prune=forward
steady "$out" | grep -v '^checks ' >"$tmp/trace.txt"
grep -v '^checks ' $data/nqueens4-array-forward.txt | diff -u - "$tmp/trace.txt" >"$tmp/diff" ||
    fail "set state trace differs from the array trace: $(head -n 20 "$tmp/diff")"

# brute force: every permutation down to a leaf, where the goal test
# rejects 22 of the 24
run 0 configs/nqueens-trace.yaml --set strategy.search=brute-force
[ "$(sed -n 5,6p "$out" | tr '\n' '|')" = ' 4        row 3 = col 3   queens 0123 used 1111|            -> rejected by the goal test|' ] ||
    fail "brute force trace lines 5-6: $(sed -n 5,6p "$out")"
[ "$(grep -c -- '-> rejected by the goal test' "$out") $(grep -c -- '-> solution' "$out")" = "22 2" ] ||
    fail "brute force trace: $(grep -c -- '-> rejected' "$out") rejected, $(grep -c -- '-> solution' "$out") solutions"

# cell by cell, cutting a branch that skipped a row: 38 pruned, 2 dead ends
run 0 configs/nqueens-trace.yaml --set strategy.formulation=cell --set strategy.prune_skipped_rows=true
[ "$(sed -n 4,5p "$out" | tr '\n' '|')" = ' 3      queen 2 = (3,1)   queens 02.1 col 1110 d1 1001100 d2 0011010|          -> pruned|' ] ||
    fail "cell trace lines 4-5: $(sed -n 4,5p "$out")"
[ "$(grep -c -- '-> pruned' "$out") $(grep -c -- '-> dead end' "$out") $(grep -c -- '-> solution' "$out")" = "38 2 2" ] ||
    fail "cell trace: $(grep -c -- '-> pruned' "$out") pruned, $(grep -c -- '-> dead end' "$out") dead ends"

# every state's 4-queens trace fits 80 columns
for args in "strategy.state=bitmask" "strategy.state=array" "strategy.state=set" \
            "strategy.select=mrv" "strategy.formulation=cell" \
            "strategy.search=brute-force" "strategy.prune=forward" \
            "strategy.symmetry=mirror"; do
    run 0 configs/nqueens-trace.yaml --set $args
    wide=$(awk 'length > 80 { n++ } END { print n + 0 }' "$out")
    [ "$wide" = 0 ] || fail "--set $args: $wide trace lines wider than 80 columns"
done

# mirror: the first row tries the left half, each queen counting twice
run 0 configs/nqueens-trace.yaml --set strategy.symmetry=mirror --set output.stats=false
expect_file $data/nqueens4-mirror.txt "$out"

# MRV runs on the absolute masks (rows, cols and 2n - 1 diagonal bits)
run 0 configs/nqueens-trace.yaml --set strategy.select=mrv --set output.stats=false
expect_file $data/nqueens4-mrv.txt "$out"

# Sudoku: the compact trace
run 0 $data/sudoku4.yaml --trace
steady "$out" >"$tmp/trace.txt"
expect_file $data/sudoku4.txt "$tmp/trace.txt"

# solve: the trace stops with the search, the board follows the solution line
run 0 configs/nqueens-trace.yaml --set task=solve --set output.stats=false
[ "$(tail -n 9 "$out" | tr '\n' '|')" = ' 4        row 3 = col 2   queens 1302 cols 1111 d1 1100 d2 0011 avail 0000|            -> solution|.Q..|...Q|Q...|..Q.||solutions  1|status     complete|' ] ||
    fail "solve trace end: $(tail -n 9 "$out")"

# a trace does not change the search: same counts as the untraced run
for args in "--set strategy.symmetry=mirror" "--set strategy.state=array" \
            "--set strategy.prune=forward" "--set strategy.select=mrv" \
            "--set strategy.symmetry=d4"; do
    run 0 configs/nqueens.yaml --set params.n=7 $args --set strategy.kernel=generic --json
    jq -c '[.solutions, .nodes, .checks, .fails, .max_depth]' "$out" >"$tmp/plain"
    run 0 configs/nqueens.yaml --set params.n=7 $args --tree "$tmp/t.dot" --json
    jq -c '[.solutions, .nodes, .checks, .fails, .max_depth]' "$out" >"$tmp/traced"
    cmp -s "$tmp/plain" "$tmp/traced" || fail "$args: traced $(cat "$tmp/traced"), untraced $(cat "$tmp/plain")"
done

# --- the tree: stored DOT, parsed by Graphviz ---
run 0 configs/nqueens-trace.yaml --set output.trace=false --tree "$tmp/nq4.dot"
expect_file $data/nqueens4.dot "$tmp/nq4.dot"
run 0 configs/nqueens.yaml --set params.n=5 --set strategy.symmetry=mirror --set strategy.prune=forward --tree "$tmp/nq5.dot"
# 10 solutions: columns 0 and 1 of the first row count twice (2 + 2 boards
# each), column 2 once (2 boards); forward checking prunes 2 nodes (the fails)
nodes_with() { grep -c "^  n[0-9]* \[label=\"[^\"]*\\\\n$1" "$tmp/nq5.dot"; }
[ "$(nodes_with 'solution x2')" = 4 ] || fail "5-queens mirror tree: $(nodes_with 'solution x2') doubled solutions, expected 4"
[ "$(nodes_with 'solution\"')" = 2 ] || fail "5-queens mirror tree: $(nodes_with 'solution\"') single solutions, expected 2"
[ "$(nodes_with pruned)" = 2 ] || fail "5-queens forward tree: $(nodes_with pruned) pruned nodes, expected 2"
[ "$(grep -c '^  n[0-9]* \[' "$tmp/nq5.dot")" = 32 ] || fail "5-queens tree: not 32 nodes"
if command -v dot >/dev/null; then
    for f in nq4 nq5; do
        dot -Tsvg "$tmp/$f.dot" -o "$tmp/$f.svg" 2>"$tmp/dot.err" || fail "dot rejects $f.dot: $(cat "$tmp/dot.err")"
        [ "$(grep -c '<g id="node' "$tmp/$f.svg")" = "$(grep -c '^  n[0-9]* \[' "$tmp/$f.dot")" ] || fail "$f.svg lacks nodes"
    done
else
    echo "SKIP: graphviz (dot) is not installed; DOT files not parsed"
fi

# the cap: the first nodes, a note in the graph, one line on stderr
run 0 configs/nqueens.yaml --set params.n=6 --set strategy.symmetry=none --set output.tree_max_nodes=10 --tree "$tmp/cap.dot"
expect_stderr "csearch: $tmp/cap.dot: the search entered 153 nodes; the tree shows the first 10 (output.tree_max_nodes)"
[ "$(grep -c '^  n[0-9]* \[' "$tmp/cap.dot")" = 10 ] || fail "capped tree does not hold 10 nodes"
grep -qF 'cut [shape=plaintext, style="", label="... 143 more nodes not drawn (output.tree_max_nodes = 10)"];' "$tmp/cap.dot" || fail "capped tree lacks its note"
if command -v dot >/dev/null; then
    dot -Tsvg "$tmp/cap.dot" >/dev/null 2>"$tmp/dot.err" || fail "dot rejects the capped tree: $(cat "$tmp/dot.err")"
fi

# --- the page: self-contained, and it clicks through in Chromium ---
run 0 configs/nqueens-trace.yaml --set output.trace=false --trace-html "$tmp/nq4.html"
[ ! -s "$err" ] || fail "--trace-html wrote to stderr: $(cat "$err")"
# (the SVG namespace is a name, not an address the page loads)
outside='(src|href)=|url\(|@import|<link|fetch\(|XMLHttpRequest|https?:'
sed 's|"http://www.w3.org/2000/svg"||' "$tmp/nq4.html" | grep -qiE "$outside" &&
    fail "the page refers to something outside itself: $(grep -oiE "$outside" "$tmp/nq4.html" | head -3)"
grep -qF '<title>csearch: nqueens n=4, count, symmetry none</title>' "$tmp/nq4.html" || fail "page title"
# the page in docs/ is this one
cmp -s docs/images/nqueens4.html "$tmp/nq4.html" || fail "docs/images/nqueens4.html is not what --trace-html writes now"
find_chromium
if [ -n "$chromium" ]; then
    # --virtual-time-budget lets the page's timers (play) run to the end
    # before the DOM is dumped; the self-test writes what each click showed
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
        --virtual-time-budget=20000 --dump-dom "file://$tmp/nq4.html?selftest" \
        >"$tmp/dom.html" 2>/dev/null || fail "chromium failed on the page"
    sed -n '/<pre id="selftest">/,/<\/pre>/p' "$tmp/dom.html" |
        sed -e 's/<pre id="selftest">//' -e 's/<\/pre>//' >"$tmp/selftest.txt"
    expect_file $data/nqueens4-selftest.txt "$tmp/selftest.txt"
    # at 1400 x 1000 the board and the tree fill the window between them
    # (they took under a third of its width: a 100 px board, a 170 px tree)
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --window-size=1400,1000 \
        --virtual-time-budget=5000 --dump-dom "file://$tmp/nq4.html?selftest=size" \
        >"$tmp/dom.html" 2>/dev/null || fail "chromium failed on the page's sizes"
    sizes=$(grep -o '<pre id="selftest">[^<]*' "$tmp/dom.html" | sed 's/.*>//')
    read -r win high board glyph box boxh radius <<<"$(printf '%s\n' "$sizes" | sed -nE \
        's/^window ([0-9]+)x([0-9]+); board ([0-9]+)x[0-9]+, square [0-9]+, glyph ([0-9]+)[.0-9]*; tree box ([0-9]+)x([0-9]+), tree [0-9]+x[0-9]+, node radius ([0-9]+)$/\1 \2 \3 \4 \5 \6 \7/p')"
    if [ -z "${radius-}" ]; then
        fail "page sizes: '$sizes'"
    else
        [ "$board" -ge 400 ] && [ "$glyph" -ge 48 ] || fail "page at 1400x1000: a small board ($sizes)"
        [ "$box" -ge 700 ] && [ "$boxh" -ge $((high * 3 / 4)) ] && [ "$radius" -ge 20 ] ||
            fail "page at 1400x1000: a small tree ($sizes)"
        [ $((board + box)) -ge $((win * 85 / 100)) ] && [ $((board + box)) -le "$win" ] ||
            fail "page at 1400x1000: board and tree do not fill the width ($sizes)"
    fi
else
    echo "SKIP: $no_chromium; the page was not clicked through"
fi

# --- the domain matrix: every row's columns at every node, for a state
# with domain_size (array), none for one without (bitmask) ---
page_json() { sed -n '/<script id="data"/,/<\/script>/p' "$1" | sed -e 's/^<script id="data" type="application\/json">//' -e 's/<\/script>$//'; }
run 0 configs/nqueens-trace.yaml --set output.trace=false --set strategy.state=array --trace-html "$tmp/arr.html"
page_json "$tmp/arr.html" >"$tmp/arr.json"
[ "$(jq -c '[.domains.vars, .domains.lo, .domains.width]' "$tmp/arr.json")" = '[["row 0","row 1","row 2","row 3"],0,4]' ] ||
    fail "domain matrix rows and columns: $(jq -c .domains "$tmp/arr.json")"
# the root: every column open; after row 0 = col 0 (by hand): row 1 keeps
# cols 2, 3, row 2 cols 1, 3, row 3 cols 1, 2; then row 1 = col 2 leaves
# row 2 nothing (cols 1 and 3 lie on its diagonals) and row 3 col 1
[ "$(jq -r '.nodes[0].dm, .nodes[1].dm, .nodes[2].dm' "$tmp/arr.json" | tr '\n' '|')" = '................|#xxxxx..x.x.x..x|#xxxxx#xxxxxx.xx|' ] ||
    fail "domain matrices: $(jq -r '.nodes[0].dm, .nodes[1].dm, .nodes[2].dm' "$tmp/arr.json" | tr '\n' '|')"
# every recorded node has one, of 16 cells, with one '#' per set row
[ "$(jq '[.nodes[] | select((.dm | length) == 16 and ((.dm | gsub("[^#]"; "") | length) == .d))] | length' "$tmp/arr.json")" = "$(jq '.nodes | length' "$tmp/arr.json")" ] ||
    fail "a node without its matrix or with a wrong count of set rows"
run 0 configs/nqueens-trace.yaml --set output.trace=false --trace-html "$tmp/bits.html"
[ "$(page_json "$tmp/bits.html" | jq -r '.domains_off')" = "the model cannot list the values of any open variable (no domain_size hook)" ] ||
    fail "bitmask page: domains_off $(page_json "$tmp/bits.html" | jq -c '.domains_off')"
if [ -n "$chromium" ]; then
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
        --virtual-time-budget=5000 --dump-dom "file://$tmp/arr.html?selftest=domains" \
        >"$tmp/dom.html" 2>/dev/null || fail "chromium failed on the domain matrix"
    sed -n '/<pre id="selftest">/,/<\/pre>/p' "$tmp/dom.html" |
        sed -e 's/<pre id="selftest">//' -e 's/<\/pre>//' >"$tmp/domains.txt"
    [ "$(sed -n 2p "$tmp/domains.txt")" = "2: row 0 #xxx / row 1 xx.. / row 2 x.x. / row 3 x..x" ] ||
        fail "the page's domain matrix at step 2: $(sed -n 2p "$tmp/domains.txt")"
    [ "$(grep -c '^[0-9]*: row 0 ' "$tmp/domains.txt")" = "$(page_json "$tmp/arr.html" | jq '.frames | length')" ] ||
        fail "the page's domain matrix is missing at some step"
fi

# a page of a capped search says so, on the page and on stderr
run 0 configs/nqueens.yaml --set params.n=6 --set strategy.symmetry=none --set output.tree_max_nodes=5 --trace-html "$tmp/cap.html"
expect_stderr "csearch: $tmp/cap.html: the search entered 153 nodes; the page holds the first 5 (output.tree_max_nodes)"
grep -qF '"nodes_seen": 153, "cut": true, "max_nodes": 5,' "$tmp/cap.html" || fail "capped page data"

# Ctrl-C: the search stops, the page and the tree of what was searched are
# still written, with status interrupted
"$csearch" configs/nqueens.yaml --set params.n=14 --set strategy.symmetry=none \
    --trace --trace-html "$tmp/int.html" --tree "$tmp/int.dot" >/dev/null 2>"$err" &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
status=$?
[ $status = 130 ] || fail "Ctrl-C of a traced search exited $status, expected 130"
grep -qF '"status": "interrupted"' "$tmp/int.html" || fail "interrupted page lacks its status"
tail -n 1 "$tmp/int.dot" | grep -qx '}' || fail "interrupted tree is not a whole graph"

# --- refusals: one line, exit 2, nothing on stdout ---
while IFS='|' read -r args message; do
    [ -n "$args" ] || continue
    # shellcheck disable=SC2086
    run 2 $args
    expect_stderr "csearch: $message"
    [ ! -s "$out" ] || fail "$args: stdout not empty"
done <<CASES
configs/nqueens-trace.yaml --json|configs/nqueens-trace.yaml:11:10: output.trace prints text lines; it cannot go with output.format json
configs/nqueens-trace.yaml --threads 2|--set strategy.threads=2: a trace follows one search: use one thread
configs/nqueens.yaml --trace --set strategy.kernel=fast|--set strategy.kernel=fast: kernel fast needs a run without traces (output.trace, trace_html, tree)
configs/sudoku-batch.yaml --tree $tmp/b.dot|--set output.tree=$tmp/b.dot: a trace follows one search, not a batch of instances
configs/nqueens-trace.yaml --tree $tmp/no/such/dir/t.dot|--set output.tree=$tmp/no/such/dir/t.dot: cannot write '$tmp/no/such/dir/t.dot': No such file or directory
configs/nqueens-trace.yaml --tree /dev/full|--set output.tree=/dev/full: cannot write '/dev/full': No space left on device
configs/nqueens-trace.yaml --trace-html /dev/full|--set output.trace_html=/dev/full: cannot write '/dev/full': No space left on device
configs/nqueens-trace.yaml --set output.tree_max_nodes=0|--set output.tree_max_nodes=0: 'output.tree_max_nodes' must be between 1 and 10000000, not 0
CASES
# a refused device is left alone (as root, removing it would delete the node)
[ -c /dev/full ] || fail "/dev/full is no longer a device"
run 2 configs/nqueens-trace.yaml --checkpoint "$tmp/ck" --trace-html "$tmp/ck.html"
expect_stderr "csearch: a trace follows one search: it cannot be split by threads, checkpoints or a counting kernel"
[ ! -e "$tmp/ck.html" ] && [ ! -e "$tmp/ck" ] || fail "a refused search left files behind: $(ls "$tmp")"
run 2 configs/nqueens.yaml --tree
expect_stderr "csearch: --tree needs a FILE; try 'csearch --help'"
run 0 --help
grep -qF -- "--trace-html FILE write a page that replays the search step by step" "$out" || fail "--help lacks --trace-html"

# with the kernel left to auto, a traced count takes the engine
run 0 configs/nqueens.yaml --tree "$tmp/d4.dot" --json
jq -e '.strategy.kernel == "generic" and .solutions == 92 and .unique == 12' "$out" >/dev/null ||
    fail "traced d4 count: $(jq -c '[.strategy.kernel, .solutions, .unique]' "$out")"

# local search: a line per start and step with the board after it (X an
# attacked queen), seeded, so the very steps
run 0 configs/nqueens.yaml --set task=solve --set strategy.local=min-conflicts --set strategy.seed=3 --trace
[ "$(sed -n 1p "$out")" = "a start with 1 conflicts" ] || fail "local trace line 1: $(sed -n 1p "$out")"
[ "$(grep '^step' "$out" | sed -n '1p;8p' | tr '\n' '|')" = "step 1: row 7 swaps with row 5, to col 2: conflicts 1 -> 1|step 8: row 1 swaps with row 4, to col 0 (random walk): conflicts 1 -> 1|" ] ||
    fail "local trace steps: $(grep '^step' "$out" | sed -n '1p;8p')"
[ "$(grep -c '^step [0-9]' "$out")" = 13 ] || fail "local trace: $(grep -c '^step [0-9]' "$out") steps, expected 13"
grep -q '^    .....X..$\|^    ......X.$' "$out" || fail "local trace shows no attacked queen"
cp "$out" "$tmp/local.txt"

# the page of a local search: a frame per start and step (no tree), each
# with the board after it, in the words of the text trace
local="configs/nqueens.yaml --set task=solve --set strategy.local=min-conflicts --set strategy.seed=3"
page_data() { # PAGE: the JSON the page carries
    sed -n '/^<script id="data"/,/<\/script>$/p' "$1" |
        sed -e 's/^<script id="data" type="application\/json">//' -e 's/<\/script>$//'
}
# shellcheck disable=SC2086
run 0 $local --json
steps=$(jq .steps "$out") restarts=$(jq .restarts "$out")
[ "$steps $restarts" = "13 0" ] || fail "seeded local search: $steps steps, $restarts restarts"
# shellcheck disable=SC2086
run 0 $local --trace-html "$tmp/l.html"
[ ! -s "$err" ] || fail "local --trace-html wrote to stderr: $(cat "$err")"
page_data "$tmp/l.html" >"$tmp/l.json"
jq -e '.local == true and .nodes == [] and .stats.steps == 13' "$tmp/l.json" >/dev/null ||
    fail "local page data: $(head -c 300 "$tmp/l.json")"
[ "$(jq '.frames | length' "$tmp/l.json")" = $((1 + restarts + steps)) ] ||
    fail "local page: $(jq '.frames | length' "$tmp/l.json") frames, expected 1 + $restarts restarts + $steps steps"
[ "$(jq '.frames[0].b | length' "$tmp/l.json")" = 8 ] || fail "local page: the first frame's board is not 8 rows"
[ "$(jq -r '.frames[0].b | join("/")' "$tmp/l.json")" = ".....Q../Q......./......X./...Q..../.......Q/..Q...../....Q.../.X......" ] ||
    fail "local page: first board $(jq -r '.frames[0].b | join("/")' "$tmp/l.json")"
grep -E '^(a start|step [0-9])' "$tmp/local.txt" >"$tmp/local-lines.txt"
jq -r '.frames[].t' "$tmp/l.json" | diff -u "$tmp/local-lines.txt" - >"$tmp/diff" ||
    fail "local page frames differ from the text trace: $(head -n 20 "$tmp/diff")"
sed 's|"http://www.w3.org/2000/svg"||' "$tmp/l.html" | grep -qiE "$outside" &&
    fail "the local page refers to something outside itself"
grep -q 'id="tree"' "$tmp/l.html" && fail "the local page draws a tree"
if [ -n "$chromium" ]; then
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
        --virtual-time-budget=20000 --dump-dom "file://$tmp/l.html?selftest" \
        >"$tmp/dom.html" 2>/dev/null || fail "chromium failed on the local page"
    sed -n '/<pre id="selftest">/,/<\/pre>/p' "$tmp/dom.html" |
        sed -e 's/<pre id="selftest">//' -e 's/<\/pre>//' -e 's/&gt;/>/g' >"$tmp/selftest.txt"
    [ "$(sed -n 1p "$tmp/selftest.txt")" = "first | frame 1 of 14 | a start with 1 conflicts | .....Q../Q......./......X./...Q..../.......Q/..Q...../....Q.../.X...... | " ] ||
        fail "local page, first frame: $(sed -n 1p "$tmp/selftest.txt")"
    [ "$(sed -n 1p "$tmp/selftest.txt" | cut -d'|' -f4 | tr '/' '\n' | grep -c .)" = 8 ] ||
        fail "local page: the first frame does not show 8 rows"
    # a step marks the two rows it swapped
    grep -qxF "next | frame 2 of 14 | step 1: row 7 swaps with row 5, to col 2: conflicts 1 -> 1 | .....Q../Q......./......Q./...X..../.......Q/.X....../....Q.../..Q..... |  | marked 5 7" "$tmp/selftest.txt" ||
        fail "local page, second frame: $(sed -n 2p "$tmp/selftest.txt")"
    [ "$(grep -c ' | marked [0-7] [0-7]$' "$tmp/selftest.txt")" = "$(grep -c '| step [0-9]' "$tmp/selftest.txt")" ] ||
        fail "local page: a step without its two rows marked: $(grep '| step' "$tmp/selftest.txt" | grep -v 'marked' | head -2)"
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --window-size=1400,1000 \
        --virtual-time-budget=5000 --dump-dom "file://$tmp/l.html?selftest=size#frame=1" \
        >"$tmp/dom.html" 2>/dev/null || fail "chromium failed on the local page's sizes"
    sizes=$(grep -o '<pre id="selftest">[^<]*' "$tmp/dom.html" | sed 's/.*>//')
    board=$(printf '%s\n' "$sizes" | sed -nE 's/^window [0-9]+x([0-9]+); board ([0-9]+)x.*; marked rows 5 7$/\2 \1/p')
    [ -n "$board" ] && [ "${board% *}" -ge $((${board#* } * 3 / 4)) ] ||
        fail "local page at 1400x1000: a small board or the swapped rows not marked ($sizes)"
    [ "$(tail -n 2 "$tmp/selftest.txt" | cut -d'|' -f1,2 | tr '\n' '|')" = "played to the end, button play | frame 14 of 14 |selftest done: 14 frames|" ] ||
        fail "local page, played: $(tail -n 2 "$tmp/selftest.txt")"
else
    echo "SKIP: $no_chromium; the local page was not clicked through"
fi

# restarts: each new start is a frame too
# shellcheck disable=SC2086
run 0 $local --set strategy.local_steps=4 --json
steps=$(jq .steps "$out") restarts=$(jq .restarts "$out")
# shellcheck disable=SC2086
run 0 $local --set strategy.local_steps=4 --trace-html "$tmp/r.html"
page_data "$tmp/r.html" >"$tmp/r.json"
[ "$restarts" -ge 1 ] || fail "local_steps=4 made no restart"
[ "$(jq '[.frames[] | select(.t | startswith("a start"))] | length' "$tmp/r.json") $(jq '.frames | length' "$tmp/r.json")" = "$((1 + restarts)) $((1 + restarts + steps))" ] ||
    fail "local page with restarts: $(jq -c '[.frames[].t]' "$tmp/r.json"); $steps steps, $restarts restarts"

# the cap: the first frames, a note in the data, one line on stderr
# shellcheck disable=SC2086
run 0 $local --set output.tree_max_nodes=5 --trace-html "$tmp/lc.html"
expect_stderr "csearch: $tmp/lc.html: the search made 14 starts and steps; the page replays the first 5 (output.tree_max_nodes)"
page_data "$tmp/lc.html" >"$tmp/lc.json"
[ "$(jq -c '[(.frames | length), .frames_seen, .cut, .max_frames]' "$tmp/lc.json")" = "[5,14,true,5]" ] ||
    fail "capped local page: $(jq -c '[(.frames | length), .frames_seen, .cut, .max_frames]' "$tmp/lc.json")"

# --tree stays refused: a local search has no tree
run 2 configs/nqueens.yaml --set task=solve --set strategy.local=min-conflicts --tree "$tmp/l.dot"
expect_stderr "csearch: --set output.tree=$tmp/l.dot: local search has no tree to draw: --trace and --trace-html show its steps"
[ ! -e "$tmp/l.dot" ] || fail "local search: a tree was left behind"

# --- the page of a roster: its summary in words, the roster at the solution ---
run 0 configs/shifts.yaml --set task=solve --set strategy.order=day --trace-html "$tmp/sh.html"
# the solution node holds the roster as the model prints it
grep -qF '"e": "solution", "o": "solution", "w": 1, "t0": 35, "t1": 35, "b": ["          0   1   2   3   4   5   6", "Ann       L   L   L   L   L   L   -",' "$tmp/sh.html" ||
    fail "shifts page: the solution node has no roster"
if [ -n "$chromium" ]; then
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
        --virtual-time-budget=20000 --dump-dom "file://$tmp/sh.html?selftest" \
        >"$tmp/dom.html" 2>/dev/null || fail "chromium failed on the shifts page"
    grep -qF '<div id="summary">complete: 1 solution, 36 nodes, 153 checks, 0 fails</div>' "$tmp/dom.html" ||
        fail "shifts page summary: $(grep -o '<div id="summary">[^<]*' "$tmp/dom.html")"
    # the last step shows the roster (as text, not squares) and the fields
    grep -qF "next at the end | step 36 of 36, depth 35 | try Eve day 6 = E: solution |           0   1   2   3   4   5   6/Ann       L   L   L   L   L   L   -/Bob       N   N   -   N   N   N   -/Cat       E   E   N   -   E   E   L/Dan       -   L   L   L   -   -   E/Eve       E   E   -   -   E   E   E/" "$tmp/dom.html" ||
        fail "shifts page, last step: $(grep -o 'next at the end[^|]*|[^|]*|[^|]*|.\{0,120\}' "$tmp/dom.html")"
    grep -qF "first | step 1 of 36, depth 0 | start at the root; next: Ann day 0 |  | set 0/35, requests 0, bound 50 |" "$tmp/dom.html" ||
        fail "shifts page, first step: $(grep -o 'first | [^|]*|[^|]*|[^|]*|[^|]*|' "$tmp/dom.html")"
    [ "$(grep -o '<table id="board">.\{0,20\}' "$tmp/dom.html")" = '<table id="board"></table>' ] ||
        fail "shifts page draws the roster as squares: $(grep -o '<table id="board">.\{0,80\}' "$tmp/dom.html")"

    # --- a tree wider and deeper than the window: each step's node in view ---
    # (457: the domain matrix below the tree makes the page scroll, and the
    # scroll bar takes 15 px of the 472 the box had)
    run 0 configs/nqueens.yaml --set params.n=7 --set task=enumerate --set strategy.symmetry=none \
        --set output.show=0 --trace-html "$tmp/big.html"
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --window-size=800,600 \
        --virtual-time-budget=20000 --dump-dom "file://$tmp/big.html?selftest=view" \
        >"$tmp/dom.html" 2>/dev/null || fail "chromium failed on the large page"
    grep -qF '<pre id="selftest">current node in view at 1257 of 1257 steps; box 457x342 of a tree 5070x391, scrolled yes</pre>' "$tmp/dom.html" ||
        fail "large tree: $(grep -o '<pre id="selftest">[^<]*' "$tmp/dom.html")"
else
    echo "SKIP: $no_chromium; the roster page and the large tree were not clicked through"
fi

cli_finish "trace"

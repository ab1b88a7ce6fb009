#!/usr/bin/env bash
# cli_bigtree_test.sh - the page of a big search: the whole tree of 12-queens
# (generic engine, no symmetry: 856189 nodes, under the default cap of 10^6,
# so the page holds all of it) read back from the page's icicle and
# collapsed tree in headless Chromium (?selftest=bigtree) and compared with
# the run's own counts (--json, --profile); the DOT tree's own cap; a page
# cut by output.tree_max_nodes above and below the full records.  Timing is
# not asserted.  Chromium parts are skipped (and say so) where it is not
# installed, and in the sanitizers' build (CSEARCH_TEST_PAGES=0: the
# 12-queens run and its page are made there too, and loaded in release).
# usage: cli_bigtree_test.sh CSEARCH SOURCE_DIR
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"
find_chromium

# bigtree_selftest PAGE: what the page's ?selftest=bigtree says, in
# $tmp/big.txt
bigtree_selftest() {
    timeout 300 "$chromium" --headless --no-sandbox --disable-gpu --virtual-time-budget=20000 \
        --dump-dom "file://$1?selftest=bigtree" >"$tmp/dom.html" 2>/dev/null || fail "chromium failed on $1"
    sed -n '/<pre id="selftest">/,/<\/pre>/p' "$tmp/dom.html" |
        sed -e 's/<pre id="selftest">//' -e 's/<\/pre>.*//' >"$tmp/big.txt"
}

# The lines ?selftest=bigtree should write for a run whose --json is $out:
# the icicle's nodes and its counts per level, the collapsed tree's totals
# (its elements and triangles are checked apart).
expected_counts() { # NODES_KEPT
    jq -r --arg kept "$1" '"icicle: nodes \($kept), width \($kept)",
        (.profile[] | "level \(.depth): \(.nodes) \(.fails) \(.solutions)"),
        "collapsed: nodes \(.nodes), fails \(.fails), solutions \(.solutions)"' "$out"
}

# --- 12-queens: the whole tree, read back from the page ---
run 0 configs/nqueens.yaml --set params.n=12 --set strategy.symmetry=none \
    --set strategy.kernel=generic --json --profile \
    --trace-html "$tmp/q12.html" --tree "$tmp/q12.dot"
expect_json .nodes 856189
expect_stderr "csearch: $tmp/q12.dot: the search entered 856189 nodes; the tree shows the first 2000 (--tree draws at most 2000)"
grep -qF 'label="... 854189 more nodes not drawn (--tree draws at most 2000 nodes)"' "$tmp/q12.dot" ||
    fail "the DOT tree lacks its note"
[ "$(grep -c '^  n[0-9]* \[label=' "$tmp/q12.dot")" = 2000 ] || fail "the DOT tree does not draw 2000 nodes"
outside='(src|href)=|url\(|@import|<link|fetch\(|XMLHttpRequest|https?:'
sed 's|"http://www.w3.org/2000/svg"||' "$tmp/q12.html" | grep -qiE "$outside" &&
    fail "the page refers to something outside itself"
grep -qF '"cut": false, "max_nodes": 1000000' "$tmp/q12.html" || fail "the 12-queens page is cut"
if [ -n "$chromium" ]; then
    bigtree_selftest "$tmp/q12.html"
    expected_counts 856189 >"$tmp/want.txt"
    sed -e '/^j[a-z]*: /,$d' -e 's/^collapsed: elements [0-9]*, triangles [0-9]*, /collapsed: /' \
        "$tmp/big.txt" >"$tmp/got.txt"
    # 13 levels (depths 0 to 12) between the two totals
    [ "$(grep -c '^level ' "$tmp/want.txt")" = 13 ] || fail "the run's profile: $(cat "$tmp/want.txt")"
    diff -u "$tmp/want.txt" "$tmp/got.txt" >"$tmp/diff" || fail "12-queens page counts: $(head -n 30 "$tmp/diff")"
    triangles=$(sed -n 's/^collapsed: elements [0-9]*, triangles \([0-9]*\),.*/\1/p' "$tmp/big.txt")
    [ "${triangles:-0}" -gt 0 ] || fail "the collapsed tree has no triangles: $(grep "^collapsed: " "$tmp/big.txt")"
    # the jumps: the first solution (in-order: 0 2 4 7 9 11 5 10 1 6 8 3),
    # the next, a fail at depth 5, and back twice to the first
    first='node 261, depth 12: root, row 0 = 0, row 1 = 2, row 2 = 4, row 3 = 7, row 4 = 9, row 5 = 11, row 6 = 5, row 7 = 10, row 8 = 1, row 9 = 6, row 10 = 8, row 11 = 3 | subtree 1 nodes, 0 fails, 1 solutions'
    [ "$(grep -m 1 '^jsol: ' "$tmp/big.txt")" = "jsol: $first" ] || fail "next solution: $(grep -m 1 '^jsol: ' "$tmp/big.txt")"
    grep -q '^jfail: node [0-9]*, depth 5: .* | subtree 1 nodes, 1 fails, 0 solutions' "$tmp/big.txt" ||
        fail "next fail at depth 5: $(grep '^jfail: ' "$tmp/big.txt")"
    [ "$(grep '^jback: ' "$tmp/big.txt" | tail -n 1)" = "jback: $first" ] || fail "back: $(grep '^jback: ' "$tmp/big.txt")"
else
    echo "skipped: $no_chromium (the 12-queens page's counts)"
fi

# --- a cap between the full records and the tree: 9-queens, 8394 nodes,
# 5000 kept, the first 2000 replayed ---
run 0 configs/nqueens.yaml --set params.n=9 --set strategy.symmetry=none \
    --set strategy.kernel=generic --set output.tree_max_nodes=5000 --trace-html "$tmp/q9.html"
expect_stderr "csearch: $tmp/q9.html: the search entered 8394 nodes; the page holds the first 5000 (output.tree_max_nodes)"
grep -qF '"big": {"kept": 5000, "full": 2000' "$tmp/q9.html" || fail "9-queens page: not 5000 kept, 2000 in full"
if [ -n "$chromium" ]; then
    bigtree_selftest "$tmp/q9.html"
    [ "$(head -n 1 "$tmp/big.txt")" = "icicle: nodes 5000, width 5000" ] ||
        fail "9-queens page, icicle: $(head -n 1 "$tmp/big.txt")"
    grep -q "^collapsed: .*, nodes 5000, " "$tmp/big.txt" || fail "9-queens page, collapsed: $(grep "^collapsed: " "$tmp/big.txt")"
fi

cli_finish "big tree"

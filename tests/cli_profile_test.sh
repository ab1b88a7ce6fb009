#!/usr/bin/env bash
# cli_profile_test.sh - --profile as a user meets it: the text table and the
# JSON array sum to the run's nodes, fails and solutions; the 8-queens rows
# are Knuth's; the --trace-html page holds the whole profile however few
# nodes it recorded; the N-Queens counting kernels profile their own trees
# (the counts of a run without --profile, one thread or two); and every
# refusal has its exact message.
# usage: cli_profile_test.sh CSEARCH SOURCE_DIR
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"

# --- text: the table after the statistics, its rows summing to them ---
run 0 configs/nqueens.yaml --set strategy.symmetry=none --set strategy.kernel=generic --profile
[ ! -s "$err" ] || fail "kernel generic: stderr '$(cat "$err")'"
expect_line "profile (per depth)"
# Knuth's 8-queens profile (TAOCP 7.2.2): 1 8 42 140 344 568 550 312 92
got=$(awk '/^profile/ {on = 1; next} on && $1 ~ /^[0-9]+$/ {printf "%s ", $2}' "$out")
[ "$got" = "1 8 42 140 344 568 550 312 92 " ] || fail "8-queens nodes by depth: '$got'"
sums=$(awk '/^profile/ {on = 1; next} on && $1 ~ /^[0-9]+$/ {n += $2; f += $3; s += $4}
            on && $1 == "all" {a = $2 " " $3 " " $4}
            END {print n " " f " " s " " a}' "$out")
want="$(awk '$1 == "nodes" {n = $2} $1 == "fails" {f = $2} $1 == "solutions" {s = $2} END {print n " " f " " s}' "$out")"
[ "$sums" = "$want $want" ] || fail "text profile sums '$sums', statistics '$want'"

# --- JSON: an array, a member per depth, summing to the run's counts ---
for sets in "--set strategy.symmetry=mirror --set params.n=9" \
    "--set strategy.select=mrv --set params.n=7" \
    "--set task=solve --set params.n=20"; do
    # shellcheck disable=SC2086
    run 0 configs/nqueens.yaml $sets --profile --json
    expect_json '[([.profile[].nodes] | add) == .nodes, ([.profile[].fails] | add) == .fails,
                  ([.profile[].solutions] | add) == .solutions, (.profile | length) == .max_depth + 1,
                  ([.profile[].depth] == [range(.profile | length)])] | all' true
done
run 0 configs/sudoku.yaml --profile --json
expect_json '([.profile[].nodes] | add) == .nodes and ([.profile[].fails] | add) == .fails' true
# optimize, whose best roster is drawn at the end from the hooks the
# engine handed out (in a profiled run, a copy on its stack: kept by value)
run 0 configs/shifts.yaml --profile --json --set limits.seconds=20
expect_json '[.status, ([.profile[].nodes] | add) == .nodes, ([.profile[].solutions] | add) == .solutions,
              (.boards | length > 0)] | map(tostring) | join(" ")' "optimal true true true"

# --- the counting kernels profile their own trees, as they run without it ---
# the nodes, fails and solutions of a run without --profile, and the rows
# as JSON (depth:nodes:fails:solutions, the empty depths left out)
rows='[.profile[] | select(.nodes + .solutions > 0) | "\(.depth):\(.nodes):\(.fails):\(.solutions)"] | join(" ")'
run 0 configs/nqueens.yaml --set params.n=12 --json
plain=$(jq -r '"\(.nodes) \(.fails) \(.solutions) \(.strategy.kernel)"' "$out")
[ "$plain" = "166019 59306 14200 fast" ] || fail "n = 12 without a profile: '$plain'"
for threads in 1 2; do
    run 0 configs/nqueens.yaml --set params.n=12 --profile --json --threads $threads
    [ ! -s "$err" ] || fail "fast, --profile: stderr '$(cat "$err")'"
    expect_json '"\([.profile[].nodes] | add) \([.profile[].fails] | add) \([.profile[].solutions] | add) \(.strategy.kernel)"' "$plain"
    expect_json "$rows" "3:45:0:0 4:932:0:0 5:4353:4:0 6:13111:275:0 7:28043:3167:0 8:41115:11184:0 9:40858:18628:0 10:27092:17390:0 11:10470:8658:14200"
    expect_json '.profile_rows | startswith("queens on the board in the fast kernel")' true
done
run 0 configs/nqueens.yaml --set params.n=12 --profile
expect_line "kernel     fast"
expect_line "isa        scalar (profile)"
expect_line "profile (per depth: queens on the board in the fast kernel's tree: canonical borders (d4-reduced, 3 or 4 queens) filled in row by row, solutions weighted by orbit at n - 1)"
expect_line "  all               166019                59306                14200"
# halves (the default kernel from n = 16): the half placements at depth 8,
# the solutions at 16
run 0 configs/nqueens.yaml --set params.n=16 --json
plain=$(jq -r '"\(.nodes) \(.fails) \(.solutions) \(.strategy.kernel)"' "$out")
[ "$plain" = "7851480 0 14772512 halves" ] || fail "n = 16 without a profile: '$plain'"
for threads in 1 2; do
    run 0 configs/nqueens.yaml --set params.n=16 --profile --json --threads $threads
    expect_json '"\([.profile[].nodes] | add) \([.profile[].fails] | add) \([.profile[].solutions] | add) \(.strategy.kernel)"' "$plain"
    expect_json "$rows" "8:7851480:0:0 16:0:0:14772512"
done
run 0 configs/nqueens.yaml --set params.n=16 --profile
expect_line "profile (per depth: queens on the board in the halves kernel: half placements listed at n / 2, matched solutions (weighted by split orbit) at n)"
expect_line "   16                    0                    0             14772512"
expect_line "  all              7851480                    0             14772512"
# symmetry none: the count state's search, profiled on the engine
run 0 configs/nqueens.yaml --set params.n=12 --set strategy.symmetry=none --profile --json
[ ! -s "$err" ] || fail "symmetry none, --profile: stderr '$(cat "$err")'"
expect_json '"\(.nodes) \(.fails) \(.solutions) \(.profile[12].solutions) \(has("profile_rows"))"' "856189 300530 14200 14200 false"

# --- the page: the run's whole profile, not the recorded nodes' ---
run 0 configs/nqueens.yaml --set strategy.symmetry=none --set output.tree_max_nodes=10 --profile --trace-html "$tmp/p.html"
grep -qF '"profile": [[1, 0, 0], [8, 0, 0], [42, 0, 0], [140, 0, 0], [344, 18, 0], [568, 150, 0], [550, 256, 0], [312, 220, 0], [92, 0, 92]]}' "$tmp/p.html" ||
    fail "the page's profile: $(grep -o '"profile": [^}]*' "$tmp/p.html" | head -c 300)"
run 0 configs/nqueens.yaml --set strategy.symmetry=none --set output.tree_max_nodes=10 --trace-html "$tmp/q.html"
grep -qF '"profile": null}' "$tmp/q.html" || fail "a page without --profile has a profile"
find_chromium
if [ -n "$chromium" ]; then
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --virtual-time-budget=3000 \
        --dump-dom "file://$tmp/p.html" >"$tmp/dom.html" 2>/dev/null || fail "chromium failed on the page"
    rows=$(tr '\n' ' ' <"$tmp/dom.html" | grep -o '<details id="profile"[^>]*>.*</details>' |
        grep -o '<tr><td>[0-9]*</td><td>[0-9]*</td>' | sed -E 's/<[^>]+>/ /g' | tr -s ' ' | tr '\n' '|')
    [ "$rows" = " 0 1 | 1 8 | 2 42 | 3 140 | 4 344 | 5 568 | 6 550 | 7 312 | 8 92 |" ] ||
        fail "the page's profile table: '$rows'"
    tr '\n' ' ' <"$tmp/dom.html" | grep -qE '<details id="profile" open' ||
        fail "the page's profile is not shown"
else
    echo "SKIP: $no_chromium; the page's table was not drawn"
fi

# --- refusals: one line each, exit 2 ---
run 2 configs/nqueens.yaml --profile --threads 2 --set strategy.kernel=generic
expect_stderr "csearch: --set strategy.threads=2: a per-level profile counts one search: use one thread"
run 2 configs/nqueens.yaml --profile --checkpoint "$tmp/cp.log"
expect_stderr "csearch: a per-level profile is summed in memory, not logged: it cannot be split across checkpoints; profile a run without --checkpoint"
[ ! -e "$tmp/cp.log" ] || fail "a refused profile wrote its checkpoint"
run 2 configs/nqueens.yaml --profile --set output.format=csv
expect_stderr "csearch: --set output.profile=true: output.profile prints with output.format text or json"
run 2 configs/nqueens.yaml --profile --set task=estimate
expect_stderr "csearch: --set output.profile=true: task estimate has no levels to profile: the profile counts the nodes of a tree search"
run 2 configs/nqueens.yaml --profile --set task=solve --set params.n=100 --set strategy.local=min-conflicts
expect_stderr "csearch: --set output.profile=true: local search has no levels to profile: the profile counts the nodes of a tree search"
run 2 configs/sudoku-batch.yaml --profile
expect_stderr "csearch: --set output.profile=true: a per-level profile counts one search, not a batch of instances"
run 2 compare configs/compare-mirror.yaml --profile
grep -qF "profile one config, not a comparison" "$err" || fail "compare --profile: $(cat "$err")"
run 2 configs/compare-mirror.yaml --set output.profile=true
expect_stderr "csearch: --set output.profile=true: compare cannot take 'output.profile': profile one config, not a comparison"

# --help tells of it
run 0 --help
expect_stdout "--profile         print nodes, fails and solutions per depth after the"

cli_finish "profile"

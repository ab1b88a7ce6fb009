#!/usr/bin/env bash
# cli_profiler_test.sh - --profiler against a stand-in CP-Profiler
# (profiler_listener, which decodes every message and checks their order):
# N-Queens trees whose node and solution counts equal the run's, a FlatZinc
# search, a profiler that hangs up mid-run, and the refusals.
# usage: cli_profiler_test.sh CSEARCH LISTENER SOURCE_DIR
set -u
listener=$2
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$3"

# profile EXPECTED_STATUS [HANG_UP] -- ARGS...: a listener on a free port
# (showing the first 3 nodes), csearch ARGS --json --profiler PORT; the
# listener's verdict in $tmp/heard, all it printed in $tmp/port
profile() {
    local want=$1 hang=
    shift
    [ "$1" != -- ] && hang=$1 && shift
    shift
    rm -f "$tmp/port" "$tmp/heard"
    "$listener" --show 3 $hang >"$tmp/port" 2>"$tmp/lerr" &
    local pid=$! i
    for i in $(seq 200); do [ -s "$tmp/port" ] && break; sleep 0.05; done
    run "$want" "$@" --json --profiler "127.0.0.1:$(head -n 1 "$tmp/port")"
    wait $pid || fail "listener: $(cat "$tmp/lerr")"
    sed -n 2p "$tmp/port" >"$tmp/heard"
}
# heard_line N TEXT: the listener's line N is TEXT
heard_line() {
    [ "$(sed -n "$1p" "$tmp/port")" = "$2" ] ||
        fail "listener line $1: '$(sed -n "$1p" "$tmp/port")', expected '$2'"
}

for n in 5 6; do
    for task in count enumerate; do
        profile 0 -- configs/nqueens.yaml --set params.n=$n --set task=$task \
            --set strategy.symmetry=none --set output.show=0
        want="nodes $(jq -r .nodes "$out") solutions $(jq -r .solutions "$out")"
        [ "$(cat "$tmp/heard")" = "$want" ] ||
            fail "n=$n $task: the profiler heard '$(cat "$tmp/heard")', the run says '$want'"
    done
done

# START: protocol version 3 (the listener checks), the run's title, one
# tree, csearch's process id; then the first nodes and their moves
profile 0 -- configs/nqueens.yaml --set params.n=4 --set task=solve --set strategy.symmetry=none
heard_line 3 "restarts 0"
grep -qE '^start \{"name": "nqueens n=4, solve, symmetry none", "has_restarts": false, "execution_id": [0-9]+\}$' "$tmp/port" ||
    fail "START info: $(sed -n 4p "$tmp/port")"
heard_line 5 "0 -1 -1 4 branch root"
heard_line 6 "1 0 0 2 branch row 0 = col 0"
heard_line 7 "2 1 0 0 failed row 1 = col 2"

# neighbourhood rounds search a tree each: a restart each after the first,
# every node counted once (a small maximisation, FlatZinc free search)
printf '%s\n' 'var 0..10: x :: output_var;' 'var 0..10: y :: output_var;' \
    'var 0..10: z :: output_var;' 'var 0..30: o :: output_var;' \
    'constraint int_lin_le([1,1,1],[x,y,z],17);' 'constraint int_le(y,x);' \
    'constraint int_ne(x,z);' 'constraint int_lin_eq([1,2,3,-1],[x,y,z,o],0);' \
    'solve maximize o;' >"$tmp/max.fzn"
printf 'model: flatzinc\nparams:\n  file: max.fzn\ntask: optimize\nstrategy:\n  search: free\nlimits:\n  seconds: 30\n' >"$tmp/max.yaml"
profile 0 -- "$tmp/max.yaml"
expect_json .status optimal
want="nodes $(jq -r .nodes "$out") solutions $(jq -r .solutions "$out")"
[ "$(cat "$tmp/heard")" = "$want" ] || fail "rounds: heard '$(cat "$tmp/heard")', run '$want'"
heard_line 3 "restarts $(jq -r .rounds "$out")"
grep -q '"has_restarts": true' "$tmp/port" || fail "rounds without has_restarts: $(sed -n 4p "$tmp/port")"

# streaming counts no check of its own: the checks of a run traced into a
# page (the same engine path, nothing streamed)
profile 0 -- configs/nqueens.yaml --set params.n=6 --set strategy.symmetry=none
streamed=$(jq -c '[.nodes, .checks]' "$out")
run 0 configs/nqueens.yaml --set params.n=6 --set strategy.symmetry=none --trace-html "$tmp/p.html" --json
[ "$(jq -c '[.nodes, .checks]' "$out")" = "$streamed" ] ||
    fail "streaming changed the counts: $streamed, traced $(jq -c '[.nodes, .checks]' "$out")"

# MRV and forward checking: the same tree shape rules hold
profile 0 -- configs/nqueens.yaml --set params.n=6 --set strategy.select=mrv \
    --set strategy.prune=forward --set strategy.symmetry=none
want="nodes $(jq -r .nodes "$out") solutions $(jq -r .solutions "$out")"
[ "$(cat "$tmp/heard")" = "$want" ] || fail "mrv: heard '$(cat "$tmp/heard")', run '$want'"

# a profiler that hangs up: the search goes on, one warning, status 0
profile 0 5 -- configs/nqueens.yaml --set params.n=6 --set task=enumerate \
    --set strategy.symmetry=none --set output.show=0
expect_json .solutions 4
# (whether the search notices depends on when the hang-up reaches it: a
# small tree may be in the socket's buffers by then; so at most one line)
[ "$(grep -c -- '--profiler: the profiler went away' "$err")" -le 1 ] &&
    [ "$(grep -vc -- '--profiler: the profiler went away' "$err")" = 0 ] ||
    fail "a lost profiler: $(cat "$err")"
# a tree far larger than any socket buffer (12 queens: 856189 nodes, some
# 30 MB of messages): the hang-up is noticed, said once, and the count
# goes on to its end
profile 0 5 -- configs/nqueens.yaml --set params.n=12 --set strategy.symmetry=none
expect_json .solutions 14200
[ "$(grep -c -- '--profiler: the profiler went away' "$err")" = 1 ] ||
    fail "no single warning for a profiler lost during 12 queens: $(cat "$err")"

# refusals: before any search, exit 2, one line
run 2 configs/nqueens.yaml --profiler 127.0.0.1:x
expect_stderr "csearch: --profiler: '127.0.0.1:x' is not [HOST:]PORT (a port is 1..65535)"
port=$("$listener" 0 | head -n 1) # bound, then closed: nobody listens there
run 2 configs/nqueens.yaml --profiler "$port"
expect_stderr "csearch: --profiler: cannot connect to 127.0.0.1:$port: Connection refused"
[ ! -s "$out" ] || fail "a refused --profiler searched: $(cat "$out")"

cli_finish "profiler"

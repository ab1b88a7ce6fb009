#!/usr/bin/env bash
# cli_profiler_test.sh - --profiler against a stand-in CP-Profiler
# (profiler_listener, which decodes every message and checks their order):
# N-Queens trees whose node and solution counts equal the run's, a FlatZinc
# search, a profiler that hangs up mid-run, and the refusals; then
# fzn-csearch --cp-profiler ID,PORT as minizinc passes it on for the
# MiniZinc IDE, and (when minizinc is installed) minizinc itself.
# usage: cli_profiler_test.sh CSEARCH LISTENER SOURCE_DIR [FZN-CSEARCH]
set -u
listener=$2
fzn=${4:-}
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$3"

# listen [HANG_UP]: a listener on a free port in the background, showing
# the first 3 nodes; the port in $port
listen() {
    rm -f "$tmp/port" "$tmp/heard"
    "$listener" --show 3 "$@" >"$tmp/port" 2>"$tmp/lerr" &
    lpid=$!
    local i
    for i in $(seq 200); do [ -s "$tmp/port" ] && break; sleep 0.05; done
    port=$(head -n 1 "$tmp/port")
}
# heard: wait for the listener; its verdict in $tmp/heard, all it printed
# in $tmp/port
heard() {
    wait $lpid || fail "listener: $(cat "$tmp/lerr")"
    sed -n 2p "$tmp/port" >"$tmp/heard"
}
# profile EXPECTED_STATUS [HANG_UP] -- ARGS...: csearch ARGS --json
# --profiler 127.0.0.1:PORT to a listener
profile() {
    local want=$1 hang=
    shift
    [ "$1" != -- ] && hang=$1 && shift
    shift
    listen $hang
    run "$want" "$@" --json --profiler "127.0.0.1:$port"
    heard
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

# --- fzn-csearch --cp-profiler ID,PORT: what minizinc passes on for the
# MiniZinc IDE's "Profile search" ---
if [ -n "$fzn" ]; then
    q=examples/minizinc/queens.fzn
    # fzn_profile EXPECTED_HEARD ARGS...: fzn-csearch -s ARGS to a listener,
    # ID,PORT in ARGS standing for its port (exit 0, stdout in $out); the
    # listener heard what -s's nodes say and EXPECTED_HEARD ("nodes N
    # solutions S")
    fzn_profile() {
        local want=$1 args=() a
        shift
        listen
        for a in "$@"; do
            [[ $a == *,PORT ]] && a=${a%PORT}$port
            args+=("$a")
        done
        "$fzn" -s "${args[@]}" >"$out" 2>"$err" || fail "fzn-csearch $* exited $?"
        heard
        local nodes
        nodes=$(sed -n 's/^%%%mzn-stat: nodes=//p' "$out")
        [ "$(cat "$tmp/heard")" = "$want" ] ||
            fail "fzn-csearch $*: the profiler heard '$(cat "$tmp/heard")', expected '$want'"
        [ "nodes $nodes" = "${want% solutions *}" ] ||
            fail "fzn-csearch $*: -s says nodes=$nodes, expected ${want% solutions *}"
    }
    # 8 queens, the first solution: execution 7 named by the file, the
    # model's names in the moves, nothing on stderr
    fzn_profile "nodes 41 solutions 1" --cp-profiler 7,PORT "$q"
    expect_line "q = array1d(1..8, [1, 5, 8, 6, 3, 7, 2, 4]);"
    heard_line 3 "restarts 0"
    heard_line 4 'start {"name": "queens.fzn", "has_restarts": false, "execution_id": 7}'
    heard_line 5 "0 -1 -1 8 branch root"
    heard_line 6 "1 0 0 6 branch q[1] = 1"
    heard_line 7 "2 1 0 4 branch q[2] = 3"
    [ ! -s "$err" ] || fail "fzn-csearch --cp-profiler said: $(cat "$err")"
    # every solution: the whole tree
    fzn_profile "nodes 651 solutions 92" -a --cp-profiler 0,PORT "$q"
    [ "$(grep -c '^----------$' "$out")" = 92 ] || fail "-a --cp-profiler: not 92 solutions"
    # free search under a time limit: neighbourhood rounds, a tree each
    fzn_profile "nodes 33 solutions 10" -f -t 5000 --cp-profiler 3,PORT "$tmp/max.fzn"
    expect_line "o = 30;"
    heard_line 3 "restarts 10"
    heard_line 4 'start {"name": "max.fzn", "has_restarts": true, "execution_id": 3}'
    # threads: one search is one tree, said once
    fzn_profile "nodes 41 solutions 1" -p 2 --cp-profiler 7,PORT "$q"
    expect_stderr "fzn-csearch: --cp-profiler follows one search: -p 2 ignored, one thread"
    # a profiler that hangs up: every solution still printed, at most one
    # line about it (a small tree may be in the socket's buffers by then)
    listen 5
    "$fzn" -a --cp-profiler "7,$port" "$q" >"$out" 2>"$err" || fail "fzn-csearch, profiler gone: exit $?"
    heard
    [ "$(grep -c '^----------$' "$out")" = 92 ] || fail "a lost profiler cost solutions"
    [ "$(grep -vc -- '--cp-profiler: the profiler went away after' "$err")" = 0 ] &&
        [ "$(wc -l <"$err")" -le 1 ] || fail "a lost profiler: $(cat "$err")"
    # no profiler there: one line, the search goes on (as fzn-gecode's)
    port=$("$listener" 0 | head -n 1)
    "$fzn" --cp-profiler "7,$port" "$q" >"$out" 2>"$err" || fail "fzn-csearch, profiler refused: exit $?"
    expect_line "q = array1d(1..8, [1, 5, 8, 6, 3, 7, 2, 4]);"
    expect_stderr "fzn-csearch: --cp-profiler: cannot connect to 127.0.0.1:$port: Connection refused; searching without it"
    # not ID,PORT: exit 2, one line, nothing searched
    for bad in 7 7, ,6565 7,0 7,65536 x,6565 7,6565x -1,6565 7:6565 ''; do
        "$fzn" --cp-profiler "$bad" "$q" >"$out" 2>"$err"
        rc=$?
        [ $rc = 2 ] || fail "--cp-profiler '$bad' exited $rc, expected 2"
        expect_stderr "fzn-csearch: --cp-profiler '$bad' is not ID,PORT (an execution number and a port, e.g. 0,6565)"
        [ ! -s "$out" ] || fail "--cp-profiler '$bad' searched: $(cat "$out")"
    done

    # minizinc end to end, with a solver config for this fzn-csearch
    if command -v minizinc >/dev/null 2>&1; then
        mkdir -p "$tmp/solvers"
        sed -e 's|@PROJECT_VERSION@|test|' \
            -e "s|@CSEARCH_MSC_MZNLIB@|$PWD/models/flatzinc/mznlib|" \
            -e "s|@CSEARCH_MSC_EXECUTABLE@|$(command -v "$fzn")|" \
            models/flatzinc/csearch.msc.in >"$tmp/solvers/csearch.msc"
        listen
        if ! MZN_SOLVER_PATH=$tmp/solvers minizinc --solver csearch -s \
            --cp-profiler "7,$port" -D n=6 examples/minizinc/queens.mzn >"$out" 2>"$err"; then
            fail "minizinc --cp-profiler failed: $(head -c 300 "$err")"
            kill $lpid # it would wait for a connection
        fi
        heard
        expect_line "q = [2, 4, 6, 1, 3, 5];"
        expect_line "%%%mzn-stat: nodes=17"
        [ "$(cat "$tmp/heard")" = "nodes 17 solutions 1" ] ||
            fail "minizinc --cp-profiler: the profiler heard '$(cat "$tmp/heard")'"
        grep -qxE 'start \{"name": "[^"/]+\.fzn", "has_restarts": false, "execution_id": 7\}' "$tmp/port" ||
            fail "minizinc --cp-profiler: START info $(sed -n 4p "$tmp/port")"
        heard_line 6 "1 0 0 4 branch q[1] = 1"
    else
        echo "minizinc not installed: its --cp-profiler run is not tested"
    fi
fi

cli_finish "profiler"

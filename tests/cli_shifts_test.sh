#!/usr/bin/env bash
# cli_shifts_test.sh - the shifts model as a user runs it: the example roster
# (text, JSON, CSV), a roster file checked and refused, the benchmark configs
# under short limits, and bad input with its exact one-line message.
# usage: cli_shifts_test.sh CSEARCH SOURCE_DIR
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"


# --- a compact trace: each cell by staff and day, the shift taken, the
# cells set, request penalties so far and the bound ---
run 0 configs/shifts.yaml --set task=solve --trace
expect_line " 1  Ann day 0 = L                   set 1/35 requests 0 bound 50"
expect_line " 5          Eve day 0 = E           set 5/35 requests 0 bound 50"
[ "$(grep -c ' = ' "$out")" = 35 ] || fail "trace of the first roster: $(grep -c ' = ' "$out") moves, expected 35"

# --- the example: the cheapest roster, proven, with its penalty by rule ---
run 0 configs/shifts.yaml
expect_line "          0   1   2   3   4   5   6"
expect_line "Ann       N   N   N   -   E   N   -"
expect_line "cover E 2/2 2/2 1/2 2/2 2/2 2/2 2/2"
expect_line "penalty 50: cover under 50, cover over 0, shift-on requests 0, shift-off requests 0"
expect_line "hard rules: all kept (independent check)"
expect_line "cost       50"
expect_line "bound      50"
expect_line "gap        0.00%"
expect_line "status     optimal"
[ "$(grep -c '^Ann ' "$out")" = 1 ] || fail "optimize prints one roster: $(cat "$out")"

run 0 configs/shifts.yaml --json
expect_json .status optimal
expect_json .cost 50
expect_json .bound 50
expect_json .gap 0
expect_json '.boards | length' 1
expect_json '.boards[0][1]' "Ann       N   N   N   -   E   N   -"
# a config that names no task optimises (counting rosters is for tiny wards)
sed '/^task:/d' configs/shifts.yaml >"$tmp/no-task.yaml"
run 0 "$tmp/no-task.yaml" --json
expect_json '[.status, .cost] | map(tostring) | join(" ")' "optimal 50"
# a shift's skill that no staff member has: the shift could never be worked
sed 's/skill: senior}/skill: junior}/' configs/shifts.yaml >"$tmp/skill.yaml"
run 2 "$tmp/skill.yaml"
expect_stderr "csearch: $tmp/skill.yaml:12:61: no staff member has skill 'junior', so shift N could never be worked"

# --- CSV, and the same roster read back and checked ---
run 0 configs/shifts.yaml --set output.format=csv
expect_line "staff,0,1,2,3,4,5,6"
expect_line "Ann,N,N,N,,E,N,"
[ "$(wc -l <"$out")" = 6 ] || fail "csv: a header and 5 rows: $(cat "$out")"
cp "$out" "$tmp/roster.csv"
run 0 configs/shifts.yaml --set task=solve --set params.roster="$tmp/roster.csv"
expect_line "penalty 50: cover under 50, cover over 0, shift-on requests 0, shift-off requests 0"
expect_line "Ann       N   N   N   -   E   N   -"
# Bob works on day 2, his fixed day off
sed 's/^Bob,E,E,,/Bob,E,E,L,/' "$tmp/roster.csv" >"$tmp/bad.csv"
run 2 configs/shifts.yaml --set task=solve --set params.roster="$tmp/bad.csv"
expect_stderr "csearch: $tmp/bad.csv:3:9: staff Bob works on day 2, a fixed day off"
sed 's/^Cat,/Kim,/' "$tmp/roster.csv" >"$tmp/bad.csv"
run 2 configs/shifts.yaml --set task=solve --set params.roster="$tmp/bad.csv"
expect_stderr "csearch: $tmp/bad.csv:4:1: unknown staff 'Kim'"

# --- solve and the benchmark configs under short limits ---
run 0 configs/shifts.yaml --set task=solve --set output.stats=false
expect_line "status     complete"
# Instance3: the LP's dives give a roster at the LP bound's ceiling, 1001,
# the benchmark's optimum, which the search takes first and proves at once
run 0 configs/shifts-instance7.yaml --set params.instance=tests/data/shifts/Instance3.txt --set limits.seconds=60 --json
expect_json '[.status, .cost, .bound, .root_bound] | map(tostring) | join(" ")' "optimal 1001 1001 1001"
# branch and price at set-up (strategy.prove_seconds, auto: until 70% of
# limits.seconds, past the dives' 40%): Instance5's LP ceiling is 1141, its
# optimum 1143; branching on cells proves it, so the run ends
# optimal with the root bound at the roster's cost
run 0 configs/shifts-instance7.yaml --set params.instance=tests/data/shifts/Instance5.txt --set limits.seconds=60 --json
expect_json '[.status, .cost, .root_bound, .strategy.colgen_seconds, .strategy.prove_seconds] | map(tostring) | join(" ")' "optimal 1143 1143 15 18"
run 0 configs/shifts-instance7.yaml --set params.instance=tests/data/shifts/Instance5.txt --set limits.seconds=60 --set strategy.colgen_seconds=20 --set strategy.prove_seconds=30 --json
expect_json '[.status, .cost, .strategy.colgen_seconds, .strategy.prove_seconds] | map(tostring) | join(" ")' "optimal 1143 20 30"
run 0 configs/shifts-instance1.yaml --json
expect_json .status optimal
expect_json .cost 607
expect_json .bound 607
# (at set-up the LP's split on the under-cover total bounds it by 607 and
# the first dive's roster meets that, so the search only descends its
# roster: 2904842 nodes from the search's own first roster, and its proof)
expect_json .nodes 114
run 3 configs/shifts-instance1.yaml --set limits.nodes=1 --json
expect_json .status limit
expect_json .bound 558
run 3 configs/shifts-instance1.yaml --set strategy.bound=weekends --set strategy.lns_nodes=10000 --set limits.seconds=0 --set limits.nodes=500000 --json
expect_json .status limit
expect_json .cost 607
expect_json .nodes 500000
run 3 configs/shifts-instance7.yaml --set limits.seconds=0.5 --json
expect_json .status limit
expect_json '.cost > 0' true
expect_json '.boards[0] | length' 26
# limits.seconds is the whole run's: the Lagrangian set-up's steps stop at
# 15% of it (500 take about 0.9 s here), so 0.5 s leaves the search time
expect_json '.strategy.lagrange_steps < 500' true
# what the default chose, by the instance's size: the Lagrangian bound with
# tracked rows everywhere; one branch and bound for Instance1's 112 cells,
# rounds of 10000 nodes for Instance7's 560 (under a limit that leaves the
# set-up all its steps, also in the sanitizers' build); no LP bound under a
# node limit (strategy.colgen_seconds: a quarter of a time limit alone),
# whose ceiling, given the time, is the root bound
run 3 configs/shifts-instance7.yaml --set limits.seconds=1000 --set limits.nodes=1 --json
expect_json '[.strategy.bound, .strategy.lagrange_rows, .strategy.lagrange_steps, .strategy.lns_nodes, .strategy.neighbourhoods] | map(tostring) | join(" ")' "lagrange tracked 500 10000 rows,staff"
expect_json '[.strategy.colgen_seconds, .root_bound] | map(tostring) | join(" ")' "0 982"
run 3 configs/shifts-instance7.yaml --set strategy.colgen_seconds=200 --set limits.nodes=1 --json
expect_json '.root_bound' 1055
run 0 configs/shifts-instance1.yaml --json
expect_json '[.strategy.bound, .strategy.lns_nodes, .strategy.restarts, .strategy.restart_nodes, .root_bound] | map(tostring) | join(" ")' "lagrange 0 geometric 2000 607"
# local moves between the rounds: on above 200 cells, where rounds run (Instance1
# has 112: one branch and bound), off below and without rounds; --json says which and counts the steps
expect_json '.strategy.local_moves' off
# (50 Lagrangian steps at set-up, not 500, here and in the node-limited runs
# below that do not test the bound: the 500 took about 9 s a run in the
# sanitizers' build)
run 3 configs/shifts-instance7.yaml --set limits.seconds=0 --set limits.nodes=200000 --set limits.steps=30000 --set strategy.lagrange_steps=50 --json
expect_json '[.strategy.local_moves, .steps, .cost] | map(tostring) | join(" ")' "on 30000 2276"
# and a burst after every 50 rounds without a new best (strategy.local_stall)
expect_json '.strategy.local_stall' 50
# each burst anneals: 100000000 steps from temperature 10 to 0.1
expect_json '[.strategy.anneal_steps, .strategy.anneal_t0, .strategy.anneal_t1] | map(tostring) | join(" ")' "100000000 10 0.1"
# and from 3 for the one burst to the limit on wards of 3000 cells or more
# (strategy.anneal_fill): 40 staff over 84 days, 3360 cells; 35, 2940: 10
ward() { # NEED [STAFF [DAYS]]: one shift, NEED a day, 100 staff over 364 days
    printf 'model: shifts\ntask: optimize\nparams:\n  days: %s\n' "${3:-364}"
    printf '  shifts: [{id: D, minutes: 480}]\n  staff:\n'
    for s in $(seq 1 "${2:-100}"); do
        printf '    - {id: S%s, max_minutes: 72000, max_consecutive: 5}\n' "$s"
    done
    printf '  cover: [{day: all, shift: D, need: %s, under: 100, over: 1}]\n' "$1"
}
# a second on these wards ends optimal (0) or at the limit (3) as the
# machine allows (under ASan with the other core busy: the limit); the
# choice --json reports is what is tested
run_timed() {
    "$csearch" "$@" >"$out" 2>"$err"
    local got=$?
    [ "$got" = 0 ] || [ "$got" = 3 ] ||
        fail "csearch $* exited $got, expected 0 or 3 ($(head -c 300 "$err"))"
}
ward 20 40 84 >"$tmp/ward-40x84.yaml"
run_timed "$tmp/ward-40x84.yaml" --set limits.seconds=1 --json
expect_json '[.strategy.anneal_fill, .strategy.anneal_t0] | map(tostring) | join(" ")' "on 3"
# (a named anneal_t1 above 3 keeps 10, so that the burst still cools)
run_timed "$tmp/ward-40x84.yaml" --set limits.seconds=1 --set strategy.anneal_t1=5 --json
expect_json '[.strategy.anneal_t0, .strategy.anneal_t1] | map(tostring) | join(" ")' "10 5"
ward 20 35 84 >"$tmp/ward-35x84.yaml"
run_timed "$tmp/ward-35x84.yaml" --set limits.seconds=1 --json
expect_json '[.strategy.anneal_fill, .strategy.anneal_t0] | map(tostring) | join(" ")' "on 10"
# the odd threads' row moves on a 28-day ward (strategy.large_share_odd): 0.5
# with two threads, 0 with one, which has no odd thread; and a thread's
# annealing takes the portfolio's best roster in the last quarter of the
# search's time, at most once in 2 s (strategy.anneal_adopt, anneal_adopt_after),
# which one thread has none of
run 3 configs/shifts-instance7.yaml --set limits.seconds=1 --set strategy.colgen_seconds=0 --threads 2 --json
expect_json '[.strategy.large_share, .strategy.large_share_odd, .strategy.anneal_adopt, .strategy.anneal_adopt_after] | map(tostring) | join(" ")' "0 0.5 2 0.75"
run 3 configs/shifts-instance7.yaml --set limits.seconds=1 --set strategy.colgen_seconds=0 --threads 2 --set strategy.anneal_adopt=0.5 --set strategy.anneal_adopt_after=0.25 --json
expect_json '[.strategy.anneal_adopt, .strategy.anneal_adopt_after] | map(tostring) | join(" ")' "0.5 0.25"
run 3 configs/shifts-instance7.yaml --set limits.seconds=1 --set strategy.colgen_seconds=0 --threads 2 --set strategy.anneal_adopt=0 --json
expect_json '[.strategy.anneal_adopt, .strategy.anneal_adopt_after] | map(tostring) | join(" ")' "0 0"
run 3 configs/shifts-instance7.yaml --set limits.seconds=1 --set strategy.colgen_seconds=0 --json
expect_json '[.strategy.large_share, .strategy.large_share_odd, .strategy.anneal_adopt, .strategy.anneal_adopt_after] | map(tostring) | join(" ")' "0 0 0 0"
# temperatures go out in full (not %g's six digits: 12.3457)
run 3 configs/shifts-instance7.yaml --set limits.seconds=0 --set limits.nodes=1000 --set limits.steps=10 --set strategy.lagrange_steps=50 --set strategy.anneal_t0=12.3456789 --set strategy.anneal_t1=0.000123456789 --json
expect_json '[.strategy.anneal_t0, .strategy.anneal_t1] | map(tostring) | join(" ")' "12.3456789 0.000123456789"
# under a time limit, above 1000 cells, one burst anneals over all the time
# left (strategy.anneal_fill), so no round comes after the first roster's
# burst; Instance7 (588 cells) and a run without a time limit keep bursts
# of anneal_steps, and so does a run that names anneal_steps (given 3 s,
# which the set-up now spends from: in the sanitizers' build 1 s left
# no time for a round; no LP bound, which would take 0.75 s of them)
run 3 configs/shifts-instance7.yaml --set params.instance=tests/data/shifts/Instance18.txt --set limits.seconds=1 --json
expect_json '[.strategy.anneal_fill, .rounds // 0] | map(tostring) | join(" ")' "on 0"
run 3 configs/shifts-instance7.yaml --set params.instance=tests/data/shifts/Instance18.txt --set limits.seconds=3 --set strategy.anneal_steps=100000 --set strategy.colgen_seconds=0 --json
expect_json '[.strategy.anneal_fill, .rounds > 0] | map(tostring) | join(" ")' "off true"
run 3 configs/shifts-instance7.yaml --set limits.seconds=1 --json
expect_json '.strategy.anneal_fill' off
# keys are checked before the bound's tables (1.7 s on Instance7), so a
# wrong one is refused at once: within the 1 s timeout
for bad in "strategy.anneal_fill=on|strategy.anneal_fill on anneals up to limits.seconds, and no limits.seconds is given" \
    "strategy.neighbourhoods=staff,foo|'strategy.neighbourhoods': no kind 'foo' (staff, rows, cover, shift)" \
    "strategy.anneal_t1=20|model shifts cools, not heats: strategy.anneal_t1 must be at most strategy.anneal_t0"; do
    timeout 1 "$csearch" configs/shifts-instance7.yaml --set limits.seconds=0 --set "${bad%%|*}" >"$out" 2>"$err"
    got=$?
    [ "$got" = 2 ] || fail "--set ${bad%%|*} on Instance7 exited $got, expected 2 within 1 s"
    expect_stderr "csearch: --set ${bad%%|*}: ${bad#*|}"
done
# the row move (a window of a staff member's row re-solved whole): half the
# annealing's time under a time limit on 56 days or more with at most 4
# shift types (Instance18: 84 days, 3), none on 28 days (Instance7), none
# without a time limit (auto times nothing then); every 1000 steps when
# strategy.large_steps says so, the same run each time
run 3 configs/shifts-instance7.yaml --set params.instance=tests/data/shifts/Instance18.txt --set limits.seconds=1 --json
expect_json '[.strategy.large_share, .strategy.large_steps] | map(tostring) | join(" ")' "0.5 0"
run 3 configs/shifts-instance7.yaml --set limits.seconds=1 --json
expect_json '.strategy.large_share' 0
run 3 configs/shifts-instance7.yaml --set params.instance=tests/data/shifts/Instance18.txt --set limits.seconds=0 --set limits.nodes=1000 --set limits.steps=10 --json
expect_json '.strategy.large_share' 0
run 3 configs/shifts-instance7.yaml --set limits.seconds=0 --set limits.nodes=200000 --set limits.steps=30000 --set strategy.lagrange_steps=50 --set strategy.large_steps=1000 --json
expect_json '[.strategy.large_steps, .steps, .cost] | map(tostring) | join(" ")' "1000 30000 2294"
run 2 configs/shifts-instance7.yaml --set strategy.large_share=1.5
expect_stderr "csearch: --set strategy.large_share=1.5: 'strategy.large_share' must be between 0 and 0.99, not 1.5"
run 2 configs/shifts-instance7.yaml --set strategy.anneal_t1=20
expect_stderr "csearch: --set strategy.anneal_t1=20: model shifts cools, not heats: strategy.anneal_t1 must be at most strategy.anneal_t0"
run 2 configs/shifts-instance7.yaml --set strategy.anneal_t0=warm
expect_stderr "csearch: --set strategy.anneal_t0=warm: 'strategy.anneal_t0' must be a number, not 'warm'"
run 2 configs/shifts-instance1.yaml --set strategy.local_moves=on
expect_stderr "csearch: --set strategy.local_moves=on: model shifts runs local moves between neighbourhood rounds only, and strategy.lns_nodes is 0"
# tables past strategy.lagrange_states (as Instance24's 3.7e11 would be):
# the rows are priced instead; past even that, auto takes bound days, and a
# bound named lagrange is refused in one line (no LP bound, which would
# stand above both)
run 3 configs/shifts-instance7.yaml --set strategy.lagrange_states=1000000 --set strategy.colgen_seconds=0 --set limits.nodes=1 --json
expect_json '[.strategy.lagrange_rows, .strategy.lagrange_steps, .root_bound] | map(tostring) | join(" ")' "priced 500 988"
run 3 configs/shifts-instance7.yaml --set strategy.lagrange_states=1000 --set strategy.colgen_seconds=0 --set limits.nodes=1 --json
expect_json '[.strategy.bound, .root_bound] | map(tostring) | join(" ")' "days 0"
run 2 configs/shifts-instance7.yaml --set strategy.bound=lagrange --set strategy.lagrange_states=1000
expect_stderr "csearch: --set strategy.bound=lagrange: bound lagrange: more than 1000 row states even with minutes and weekends priced; raise strategy.lagrange_states or use bound days or weekends"
# above 30000 cells (where its prices order no first roster) auto keeps
# the Lagrangian only if it beats the days bound by half its steps: a
# year's ward of 100 staff, one shift, short of staff (60 needed a day,
# 150 shifts each) keeps it after 6 steps, not after 2 (step 0 alone is
# below 0); with 20 needed no step beats 0 (Instances 23 and 24 reach
# 0 and 4400, the days bound, no more); a bound named lagrange stays
ward 60 >"$tmp/ward60.yaml"
ward 20 >"$tmp/ward20.yaml"
run 3 "$tmp/ward60.yaml" --set strategy.lagrange_steps=6 --set limits.nodes=1 --json
expect_json '[.strategy.bound, .strategy.lagrange_rows, .strategy.lagrange_steps, .root_bound] | map(tostring) | join(" ")' "lagrange priced 6 170224"
run 3 "$tmp/ward60.yaml" --set strategy.lagrange_steps=2 --set limits.nodes=1 --json
expect_json '[.strategy.bound, .root_bound] | map(tostring) | join(" ")' "days 0"
run 3 "$tmp/ward20.yaml" --set strategy.lagrange_steps=6 --set limits.nodes=1 --json
expect_json '[.strategy.bound, .root_bound] | map(tostring) | join(" ")' "days 0"
run 3 "$tmp/ward20.yaml" --set strategy.bound=lagrange --set strategy.lagrange_steps=6 --set limits.nodes=1 --json
expect_json '[.strategy.bound, .strategy.lagrange_steps, .root_bound] | map(tostring) | join(" ")' "lagrange 6 0"

# --- no roster exists ---
cat >"$tmp/none.yaml" <<'YAML'
model: shifts
task: optimize
params:
  days: 3
  shifts: [{id: D, minutes: 480}]
  staff: [{id: Al, min_minutes: 1440, max_consecutive: 2}]
YAML
run 1 "$tmp/none.yaml"
expect_line "status     infeasible"
grep -q "^bound" "$out" && fail "an infeasible run printed a bound"
run 1 "$tmp/none.yaml" --set strategy.order=staff --set strategy.bound=lagrange --json
expect_json .status infeasible
expect_json .bound null
expect_json .nodes 1
run 1 "$tmp/none.yaml" --set task=solve
expect_line "status     infeasible"
expect_line "solutions  0"

# --- bad input: one line, the position, exit 2 ---
run 2 configs/shifts.yaml --set params.instance=tests/data/shifts/tiny.txt
expect_stderr "csearch: configs/shifts.yaml:7:9: give params.instance or the roster spec (params.days), not both"
# numbers beyond 64 bits: the key's own range (or the horizon's words)
big=99999999999999999999
while IFS='|' read -r edit message; do
    sed "$edit" configs/shifts.yaml >"$tmp/big.yaml"
    run 2 "$tmp/big.yaml"
    expect_stderr "csearch: $tmp/big.yaml:$message"
done <<CASES
s/weight: 3/weight: $big/|29:46: 'weight' must be between 0 and 33554431, not $big
s/need: 2/need: $big/|25:34: 'need' must be between 0 and 10000, not $big
s/max_consecutive: 6/max_consecutive: $big/|14:72: 'max_consecutive' must be between 1 and 2147483647, not $big
s/days_off: \[2\]/days_off: [$big]/|17:37: day $big is outside the horizon (0 to 6)
CASES
printf 'SECTION_HORIZON\n%s\n' $big >"$tmp/horizon.txt"
run 2 configs/shifts-instance1.yaml --set params.instance="$tmp/horizon.txt"
expect_stderr "csearch: $tmp/horizon.txt:2:1: horizon $big is more than 3660"
run 2 configs/shifts-instance1.yaml --set params.instance=no-such-file.txt
expect_stderr "csearch: --set params.instance=no-such-file.txt: cannot open 'no-such-file.txt': No such file or directory"
printf 'SECTION_HORIZON\r\n14\r\nSECTION_SHIFTS\r\nD,48O,\r\n' >"$tmp/bad.txt"
run 2 configs/shifts-instance1.yaml --set params.instance="$tmp/bad.txt"
expect_stderr "csearch: $tmp/bad.txt:4:3: shift length must be a whole number, not '48O'"
run 2 configs/shifts.yaml --set strategy.order=random
expect_stderr "csearch: --set strategy.order=random: unknown value 'random' for 'strategy.order'; expected one of: day, staff"
run 2 configs/shifts.yaml --set strategy.lns_nodes=100
expect_stderr "csearch: neighbourhood rounds run until a limit: set limits.seconds or limits.nodes"
run 0 --list
grep -qF "shifts: staff rosters" "$out" || fail "--list lacks shifts"

cli_finish "shifts CLI"

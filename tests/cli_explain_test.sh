#!/usr/bin/env bash
# cli_explain_test.sh - answers to "why" from the shifts model: a ward with
# no legal roster explained (the rules, staff and days that cannot all hold,
# exit 1), two rosters compared by rule (params.compare), and the fairness
# rules (params.fairness) changing the optimum, with the checker's figures.
# usage: cli_explain_test.sh CSEARCH SOURCE_DIR
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"
i1=configs/shifts-instance1.yaml
sentence_a="staff A, days 0-13: at least 5280 minutes of work, at most 5 shifts in a row and at least 2 days off in a row cannot all hold"
sentence_c="staff C, days 0-13: at least 5280 minutes of work and the days off on days 3, 7, 10 and 12 cannot both hold"

# --- no legal roster: why, row by row, and exit 1 whatever the task ---
for task in optimize solve; do
    run 1 $i1 --set params.instance=tests/data/shifts/infeasible.txt --set task=$task
    expect_line "$sentence_a"
    expect_line "$sentence_c"
    expect_line "status     infeasible"
done
run 1 $i1 --set params.instance=tests/data/shifts/infeasible.txt --json
expect_json .status infeasible
expect_json .note "$sentence_a
$sentence_c"
# the limits per shift type count (the Lagrangian rows leave them out)
cat >"$tmp/types.yaml" <<'YAML'
model: shifts
task: solve
params:
  days: 7
  shifts: [{id: E, minutes: 480}, {id: N, minutes: 480, not_followed_by: [E]}]
  staff:
    - {id: Al, min_minutes: 2880, max_shifts: {E: 3, N: 2}, max_weekends: 1}
    - {id: Bo, min_minutes: 1920, max_consecutive: 1, days_off: [0, 2, 4]}
YAML
run 1 "$tmp/types.yaml"
expect_line "staff Al, days 0-6: at least 2880 minutes of work, at most 3 shifts E and at most 2 shifts N cannot all hold"
expect_line "staff Bo, days 0-6: at least 1920 minutes of work, at most 1 shift in a row and the day off on day 4 cannot all hold"
[ "$(grep -c '^staff ' "$out")" = 2 ] || fail "two rows explained: $(cat "$out")"
# a legal ward says nothing of the kind
run 0 configs/shifts.yaml --set task=solve
grep -q 'cannot' "$out" && fail "a feasible ward explained: $(cat "$out")"

# --- two rosters by rule: Instance1's first roster against its optimum ---
run 0 $i1 --set task=solve --set output.format=csv
cp "$out" "$tmp/first.csv"
run 0 $i1 --set output.format=csv
cp "$out" "$tmp/best.csv"
run 0 $i1 --set params.roster="$tmp/first.csv" --set params.compare="$tmp/best.csv"
expect_line "compared with $tmp/best.csv: 40 cells differ, in 8 of 8 staff rows"
expect_line "rule                     this       that     change"
expect_line "cover under              1500        600       +900"
expect_line "cover over                 11          0        +11"
expect_line "shift-on requests           6          4         +2"
expect_line "shift-off requests         10          3         +7"
expect_line "penalty                  1527        607       +920"
expect_line "status     checked"
run 0 $i1 --set params.roster="$tmp/first.csv" --set params.compare="$tmp/best.csv" --set output.format=html
grep -qF '<tr class="total"><th>penalty</th><td>1527</td><td>607</td><td class="change">+920</td></tr></table>' "$out" ||
    fail "the page lacks the compared penalty"
run 2 $i1 --set params.compare="$tmp/none.csv"
expect_stderr "csearch: --set params.compare=$tmp/none.csv: cannot open '$tmp/none.csv': No such file or directory"

# --- fairness: two nurses of one contract, one asking for every night ---
cat >"$tmp/fair.yaml" <<'YAML'
model: shifts
task: optimize
params:
  days: 4
  shifts: [{id: D, minutes: 480}, {id: N, minutes: 480}]
  staff: [{id: Al, max_consecutive: 4}, {id: Bo, max_consecutive: 4}]
  cover:
    - {day: all, shift: D, need: 1, under: 100, over: 100}
    - {day: all, shift: N, need: 1, under: 100, over: 100}
  shift_on:
    - {staff: Al, day: 0, shift: N, weight: 1}
    - {staff: Al, day: 1, shift: N, weight: 1}
    - {staff: Al, day: 2, shift: N, weight: 1}
    - {staff: Al, day: 3, shift: N, weight: 1}
YAML
# without: Al takes every night (4 against 0), at no cost
run 0 "$tmp/fair.yaml" --set output.format=csv
expect_line "Al,N,N,N,N"
cp "$out" "$tmp/unfair.csv"
# that roster under nights 10: 10 x ((4 - 2)^2 + (0 - 2)^2) = 80
run 0 "$tmp/fair.yaml" --set params.roster="$tmp/unfair.csv" --set params.fairness.nights=10
expect_line "penalty 80: cover under 0, cover over 0, shift-on requests 0, shift-off requests 0, fair nights 80"
expect_line "cost       80"
# with: two nights each, two requests unmet, proven
run 0 "$tmp/fair.yaml" --set params.fairness.nights=10
expect_line "Al        N   N   D   D"
expect_line "penalty 2: cover under 0, cover over 0, shift-on requests 2, shift-off requests 0, fair nights 0"
expect_line "cost       2"
expect_line "status     optimal"
# the page: each one's nights and weekends
run 0 "$tmp/fair.yaml" --set params.fairness.nights=10 --set output.format=html
grep -qF '<td class="tally">2</td><td class="tally">0</td></tr>' "$out" || fail "the page lacks the nights and weekends column"
grep -qF '<th>fair nights</th><td id="p-nights">0</td>' "$out" || fail "the page lacks the fairness penalty"

cli_finish "explain CLI"

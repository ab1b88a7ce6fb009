#!/usr/bin/env bash
# cli_roster_test.sh - a roster file checked (params.roster: its penalty by
# rule, status checked, no bound tables built), CSV with quoted fields both
# ways, and the roster page (output.format html) loaded in headless
# Chromium, which is skipped (and says so) where it is not installed.
# usage: cli_roster_test.sh CSEARCH SOURCE_DIR
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"
i1=configs/shifts-instance1.yaml

# --- a roster checked: its penalty by rule, never "optimal" ---
# the first legal roster of Instance1 (restarts, no bound): far from 607
run 0 $i1 --set task=solve --set output.format=csv
cp "$out" "$tmp/i1.csv"
[ "$(wc -l <"$tmp/i1.csv")" = 9 ] || fail "Instance1 roster: a header and 8 rows: $(cat "$tmp/i1.csv")"
run 0 $i1 --set params.roster="$tmp/i1.csv"
expect_line "penalty 1527: cover under 1500, cover over 11, shift-on requests 6, shift-off requests 10"
expect_line "hard rules: all kept (independent check)"
expect_line "cost       1527"
expect_line "status     checked"
grep -qE '^(bound|gap) ' "$out" && fail "a checked roster printed a bound or a gap: $(cat "$out")"
run 0 $i1 --set params.roster="$tmp/i1.csv" --json
expect_json .status checked
expect_json .cost 1527
expect_json .bound null
expect_json .gap null
expect_json '.boards[0] | length' 12
expect_json '.boards[0][10]' "penalty 1527: cover under 1500, cover over 11, shift-on requests 6, shift-off requests 10"
# the check builds no bound tables: a states cap of 1 would refuse them
run 0 $i1 --set params.roster="$tmp/i1.csv" --set strategy.lagrange_states=1 --json
expect_json .status checked
expect_json .cost 1527
# any task checks; solve too, and one thread whatever --threads says
run 0 $i1 --set params.roster="$tmp/i1.csv" --set task=solve --threads 2
expect_line "status     checked"
expect_line "cost       1527"

# --- CSV fields quoted: ids with commas and quotes, written and read back ---
cat >"$tmp/quoted.yaml" <<'YAML'
model: shifts
task: optimize
params:
  days: 3
  shifts: [{id: "E,1", minutes: 480}, {id: 'L"x"', minutes: 480}]
  staff:
    - {id: "Ann, senior", max_consecutive: 3}
    - {id: Bob, max_consecutive: 3}
  cover:
    - {day: all, shift: "E,1", need: 1, under: 10, over: 1}
    - {day: all, shift: 'L"x"', need: 1, under: 10, over: 1}
YAML
run 0 "$tmp/quoted.yaml" --set output.format=csv
expect_line '"Ann, senior","E,1","E,1","E,1"'
expect_line 'Bob,"L""x""","L""x""","L""x"""'
cp "$out" "$tmp/quoted.csv"
run 0 "$tmp/quoted.yaml" --set params.roster="$tmp/quoted.csv"
expect_line "penalty 0: cover under 0, cover over 0, shift-on requests 0, shift-off requests 0"
expect_line "status     checked"
# a spreadsheet's file: a byte order mark, CRLF, a day off quoted empty
printf '\xef\xbb\xbfstaff,0,1,2\r\n"Ann, senior","E,1","E,1",""\r\nBob,"L""x""",,\r\n' >"$tmp/sheet.csv"
run 0 "$tmp/quoted.yaml" --set params.roster="$tmp/sheet.csv"
expect_line "penalty 30: cover under 30, cover over 0, shift-on requests 0, shift-off requests 0"
while IFS='|' read -r row message; do
    printf 'staff,0,1,2\n%s\nBob,,,\n' "$row" >"$tmp/bad.csv"
    run 2 "$tmp/quoted.yaml" --set params.roster="$tmp/bad.csv"
    expect_stderr "csearch: $tmp/bad.csv:2:$message"
done <<'CASES'
"Ann, senior","E,1","E,1,"E,1"|27: a comma or the end of the line must follow a quoted field
"Ann, senior"x,"E,1","E,1","E,1"|14: a comma or the end of the line must follow a quoted field
Ann" senior,"E,1","E,1","E,1"|4: a quote in a field needs the field in quotes and the quote doubled
"Ann, senior","E,1","E,1","E,1|27: a quoted field must end on its line: no closing quote
"Ann, senior",E,,|15: unknown shift 'E'
CASES

cli_finish "roster CLI"

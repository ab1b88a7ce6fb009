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

# --- optimize's progress line: best cost, bound, gap, elapsed (forced here:
# stderr is no terminal); the time limit keeps the search past the first line
# (onto a file: a line per report)
run 3 configs/shifts-instance7.yaml --set limits.seconds=1 --progress
cp "$err" "$tmp/progress.txt"
line='^csearch: (best [0-9]+  bound [0-9]+  gap [0-9]+\.[0-9]{2}%|no solution yet  bound [0-9]+)  nodes [0-9]+  elapsed [0-9]+\.[0-9]s$'
[ -s "$tmp/progress.txt" ] || fail "optimize --progress showed no line"
grep -vqE "$line" "$tmp/progress.txt" && fail "progress lines: $(grep -vE "$line" "$tmp/progress.txt" | head -3 | cat -v)"
# and through an annealing burst that takes all the time (Instance18, above
# 1000 cells: strategy.anneal_fill), not only at its end: 4 a second, so
# 3 lines in 4 s leave room for a slow set-up (CI's sanitizers' build under
# load showed only 2 lines in a 2 s limit)
run 3 configs/shifts-instance7.yaml --set params.instance=tests/data/shifts/Instance18.txt --set limits.seconds=4 --set strategy.colgen_seconds=0 --progress
cp "$err" "$tmp/progress.txt"
grep -vqE "$line" "$tmp/progress.txt" && fail "progress lines: $(grep -vE "$line" "$tmp/progress.txt" | head -3 | cat -v)"
[ "$(grep -c . "$tmp/progress.txt")" -ge 3 ] || fail "a 4 s burst showed $(grep -c . "$tmp/progress.txt") progress lines"
run 3 configs/shifts-instance7.yaml --set limits.seconds=0.3
[ ! -s "$err" ] || fail "a progress line on a stderr that is no terminal: $(cat -v "$err" | head -c 200)"

# --- the roster page: output.format html ---
outside='(src|href)=|url\(|@import|<link|fetch\(|XMLHttpRequest|https?:'
self_contained() { # PAGE
    grep -qiE "$outside" "$1" && fail "$1 refers to something outside itself: $(grep -oiE "$outside" "$1" | head -3)"
}
# to output.file: the page there, the results on stdout as with text
run 0 configs/shifts.yaml --set output.format=html --set output.file="$tmp/ward.html"
expect_line "cost       50"
expect_line "status     optimal"
grep -q '<' "$out" && fail "html with output.file wrote markup to stdout"
self_contained "$tmp/ward.html"
expect_page() { grep -qF -- "$1" "$tmp/ward.html" || fail "the page lacks '$1'"; }
# named by the instance, days 1..H with their weekdays, the run's status
expect_page '<title>roster: shifts, penalty 50</title>'
expect_page '<h1>Roster: shifts</h1><p>5 staff, 7 days from Monday, 3 shift types (configs/shifts.yaml).</p><p id="status">optimal: cost 50, bound 50, gap 0.00%, '
expect_page '<th class="day" title="day 0 in the files">1<br>Mo</th>'
expect_page '<th class="day we" title="day 6 in the files">7<br>Su</th>'
expect_page '<span class="s2">N 600 min (10:00 h)</span>'
expect_page '<td id="penalty">50</td>'
expect_page '<tr><th>Bob</th><td class="s0">E</td><td class="s0">E</td><td class="off fixed" title="fixed day off"></td>'
expect_page '<tr><th>cover E</th><td>2/2</td><td>2/2</td><td class="under" title="1 short: penalty 50">1/2</td>'
[ "$(grep -c '^<tr><th>' "$tmp/ward.html")" = 8 ] || fail "the page has $(grep -c '^<tr><th>' "$tmp/ward.html") rows, expected 5 staff and 3 cover"
# without output.file: the page alone on stdout
run 0 configs/shifts.yaml --set output.format=html
[ "$(head -n 1 "$out")" = "<!DOCTYPE html>" ] || fail "html on stdout: $(head -n 1 "$out")"
[ "$(tail -n 1 "$out")" = "</body></html>" ] || fail "html on stdout ends with: $(tail -n 1 "$out")"
cmp -s "$out" "$tmp/ward.html" || fail "the page on stdout differs from the one in output.file"
# the 1527 roster checked: every rule costs something, requests go unmet
run 0 $i1 --set params.roster="$tmp/i1.csv" --set output.format=html --set output.file="$tmp/i1.html"
expect_line "status     checked"
self_contained "$tmp/i1.html"
grep -qF '<title>roster: Instance1, penalty 1527</title>' "$tmp/i1.html" || fail "the checked page's title: $(grep -o '<title>.*</title>' "$tmp/i1.html")"
grep -qF '<p id="status">checked, ' "$tmp/i1.html" || fail "the checked page's status: $(grep -o '<p id="status">[^<]*' "$tmp/i1.html")"
grep -qF '<td class="s0 unmet" title="asked not for shift D (weight 3)">D</td>' "$tmp/i1.html" ||
    fail "the page marks no unmet shift-off request"
# a model without a page of its own: its board in the CLI's page
run 0 configs/nqueens.yaml --set params.n=4 --set task=solve --set output.format=html
expect_line '<pre id="board">.Q..'
expect_line '..Q.'
expect_line '</pre>'
self_contained "$out"
# no solution: a page that says so
cat >"$tmp/none.yaml" <<'YAML'
model: shifts
task: optimize
params:
  days: 3
  shifts: [{id: D, minutes: 480}]
  staff: [{id: Al, min_minutes: 1440, max_consecutive: 2}]
YAML
run 1 "$tmp/none.yaml" --set output.format=html
expect_line '<p id="status">no solution shown: status infeasible, 0 solutions</p>'
while IFS='|' read -r args message; do
    # shellcheck disable=SC2086
    run 2 $args
    expect_stderr "csearch: $message"
    [ ! -s "$out" ] || fail "$args: stdout not empty"
done <<CASES
configs/shifts.yaml --set task=count --set output.format=html|--set output.format=html: output.format html is a page of a solution: it needs task solve, enumerate or optimize
configs/sudoku-batch.yaml --set task=solve --set output.format=html|--set output.format=html: output.format html is a page of a solution, not of a batch: use text, json or csv
CASES

# --- the pages in headless Chromium: drawn as meant, the checker's penalty ---
find_chromium
selftest() { page_selftest "$chromium" "$1"; }
if [ -n "$chromium" ]; then
    selftest "$tmp/ward.html"
    printf '%s\n' "staff rows 5, days 7, cells per row 7" \
        "shift types 3, colours 3, one each" \
        "fixed days off 2, unmet requests 0" \
        "under 1, over 0" \
        "penalty 50 = 50 + 0 + 0 + 0" >"$tmp/want.txt"
    diff -u "$tmp/want.txt" "$tmp/selftest.txt" >"$tmp/diff" || fail "the ward's page: $(cat "$tmp/diff")"
    # the penalty the page shows is the checker's, rule by rule
    run 0 $i1 --set params.roster="$tmp/i1.csv"
    checker=$(sed -n 's/^penalty \([0-9]*\): cover under \([0-9]*\), cover over \([0-9]*\), shift-on requests \([0-9]*\), shift-off requests \([0-9]*\)$/penalty \1 = \2 + \3 + \4 + \5/p' "$out")
    [ "$checker" = "penalty 1527 = 1500 + 11 + 6 + 10" ] || fail "the checker says '$checker'"
    selftest "$tmp/i1.html"
    printf '%s\n' "staff rows 8, days 14, cells per row 14" \
        "shift types 1, colours 1, one each" \
        "fixed days off 8, unmet requests 9" \
        "under 7, over 5" \
        "$checker" >"$tmp/want.txt"
    diff -u "$tmp/want.txt" "$tmp/selftest.txt" >"$tmp/diff" || fail "Instance1's page: $(cat "$tmp/diff")"
else
    echo "SKIP: $no_chromium; the roster pages were not loaded"
fi

cli_finish "roster CLI"

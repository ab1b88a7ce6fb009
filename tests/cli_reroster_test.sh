#!/usr/bin/env bash
# cli_reroster_test.sh - re-rostering Instance7's published roster after a
# sick week (configs/shifts-instance7-reroster.yaml) under a node and step
# limit, so every figure is exact: the changed cells, the penalty by rule
# before and after, pinned cells kept, days before from_day unchanged; a
# clash of fixed cells (status infeasible, why); bad change and pinned
# files; the page's marks in headless Chromium where it is installed.
# usage: cli_reroster_test.sh CSEARCH SOURCE_DIR
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"
cfg=configs/shifts-instance7-reroster.yaml
pub=tests/data/shifts/Instance7-published.csv
fixed=(--set limits.seconds=0 --set limits.nodes=200000 --set strategy.anneal_steps=100000)

# --- the published roster as it stands: checked, 1069 ---
run 0 configs/shifts-instance7.yaml --set params.roster=$pub
expect_line "penalty 1069: cover under 1000, cover over 1, shift-on requests 54, shift-off requests 14"

# --- A away on days 10-16, one more early shift on day 12 ---
run 3 $cfg "${fixed[@]}"
expect_line "penalty 1504: cover under 1300, cover over 2, shift-on requests 58, shift-off requests 14, changes 130"
expect_line "hard rules: all kept (independent check)"
expect_line "published: penalty 1169: cover under 1100, cover over 1, shift-on requests 54, shift-off requests 14, changes 0"
expect_line "published, hard rules: 4 broken; first: staff A works on day 11, a fixed day off"
expect_line "difference: penalty +335: cover under +200, cover over +1, shift-on requests +4, shift-off requests +0, changes +130"
expect_line "changed 13 cells from day 10 (weight 10 each): A day 11 E to off; A day 12 D to off; A day 13 D to off; A day 14 D to off; A day 26 off to D; A day 27 off to D; N day 21 off to D; P day 12 off to D; P day 13 off to D; P day 14 off to D; P day 21 D to off; P day 22 D to off; P day 27 D to off"
expect_line "cost       1504"
run 3 $cfg "${fixed[@]}" --json
expect_json .cost 1504
expect_json .nodes 200000

# --- pinned cells kept, days before from_day as published ---
printf 'staff,day,shift\n# cells that must hold\nC,12,D\nK,15,-\nT,22,E\n' >"$tmp/pins.csv"
run 3 $cfg "${fixed[@]}" --set params.pinned="$tmp/pins.csv" --set output.format=csv
cp "$out" "$tmp/new.csv"
cell() { # FILE STAFF DAY: the shift in that cell ('' off)
    awk -F, -v s="$2" -v d="$3" '$1 == s { print $(d + 2) }' "$1"
}
[ "$(cell "$tmp/new.csv" C 12)" = D ] || fail "pinned C 12 D: $(cell "$tmp/new.csv" C 12)"
[ "$(cell "$tmp/new.csv" K 15)" = "" ] || fail "pinned K 15 off: $(cell "$tmp/new.csv" K 15)"
[ "$(cell "$tmp/new.csv" T 22)" = E ] || fail "pinned T 22 E: $(cell "$tmp/new.csv" T 22)"
for f in "$pub" "$tmp/new.csv"; do cut -d, -f1-11 "$f" >"$f.past"; done
cmp -s "$pub.past" "$tmp/new.csv.past" || fail "days 0-9 changed: $(diff "$pub.past" "$tmp/new.csv.past" | head -5)"
rm -f "$pub.past"
run 3 $cfg "${fixed[@]}" --set params.pinned="$tmp/pins.csv"
expect_line "penalty 1943: cover under 1600, cover over 2, shift-on requests 57, shift-off requests 14, changes 270"
# the new roster read back: legal under the change, and its cost
cp "$tmp/new.csv" "$tmp/again.csv"
run 0 configs/shifts-instance7.yaml --set params.roster="$tmp/again.csv"
expect_line "hard rules: all kept (independent check)"

# --- fixed cells that break a hard rule: infeasible, and why ---
printf 'A,12,E\n' >"$tmp/clash.csv"
run 1 $cfg --set params.pinned="$tmp/clash.csv"
expect_line "status     infeasible"
expect_line "fixed cells break a hard rule: A day 12 (pinned E) falls on a fixed day off"
run 1 $cfg --set params.pinned="$tmp/clash.csv" --json
expect_json .note "fixed cells break a hard rule: A day 12 (pinned E) falls on a fixed day off"
printf 'K,17-23,E\n' >"$tmp/clash.csv"
run 1 $cfg --set params.pinned="$tmp/clash.csv"
expect_line "fixed cells break a hard rule: K day 17 (pinned E) to K day 23 (pinned E) work 7 days in a row (max 6)"

# --- bad input: one line at the field, exit 2 ---
while IFS='|' read -r key text message; do
    printf '%s\n' "$text" >"$tmp/bad.csv"
    run 2 $cfg --set "$key=$tmp/bad.csv"
    expect_stderr "csearch: $tmp/bad.csv:1:$message"
    [ ! -s "$out" ] || fail "$text: stdout not empty"
done <<'CASES'
params.change|unavailable,Z,10|13: unknown staff 'Z'
params.change|unavailable,A,30|15: day 30 is outside the horizon (0 to 27)
params.change|unavailable,A,5-12|15: day 5 is before params.from_day 10: those days keep the published roster
params.change|unavailable,A,12-x|15: a day must be D or D-E (D <= E), not '12-x'
params.change|unavailable,A|1: unavailable needs a staff member and days
params.change|sick,A,10|1: unknown change 'sick' (unavailable or cover)
params.change|cover,12,X,5|10: unknown shift 'X'
params.change|cover,12,E|1: cover needs DAY,SHIFT,NEED[,UNDER,OVER]: 4 or 6 fields, not 3
params.pinned|Z,12,E|1: unknown staff 'Z'
params.pinned|A,40,E|3: day 40 is outside the horizon (0 to 27)
params.pinned|A,12,L|6: staff A may not work shift L
params.pinned|A,12|1: a pinned cell needs STAFF,DAY,SHIFT: 3 fields, not 2
CASES
printf 'C,12,D\nC,12,E\n' >"$tmp/bad.csv"
run 2 $cfg --set params.pinned="$tmp/bad.csv"
expect_stderr "csearch: $tmp/bad.csv:2:6: staff C, day 12 is pinned twice"
run 2 configs/shifts-instance7.yaml --set params.from_day=10
expect_stderr "csearch: --set params.from_day=10: 'params.from_day' re-rosters: it needs params.roster, the published roster"
run 2 $cfg --set params.from_day=28
expect_stderr "csearch: --set params.from_day=28: params.from_day 28 is outside the horizon (0 to 27)"

# --- the page: pinned, past and changed cells, both penalties ---
run 3 $cfg "${fixed[@]}" --set params.pinned="$tmp/pins.csv" --set output.format=html --set output.file="$tmp/re.html"
grep -q '<td id="d-penalty">' "$tmp/re.html" || fail "the page has no difference column"
[ "$(grep -o 'class="[^"]*pinned' "$tmp/re.html" | wc -l)" = 4 ] || fail "pinned cells marked: $(grep -o 'class="[^"]*pinned' "$tmp/re.html" | wc -l), expected 3 and the legend"
find_chromium
if [ -n "$chromium" ]; then
    page_selftest "$chromium" "$tmp/re.html"
    printf '%s\n' "staff rows 20, days 28, cells per row 28" \
        "shift types 3, colours 3, one each" \
        "fixed days off 45, unmet requests 34" \
        "under 13, over 2" \
        "penalty 1943 = 1600 + 2 + 57 + 14 + 270" \
        "pinned 3, changed 27, past 200" \
        "published 1169 = 1100 + 1 + 54 + 14 + 0, difference +774" >"$tmp/want.txt"
    diff -u "$tmp/want.txt" "$tmp/selftest.txt" >"$tmp/diff" || fail "the re-roster's page: $(cat "$tmp/diff")"
else
    echo "SKIP: $no_chromium; the re-roster page was not loaded"
fi

cli_finish "re-roster CLI"

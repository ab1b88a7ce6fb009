#!/usr/bin/env bash
# faults_test.sh - faults injected into checkpointed counts: SIGKILL at
# random moments (then resume, maybe killed again, then resume to the end:
# the exact counts every time), a checkpoint past the file size limit or on
# a full file system (a clear error, the log before it intact and
# resumable), a truncated or edited log (refused, or its torn line dropped).
# usage: faults_test.sh CSEARCH SOURCE_DIR [KILLS]   (ctest: 5 kills; the
# figure in docs/reliability.md: 100, run by hand; RANDOM_SEED=S repeats)
set -u
. "$(dirname "$0")/cli_lib.sh"
cli_start "$1" "$2"
kills=${3:-5}
RANDOM=${RANDOM_SEED:-$$}
# 13-queens on the array state without symmetry: 1030 units, about 0.6 s
# on two threads, so a kill can land anywhere in the run
c="configs/nqueens.yaml --set params.n=13 --set strategy.state=array --set strategy.symmetry=none --threads 2"
counts='[.solutions, .nodes, .checks, .fails, .max_depth, .units.done, .units.total] | map(tostring) | join(" ")'
run 0 $c --json
full=$(jq -r "$counts" "$out")
[ "$full" = "73712 4674890 59815314 1642940 13 1030 1030" ] || fail "full run: $full"
units=1030

# kill_at LOG K ARGS...: csearch ARGS in the background, SIGKILL as soon
# as LOG holds K lines (K = 0: at once); 0 if it was killed, 1 if it ended
# first
kill_at() {
    local log=$1 k=$2
    shift 2
    "$csearch" "$@" >"$out" 2>"$err" &
    local pid=$!
    while kill -0 $pid 2>/dev/null; do
        if [ "$k" -eq 0 ] || [ "$({ wc -l <"$log"; } 2>/dev/null || echo 0)" -ge "$k" ]; then
            kill -KILL $pid 2>/dev/null
            break
        fi
    done
    wait $pid 2>/dev/null
    [ $? = 137 ]
}

# --- SIGKILL at random moments, resumed ---
exact=0 killed=0 twice=0
for i in $(seq "$kills"); do
    log=$tmp/kill.ckpt
    rm -f "$log"
    # a target line count anywhere from "at once" to the last unit
    k=$((RANDOM % (units + 3)))
    kill_at "$log" $k $c --checkpoint "$log" --json && killed=$((killed + 1))
    # half the time the resumed run is killed too, further on
    if [ $((RANDOM % 2)) = 1 ] && [ -s "$log" ]; then
        have=$(wc -l <"$log")
        k2=$((have + RANDOM % (units + 3 - have)))
        kill_at "$log" $k2 $c --resume "$log" --json && twice=$((twice + 1))
    fi
    if [ -s "$log" ]; then
        "$csearch" $c --resume "$log" --json >"$out" 2>"$err"
    else # killed before the header was written: nothing to resume
        "$csearch" $c --checkpoint "$log" --json >"$out" 2>"$err"
    fi
    got=$(jq -r "$counts" "$out" 2>/dev/null)
    if [ "$got" = "$full" ] && [ "$(($(wc -l <"$log") - 2))" = "$units" ]; then
        exact=$((exact + 1))
    else
        fail "kill $i (at line $k): $got, expected $full ($(head -c 200 "$err"))"
    fi
done
echo "kill-and-resume: $exact/$kills exact ($killed killed mid-run, $twice killed again while resuming)"

# torn_note LOG NAME: the note a resume of LOG (named NAME) prints when
# LOG ends inside a line (the write that failed was cut short; it may also
# have failed at a line's end, leaving whole lines only), and a '.' that
# keeps its newline through $(...)
torn_note() {
    [ "$(tail -c 1 "$1" | wc -l)" = 1 ] ||
        printf 'csearch: %s: dropped a torn last line; its unit is searched again\n.' "$2"
}

# --- a checkpoint past the file size limit: EFBIG, the log before intact ---
log=$tmp/limit.ckpt
(ulimit -f 8 && exec "$csearch" $c --checkpoint "$log" --json) >"$out" 2>"$err"
status=$?
[ $status = 2 ] || fail "checkpoint past ulimit -f exited $status, expected 2"
expect_stderr "csearch: $log: cannot write checkpoint: File too large"
[ ! -s "$out" ] || fail "checkpoint past ulimit -f printed a result"
[ "$(stat -c %s "$log")" = 8192 ] || fail "log at the limit: $(stat -c %s "$log") bytes"
cp "$log" "$tmp/limit.before"
# resuming under the same limit: nothing can be appended, the log stays
(ulimit -f 8 && exec "$csearch" $c --resume "$log" --json) >"$out" 2>"$err"
status=$?
[ $status = 2 ] || fail "resume past ulimit -f exited $status, expected 2"
note=$(torn_note "$tmp/limit.before" "$log")
expect_stderr "${note%.}csearch: $log: cannot write checkpoint: File too large"
whole=$(($(grep -c '' "$tmp/limit.before") - 1)) # lines before the torn one
head -n "$whole" "$tmp/limit.before" | cmp -s - <(head -n "$whole" "$log") ||
    fail "resume past ulimit -f changed the lines logged before"
run 0 $c --resume "$log" --json
[ "$(jq -r "$counts" "$out")" = "$full" ] || fail "resume after the limit: $(jq -r "$counts" "$out")"

# --- a full file system (a 64 KiB tmpfs; needs root, else skipped) ---
mnt=$tmp/mnt
mkdir -p "$mnt"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
    log=$mnt/full.ckpt
    run 2 $c --checkpoint "$log" --json
    expect_stderr "csearch: $log: cannot write checkpoint: No space left on device"
    cp "$log" "$tmp/full.before"
    run 2 $c --resume "$log" --json
    note=$(torn_note "$tmp/full.before" "$log")
    expect_stderr "${note%.}csearch: $log: cannot write checkpoint: No space left on device"
    whole=$(($(grep -c '' "$tmp/full.before") - 1))
    head -n "$whole" "$tmp/full.before" | cmp -s - <(head -n "$whole" "$log") ||
        fail "resume on a full disk changed the lines logged before"
    cp "$log" "$tmp/full.ckpt"
    umount "$mnt"
    run 0 $c --resume "$tmp/full.ckpt" --json
    [ "$(jq -r "$counts" "$out")" = "$full" ] || fail "resume after the full disk: $(jq -r "$counts" "$out")"
    echo "full file system: tested on a 64 KiB tmpfs"
else
    echo "full file system: skipped (mounting a tmpfs needs root)"
fi

# --- truncated and edited logs ---
log=$tmp/whole.ckpt
run 0 $c --checkpoint "$log"
# cut inside a line: the torn line is dropped and its unit searched again
head -c 5000 "$log" >"$tmp/cut.ckpt"
run 0 $c --resume "$tmp/cut.ckpt" --json
[ "$(jq -r "$counts" "$out")" = "$full" ] || fail "resume of a cut log: $(jq -r "$counts" "$out")"
expect_stderr "csearch: $tmp/cut.ckpt: dropped a torn last line; its unit is searched again"
# cut inside the header: not a checkpoint of this config
head -c 30 "$log" >"$tmp/head.ckpt"
printf '\n' >>"$tmp/head.ckpt"
run 2 $c --resume "$tmp/head.ckpt"
expect_stderr "csearch: $tmp/head.ckpt:1:1: not a csearch checkpoint"
# a count edited: the checksum no longer matches
sed '5s/solutions=\([0-9]*\)/solutions=9\1/' "$log" >"$tmp/edit.ckpt"
run 2 $c --resume "$tmp/edit.ckpt"
expect_stderr "csearch: $tmp/edit.ckpt:5:1: corrupt checkpoint line (checksum mismatch)"
# a line removed from the middle: that unit is searched again
sed '7d' "$log" >"$tmp/gap.ckpt"
run 0 $c --resume "$tmp/gap.ckpt" --json
[ "$(jq -r "$counts" "$out")" = "$full" ] || fail "resume of a log with a gap: $(jq -r "$counts" "$out")"
expect_json .units.resumed $((units - 1))
# edits that keep the checksum right (as a careful hand would): a unit
# logged twice with other counts, and counts that cannot be
fnv1a() { # the checksum of checkpoint.c
    local s=$1 h=2166136261 i c
    for ((i = 0; i < ${#s}; i++)); do
        printf -v c '%d' "'${s:i:1}"
        h=$((((h ^ c) * 16777619) & 0xffffffff))
    done
    printf '%08x' $h
}
resum() { local body=${1% sum=*}; printf '%s sum=%s\n' "$body" "$(fnv1a "$body")"; }
line=$(sed -n 5p "$log")
body=${line% sum=*}
u=${body%% *}
cp "$log" "$tmp/two.ckpt"
resum "${body/ unique=/0 unique=}" >>"$tmp/two.ckpt" # solutions times 10
run 2 $c --resume "$tmp/two.ckpt"
expect_stderr "csearch: $tmp/two.ckpt:$((units + 3)):1: unit ${u#unit=} is recorded twice with different counts"
{ sed -n 1,4p "$log"; resum "${body/ unique=0/ unique=1}"; } >"$tmp/odd.ckpt"
run 2 $c --resume "$tmp/odd.ckpt"
expect_stderr "csearch: $tmp/odd.ckpt:5:1: impossible counts: unique 1 in a log whose header says it counts no unique solutions (unique=0)"

cli_finish "fault"

# cli_lib.sh - helpers the CLI test scripts share (sourced, not run):
#   . "$(dirname "$0")/cli_lib.sh"
#   cli_start CSEARCH SOURCE_DIR
#   ... run / expect_* ...
#   cli_finish "WHAT"

# cli_start CSEARCH SOURCE_DIR: csearch = the binary, the source tree as the
# working directory, a scratch folder $tmp (removed on exit) holding $out
# and $err, no failures yet.
cli_start() {
    csearch=$1
    src=$2
    cd "$src" || exit 2
    failures=0
    tmp=$(mktemp -d)
    out=$tmp/out err=$tmp/err
    trap 'rm -rf "$tmp"' EXIT
}

# cli_finish WHAT: exit 1 with the count of failures, else say all passed.
cli_finish() {
    if [ "$failures" -ne 0 ]; then
        echo "$failures failure(s)"
        exit 1
    fi
    echo "all $1 tests passed"
}

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# run EXPECTED_STATUS ARGS...: run csearch, keep stdout/stderr in $out/$err
run() {
    local want=$1
    shift
    "$csearch" "$@" >"$out" 2>"$err"
    local got=$?
    [ "$got" = "$want" ] || fail "csearch $* exited $got, expected $want ($(head -c 300 "$err"))"
}

# signal_run SIGNAL SECONDS EXPECTED_STATUS ARGS...: csearch ARGS in the
# background (stdout/stderr in $out/$err), SIGNAL after SECONDS, its exit
# status checked
signal_run() {
    local sig=$1 after=$2 want=$3
    shift 3
    "$csearch" "$@" >"$out" 2>"$err" &
    local pid=$!
    sleep "$after"
    kill -"$sig" $pid
    wait $pid
    local got=$?
    [ "$got" = "$want" ] || fail "SIG$sig after ${after}s: csearch $* exited $got, expected $want"
}

# wait_for_lines FILE N: wait (up to 60 s) until FILE has at least N lines,
# so a signal lands after a unit was logged however fast the machine is
wait_for_lines() {
    local i
    for i in $(seq 1200); do
        [ -f "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ] && return 0
        sleep 0.05
    done
    fail "$1 did not reach $2 lines in 60 s"
}

expect_stdout() { grep -qF -- "$1" "$out" || fail "stdout lacks '$1': $(head -c 300 "$out")"; }
expect_json() { # JQ_FILTER EXPECTED
    local got
    got=$(jq -r "$1" "$out" 2>&1) || fail "not JSON: $(head -c 300 "$out")"
    [ "$got" = "$2" ] || fail "$1 = '$got', expected '$2'"
}
# expect_line LINE: stdout holds exactly this line
expect_line() { grep -qxF -- "$1" "$out" || fail "stdout lacks the line '$1': $(head -c 600 "$out")"; }
# expect_stderr TEXT: stderr is exactly TEXT
expect_stderr() { [ "$(cat "$err")" = "$1" ] || fail "stderr '$(cat "$err")', expected '$1'"; }

# find_chromium: $chromium, the headless browser the page tests load pages
# in, or empty, and $no_chromium, why not: not installed, or
# CSEARCH_TEST_PAGES=0 (CTest sets it in the sanitizers' build: the same
# code writes the pages there, and the release build's run loads them)
find_chromium() {
    chromium=""
    if [ "${CSEARCH_TEST_PAGES:-1}" = 0 ]; then
        no_chromium="CSEARCH_TEST_PAGES=0 (the release build's tests load the pages)"
        return
    fi
    chromium=$(command -v chromium || command -v chromium-browser || true)
    no_chromium="chromium is not installed"
}

# page_selftest CHROMIUM PAGE: what the page's self-test (?selftest) says
# it drew, into $tmp/selftest.txt
page_selftest() {
    timeout 120 "$1" --headless --no-sandbox --disable-gpu \
        --dump-dom "file://$2?selftest" >"$tmp/dom.html" 2>/dev/null || fail "chromium failed on $2"
    sed -n '/<pre id="selftest"/,/<\/pre>/p' "$tmp/dom.html" |
        sed -e 's/<pre id="selftest"[^>]*>//' -e 's/<\/pre>//' >"$tmp/selftest.txt"
}

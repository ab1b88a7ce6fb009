#!/usr/bin/env bash
# eta.sh - how honest is the progress line's ETA?  For each n it counts
# N-Queens with the default config on THREADS threads (default 2) with
# --progress forced onto a file (one line per report, four a second), then
# compares each line's ETA with the time that was really left: the run's
# own seconds (from --json) minus the line's elapsed.  It prints, per n, the
# ETA at the first report past 10%, 25% and 50% of the run's time, the true
# remaining time and the ratio ETA / true.  The target: within 25% (0.75 to
# 1.25) from 10% on.
#
# A second csearch (-b OTHER) runs in the same rounds, interleaved, so a
# change can be measured against the one before it (older builds wrote the
# line with carriage returns; both forms are read).
#
# usage: bench/eta.sh [-c CSEARCH] [-b OTHER] [-t THREADS] [-r RUNS] [-k DIR] N...
#   -c CSEARCH  the csearch to measure (default: build/framework/csearch)
#   -b OTHER    a second csearch to measure alongside (optional)
#   -t THREADS  threads (default 2)
#   -r RUNS     rounds (default 1)
#   -k DIR      keep each run's progress log and JSON in DIR
# Needs bash, jq and awk.  Example: bench/eta.sh 17 18
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
CSEARCH=$ROOT/build/framework/csearch
OTHER=
THREADS=2
RUNS=1
KEEP=
while getopts "c:b:t:r:k:h" opt; do
    case $opt in
    c) CSEARCH=$OPTARG ;;
    b) OTHER=$OPTARG ;;
    t) THREADS=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    k) KEEP=$OPTARG ;;
    *) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "eta.sh: give at least one n (try -h)" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
[ -n "$KEEP" ] && mkdir -p "$KEEP"

# progress log and total seconds -> "share eta true ratio" at 10/25/50%
judge() {
    tr '\r' '\n' <"$1" | sed 's/\x1b\[K//g' | awk -v total="$2" '
        /elapsed/ && /ETA/ {
            e = ""; a = ""
            for (i = 1; i <= NF; i++) {
                if ($i == "elapsed") e = $(i + 1)
                if ($i == "ETA") a = $(i + 1)
            }
            sub(/s$/, "", e); sub(/s$/, "", a)
            if (e == "" || a == "" || a == "?") next
            e += 0; a += 0
            for (k = 1; k <= 3; k++) {
                mark = k == 1 ? 0.10 : k == 2 ? 0.25 : 0.50
                if (!(k in done) && e >= mark * total) {
                    done[k] = 1
                    left = total - e
                    printf " | %.0f%%: ETA %.1f s, left %.1f s, %.2fx", \
                        100 * e / total, a, left, (left > 0 ? a / left : 0)
                }
            }
        }
        END { for (k = 1; k <= 3; k++) if (!(k in done)) printf " | -" }'
}

"$(dirname "$0")"/machine.sh "# "
echo "# load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| n | csearch | seconds | ETA at ~10% | ETA at ~25% | ETA at ~50% |"
echo "|---:|---|---:|---|---|---|"
for n in "$@"; do
    for ((round = 1; round <= RUNS; round++)); do
        for bin in "$CSEARCH" $OTHER; do
            log=$tmp/progress.txt json=$tmp/result.json
            "$bin" "$ROOT/configs/nqueens.yaml" --set params.n="$n" \
                --threads "$THREADS" --progress --json 2>"$log" >"$json" ||
                { echo "eta.sh: $bin failed at n = $n" >&2; exit 1; }
            total=$(jq .seconds "$json")
            printf '| %s | %s | %.2f' "$n" "$bin" "$total"
            judge "$log" "$total"
            echo " |"
            if [ -n "$KEEP" ]; then
                tag=$(echo "$bin" | tr '/' '_')
                cp "$log" "$KEEP/n$n-r$round-$tag.progress"
                cp "$json" "$KEEP/n$n-r$round-$tag.json"
            fi
        done
    done
done
echo "# load at end: $(cut -d' ' -f1-3 /proc/loadavg)"

#!/usr/bin/env bash
# distributed.sh - csearch counts under mpirun with 1, 2 and 4 ranks, side by
# side: speed-up over 1 rank, and the cost per unit when units are tiny.
#
# usage: bench/distributed.sh [ROUNDS]      (default 3; a release build)
#
# Each round runs every case once in a fixed order (1, 2, 4 ranks, then the
# next config), so a busy patch of the machine hits every case alike; the
# table shows medians over the rounds.  Three times per run: `count`, the
# search as csearch reports it (.seconds: split, waiting for the other ranks
# to join, hand-out, search, sums), `wall`, the whole mpirun from start to
# exit, and `cpu`, user + system seconds of mpirun and every rank (what the
# machine spent, whatever else runs on it).
# Every run's totals are checked against the 1-rank run's.  With 1 rank
# (no other rank to serve) a generic count runs unsplit, as it would
# without mpirun; us/unit still divides by the units of the split.
#
# Cases:
#   n16-fast     N-Queens n = 16, the fast d4 kernel (3206 units)
#   n16-generic  N-Queens n = 16, the generic engine, mirror (1118 units)
#   n12-tiny     N-Queens n = 12, generic, mirror: 2040 units of ~1.5 us
#                each, so the time is nearly all per-unit overhead
#   n6-join      N-Queens n = 6, generic, mirror: 30 units, nothing to
#                search: the count time is the ranks joining (start-up skew)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
CSEARCH=${CSEARCH:-$ROOT/build/framework/csearch}
ROUNDS=${1:-3}
[ -x "$CSEARCH" ] || { echo "no $CSEARCH: build the release preset" >&2; exit 2; }
command -v mpirun >/dev/null || { echo "no mpirun" >&2; exit 2; }

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none

declare -A ARGS=(
    [n16-fast]="--set params.n=16"
    [n16-generic]="--set params.n=16 --set strategy.symmetry=mirror"
    [n12-tiny]="--set params.n=12 --set strategy.symmetry=mirror"
    [n6-join]="--set params.n=6 --set strategy.symmetry=mirror"
)
CASES=(n16-fast n16-generic n12-tiny n6-join)
# K ranks of one thread each; "1t2" is one rank with --threads 2: the same
# number of workers without MPI, the fair yardstick on a busy machine.
# --bind-to none: by default Open MPI pins a job of 1 or 2 ranks to one
# core each, so one rank's threads would share a single core.
RANKS=(1 2 4 1t2 1t4)
dir=$(mktemp -d /tmp/csearch-bench-XXXXXX)
trap 'rm -rf "$dir"' EXIT

for ((round = 1; round <= ROUNDS; round++)); do
    for c in "${CASES[@]}"; do
        for k in "${RANKS[@]}"; do
            np=${k%%t*} threads=1
            [ "$np" = "$k" ] || threads=${k#*t}
            t0=$(date +%s%N)
            # shellcheck disable=SC2086
            /usr/bin/time -o "$dir/cpu" -f "%U %S" mpirun -np "$np" --bind-to none "$CSEARCH" "$ROOT/configs/nqueens.yaml" ${ARGS[$c]} \
                --threads "$threads" --json >"$dir/out" 2>"$dir/err" || { cat "$dir/err" >&2; exit 1; }
            t1=$(date +%s%N)
            # (1 rank runs a generic count unsplit: no units to show)
            got=$(jq -r '[.solutions, .nodes] | map(tostring) | join(" ")' "$dir/out")
            jq -r '.units.total // empty' "$dir/out" >"$dir/$c.units"
            want_file="$dir/$c.want"
            [ -s "$want_file" ] || echo "$got" >"$want_file"
            [ "$got" = "$(cat "$want_file")" ] || { echo "$c $k ranks: $got, expected $(cat "$want_file")" >&2; exit 1; }
            cpu=$(awk '{print $1 + $2}' "$dir/cpu")
            echo "$c $k $(jq -r .seconds "$dir/out") $(((t1 - t0) / 1000000)) $cpu" >>"$dir/times"
        done
    done
done

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
"$(dirname "$0")"/machine.sh
echo "| case | units | ranks (t: threads) | count s | wall s | cpu s | speed-up (count) | count us/unit |"
echo "|---|---|---|---|---|---|---|---|"
for c in "${CASES[@]}"; do
    units=$(cat "$dir/$c.units")
    base=""
    for k in "${RANKS[@]}"; do
        count=$(awk -v c="$c" -v k="$k" '$1 == c && $2 == k {print $3}' "$dir/times" | median)
        wall=$(awk -v c="$c" -v k="$k" '$1 == c && $2 == k {print $4 / 1000}' "$dir/times" | median)
        cpu=$(awk -v c="$c" -v k="$k" '$1 == c && $2 == k {print $5}' "$dir/times" | median)
        [ -n "$base" ] || base=$count
        awk -v c="$c" -v u="$units" -v k="$k" -v s="$count" -v w="$wall" -v b="$base" -v p="$cpu" \
            'BEGIN {printf "| %s | %d | %s | %.3f | %.2f | %.2f | %.2f | %.2f |\n", c, u, k, s, w, p, b / s, s / u * 1e6}'
    done
done
echo
echo "medians of $ROUNDS rounds; $(nproc) cores; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"

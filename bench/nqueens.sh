#!/usr/bin/env bash
# nqueens.sh - N-Queens counting speed of csearch's strategies, side by side.
#
# For every board size n it counts the solutions with the textbook baseline
# (bench/nq_plain, "plain") and with a set of csearch strategies, checks every
# count against tests/data/nqueens_answers.tsv and prints one Markdown table:
# median wall-clock seconds per strategy, nanoseconds per search node and the
# speed-up over plain.
#
# What is timed: the whole process (start-up, config loading and the search),
# as wall-clock seconds from `date +%s%N` taken just before and just after.
# That is what a user waits for, and it needs no tool beyond bash and date.
#
# Why interleaved medians: the runs of one n go round by round - round 1 runs
# every strategy once, in a fixed order, then round 2, and so on - rather than
# all runs of one strategy, then all of the next.  A slow patch of the machine
# (another job, frequency scaling, a cold cache) then hits every strategy
# alike instead of one strategy's whole sample, and the median of each
# strategy's runs drops the odd outlier.  Speed-ups are ratios of medians
# taken in the same rounds.
#
# Needs only bash, date, jq, awk and sort, and an already built release tree.

set -u

readonly SCRIPT_NAME=${0##*/}
ROOT=$(cd "$(dirname "$0")/.." && pwd) || exit 2
readonly ROOT
readonly CONFIG="$ROOT/configs/nqueens.yaml"
readonly ANSWERS="$ROOT/tests/data/nqueens_answers.tsv"

# Every strategy, in the order each round runs them.
readonly ALL_STRATEGIES=(plain array bitmask bitmask+mirror d4-generic fast
                         fast-scalar fast-2threads bitmask+mirror-2threads
                         default default-2threads halves halves-avx512
                         halves-avx2 halves-scalar halves-2threads
                         kluev kluev-haswell)

# Default largest n per strategy (empty: no limit), so that a run up to 17
# stays reasonable.  Each can be overridden by an environment variable, see
# max_var below (MAX_ARRAY, MAX_BITMASK, MAX_D4_GENERIC, ...).
declare -A DEFAULT_MAX=([array]=15 [bitmask]=16 [d4-generic]=14)

usage() {
    cat <<EOF
usage: $SCRIPT_NAME [-r RUNS] [-b BUILD_DIR] [-s STRATEGIES] [-k KLUEV] [-K KLUEV]
       N_FROM N_TO

Time N-Queens counting for n = N_FROM..N_TO with the textbook baseline and
csearch's strategies, check every count, print a Markdown table.

options:
  -r RUNS        runs per strategy and n, interleaved round by round;
                 the table shows the median (default 3)
  -b BUILD_DIR   an already built release tree (default: build/ of the
                 repository); needs BUILD_DIR/framework/csearch and
                 BUILD_DIR/bench/nq_plain
  -s STRATEGIES  comma-separated subset of the strategies (default: all
                 but kluev and kluev-haswell, which need -k and -K);
                 speed-ups need plain (kluev), without it that column shows -
  -k KLUEV       Evgeny Kluev's counter for strategy kluev, built outside
                 this repository (bench/kluev.sh builds it), one binary per n:
                 a path with %n for the board size, e.g. DIR/nqueens-native-%n
  -K KLUEV       the same for strategy kluev-haswell (built -march=haswell)
  -h, --help     print this help

strategies (csearch configs/nqueens.yaml --json --no-progress --set ...):
  plain                    bench/nq_plain N, the baseline (recursive
                           bitmask + mirror); its nodes are those of
                           bitmask+mirror, which walks the same tree
  array                    state=array symmetry=none kernel=generic
  bitmask                  state=bitmask symmetry=none kernel=generic
  bitmask+mirror           state=bitmask symmetry=mirror kernel=generic
  d4-generic               symmetry=d4 kernel=generic (also counts unique)
  fast                     symmetry=d4 kernel=fast (also counts unique);
                           8-lane vectors where the CPU has AVX-512
  fast-scalar              fast with CSEARCH_NQ_LANES=0: the scalar interior
                           search, whatever the CPU
  fast-2threads            fast with --threads 2
  bitmask+mirror-2threads  bitmask+mirror with --threads 2
  halves                   kernel=halves: meet in the middle (no unique)
  default, default-2threads  no strategy key: what a user gets (its
                           kernel and instruction set chosen by measurement)
  halves-avx512            halves with CSEARCH_ISA=avx512
  halves-avx2              halves with CSEARCH_ISA=avx2
  halves-scalar            halves with CSEARCH_ISA=scalar
  halves-2threads          halves with --threads 2
  kluev, kluev-haswell     -k / -K binary, one thread ("BINARY 1")

largest n per strategy, larger ones are skipped (environment variables):
  MAX_ARRAY=${DEFAULT_MAX[array]} MAX_BITMASK=${DEFAULT_MAX[bitmask]} MAX_D4_GENERIC=${DEFAULT_MAX[d4-generic]}; no limit for the others,
  which take MAX_PLAIN, MAX_FAST, MAX_BITMASK_MIRROR, ... alike
  (empty: no limit)

exit status: 0 all counts right, 1 a wrong count or a failed run,
             2 usage error or build missing
EOF
}

die_usage() {
    printf '%s: %s\n' "$SCRIPT_NAME" "$1" >&2
    printf "try '%s --help'\n" "$SCRIPT_NAME" >&2
    exit 2
}

is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }

# The environment variable holding the largest n of strategy $1:
# MAX_ + the name in upper case, '+' and '-' turned into '_'.
max_var() {
    local v=${1^^}
    v=${v//+/_}
    printf 'MAX_%s' "${v//-/_}"
}

# Print the largest n of strategy $1 (empty: no limit).
max_n() {
    local var
    var=$(max_var "$1")
    if [[ -v $var ]]; then
        printf '%s' "${!var}"
    else
        printf '%s' "${DEFAULT_MAX[$1]:-}"
    fi
}

# Fill the global array CMD with the command that runs strategy $1 for n=$2.
build_cmd() {
    local name=$1 n=$2 sets threads=1 lanes=1 isa= kv
    case $name in
        plain)
            CMD=("$NQ_PLAIN" "$n")
            return ;;
        kluev|kluev-haswell)
            local path=$KLUEV
            [[ $name == kluev-haswell ]] && path=$KLUEV_HASWELL
            CMD=("${path//%n/$n}" 1)
            return ;;
        default)        sets="" ;;
        default-2threads) sets=""; threads=2 ;;
        halves)         sets="strategy.kernel=halves" ;;
        halves-avx512)  sets="strategy.kernel=halves"; isa=avx512 ;;
        halves-avx2)    sets="strategy.kernel=halves"; isa=avx2 ;;
        halves-scalar)  sets="strategy.kernel=halves"; isa=scalar ;;
        halves-2threads) sets="strategy.kernel=halves"; threads=2 ;;
        array)          sets="strategy.state=array strategy.symmetry=none strategy.kernel=generic" ;;
        bitmask)        sets="strategy.state=bitmask strategy.symmetry=none strategy.kernel=generic" ;;
        bitmask+mirror) sets="strategy.state=bitmask strategy.symmetry=mirror strategy.kernel=generic" ;;
        d4-generic)     sets="strategy.symmetry=d4 strategy.kernel=generic" ;;
        fast)           sets="strategy.symmetry=d4 strategy.kernel=fast" ;;
        fast-scalar)    sets="strategy.symmetry=d4 strategy.kernel=fast"; lanes=0 ;;
        fast-2threads)  sets="strategy.symmetry=d4 strategy.kernel=fast"; threads=2 ;;
        bitmask+mirror-2threads)
            sets="strategy.state=bitmask strategy.symmetry=mirror strategy.kernel=generic"; threads=2 ;;
        *)  return 1 ;;
    esac
    CMD=(env "CSEARCH_NQ_LANES=$lanes" ${isa:+"CSEARCH_ISA=$isa"} "$CSEARCH"
         "$CONFIG" --json --no-progress --set "params.n=$n")
    for kv in $sets; do
        CMD+=(--set "$kv")
    done
    if ((threads > 1)); then
        CMD+=(--threads "$threads")
    fi
}

# Run strategy $1 for n=$2 once, stdout to $3, stderr to $3.err; print the
# wall-clock nanoseconds it took.  Returns the command's exit status.
time_run() {
    local name=$1 n=$2 out=$3 t0 t1 rc
    build_cmd "$name" "$n"
    t0=$(date +%s%N)
    "${CMD[@]}" >"$out" 2>"$out.err"
    rc=$?
    t1=$(date +%s%N)
    printf '%s' "$((t1 - t0))"
    return "$rc"
}

# Report a failed check: one line on stderr, and exit 1 at the end.
fail() {
    printf '%s: n=%s %s (round %s): %s\n' "$SCRIPT_NAME" "$1" "$2" "$ROUND" "$3" >&2
    FAILED=1
}

# Check the output $3 (exit status $4) of strategy $1 for n=$2 against the
# answers; on success set SOL, UNIQ and NODES from it (UNIQ/NODES may be -).
# Returns 1 if the run failed or counted wrong.
check_run() {
    local name=$1 n=$2 out=$3 rc=$4 want_total=${TOTAL[$2]} want_unique=${UNIQUE[$2]}
    local got status err
    SOL=- UNIQ=- NODES=-
    if [[ $name == kluev* ]]; then
        got=$(sed -n 's/^Result: //p' "$out")
        if ((rc != 0)) || [[ -z $got ]]; then
            err=; read -r err <"$out.err"
            fail "$n" "$name" "run failed (exit $rc${err:+: $err})"
            return 1
        fi
        SOL=$got
    elif [[ $name == plain ]]; then
        got=$(<"$out")
        if ((rc != 0)) || [[ $got != "$n "* ]]; then
            err=; read -r err <"$out.err"
            fail "$n" "$name" "run failed (exit $rc${err:+: $err})"
            return 1
        fi
        SOL=${got#"$n "}
    else
        # csearch exits 1 when there is no solution (n = 2, 3).
        if ! got=$(jq -r '[.status, .solutions, (.unique // "-"), .nodes] | @tsv' "$out" 2>/dev/null) ||
           [[ -z $got ]] || ((rc != 0 && rc != 1)); then
            err=; read -r err <"$out.err"
            fail "$n" "$name" "run failed (exit $rc${err:+: $err})"
            return 1
        fi
        IFS=$'\t' read -r status SOL UNIQ NODES <<<"$got"
        if [[ $status != complete ]]; then
            fail "$n" "$name" "status $status, not complete"
            return 1
        fi
    fi
    if [[ $SOL != "$want_total" ]]; then
        fail "$n" "$name" "$SOL solutions, expected $want_total"
        return 1
    fi
    if [[ $UNIQ != - && $UNIQ != "$want_unique" ]]; then
        fail "$n" "$name" "$UNIQ unique solutions, expected $want_unique"
        return 1
    fi
    return 0
}

# Print the median of the numbers given as arguments (the mean of the two
# middle ones for an even count).
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
        END { if (NR % 2) print v[(NR + 1) / 2]
              else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# One line: date, machine, CPU model, cores and runs.
print_header() {
    "$(dirname "$0")"/machine.sh
    printf 'N-Queens count, runs %s (median wall-clock s), load average at the start %s\n\n' \
        "$RUNS" \
        "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
    printf '| n | strategy | solutions | unique | nodes | median s | ns/node | speed-up vs plain | vs kluev |\n'
    printf '|---:|---|---:|---:|---:|---:|---:|---:|---:|\n'
}

# Measure every selected strategy for one n and print its table rows.
bench_n() {
    local n=$1 name ns rc max plain_med nodes_ref med row
    local -a active=()
    local -A times=() sol=() uniq=() nodes=() bad=()

    for name in "${STRATEGIES[@]}"; do
        max=$(max_n "$name")
        if [[ -n $max ]] && ((n > max)); then
            SKIPPED+=("n=$n $name (n > $(max_var "$name")=$max)")
        else
            active+=("$name")
        fi
    done
    ((${#active[@]})) || return 0

    # Interleaved rounds: every round runs every strategy once, same order.
    for ((ROUND = 1; ROUND <= RUNS; ROUND++)); do
        [[ -t 2 ]] && printf '\rn=%s round %s/%s ' "$n" "$ROUND" "$RUNS" >&2
        for name in "${active[@]}"; do
            ns=$(time_run "$name" "$n" "$TMP/out")
            rc=$?
            times[$name]+="$ns "
            if check_run "$name" "$n" "$TMP/out" "$rc"; then
                sol[$name]=$SOL uniq[$name]=$UNIQ nodes[$name]=$NODES
            else
                bad[$name]=1
            fi
        done
    done
    [[ -t 2 ]] && printf '\r%*s\r' 30 '' >&2

    # plain counts no nodes; bitmask+mirror walks the same tree.
    nodes[plain]=${nodes[bitmask+mirror]:--}
    plain_med= kluev_med=
    if [[ -n ${times[plain]:-} ]]; then
        # shellcheck disable=SC2086  # times are space-separated on purpose
        plain_med=$(median ${times[plain]})
    fi
    if [[ -n ${times[kluev]:-} ]]; then
        # shellcheck disable=SC2086
        kluev_med=$(median ${times[kluev]})
    fi

    for name in "${active[@]}"; do
        # shellcheck disable=SC2086
        med=$(median ${times[$name]})
        if [[ -n ${bad[$name]:-} ]]; then
            sol[$name]=error uniq[$name]=- nodes[$name]=-
        fi
        nodes_ref=${nodes[$name]:--}
        row=$(awk -v n="$n" -v name="$name" -v sol="${sol[$name]:--}" \
                  -v uniq="${uniq[$name]:--}" -v nodes="$nodes_ref" \
                  -v med="$med" -v plain="${plain_med:--}" -v kluev="${kluev_med:--}" 'BEGIN {
            s = med / 1e9
            npn = (nodes ~ /^[0-9]+$/ && nodes > 0) ? sprintf("%.2f", med / nodes) : "-"
            up = (plain ~ /^[0-9]+$/ && med > 0) ? sprintf("%.2fx", plain / med) : "-"
            vk = (kluev ~ /^[0-9]+$/ && med > 0) ? sprintf("%.2fx", kluev / med) : "-"
            printf "| %s | %s | %s | %s | %s | %.3f | %s | %s | %s |\n",
                   n, name, sol, uniq, nodes, s, npn, up, vk
        }')
        printf '%s\n' "$row"
    done
}

# Load the reference counts into TOTAL and UNIQUE, indexed by n.
load_answers() {
    local n total unique
    [[ -r $ANSWERS ]] || { printf '%s: cannot read %s\n' "$SCRIPT_NAME" "$ANSWERS" >&2; exit 2; }
    while IFS=$'\t' read -r n total unique; do
        is_uint "$n" || continue    # the header line
        TOTAL[$n]=$total
        UNIQUE[$n]=$unique
    done <"$ANSWERS"
}

# Turn the -s list into STRATEGIES, in the canonical round order.
select_strategies() {
    local list=$1 want name known k
    local -A chosen=()
    IFS=',' read -r -a want <<<"$list"
    for name in "${want[@]}"; do
        [[ -z $name ]] && continue
        known=0
        for k in "${ALL_STRATEGIES[@]}"; do
            [[ $k == "$name" ]] && known=1
        done
        ((known)) || die_usage "unknown strategy '$name' (one of: ${ALL_STRATEGIES[*]})"
        chosen[$name]=1
    done
    ((${#chosen[@]})) || die_usage "-s needs at least one strategy"
    STRATEGIES=()
    for name in "${ALL_STRATEGIES[@]}"; do
        [[ -n ${chosen[$name]:-} ]] && STRATEGIES+=("$name")
    done
}

main() {
    local opt build_dir="$ROOT/build" n name max var
    RUNS=3
    KLUEV= KLUEV_HASWELL=
    STRATEGIES=()
    for name in "${ALL_STRATEGIES[@]}"; do
        [[ $name == kluev* ]] || STRATEGIES+=("$name")
    done
    for opt in "$@"; do
        [[ $opt == --help ]] && { usage; exit 0; }
        [[ $opt == -- ]] && break
    done
    while getopts ':r:b:s:k:K:h' opt; do
        case $opt in
            k) KLUEV=$OPTARG ;;
            K) KLUEV_HASWELL=$OPTARG ;;
            r) RUNS=$OPTARG ;;
            b) build_dir=$OPTARG ;;
            s) select_strategies "$OPTARG" ;;
            h) usage; exit 0 ;;
            :) die_usage "-$OPTARG needs a value" ;;
            *) die_usage "unknown option -$OPTARG" ;;
        esac
    done
    shift $((OPTIND - 1))
    (($# == 2)) || die_usage "expected N_FROM N_TO"
    if ! is_uint "$RUNS" || ((10#$RUNS < 1)); then
        die_usage "RUNS must be a positive integer"
    fi
    RUNS=$((10#$RUNS))
    if ! is_uint "$1" || ! is_uint "$2"; then
        die_usage "N_FROM and N_TO must be integers"
    fi
    N_FROM=$((10#$1)) N_TO=$((10#$2))
    ((N_FROM >= 1 && N_FROM <= N_TO)) || die_usage "need 1 <= N_FROM <= N_TO"
    for name in "${ALL_STRATEGIES[@]}"; do
        max=$(max_n "$name")
        var=$(max_var "$name")
        [[ -z $max ]] || is_uint "$max" || die_usage "$var must be an integer or empty"
    done

    declare -gA TOTAL=() UNIQUE=()
    load_answers
    for ((n = N_FROM; n <= N_TO; n++)); do
        [[ -n ${TOTAL[$n]:-} ]] || die_usage "no reference count for n=$n in $ANSWERS"
    done

    CSEARCH="$build_dir/framework/csearch"
    NQ_PLAIN="$build_dir/bench/nq_plain"
    if [[ ! -x $CSEARCH || ! -x $NQ_PLAIN ]]; then
        printf '%s: no built release tree in %s (needs framework/csearch and bench/nq_plain)\n' \
            "$SCRIPT_NAME" "$build_dir" >&2
        printf 'build it first, from %s:  cmake --preset release && cmake --build --preset release\n' \
            "$ROOT" >&2
        exit 2
    fi
    command -v jq >/dev/null || { printf '%s: jq is needed\n' "$SCRIPT_NAME" >&2; exit 2; }
    for name in "${STRATEGIES[@]}"; do
        case $name in
        kluev) [[ -n $KLUEV ]] || die_usage "strategy kluev needs -k KLUEV" ;;
        kluev-haswell) [[ -n $KLUEV_HASWELL ]] || die_usage "strategy kluev-haswell needs -K KLUEV" ;;
        esac
    done

    TMP=$(mktemp -d) || exit 2
    trap 'rm -rf -- "$TMP"' EXIT
    trap 'exit 130' INT TERM

    FAILED=0
    SKIPPED=()
    print_header
    for ((n = N_FROM; n <= N_TO; n++)); do
        bench_n "$n"
    done
    if ((${#SKIPPED[@]})); then
        printf '\nskipped: %s' "${SKIPPED[0]}"
        for ((n = 1; n < ${#SKIPPED[@]}; n++)); do
            printf '; %s' "${SKIPPED[n]}"
        done
        printf '\n'
    fi
    exit "$FAILED"
}

main "$@"

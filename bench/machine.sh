#!/usr/bin/env bash
# machine.sh - one line naming the machine a benchmark ran on: the CPU's
# model name, vendor, family and model, its class where known (a figure
# holds for its class only: AMD Zen 4 runs 512-bit vectors as two halves,
# Zen 5 and Intel Sapphire Rapids do not), the instruction-set flags the
# kernels choose among, the cores, the date and the commit measured.
# Every script of bench/ prints it first.
#
# usage: bench/machine.sh [PREFIX]   (PREFIX, e.g. "# ", starts the line)
set -eu
field() { awk -F'[ \t]*: *' -v k="$1" '$1 == k { print $2; exit }' /proc/cpuinfo 2>/dev/null; }
vendor=$(field vendor_id)
family=$(field 'cpu family')
model=$(field model)
name=$(field 'model name')
class=unknown
case "$vendor:$family" in
AuthenticAMD:25)
    case $model in
    1[6-9] | 2[0-9] | 3[01] | 9[6-9] | 1[01][0-9] | 12[0-7] | 16[0-9] | 17[0-5])
        class="Zen 4" ;; # models 0x10-0x1f, 0x60-0x7f, 0xa0-0xaf
    *) class="Zen 3" ;;
    esac ;;
AuthenticAMD:26) class="Zen 5" ;;
GenuineIntel:6)
    case $model in
    143) class="Sapphire Rapids" ;;
    207) class="Emerald Rapids" ;;
    esac ;;
esac
flags=
for f in popcnt bmi2 avx2 avx512f avx512cd avx512_vpopcntdq avx512vl; do
    grep -m1 '^flags' /proc/cpuinfo | grep -qw "$f" && flags="$flags $f"
done
commit=$(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo unknown)
printf '%sCPU: %s (%s family %s model %s, %s), %s cores, flags%s; %s, commit %s\n' \
    "${1:-}" "${name:-unknown}" "${vendor:-unknown}" "${family:-?}" "${model:-?}" \
    "$class" "$(nproc)" "${flags:- none}" "$(date -u '+%Y-%m-%d %H:%M UTC')" "$commit"

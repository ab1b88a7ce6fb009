#!/usr/bin/env bash
# kluev.sh - build Evgeny Kluev's N-Queens counter (quadrants met in the
# middle; github.com/EvgenyKluev/N-Queens-Count-Sol, MIT) outside this
# repository, as the yardstick of bench/nqueens.sh -k / -K.
#
# Its board size is a compile-time constant, so this builds one binary per n,
# with the author's tuning table from solcounter.h (sieve cuts, matcher
# minimum, BMI2 and prefetch per size), for -march=native and -march=haswell:
# OUT/nqueens-native-N and OUT/nqueens-haswell-N.  Needs g++ 11 or later.
#
# usage: bench/kluev.sh SOURCE_DIR OUT_DIR [N ...]   (default n: 15..21)
set -eu
(($# >= 2)) || { echo "usage: ${0##*/} SOURCE_DIR OUT_DIR [N ...]" >&2; exit 2; }
src=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd) # the build runs in a scratch folder
shift 2
sizes=("$@")
((${#sizes[@]})) || sizes=(15 16 17 18 19 20 21)
[[ -f $src/solcounter.h && -f $src/main.cpp ]] || { echo "${0##*/}: $src is no checkout of N-Queens-Count-Sol" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src"/. "$work"
cd "$work"
# the intrinsics on; the per-size table below decides their use
sed -i 's|^//#include "bmi2.h"|#include "bmi2.h"|' bmintrin.h
sed -i 's|^//#include "prefetchx86.h"|#include "prefetchx86.h"|' prefetch.h
for n in "${sizes[@]}"; do
    case $n in
    19) cuts=0 min=40 bmi=true pf=true ;;
    20) cuts=3 min=60 bmi=true pf=true ;;
    21) cuts=3 min=60 bmi=true pf=false ;;
    22) cuts=6 min=80 bmi=true pf=true ;;
    *) cuts=0 min=40 bmi=false pf=true ;;
    esac
    sed -e "s/inline constexpr int size = [0-9]*;/inline constexpr int size = $n;/" \
        -e "s/\.sieveCuts = [0-9]*,/.sieveCuts = $cuts,/" \
        -e "s/\.matchMinSize = [0-9]*,/.matchMinSize = $min,/" \
        -e "s/\.bmiIntrin = [a-z]*,/.bmiIntrin = $bmi,/" \
        -e "s/\.prefetch = [a-z]*,/.prefetch = $pf,/" solcounter.h >"solcounter-$n.h"
    grep -q "size = $n;" "solcounter-$n.h"
    sed "s/\"solcounter.h\"/\"solcounter-$n.h\"/" main.cpp >"main-$n.cpp"
    for march in native haswell; do
        g++ -std=c++20 -O3 "-march=$march" "-mtune=$march" -o "$out/nqueens-$march-$n" \
            "main-$n.cpp" -lpthread
    done
    echo "built $out/nqueens-native-$n and $out/nqueens-haswell-$n"
done

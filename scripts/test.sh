#!/bin/sh
# test.sh - the whole test suite, as CI runs it: install the dependencies,
# then build and test twice, optimised and with AddressSanitizer + UBSan.
set -e
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
for preset in release asan; do
    echo "== $preset build"
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset" -j "$jobs"
    ctest --preset "$preset"
done

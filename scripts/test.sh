#!/bin/sh
# test.sh - the whole test suite, as CI runs it: install the dependencies,
# then build and test twice, optimised and with AddressSanitizer + UBSan
# (the tests on every core; the ASan build at -O1: its tests took 500 s at -j2
# here against 719 s at -O0),
# then build the libFuzzer harnesses (clang) and run each for 15 seconds on
# its seed corpus, two at a time (CSEARCH_FUZZ_SECONDS=0 skips them).
set -e
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
for preset in release asan; do
    echo "== $preset build"
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset" -j "$jobs"
    ctest --preset "$preset" -j "$jobs"
done
fuzz_seconds=${CSEARCH_FUZZ_SECONDS:-15}
if [ "$fuzz_seconds" -gt 0 ]; then
    echo "== fuzz build, each harness ${fuzz_seconds}s"
    cmake --preset fuzz >/dev/null
    cmake --build --preset fuzz -j "$jobs"
    tests/fuzz/run.sh build-fuzz "$fuzz_seconds"
fi

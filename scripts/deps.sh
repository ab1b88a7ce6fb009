#!/bin/sh
# deps.sh - install what csearch needs to build and test on Debian 12.
# Runs apt-get as root, or through sudo when run as another user.
set -e
# graphviz and chromium: the trace tests parse the DOT tree and click through
# the step-through page (they are skipped where these are missing);
# libopenmpi-dev and openmpi-bin: the optional MPI build and its test;
# groff: the man page's check (tests/install_test.sh); clang: the fuzzers
# (tests/fuzz: clang-14 and its libFuzzer, libclang-rt-14-dev); valgrind: memcheck
# of the CLI tests by hand (tests/memcheck.sh); minizinc and flatzinc: the
# FlatZinc back end's tests flatten models and compare with Gecode
# (tests/minizinc_test.sh, docs/minizinc.md); clang-format-14: the format
# check (tests/format_test.sh); libglpk-dev: the LP of the shifts model's
# column generation bound
packages="build-essential cmake pkg-config libyaml-dev libcmocka-dev uthash-dev jq
graphviz chromium libopenmpi-dev openmpi-bin groff clang-14 libclang-rt-14-dev valgrind
minizinc flatzinc clang-format-14 libglpk-dev"
if [ "$(id -u)" -eq 0 ]; then
    as_root=""
else
    as_root="sudo"
fi
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "installing:$missing"
    $as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends $missing
fi

#!/usr/bin/env bash
# memcheck.sh - the CLI tests with every csearch under valgrind memcheck:
# any invalid read or write, use of uninitialised memory, or definite or
# indirect leak fails (each process's report is kept).  By hand, not in
# ctest (valgrind makes them some 30 times slower); docs/reliability.md.
# usage: memcheck.sh CSEARCH SOURCE_DIR [TEST...]
#   TEST: cli cli_units cli_shifts fuzz_regress faults (default: all five)
#   (a debug-info build reads best: the dev preset's build-dev/)
set -u
csearch=$(realpath "$1") src=$(realpath "$2")
shift 2
[ $# -gt 0 ] || set -- cli cli_units cli_shifts fuzz_regress faults
logs=$(mktemp -d "${TMPDIR:-/tmp}/csearch-memcheck.XXXXXX")
wrapper=$logs/csearch
cat >"$wrapper" <<WRAP
#!/bin/sh
exec valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \\
    --errors-for-leak-kinds=definite,indirect --log-file="$logs/vg.%p.log" "$csearch" "\$@"
WRAP
chmod +x "$wrapper"
status=0
for t in "$@"; do
    extra=""
    [ "$t" = faults ] && extra=2 # two kills: each resumes under valgrind
    echo "== $t"
    bash "$src/tests/${t}_test.sh" "$wrapper" "$src" $extra || status=1
done
runs=$(ls "$logs"/vg.*.log 2>/dev/null | wc -l)
bad=$(find "$logs" -name 'vg.*.log' -size +0 | wc -l)
echo "memcheck: $runs csearch processes, $bad with a report (in $logs)"
for f in $(find "$logs" -name 'vg.*.log' -size +0 | head -n 5); do
    echo "--- $f"
    head -n 40 "$f"
done
[ "$bad" = 0 ] && [ $status = 0 ] && rm -rf "$logs"
[ "$bad" = 0 ] && exit $status
exit 1

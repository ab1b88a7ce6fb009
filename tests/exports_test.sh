#!/bin/bash
# exports_test.sh - libcsearch exports only cs_* names (hidden visibility):
# a plugin that defines its own pool_take or layer_run cannot clash with it.
# Usage: exports_test.sh LIBCSEARCH.so
set -u
lib=$1
names=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}')
[ -n "$names" ] || { echo "FAIL: $lib exports nothing"; exit 1; }
# an AddressSanitizer build adds __odr_asan.NAME for each exported global
stray=$(echo "$names" | grep -v '^cs_' | grep -v '^__odr_asan\.cs_' || true)
if [ -n "$stray" ]; then
    echo "FAIL: $lib exports names outside cs_*:"
    echo "$stray"
    exit 1
fi
for want in cs_search cs_job_setup cs_poll cs_config_check; do
    echo "$names" | grep -qx "$want" || { echo "FAIL: $want not exported"; exit 1; }
done
echo "ok: $(echo "$names" | wc -l) names, all cs_*"

#!/bin/bash
# architecture_test.sh SRC - the mechanical claims of docs/architecture.md
# and the public headers hold:
#  1. the labels of the body (cs_dfs in csearch/dfs.h) are the ones
#     section 2.2 names;
#  2. outside the body only engine.c and estimate.c call a model's apply
#     or undo hook (section 10);
#  3. a public header names only headers that are installed
#     (framework/include/csearch/).
set -u
src=$1
cd "$src" || exit 1
status=0
fail() {
    echo "FAIL: $*"
    status=1
}

# 1. the labels
code=$(sed -n '/^static CS_ALWAYS_INLINE int cs_dfs(/,/^}/p' \
    framework/include/csearch/dfs.h | grep -oE '^[a-z_]+:$' | tr -d ':' |
    sort | tr '\n' ' ')
doc=$(grep -A2 'labels (`' docs/architecture.md | tr '\n' ' ' |
    sed -n 's/.*labels (\([^)]*\)).*/\1/p' | grep -oE '`[a-z_]+`' | tr -d '`' |
    sort | tr '\n' ' ')
echo "labels in dfs.h: $code"
echo "labels in docs:  $doc"
[ -n "$code" ] && [ "$code" = "$doc" ] || fail "the labels differ"

# 2. who applies or undoes a move
callers=$(grep -lE '(->|\.)(apply|undo)\(' framework/*.c framework/*.h \
    framework/cli/*.c framework/output/*.c framework/compare/*.c \
    framework/include/csearch/*.h | xargs -n1 basename |
    sort | tr '\n' ' ')
echo "apply/undo called in: $callers"
[ "$callers" = "dfs.h engine.c estimate.c " ] ||
    fail "apply or undo called outside dfs.h, engine.c and estimate.c"

# 3. public headers name installed headers only
for h in $(grep -ohE 'csearch/[a-z_]+\.h' framework/include/csearch/*.h |
    sort -u); do
    [ -f "framework/include/$h" ] || fail "a public header names $h"
done
[ $status -eq 0 ] && echo "all claims hold"
exit $status

#!/bin/sh
# tests/python/doc-t.sh - doc/python.md and bench/python-triton-check.py:
#   - the CPU example (the first python block) runs from the top of the
#     source tree and prints exactly the text block that follows it;
#   - the Triton kernel of the doc is the one of the bench script;
#   - the bench script's comparison, run without a GPU (--no-gpu): equal
#     outputs pass, a flipped bit is caught, exit 0, and its log is written;
#   - without torch the script says it cannot run and exits 2.
. "${SMMA_SRCDIR:-$(dirname "$0")/../..}/tests/python/common.sh"

tmp=${TMPDIR:-/tmp}/smma-py-doc.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
doc=$SMMA_SRCDIR/doc/python.md
bench=$SMMA_SRCDIR/bench/python-triton-check.py
plan_lazy

awk '/^```python/ { n++; if (n == 1) { f = 1; next } } /^```/ { f = 0 } f' "$doc" >"$tmp/ex.py"
awk '/^```text/ { n++; if (n == 1) { f = 1; next } } /^```/ { f = 0 } f' "$doc" >"$tmp/want"
[ -s "$tmp/ex.py" ] && [ -s "$tmp/want" ]
ok $? "doc/python.md has a CPU example and its output"
(cd "$SMMA_SRCDIR" && "$py" "$tmp/ex.py") >"$tmp/seen" 2>&1
ok $? "the CPU example runs"
is "$(cat "$tmp/want")" "$(cat "$tmp/seen")" "the CPU example prints what the doc says"

# The kernel: from '@triton.jit' to its last line (the store), indentation
# removed.
kernel() {
    awk '/@triton.jit/ { f = 1 } f { print } f && /tl.store\(/ { exit }' "$1" | sed 's/^ *//'
}
k_doc=$(kernel "$doc")
k_bench=$(kernel "$bench")
[ -n "$k_doc" ]
ok $? "doc/python.md shows a Triton kernel"
is "$k_bench" "$k_doc" "the doc's Triton kernel is the bench script's"

"$py" "$bench" --no-gpu --log "$tmp/log" >"$tmp/out" 2>&1
rc=$?
t=1
case $(cat "$tmp/out") in
    *"self-check: one bit flipped on purpose"*"1 mismatch"*"D[1][2]: want 0x"*) t=$rc ;;
esac
case $(tail -n 1 "$tmp/out") in
    *" 0 mismatches "*"the comparison works"*) ;;
    *) t=1 ;;
esac
ok $t "bench/python-triton-check.py --no-gpu: equal outputs pass, a flipped bit is caught"
[ $t -eq 0 ] || diag "exit $rc: $(cat "$tmp/out")"
cmp -s "$tmp/out" "$tmp/log"
ok $? "--log writes the same report"

if "$py" -c 'import torch' >/dev/null 2>&1; then
    echo "ok $((tap_count + 1)) # SKIP torch is importable here"
    tap_count=$((tap_count + 1))
else
    "$py" "$bench" >"$tmp/out" 2>&1
    rc=$?
    t=1
    case $(cat "$tmp/out") in
        *"cannot run: No module named 'torch'"*) [ $rc -eq 2 ] && t=0 ;;
    esac
    ok $t "without torch the script cannot run: it says so, exit 2"
    [ $t -eq 0 ] || diag "exit $rc: $(cat "$tmp/out")"
fi

tap_done

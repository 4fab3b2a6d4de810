#!/bin/sh
# tests/python/doc-t.sh - doc/python.md, doc/examples/ and
# bench/python-triton-check.py:
#   - doc/examples/check-cli.sh (gen, export, a stand-in subject, ver) runs
#     as written in an empty directory with this build's softmma first on
#     PATH, exit 0, every case equal; with the stand-in's D one bit off it
#     exits 1 naming the case;
#   - doc/examples/check-python.py runs and prints the one differing entry
#     and the model that reproduces the fixed D;
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

# The thirty-second checks of doc/examples/, each at most 15 lines.
ex=$SMMA_SRCDIR/doc/examples
mkdir -p "$tmp/cli" "$tmp/cli-bad"
PATH=$(cd "$SMMA_BUILDDIR/tools" && pwd):$PATH
export PATH PYTHON
(cd "$tmp/cli" && sh "$ex/check-cli.sh") >"$tmp/out" 2>&1
rc=$?
is "0|gemm.mxfp8.exact: all 2 cases equal" "$rc|$(tail -n 1 "$tmp/out")" \
    "doc/examples/check-cli.sh runs as written: every case equal"
# The same script with the stand-in's D one bit off (D ^ 1 on case 1).
sed "s/c=x('c'), c_fmt='fp32'))/c=x('c'), c_fmt='fp32') ^ (i == 1))/" "$ex/check-cli.sh" \
    >"$tmp/bad.sh"
(cd "$tmp/cli-bad" && sh "$tmp/bad.sh") >"$tmp/out" 2>&1
rc=$?
case $(cat "$tmp/out") in
    *"case 1 "*"gemm.mxfp8.exact: 1 of 2 cases differ"*) t=$rc ;;
    *) t=0 ;;
esac
[ "$t" -eq 1 ]
ok $? "check-cli.sh with a subject one bit off: exit 1, the case shown"
[ "$(wc -l <"$ex/check-cli.sh")" -le 15 ] && [ "$(wc -l <"$ex/check-python.py")" -le 15 ]
ok $? "doc/examples: each check at most 15 lines"
(cd "$SMMA_SRCDIR" && "$py" "$ex/check-python.py") >"$tmp/out" 2>&1
is "2048 1 [(3, 5, '0x560acc4a', '0x560acc4b')]
['h100-fp8-promote32']" "$(cat "$tmp/out")" \
    "doc/examples/check-python.py: the differing entry, then the model that reproduces D"

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

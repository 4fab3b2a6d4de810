#!/bin/sh
# shellcheck disable=SC2086  # $p and $p23 are option lists, split on purpose
# tests/tools/match-cli-t.sh - softmma match (which models reproduce a
# subject's D), and the .npy files that ver, gemm --check and match read:
# equal and one-bit-off answers, --models, a model that does not take the
# problem, and files of the wrong dtype, shape or kind refused naming them.
#
# The .npy files are written by softmma itself (gemm --out D.npy, export
# --npy), byte for byte what np.save writes for the same array (checked by
# hand), so the test needs no numpy.  A one-bit change is made with dd: in
# a (16,) uint32 .npy file the header is 128 bytes, so byte 128 is the low
# byte of the first value.
#
# The problem: e4m3 x e4m3, m 8, n 8, k 300, seed 3, no scales; D under
# h100-fp8, whose aliases are cublaslt-fp8-fast and triton-dot-fp8.
# h100-fp8-promote32 promotes per scale block: it takes only scaled
# operands, so it does not take this problem.

if [ -z "$SMMA_SRCDIR" ]; then
    SMMA_SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${SMMA_BUILDDIR:=.}"
# shellcheck source-path=SCRIPTDIR/../..
# shellcheck source=tests/tap/libtap.sh
. "$SMMA_SRCDIR/tests/tap/libtap.sh"

prog=$SMMA_BUILDDIR/tools/softmma
tmp=${TMPDIR:-/tmp}/smma-match-cli.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
plan_lazy

p="--a e4m3 --b e4m3 --m 8 --n 8 --k 300 --seed 3"
run_prog "$prog" gemm $p --model h100-fp8 --out "$tmp/d.npy" --save-inputs "$tmp/in.txt"
run_prog "$prog" gemm $p --model h100-fp8 --out "$tmp/d.txt"
[ -s "$tmp/d.npy" ] && [ -s "$tmp/in.txt" ] && [ -s "$tmp/d.txt" ]
ok $? "gemm --out D.npy and --save-inputs write the subject's D and its inputs"

expect_out "gemm --check reads D as .npy" \
    "$tmp/d.npy: checked 64 of 64 entries of D under h100-fp8: 0 mismatches" \
    gemm $p --model h100-fp8 --check "$tmp/d.npy" --samples 64

# The first line: the model that computed D, with its aliases; the last
# line: one model reproduces D.
run_prog "$prog" match "$tmp/d.npy" $p
first=$(printf '%s\n' "$tap_out" | head -n 1)
last=$(printf '%s\n' "$tap_out" | tail -n 1)
is "0|match    h100-fp8               64 of 64 entries equal (also named cublaslt-fp8-fast, triton-dot-fp8)" \
    "$tap_rc|$first" "match: the model that computed D first, 64 of 64 equal, its aliases"
case $last in
    "1 of "*" models that take the problem reproduce D ("*" models do not take it)") t=0 ;;
    *) t=1 ;;
esac
ok $t "match: the last line counts the models that reproduce D"
n_differ=$(printf '%s\n' "$tap_out" | grep -c '^differs ')
[ "$n_differ" -eq 5 ]
ok $? "match: five differing models shown by default (--show)"

run_prog "$prog" match "$tmp/d.txt" --inputs "$tmp/in.txt"
is "0|$first" "$tap_rc|$(printf '%s\n' "$tap_out" | head -n 1)" \
    "match: the same answer from an inputs file and a text D"

expect_out "match --models: only those, matches first, the first differing entry in hex" \
"match    h100-fp8               64 of 64 entries equal (also named cublaslt-fp8-fast, triton-dot-fp8)
differs  exact-rn               64 of 64 entries differ; first D[0][0]: want 0xc73dbdcd got 0xc73ddc00
1 of 2 models that take the problem reproduce D (0 models do not take it)" \
    match "$tmp/d.npy" $p --models exact-rn,cublaslt-fp8-fast

# D with its first entry one bit off (0xc73ddc00 -> 0xc73ddc01): no model
# reproduces it, exit 1, and h100-fp8 names that entry.
sed '1s/^0xc73ddc00/0xc73ddc01/' "$tmp/d.txt" >"$tmp/bad.txt"
run_prog "$prog" match "$tmp/bad.txt" $p --models h100-fp8
is "1|differs  h100-fp8               1 of 64 entries differ; first D[0][0]: want 0xc73ddc00 got 0xc73ddc01
0 of 1 models that take the problem reproduce D (0 models do not take it)" "$tap_rc|$tap_out" \
    "match: one bit off, exit 1, the entry with both values in hex"

run_prog "$prog" match "$tmp/d.npy" $p --models h100-fp8-promote32
is "1|0 of 0 models that take the problem reproduce D (1 models do not take it)" \
    "$tap_rc|$tap_out" "match: a model that does not take the problem is counted, not run"

run_prog "$prog" match "$tmp/d.npy" $p --samples 10 --models h100-fp8
is "0|match    h100-fp8               10 of 10 entries equal (also named cublaslt-fp8-fast, triton-dot-fp8)" \
    "$tap_rc|$(printf '%s\n' "$tap_out" | head -n 1)" "match --samples: that many entries"

expect_err "match: no DFILE" "expected one DFILE" match $p
expect_err "match: an unknown model" "--models: " match "$tmp/d.npy" $p --models nope
expect_err "match: a missing D file named" "$tmp/none.npy: cannot open" \
    match "$tmp/none.npy" $p

# Files of the wrong kind, dtype or shape.
run_prog "$prog" export --npy decode.e2m1 "$tmp/e2m1"
run_prog "$prog" export --npy decode.e2m3 "$tmp/e2m3"
expect_err "gemm --check: an .npy D of the wrong dtype, naming file and expectation" \
    "$tmp/e2m1/code.npy: dtype |u1, expected <u4 (the bits of m x n fp32 D) or <f4" \
    gemm $p --model h100-fp8 --check "$tmp/e2m1/code.npy"
p23="--a e4m3 --b e4m3 --m 2 --n 3 --k 40"
run_prog "$prog" gemm $p23 --model exact-rn --out "$tmp/d23.npy"
expect_err "match: a transposed D refused by its shape" \
    "$tmp/d23.npy: shape (2, 3), expected (3, 2) (m x n fp32 D): transposed?" \
    match "$tmp/d23.npy" --a e4m3 --b e4m3 --m 3 --n 2 --k 40
expect_err "gemm --check: a bf16 D must be uint16" \
    "$tmp/d23.npy: dtype <u4, expected <u2 (the bits of m x n bf16 D)" \
    gemm $p23 --model exact-rn --d bf16 --check "$tmp/d23.npy"
echo "0x0" >"$tmp/text.npy"
expect_err "match: a text file named .npy refused" "$tmp/text.npy: not a NumPy .npy file" \
    match "$tmp/text.npy" $p

# ver RESULTS as a directory of .npy files, as export writes them.
expect_out "ver: a directory of .npy results, equal" "decode.e2m1: all 16 cases equal" \
    ver decode.e2m1 "$tmp/e2m1"
printf '\001' | dd of="$tmp/e2m1/value.npy" bs=1 seek=128 conv=notrunc 2>/dev/null
run_prog "$prog" ver decode.e2m1 "$tmp/e2m1"
case $tap_out in
    *"case 0 "*"out value"*"expected 00000000"*"got      00000001"*) t=$tap_rc ;;
    *) t=1 ;;
esac
[ "$t" -eq 1 ]
ok $? "ver: one .npy value changed, exit 1, the case shown"
cp "$tmp/e2m1/code.npy" "$tmp/e2m1/value.npy"
expect_err "ver: an .npy output of the wrong dtype, naming it" \
    "$tmp/e2m1/value.npy: dtype |u1, expected <u4 (the bits of output value of 16 cases) or <f4" \
    ver decode.e2m1 "$tmp/e2m1"
cp "$tmp/e2m3/value.npy" "$tmp/e2m1/value.npy"
expect_err "ver: an .npy output of the wrong shape" \
    "$tmp/e2m1/value.npy: shape (64,), expected (16,)" ver decode.e2m1 "$tmp/e2m1"
rm "$tmp/e2m1/value.npy"
expect_err "ver: a missing .npy output named" "$tmp/e2m1/value.npy: cannot open" \
    ver decode.e2m1 "$tmp/e2m1"

# Blocks: DIR/FIELD.CASE.npy.
run_prog "$prog" export --npy gemm.bf16-mxfp4.kernel.exact "$tmp/k"
expect_out "ver: a gemm suite's D blocks as .npy, equal" \
    "gemm.bf16-mxfp4.kernel.exact: all 4 cases equal" ver gemm.bf16-mxfp4.kernel.exact "$tmp/k"
cp "$tmp/k/d.0.npy" "$tmp/k/d.1.npy"
expect_err "ver: a block of another case's shape refused, naming file and case" \
    "$tmp/k/d.1.npy: shape (136, 24), expected (16, 264) (block d of case 1, 16 x 264)" \
    ver gemm.bf16-mxfp4.kernel.exact "$tmp/k"

tap_done

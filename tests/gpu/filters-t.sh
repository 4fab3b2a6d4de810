#!/bin/sh
# tests/gpu/filters-t.sh - the filters of tests/gpu/gemm-bs-t
# (SMMA_GEMM_KERNEL, SMMA_GEMM_PAIRS) and tests/gpu/gemm-t
# (SMMA_GEMM_KERNEL): a name the test does not know stops
# it at once with a "Bail out!" that names the value and a non-zero exit,
# before any device is looked for, so that a mistyped filter never leaves a
# run that checks nothing and passes.  The refusals are the same on every
# machine; names it knows do not bail (without a device the program then
# skips with the reason; with one it runs the chosen subset at level 0).

if [ -z "$SMMA_SRCDIR" ]; then
    SMMA_SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${SMMA_BUILDDIR:=.}"
# shellcheck source-path=SCRIPTDIR/../..
# shellcheck source=tests/tap/libtap.sh
. "$SMMA_SRCDIR/tests/tap/libtap.sh"

prog=$SMMA_BUILDDIR/tests/gpu/gemm-bs-t

plan_lazy

# bails DESC NEEDLE: the last run bailed out naming NEEDLE, with a non-zero
# exit.
bails() {
    case $tap_out in
        "Bail out! "*"$2"*) [ "$tap_rc" -ne 0 ] ;;
        *) false ;;
    esac
    ok $? "$1"
}

# run KERNEL PAIRS: gemm-bs-t with SMMA_GEMM_KERNEL and SMMA_GEMM_PAIRS set
# (empty: unset), at level 0.
run() {
    unset SMMA_GEMM_KERNEL SMMA_GEMM_PAIRS
    [ -n "$1" ] && export SMMA_GEMM_KERNEL="$1"
    [ -n "$2" ] && export SMMA_GEMM_PAIRS="$2"
    TEST_LEVEL=0
    export TEST_LEVEL
    run_prog "$prog"
    unset SMMA_GEMM_KERNEL SMMA_GEMM_PAIRS
}

run nope ""
bails "SMMA_GEMM_KERNEL=nope bails out, naming it" "SMMA_GEMM_KERNEL=nope"
run sm80-bs-smal ""
bails "a kernel name one letter short bails out" "SMMA_GEMM_KERNEL=sm80-bs-smal"
run "" mxfp8,nope
bails "SMMA_GEMM_PAIRS with one unknown pair bails out, naming the list" \
    "SMMA_GEMM_PAIRS=mxfp8,nope"
run "" mxfp
bails "a prefix of a pair's name is not a pair" "SMMA_GEMM_PAIRS=mxfp"

run sm80-bs-small nvfp4
case $tap_out in
    "Bail out!"*) false ;;
    *) [ "$tap_rc" -eq 0 ] ;;
esac
ok $? "SMMA_GEMM_KERNEL=sm80-bs-small SMMA_GEMM_PAIRS=nvfp4 is accepted (exit $tap_rc)"

# gemm-t's filter: the 16-bit kernels.
prog=$SMMA_BUILDDIR/tests/gpu/gemm-t
run sm80-bs-large ""
bails "gemm-t: a block-scaled kernel's name bails out, naming it" \
    "SMMA_GEMM_KERNEL=sm80-bs-large"
run sm90-v3 ""
bails "gemm-t: SMMA_GEMM_KERNEL=sm90-v3 bails out" "SMMA_GEMM_KERNEL=sm90-v3"
run sm90-v2 ""
case $tap_out in
    "Bail out!"*) false ;;
    *) [ "$tap_rc" -eq 0 ] ;;
esac
ok $? "gemm-t: SMMA_GEMM_KERNEL=sm90-v2 is accepted (exit $tap_rc)"

# sm90-bs-t's filter: the pairs of its kernels.
prog=$SMMA_BUILDDIR/tests/gpu/sm90-bs-t
run "" mxfp8,mxfp4-mxfp8
bails "sm90-bs-t: a pair it does not compute bails out, naming the list" \
    "SMMA_GEMM_PAIRS=mxfp8,mxfp4-mxfp8"
run sm90-v2 ""
bails "sm90-bs-t: a kernel it does not test bails out, naming it" "SMMA_GEMM_KERNEL=sm90-v2"
run "" mxfp8e5m2
case $tap_out in
    "Bail out!"*) false ;;
    *) [ "$tap_rc" -eq 0 ] ;;
esac
ok $? "sm90-bs-t: SMMA_GEMM_PAIRS=mxfp8e5m2 is accepted (exit $tap_rc)"

tap_done

#!/bin/sh
# tests/tools/gemm-bench-t.sh - bench/gemm-bench's refusals, before any
# device is looked for: SMMA_BENCH_CLOCK_MS other than a number of
# milliseconds from 0 to 60000, an unknown argument and too few --reps each
# stop it with exit 2 and a message naming the value; an accepted
# SMMA_BENCH_CLOCK_MS (0, 250) gets past its check to the next refusal.
# Skips where gemm-bench is not built (it needs CUDA and cuBLASLt).

if [ -z "$SMMA_SRCDIR" ]; then
    SMMA_SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
fi
: "${SMMA_BUILDDIR:=.}"
# shellcheck source-path=SCRIPTDIR/../..
# shellcheck source=tests/tap/libtap.sh
. "$SMMA_SRCDIR/tests/tap/libtap.sh"

prog=$SMMA_BUILDDIR/bench/gemm-bench
[ -x "$prog" ] || skip_all "bench/gemm-bench is not built (it needs CUDA and cuBLASLt)"
plan_lazy

# refused DESC NEEDLE ARGS...: gemm-bench exits 2 with NEEDLE on stderr and
# nothing on stdout (the environment as set by the caller).
refused() {
    desc=$1
    needle=$2
    shift 2
    out=$("$prog" "$@" 2>/dev/null)
    err=$("$prog" "$@" 2>&1 >/dev/null)
    rc=$?
    case $err in
        *"$needle"*) [ "$rc" -eq 2 ] && [ -z "$out" ] ;;
        *) false ;;
    esac
    ok $? "$desc (exit $rc: $err)"
}

for v in abc -1 60001 5x " 3"; do
    SMMA_BENCH_CLOCK_MS=$v
    export SMMA_BENCH_CLOCK_MS
    refused "SMMA_BENCH_CLOCK_MS='$v' is refused, naming it" "SMMA_BENCH_CLOCK_MS=$v" --ceilings
done
for v in 0 250 ""; do
    SMMA_BENCH_CLOCK_MS=$v
    export SMMA_BENCH_CLOCK_MS
    refused "SMMA_BENCH_CLOCK_MS='$v' is taken (the unknown argument stops it next)" \
        "unknown argument '--nope'" --nope
done
unset SMMA_BENCH_CLOCK_MS
refused "--reps 3 is refused" "--reps must be at least 10" --reps 3

tap_done

#!/bin/sh
# bench/h100-truth.sh - the GPU-machine runs behind three open questions of
# the reference (bench/h100-truth.md says what each output settles).
#
#   sh bench/h100-truth.sh q1   ml_dtypes' e8m0 cast vs the ml_dtypes profile:
#                               all 2^32 fp32 inputs and 1,000,000 doubles
#                               (python3 with numpy and ml_dtypes 0.6)
#   sh bench/h100-truth.sh q3   mma.sync.m16n8k32 e4m3 and e5m2 on the GPU vs
#                               h100-fp8-mma-sync and 36 candidate groupings,
#                               100,000 cases each; the probe's SASS
#   sh bench/h100-truth.sh q4   mma.sync.m16n8k16 with f16 accumulators vs
#                               h100-f16acc and 13 candidate roundings,
#                               100,000 cases
#
# Run from the top of a built tree (./configure && make); it builds the
# test programs it needs.  Logs, dumps (raw cases, mma-cases.h and
# tests/ref/ml-dtypes-t.c give their formats) and the SASS go to $OUT/qN/
# ($OUT must be set).  Each run stops after 230 seconds.  Exit status: that
# of the test (0 when every point passed).
set -u

q=${1:-}
if [ -z "${OUT:-}" ]; then
    echo "h100-truth.sh: set OUT to the directory for the logs" >&2
    exit 2
fi
if [ ! -f Makefile ] || [ ! -f config.h ]; then
    echo "h100-truth.sh: run it from the top of a configured and built tree" >&2
    exit 2
fi
jobs=$(nproc 2>/dev/null || echo 4)
dir=$OUT/$q
mkdir -p "$dir" || exit 2

summary() {
    echo "== $1 (full log: $2)"
    grep -E '^(ok|not ok|1\.\.|Bail)|^# (RESULT|CANDIDATE|device|ml_dtypes|  )|SKIP' "$2" |
        grep -v 'not in SMMA_MMA_ONLY'
}

case $q in
q1)
    make -j"$jobs" tests/ref/ml-dtypes-t >"$dir/build.log" 2>&1 || { cat "$dir/build.log"; exit 2; }
    SMMA_SRCDIR=${SMMA_SRCDIR:-.} TEST_LEVEL=2 SMMA_DUMP_DIR=$dir \
        timeout "${TRUTH_TIMEOUT:-230}" ./tests/ref/ml-dtypes-t >"$dir/ml-dtypes-t.log" 2>&1
    rc=$?
    summary "ml_dtypes e8m0, level 2" "$dir/ml-dtypes-t.log"
    ;;
q3|q4)
    make -j"$jobs" tests/gpu/mma-t tests/gpu/mma-replay >"$dir/build.log" 2>&1 ||
        { cat "$dir/build.log"; exit 2; }
    if [ "$q" = q3 ]; then
        only=mma.m16n8k32.e4m3,mma.m16n8k32.e5m2
        if command -v cuobjdump >/dev/null 2>&1; then
            cuobjdump -sass gpu/probes/mma_probe.o >"$dir/mma_probe.sass" 2>&1
            echo "== SASS of the probe: $dir/mma_probe.sass ($(grep -c 'HMMA\|F2FP\|QMMA' \
                "$dir/mma_probe.sass") HMMA/F2FP/QMMA lines)"
        else
            echo "== no cuobjdump: no SASS"
        fi
    else
        only=mma.m16n8k16.f16.f16
    fi
    TEST_LEVEL=1 SMMA_MMA_ONLY=$only SMMA_DUMP_DIR=$dir \
        timeout "${TRUTH_TIMEOUT:-230}" ./tests/gpu/mma-t >"$dir/mma-t.log" 2>&1
    rc=$?
    summary "mma-t $only, level 1" "$dir/mma-t.log"
    ;;
*)
    echo "usage: OUT=DIR sh bench/h100-truth.sh q1|q3|q4" >&2
    exit 2
    ;;
esac
exit $rc

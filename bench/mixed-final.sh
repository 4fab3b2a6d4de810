#!/bin/sh
# bench/mixed-final.sh - one device call for sm90-mixed (issue 42): its GPU
# test at level 0, compute-sanitizer memcheck and racecheck over the test
# for the pair bf16-mxfp4, the bench beside cuBLAS for BENCH_FORMATS (MXFP4) at
# M 1 .. 512, the wgmma probe with A from registers at N 8 .. 64, then
# synccheck; logs under $OUT.  DIR: a tree of programs built elsewhere
# (bench/device-run.sh DIR ...).
set -u
DIR=${1:-devtree}
OUT=${OUT:-$PWD/out}
T() { s=$1; shift; timeout "$s" "$@"; }
STEP_TIMEOUT=100 OUT=$OUT sh bench/device-run.sh "$DIR" mixed 2>&1 | tail -2
cd "$DIR" || exit 1
for tool in memcheck racecheck; do
    SMMA_SRCDIR=.. SMMA_GEMM_KERNEL=sm90-mixed SMMA_GEMM_PAIRS=bf16-mxfp4 TEST_LEVEL=0 \
        T 55 compute-sanitizer --tool $tool --error-exitcode 9 ./tests/gpu/sm90-bs-t \
        > "$OUT/sanitize-mixed-$tool.log" 2>&1
    echo "sm90-mixed $tool: exit $?"
    grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^not ok' "$OUT/sanitize-mixed-$tool.log" | tail -2
    grep -c '^ok' "$OUT/sanitize-mixed-$tool.log"
done
cd ..
BENCH_FORMATS=${BENCH_FORMATS:-mxfp4} STEP_TIMEOUT=60 OUT=$OUT sh bench/device-run.sh "$DIR" bench-mixed \
    2>&1 | grep -c RECORD
cd "$DIR" || exit 1
SMMA_SRCDIR=.. SMMA_WGMMA_CASES=100000 \
    SMMA_WGMMA_ONLY=wgmma.m64n8k16.bf16,wgmma.m64n16k16.bf16,wgmma.m64n32k16.bf16,wgmma.m64n64k16.bf16 \
    T 80 ./tests/gpu/wgmma-t > "$OUT/wgmma-regs.log" 2>&1
echo "wgmma-t: exit $?"; grep -E '^(not ok|1\.\.)' "$OUT/wgmma-regs.log" | head -5
grep -c '^ok' "$OUT/wgmma-regs.log"
SMMA_SRCDIR=.. SMMA_GEMM_KERNEL=sm90-mixed SMMA_GEMM_PAIRS=bf16-mxfp4 TEST_LEVEL=0 \
    T 50 compute-sanitizer --tool synccheck --error-exitcode 9 ./tests/gpu/sm90-bs-t \
    > "$OUT/sanitize-mixed-synccheck.log" 2>&1
echo "sm90-mixed synccheck: exit $?"
grep -E 'ERROR SUMMARY|^not ok' "$OUT/sanitize-mixed-synccheck.log" | tail -2

#!/bin/sh
# bench/device-run.sh - what the project runs on a GPU machine: builds a
# distribution tarball (no autotools needed there), then runs the steps
# named on the command line, each writing its log under $OUT (default
# ./out).  The records under bench/ name the steps that produced them.
#
#   bench/device-run.sh softmma-X.tar.gz build check gemm bench sanitize sass
#   bench/device-run.sh DIR sm90 sanitize-sm90 bench-sm90 sass-sm90
#
# A directory in place of the tarball is a tree of programs built elsewhere
# (bench/sm90-kernels.md says how: tests/gpu/*-t, bench/gemm-bench,
# tools/softmma), gzipped or not; the vectors are read from
# SMMA_SRCDIR (default: the directory above it).
#
# Steps:
#   build     ./configure && make -j16 && make -j16 bench (log: build.log)
#   check     make -j16 check: every TAP test, GPU ones included (check.log)
#   gemm      tests/gpu/gemm-t at TEST_LEVEL (default 1), alone (gemm-t.log)
#   bench     bench/gemm-bench, bf16 D then fp32 D, B K-major then N-major
#             (bench.log), with nvidia-smi's clocks before and after
#   sanitize  compute-sanitizer memcheck, racecheck and synccheck over
#             tests/gpu/gemm-t at level 0 (sanitize.log)
#   sass      cuobjdump -sass of the kernels' sm_90a code: instruction counts
#             per kernel (sass.txt), the listings of gpu/sm80 (sass-sm80.tgz)
#   ncu       Nsight Compute on one launch of sm80-v2 at 4096^3 (ncu-v2.txt,
#             ncu-v2-sass.csv.gz: stall samples per SASS instruction)
#   clocks    sm80-v2 and cuBLAS, 100 runs each, with the SM clock and power
#             seen meanwhile (clocks.log)
#   gemm-bs   tests/gpu/gemm-bs-t at TEST_LEVEL (gemm-bs-t.log)
#   bench-bs  bench/gemm-bench --formats all (bench-bs.log)
#   bench-small  bench/gemm-bench --formats all --shapes small (bench-small.log)
#   triton    bench/triton-dot-scaled.py: Triton's dot_scaled checked against
#             the model and timed (triton.log)
#   triton-v2 bench/triton-mma-v2.py: Triton's bf16 matmul built with mma.sync
#             and with wgmma beside cuBLAS (triton-v2.log)
#   pycheck   bench/python-triton-check.py: the Python module as Triton's
#             oracle (python-triton-check.log)
#   tma       tests/gpu/tma-t: the sm_100 kernels' TMA producer on sm_90a
#             against the dry run's shared-memory image (tma-t.log)
#   truth     bench/h100-truth.sh q3 and q4 (the sm_90 fp8 mma.sync and f16
#             accumulator questions; truth/), TRUTH_TIMEOUT seconds each
#   sanitize-bs  compute-sanitizer memcheck and racecheck over
#             tests/gpu/gemm-bs-t at level 0 (sanitize-bs.log)
#   sm100-sass   bench/sm100-sass.sh: the sm_100a SASS counts (sm100-sass.txt)
#   cli       tests/tools/gpu-cli-t.sh and examples of softmma gpu and
#             softmma gemm --on gpu --check/--bench (cli.log)
#   ncu-large Nsight Compute on one launch of sm80-bs-large (mxfp8, mxfp4)
#             at 8192^3 (ncu-large-*.txt, ncu-large-*-sass.csv.gz)
#   sm90      tests/gpu/gemm-t for sm90-v1 and sm90-v2 alone at TEST_LEVEL
#             (default 1), each under a 500 s timeout (gemm-sm90-v1.log,
#             gemm-sm90-v2.log); tests/gpu/tma-t (the sm_100 kernels'
#             producer on this device, tma-t.log)
#   sanitize-sm90  compute-sanitizer memcheck, racecheck and synccheck over
#             tests/gpu/gemm-t at level 0 for sm90-v1 and sm90-v2
#             (sanitize-sm90.log)
#   bench-sm90  bench/gemm-bench: sm90-v2 and sm90-v1 beside cuBLASLt at the
#             square and LLM shapes, bf16 D, then fp32 D and N-major B at
#             the square shapes, then sm90-v2's knobs (clusters of 1, groups
#             of 8 and 32 tile rows, 3 stages) (bench-sm90.log)
#   sass-sm90 cuobjdump -sass of gpu/sm90/gemm_v2.o and gemm_v1.o: instruction
#             counts per kernel (sass-sm90.txt), the listings (sass-sm90.tgz)
#   cli-sm90  softmma gpu, softmma gemm --on gpu with sm90-v2, auto and a
#             refusal (cli-sm90.log)
#   ncu-sm90  Nsight Compute on one launch of sm90-v2 at 8192^3: the tensor
#             pipe's busy fraction, the stall reasons, the stall samples of
#             every SASS instruction (ncu-sm90.txt, ncu-sm90-sass.csv.gz)
#   mixed     tests/gpu/sm90-bs-t for sm90-mixed alone at TEST_LEVEL (default
#             0), under a timeout of STEP_TIMEOUT s (default 500) (mixed.log)
#   sanitize-mixed  compute-sanitizer memcheck, racecheck and synccheck over
#             tests/gpu/sm90-bs-t at level 0 for sm90-mixed, the pairs of
#             SMMA_GEMM_PAIRS (default bf16-mxfp4) (sanitize-mixed.log)
#   bench-mixed  bench/gemm-bench --formats BENCH_FORMATS (default
#             bf16-mxfp4,mxfp4,nvfp4,mxfp8) --shapes
#             mixed: sm90-mixed and the other block-scaled kernels beside
#             cuBLASLt bf16 at M 1 .. 512 (bench-mixed.log)
#             (GEMM_BENCH names another build of gemm-bench; TAG is put
#             into the log's name: bench-mixed$TAG.log)
#   ncu-mixed Nsight Compute on one launch of sm90-mixed, bf16 x MXFP4 at
#             32 x 8192 x 8192 (ncu-mixed.txt, ncu-mixed-sass.csv.gz)
#   triton-mixed  bench/triton-dot-scaled.py --mixed TRITON_PAIRS (default
#             bf16-mxfp4,mxfp4,mxfp8): tl.dot_scaled at the shapes of
#             bench-mixed beside torch.matmul bf16 (triton-mixed.log)
#   mutants-gpu  the GPU sample of mutation testing (doc/testing.md): the
#             archive MUTANTS_GPU (default $SMMA_SRCDIR/mutants-gpu.tar.xz)
#             that tools/mutate.py gpu-build wrote, run by tools/mutate.py
#             gpu-run: the unmutated level-0 tests, then each mutant's;
#             killed K of N (mutants-gpu.log)
#   wgmma-regs  tests/gpu/wgmma-t for the bf16 wgmma with A from registers at
#             N 8, 16, 32, 64, 128 and 256, SMMA_WGMMA_CASES (default
#             100000) cases per numerics point (wgmma-regs.log)
#   ncu-small Nsight Compute on one launch of sm80-bs-small (mxfp8,
#             1 x 8192 x 8192; the version SMMA_SM80_BS_SMALL asks for:
#             the chosen one (5) unset, 1 with =regs, 3 with =transposed, 4
#             with =split-transposed, 5 with =split-transposed-wide) and the
#             SASS of gpu/sm80/bs_small.o and gemm_v2.o (ncu-small.txt,
#             sass-sm80.tgz)
#   quant-truth  bench/quantizer-truth.py: PyTorch's to_mxfp, JAX's quantize and
#             triton.tools.mxfp against the profiles pytorch, jax-jit (the
#             jitted run), jax (op by op) and triton-mxfp on every input class
#             (quantizer-truth.log, quantizer-truth-*.npz; replayed with no
#             GPU by bench/quantizer-replay.py), then tests/python/quantizers-t.py
#             (quantizers-t.log)
#   splitk    bench/cublaslt-probe.py: the cuBLASLt algorithm (split-K, tile,
#             reduction) of torch's bf16 and fp16 matmul per shape
#             (cublaslt-probe.txt, cublaslt-check.txt, cublaslt-probe.log)
#
# quant-truth and splitk need only the shared library: from a source tree
# whose .libs/ was built elsewhere, "bench/device-run.sh . quant-truth splitk".
set -u
tarball=$1
shift
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
jobs=${JOBS:-16}
dir=$(basename "$tarball" .tar.gz)

if [ -d "$tarball" ] && [ -f "$tarball/configure.ac" ]; then
    # a source tree (its .libs/ built elsewhere): nothing to unpack
    dir=$tarball
elif [ -d "$tarball" ]; then
    dir=$tarball
    : "${SMMA_SRCDIR:=$(cd "$tarball/.." && pwd)}"
    find "$dir" -name '*.gz' -exec gunzip -f {} +
    find "$dir" -type f \( -name '*-t' -o -name 'gemm-bench*' -o -name softmma \
        \) -exec chmod +x {} +
elif [ ! -d "$dir" ]; then
    tar xzf "$tarball" || exit 1
fi
cd "$dir" || exit 1
SRC=${SMMA_SRCDIR:-$PWD}

# The report $OUT/$1.txt and the stall samples of every SASS instruction
# ($OUT/$1-sass.csv.gz) of the Nsight Compute run $OUT/$1.ncu-rep, which
# is removed after.
ncu_report() {
    ncu -i "$OUT/$1.ncu-rep" --print-details all >"$OUT/$1.txt" 2>&1
    ncu -i "$OUT/$1.ncu-rep" --page source --csv --print-source sass 2>&1 |
        gzip >"$OUT/$1-sass.csv.gz"
    rm -f "$OUT/$1.ncu-rep"
}

for step in "$@"; do
    echo "=== $step ($(date -u +%H:%M:%S))"
    case $step in
    build)
        { ./configure ${CONFIGURE_FLAGS:-} && make -j"$jobs" && make -j"$jobs" bench \
              && make -j"$jobs" check TESTS=; } >"$OUT/build.log" 2>&1
        echo "build: exit $?"; tail -3 "$OUT/build.log"
        grep -A8 'configured:' "$OUT/build.log" ;;
    check)
        make -j"$jobs" check >"$OUT/check.log" 2>&1
        echo "check: exit $?"; tail -1 "$OUT/check.log"
        grep -h -E '^(not ok|FAIL|ERROR)' tests/*/*.log tests/*.log 2>/dev/null | head -20 ;;
    gemm)
        SMMA_SRCDIR=$PWD TEST_LEVEL=${TEST_LEVEL:-1} ./tests/gpu/gemm-t >"$OUT/gemm-t.log" 2>&1
        echo "gemm-t: exit $?"; grep -E '^(not ok|ok|#)' "$OUT/gemm-t.log" | cut -c1-200 ;;
    gemm-bs)
        SMMA_SRCDIR=$PWD TEST_LEVEL=${TEST_LEVEL:-1} ./tests/gpu/gemm-bs-t >"$OUT/gemm-bs-t.log" 2>&1
        echo "gemm-bs-t: exit $?"; grep -E '^(not ok|#)' "$OUT/gemm-bs-t.log" | cut -c1-200
        grep -c '^ok' "$OUT/gemm-bs-t.log" ;;
    bench-bs)
        ./bench/gemm-bench --formats all >"$OUT/bench-bs.log" 2>&1
        cat "$OUT/bench-bs.log" ;;
    bench-small)
        ./bench/gemm-bench --formats all --shapes small >"$OUT/bench-small.log" 2>&1
        cat "$OUT/bench-small.log" ;;
    triton)
        PYTHONUNBUFFERED=1 python3 bench/triton-dot-scaled.py --softmma tools/softmma \
            --out "$OUT" >"$OUT/triton.log" 2>&1
        echo "triton: exit $?"; grep -v '^  \(mxfp\|bf16\)' "$OUT/triton.log" | head -60 ;;
    triton-v2)
        PYTHONUNBUFFERED=1 python3 bench/triton-mma-v2.py >"$OUT/triton-v2.log" 2>&1
        echo "triton-v2: exit $?"; grep -v '^  ' "$OUT/triton-v2.log" ;;
    clocks)
        # sm80-v2 beside cuBLAS with the clocks and power seen during the
        # timed runs, 100 runs each (the median of 100).
        {
            ./bench/gemm-bench --kernels sm80-v2 --shapes square --reps 100
        } >"$OUT/clocks.log" 2>&1
        cat "$OUT/clocks.log" ;;
    bench)
        {
            nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv
            ./bench/gemm-bench --kernels sm80-v2,sm80-v1 --shapes square
            ./bench/gemm-bench --kernels sm80-v2
            ./bench/gemm-bench --kernels sm80-v2 --d fp32 --shapes square
            ./bench/gemm-bench --kernels sm80-v2 --b nmajor --shapes square
            echo "SMMA_SM80_V2_STAGES=3:"
            SMMA_SM80_V2_STAGES=3 ./bench/gemm-bench --kernels sm80-v2 --shapes square
            ./bench/gemm-bench --ceilings
            nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv
        } >"$OUT/bench.log" 2>&1
        cat "$OUT/bench.log" ;;
    sanitize)
        : >"$OUT/sanitize.log"
        for tool in memcheck racecheck synccheck; do
            echo "--- compute-sanitizer --tool $tool" >>"$OUT/sanitize.log"
            SMMA_SRCDIR=$PWD TEST_LEVEL=0 compute-sanitizer --tool "$tool" \
                ./tests/gpu/gemm-t >>"$OUT/sanitize.log" 2>&1
            echo "$tool: exit $?" | tee -a "$OUT/sanitize.log"
            grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize.log" | tail -1
        done ;;
    quant-truth)
        # the library, whether the carried .libs kept its links or not
        qlib=$(ls "$PWD"/.libs/libsoftmma.so.0 "$PWD"/.libs/libsoftmma.so.0.* 2>/dev/null |
                   head -1)
        PYTHONUNBUFFERED=1 SOFTMMA_LIB=$qlib PYTHONPATH=$PWD/python \
            SMMA_SRCDIR=$SRC timeout 300 python3 bench/quantizer-truth.py --out "$OUT" \
            >"$OUT/quantizer-truth.out" 2>&1
        echo "quant-truth: exit $?"; grep -c '^ok' "$OUT/quantizer-truth.log"
        grep -E '^(not ok|#)' "$OUT/quantizer-truth.log" | cut -c1-400 | head -150
        PYTHONUNBUFFERED=1 SOFTMMA_LIB=$qlib PYTHONPATH=$PWD/python \
            SMMA_SRCDIR=$SRC timeout 240 python3 tests/python/quantizers-t.py \
            >"$OUT/quantizers-t.log" 2>&1
        echo "quantizers-t: exit $?"; grep -E '^(not ok|1\.\.)' "$OUT/quantizers-t.log" |
            cut -c1-200 | head -40 ;;
    splitk)
        PYTHONUNBUFFERED=1 timeout 300 python3 bench/cublaslt-probe.py --out "$OUT" \
            >"$OUT/cublaslt-probe.log" 2>&1
        echo "splitk: exit $?"; cut -c1-300 "$OUT/cublaslt-probe.log" | head -120 ;;
    pycheck)
        PYTHONUNBUFFERED=1 SOFTMMA_LIB=$PWD/.libs/libsoftmma.so.0 PYTHONPATH=$PWD/python \
            timeout 300 python3 bench/python-triton-check.py \
            --log "$OUT/python-triton-check.log" >"$OUT/python-triton-check.out" 2>&1
        echo "pycheck: exit $?"; tail -3 "$OUT/python-triton-check.out" ;;
    tma)
        SMMA_SRCDIR=$PWD ./tests/gpu/tma-t >"$OUT/tma-t.log" 2>&1
        echo "tma-t: exit $?"; grep -E '^(not ok|1\.\.)' "$OUT/tma-t.log" | head
        grep -c '^ok' "$OUT/tma-t.log" ;;
    truth)
        for q in q3 q4; do
            OUT=$OUT/truth TRUTH_TIMEOUT=${TRUTH_TIMEOUT:-230} sh bench/h100-truth.sh $q \
                >"$OUT/truth-$q.log" 2>&1
            echo "truth $q: exit $?"; tail -12 "$OUT/truth-$q.log"
        done ;;
    sanitize-bs)
        : >"$OUT/sanitize-bs.log"
        for tool in memcheck racecheck; do
            echo "--- compute-sanitizer --tool $tool" >>"$OUT/sanitize-bs.log"
            SMMA_SRCDIR=$PWD TEST_LEVEL=0 compute-sanitizer --tool "$tool" \
                ./tests/gpu/gemm-bs-t >>"$OUT/sanitize-bs.log" 2>&1
            echo "$tool: exit $?" | tee -a "$OUT/sanitize-bs.log"
            grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-bs.log" | tail -1
        done ;;
    sm100-sass)
        sh bench/sm100-sass.sh . "$OUT" >"$OUT/sm100-sass.out" 2>&1
        echo "sm100-sass: exit $?"; tail -20 "$OUT/sm100-sass.out" ;;
    sass)
        : >"$OUT/sass.txt"
        for o in gpu/sm80/*.o gpu/sm100/*.o gpu/probes/mma_probe.o; do
            [ -f "$o" ] || continue
            echo "--- $o" >>"$OUT/sass.txt"
            cuobjdump -sass -arch sm_90a "$o" >"$o.sass" 2>&1
            awk '/Function :/ { f = $3 }
                 /^ +\/\*[0-9a-f]+\*\// {
                     line = $0; sub(/^ +\/\*[0-9a-f]+\*\/ +/, "", line);
                     split(line, q, " "); op = q[1]; if (op ~ /^@/) op = q[2];
                     sub(/\..*/, "", op); sub(/;$/, "", op); n[f " " op]++ }
                 END { for (k in n) print n[k], k }' "$o.sass" | sort -k2,2 -k1,1nr \
                 >>"$OUT/sass.txt"
        done
        tar czf "$OUT/sass-sm80.tgz" gpu/sm80/*.sass
        grep -E 'HMMA|LDSM|LDGSTS|BAR|UTC|LDG' "$OUT/sass.txt" | head -60 ;;
    ncu)
        # One launch of sm80-v2 at 4096^3 (Nsight Compute locks the clock to
        # the base clock, so the figures are per clock): the sections that say
        # where the time goes, the tensor pipe's and shared memory's busy
        # fractions, and the stall samples of every SASS instruction
        # (ncu-v2-sass.csv.gz).
        ncu -k regex:sm80_v2 -s 2 -c 1 --section SpeedOfLight \
            --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
            --section MemoryWorkloadAnalysis_Tables --section SchedulerStats \
            --section WarpStateStats --section InstructionStats --section Occupancy \
            --section LaunchStats --section SourceCounters \
            --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_hmma.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second \
            -o "$OUT/ncu-v2" ./bench/gemm-bench --kernels sm80-v2 --shapes square \
            --reps 10 >"$OUT/ncu.out" 2>&1
        echo "ncu: exit $?"
        ncu_report ncu-v2
        grep -E 'Throughput|Pipe|pipe|Stall|Bank|Issue|Warp Cycles|Eligible|Registers|Duration|per_second|wavefronts' \
            "$OUT/ncu-v2.txt" | head -80 ;;
    cli)
        {
            SMMA_SRCDIR=$PWD SMMA_BUILDDIR=$PWD sh tests/tools/gpu-cli-t.sh
            echo "gpu-cli-t: exit $?"
            ./tools/softmma gpu
            for k in sm80-v2 auto; do
                ./tools/softmma gemm --a bf16 --b bf16 --m 1000 --n 1500 --k 520 --c fp32 \
                    --d bf16 --on gpu --kernel $k --check 1500000
                echo "check $k: exit $?"
            done
            ./tools/softmma gemm --a e2m1 --b e2m1 --scale ue4m3 --vec 16 --alpha 0.375 \
                --m 16 --n 4096 --k 4096 --d bf16 --on gpu --check 65536
            echo "check nvfp4 small: exit $?"
            ./tools/softmma gemm --a bf16 --b bf16 --m 4096 --n 4096 --k 4096 --d bf16 \
                --on gpu --kernel sm80-v2 --bench
            echo "bench: exit $?"
            ./tools/softmma gemm --a bf16 --b bf16 --m 16 --n 16 --k 12 --on gpu \
                --kernel sm80-v2 --check 10
            echo "refused (k 12): exit $?"
        } >"$OUT/cli.log" 2>&1
        cat "$OUT/cli.log" | grep -v '^ok' | head -60
        grep -c '^ok' "$OUT/cli.log" ;;
    ncu-large)
        # One launch each of sm80-bs-large for mxfp8 and mxfp4 at 8192^3:
        # the pipes' busy fractions, the stall reasons and the stall samples
        # of every SASS instruction (ncu-large-<format>-sass.csv.gz).
        for f in mxfp8 mxfp4; do
            ncu -k regex:"bs_large|bs_ws" -s 1 -c 1 --section SpeedOfLight \
                --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
                --section SchedulerStats --section WarpStateStats \
                --section InstructionStats --section Occupancy --section LaunchStats \
                --section SourceCounters \
                --metrics sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed \
                -o "$OUT/ncu-large-$f" ./bench/gemm-bench \
                --formats $f --shapes large --reps 10 >"$OUT/ncu-large-$f.out" 2>&1
            echo "ncu-large $f: exit $?"
            ncu_report "ncu-large-$f"
            grep -E 'Throughput|Pipe|pipe|Stall|Issue|Warp Cycles|Eligible|Registers|Duration' \
                "$OUT/ncu-large-$f.txt" | head -50
        done ;;
    ncu-small)
        ncu -k regex:"bs_small|bs_split|bs_s3" -s 1 -c 1 --section SpeedOfLight \
            --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
            --section SchedulerStats --section WarpStateStats --section InstructionStats \
            --section Occupancy --section LaunchStats --section SourceCounters \
            ./bench/gemm-bench --formats mxfp8 --shapes small --reps 10 \
            >"$OUT/ncu-small.txt" 2>&1
        echo "ncu-small: exit $?"
        grep -E 'Throughput|Stall|Issue|Warp Cycles|Eligible|Registers|Duration|Sectors|Hit Rate|Occupancy|Bandwidth' \
            "$OUT/ncu-small.txt" | head -60
        for o in gpu/sm80/bs_small.o gpu/sm80/gemm_v2.o; do
            cuobjdump -sass -arch sm_90a "$o" >"$o.sass" 2>&1
        done
        tar czf "$OUT/sass-sm80.tgz" gpu/sm80/*.sass ;;
    sm90)
        for k in sm90-v1 sm90-v2; do
            SMMA_SRCDIR=$SRC SMMA_GEMM_KERNEL=$k TEST_LEVEL=${TEST_LEVEL:-1} timeout 500 \
                ./tests/gpu/gemm-t >"$OUT/gemm-$k.log" 2>&1
            echo "gemm-t $k: exit $?"; grep -E '^(not ok|#)' "$OUT/gemm-$k.log" | cut -c1-220 | head -20
            grep -c '^ok' "$OUT/gemm-$k.log"
        done
        SMMA_SRCDIR=$SRC timeout 120 ./tests/gpu/tma-t >"$OUT/tma-t.log" 2>&1
        echo "tma-t: exit $?"; grep -E '^(not ok|1\.\.)' "$OUT/tma-t.log" | head
        grep -c '^ok' "$OUT/tma-t.log" ;;
    sanitize-sm90)
        : >"$OUT/sanitize-sm90.log"
        for k in sm90-v1 sm90-v2; do
            for tool in memcheck racecheck synccheck; do
                echo "--- compute-sanitizer --tool $tool, $k" >>"$OUT/sanitize-sm90.log"
                SMMA_SRCDIR=$SRC SMMA_GEMM_KERNEL=$k TEST_LEVEL=0 timeout 300 \
                    compute-sanitizer --tool "$tool" --error-exitcode 9 ./tests/gpu/gemm-t \
                    >>"$OUT/sanitize-sm90.log" 2>&1
                echo "$k $tool: exit $?" | tee -a "$OUT/sanitize-sm90.log"
                grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-sm90.log" | tail -1
            done
        done ;;
    bench-sm90)
        {
            nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv
            ./bench/gemm-bench --kernels sm90-v2,sm90-v1 --shapes square,llm
            ./bench/gemm-bench --kernels sm90-v2 --d fp32 --shapes square
            ./bench/gemm-bench --kernels sm90-v2 --b nmajor --shapes square
            for knob in SMMA_SM90_CLUSTER=1 SMMA_SM90_GROUP=8 SMMA_SM90_GROUP=32 \
                        SMMA_SM90_STAGES=3; do
                echo "$knob:"
                env "$knob" ./bench/gemm-bench --kernels sm90-v2 --shapes square
            done
            nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv
        } >"$OUT/bench-sm90.log" 2>&1
        grep -E 'sm90|device|=|TFLOP' "$OUT/bench-sm90.log" ;;
    sass-sm90)
        : >"$OUT/sass-sm90.txt"
        for o in gpu/sm90/gemm_v2.o gpu/sm90/gemm_v1.o; do
            [ -f "$o" ] || continue
            echo "--- $o" >>"$OUT/sass-sm90.txt"
            cuobjdump -sass "$o" >"$o.sass" 2>&1
            awk '/Function :/ { f = $3 }
                 /^ +\/\*[0-9a-f]+\*\// {
                     line = $0; sub(/^ +\/\*[0-9a-f]+\*\/ +/, "", line);
                     split(line, q, " "); op = q[1]; if (op ~ /^@/) op = q[2];
                     sub(/\..*/, "", op); sub(/;$/, "", op); n[f " " op]++ }
                 END { for (k in n) print n[k], k }' "$o.sass" | sort -k2,2 -k1,1nr \
                 >>"$OUT/sass-sm90.txt"
        done
        tar czf "$OUT/sass-sm90.tgz" gpu/sm90/*.sass
        grep -E 'HGMMA|LDL|STL|WARPGROUP|SYNCS|UTMA|BAR' "$OUT/sass-sm90.txt" | head -80 ;;
    cli-sm90)
        {
            timeout 60 ./tools/softmma gpu
            timeout 60 ./tools/softmma gemm --a bf16 --b bf16 --m 1000 --n 1500 --k 520 \
                --c fp32 --d bf16 --on gpu --kernel sm90-v2 --check 1500000
            echo "check sm90-v2: exit $?"
            timeout 60 ./tools/softmma gemm --a bf16 --b bf16 --m 200 --n 300 --k 100 \
                --d fp32 --on gpu --kernel sm90-v1 --check 60000
            echo "check sm90-v1: exit $?"
            timeout 60 ./tools/softmma gemm --a fp16 --b fp16 --m 300 --n 700 --k 77 --d fp16 \
                --alpha 0.375 --on gpu --check 210000
            echo "check auto: exit $?"
            timeout 60 ./tools/softmma gemm --a bf16 --b bf16 --m 4096 --n 4096 --k 4096 \
                --d bf16 --on gpu --kernel sm90-v2 --bench
            echo "bench: exit $?"
            timeout 60 ./tools/softmma gemm --a e4m3 --b e4m3 --scale e8m0 --m 128 --n 128 \
                --k 128 --on gpu --kernel sm90-v2 --check 10
            echo "refused (mxfp8 on sm90-v2): exit $?"
        } >"$OUT/cli-sm90.log" 2>&1
        cat "$OUT/cli-sm90.log" | cut -c1-200 | head -60 ;;
    ncu-sm90)
        ncu -k regex:s90_gemm_v2 -s 2 -c 1 --section SpeedOfLight \
            --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
            --section SchedulerStats --section WarpStateStats --section InstructionStats \
            --section Occupancy --section LaunchStats --section SourceCounters \
            --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second \
            -o "$OUT/ncu-sm90" ./bench/gemm-bench --kernels sm90-v2 --shapes square \
            --reps 10 >"$OUT/ncu-sm90.out" 2>&1
        echo "ncu-sm90: exit $?"
        ncu_report ncu-sm90
        grep -E 'Throughput|Pipe|pipe|Stall|Issue|Warp Cycles|Eligible|Registers|Duration|per_second|gmma' \
            "$OUT/ncu-sm90.txt" | head -60 ;;
    mixed)
        SMMA_SRCDIR=$SRC SMMA_GEMM_KERNEL=sm90-mixed TEST_LEVEL=${TEST_LEVEL:-0} \
            timeout "${STEP_TIMEOUT:-500}" ./tests/gpu/sm90-bs-t >"$OUT/mixed.log" 2>&1
        echo "sm90-bs-t sm90-mixed: exit $?"
        grep -E '^(not ok|#)' "$OUT/mixed.log" | cut -c1-220 | head -40
        grep -c '^ok' "$OUT/mixed.log" ;;
    sanitize-mixed)
        : >"$OUT/sanitize-mixed.log"
        for tool in memcheck racecheck synccheck; do
            echo "--- compute-sanitizer --tool $tool" >>"$OUT/sanitize-mixed.log"
            SMMA_SRCDIR=$SRC SMMA_GEMM_KERNEL=sm90-mixed \
                SMMA_GEMM_PAIRS=${SMMA_GEMM_PAIRS:-bf16-mxfp4} TEST_LEVEL=0 timeout 300 \
                compute-sanitizer --tool "$tool" --error-exitcode 9 ./tests/gpu/sm90-bs-t \
                >>"$OUT/sanitize-mixed.log" 2>&1
            echo "sm90-mixed $tool: exit $?" | tee -a "$OUT/sanitize-mixed.log"
            grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-mixed.log" | tail -1
        done ;;
    bench-mixed)
        {
            nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv
            timeout "${STEP_TIMEOUT:-500}" ${GEMM_BENCH:-./bench/gemm-bench} \
                --formats ${BENCH_FORMATS:-bf16-mxfp4,mxfp4,nvfp4,mxfp8} --shapes mixed
            nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv
        } >"$OUT/bench-mixed${TAG:-}.log" 2>&1
        grep -E 'RECORD|device|name' "$OUT/bench-mixed${TAG:-}.log" ;;
    ncu-mixed)
        # One launch of sm90-mixed on bf16 x MXFP4, M 32 x 8192 x 8192 (the
        # sixth shape of the set, after 12 launches of each of the five
        # before it): stall reasons and the samples of every SASS line.
        ncu -k regex:s90_gemm_mixed -s 62 -c 1 --section SpeedOfLight \
            --section MemoryWorkloadAnalysis --section SchedulerStats \
            --section WarpStateStats --section InstructionStats --section Occupancy \
            --section LaunchStats --section SourceCounters \
            --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active \
            -o "$OUT/ncu-mixed" ./bench/gemm-bench --formats bf16-mxfp4 --shapes mixed \
            --reps 10 --warmup 2 >"$OUT/ncu-mixed.out" 2>&1
        echo "ncu-mixed: exit $?"
        ncu_report ncu-mixed
        grep -E 'Throughput|Pipe|pipe|Stall|Issue|Warp Cycles|Eligible|Registers|Duration|gmma|Grid|Block Size' \
            "$OUT/ncu-mixed.txt" | head -60 ;;
    triton-mixed)
        timeout "${STEP_TIMEOUT:-500}" python3 "$SRC/bench/triton-dot-scaled.py" \
            --mixed ${TRITON_PAIRS:-bf16-mxfp4,mxfp4,mxfp8} >"$OUT/triton-mixed.log" 2>&1
        echo "triton-mixed: exit $?"
        grep -E '^(triton|device)' "$OUT/triton-mixed.log" | head -100 ;;
    mutants-gpu)
        python3 "$SRC/tools/mutate.py" --srcdir "$SRC" gpu-run \
            "${MUTANTS_GPU:-$SRC/mutants-gpu.tar.xz}" --work "$OUT/mutants-gpu" \
            >"$OUT/mutants-gpu.log" 2>&1
        echo "mutants-gpu: exit $?"; grep -v '^[0-9][0-9] .* killed' "$OUT/mutants-gpu.log"
        rm -rf "$OUT/mutants-gpu" ;;
    wgmma-regs)
        SMMA_SRCDIR=$SRC SMMA_WGMMA_CASES=${SMMA_WGMMA_CASES:-100000} \
            SMMA_WGMMA_ONLY=wgmma.m64n8k16.bf16,wgmma.m64n16k16.bf16,wgmma.m64n32k16.bf16,wgmma.m64n64k16.bf16,wgmma.m64n128k16.bf16,wgmma.m64n256k16.bf16 \
            timeout 560 ./tests/gpu/wgmma-t >"$OUT/wgmma-regs.log" 2>&1
        echo "wgmma-t: exit $?"; grep -E '^(not ok|#|1\.\.)' "$OUT/wgmma-regs.log" | cut -c1-200 | head -40
        grep -c '^ok' "$OUT/wgmma-regs.log" ;;
    *)
        echo "unknown step $step"; exit 2 ;;
    esac
done

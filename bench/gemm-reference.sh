#!/bin/sh
# bench/gemm-reference.sh - reference GEMM throughput, 512x512x512, one thread.
# Run from the top of a built tree: sh bench/gemm-reference.sh
cd "$(dirname "$0")/.." || exit 1
for f in "e2m1 --b e2m1" "e4m3 --b e4m3"; do
  for m in exact-rn exact-rz fp32-fma-seq h100-fp8 b200-fp8 bf16-upcast-h100 h100-fp8-promote32; do
    ./tools/softmma gemm --a $f --scale e8m0 --vec 32 --m 512 --n 512 --k 512 --model $m --bench
  done
done

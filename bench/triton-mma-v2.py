#!/usr/bin/env python3
"""bench/triton-mma-v2.py - how fast a compiler-generated mma.sync bf16 GEMM
runs on this GPU: Triton's matmul built with mma.sync (DISABLE_MMA_V3=1,
the instruction sm80-v2 uses) and with wgmma (Triton's default on sm_90),
beside cuBLAS bf16 (torch.matmul) in the same process.

  python3 bench/triton-mma-v2.py [--shapes 4096,8192] [--reps 20]

Each mode runs in a process of its own (the environment variable is read
when Triton compiles).  For each square shape: A (M x K) and B (N x K, K
major, as sm80-v2's default) bf16, D bf16, fp32 accumulation; the best of
16 tile configurations (tile M 128; tile N 128 or 256; tile K 32 or 64; 4 or
8 warps; 3 or 4 stages), each timed with CUDA events around single launches:
5 warm-up runs, the median of --reps.  Triton's D is compared with cuBLAS's
element by element only as a sanity check (both sum in fp32, in different
orders); its numerics are not softmma's business here.  The record of a run
is bench/sm80-kernels.md.
"""
import argparse
import itertools
import os
import statistics
import subprocess
import sys

CONFIGS = list(itertools.product([128], [128, 256], [32, 64], [4, 8], [3, 4]))


def child(mode, shapes, reps):
    if mode == "mma-v2":
        os.environ["DISABLE_MMA_V3"] = "1"
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def mm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
           BK: tl.constexpr, GROUP: tl.constexpr):
        pid = tl.program_id(0)
        num_n = tl.cdiv(N, BN)
        # groups of GROUP tile rows, column by column inside a group
        pid_m, pid_n = tl.swizzle2d(pid // num_n, pid % num_n, tl.cdiv(M, BM), num_n, GROUP)
        offs_m = pid_m * BM + tl.arange(0, BM)
        offs_n = pid_n * BN + tl.arange(0, BN)
        offs_k = tl.arange(0, BK)
        a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
        b_ptrs = b_ptr + offs_n[None, :] * K + offs_k[:, None]
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for _ in range(0, tl.cdiv(K, BK)):
            acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
            a_ptrs += BK
            b_ptrs += BK
        c_ptrs = c_ptr + offs_m[:, None] * N + offs_n[None, :]
        tl.store(c_ptrs, acc.to(tl.bfloat16))

    def timed(fn):
        for _ in range(5):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(reps):
            s = torch.cuda.Event(enable_timing=True)
            e = torch.cuda.Event(enable_timing=True)
            s.record()
            fn()
            e.record()
            e.synchronize()
            times.append(s.elapsed_time(e))
        return statistics.median(times)

    dev = torch.cuda.get_device_name()
    print(f"# mode {mode}, device {dev}, triton {triton.__version__}, torch {torch.__version__}",
          flush=True)
    for n in shapes:
        torch.manual_seed(n)
        a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)  # rows n, K major
        c = torch.empty(n, n, device="cuda", dtype=torch.bfloat16)
        flops = 2.0 * n * n * n
        ref = torch.matmul(a, b.t())
        cb = timed(lambda: torch.matmul(a, b.t(), out=c))
        print(f"{n}^3 cuBLAS (torch.matmul): {cb:.4f} ms, {flops / cb / 1e9:.1f} TFLOP/s",
              flush=True)
        best = None
        for bm, bn, bk, warps, stages in CONFIGS:
            grid = (triton.cdiv(n, bm) * triton.cdiv(n, bn),)
            try:
                def run():
                    mm[grid](a, b, c, n, n, n, BM=bm, BN=bn, BK=bk, GROUP=8,
                             num_warps=warps, num_stages=stages)
                ms = timed(run)
            except Exception as ex:  # out of shared memory, registers
                print(f"  {bm}x{bn}x{bk} w{warps} s{stages}: {type(ex).__name__}", flush=True)
                continue
            diff = (c.float() - ref.float()).abs().max().item()
            print(f"  {bm}x{bn}x{bk} w{warps} s{stages}: {ms:.4f} ms, "
                  f"{flops / ms / 1e9:.1f} TFLOP/s, {cb / ms:.3f}x cuBLAS, "
                  f"max |D - cuBLAS| {diff:.3g}", flush=True)
            if best is None or ms < best[0]:
                best = (ms, (bm, bn, bk, warps, stages))
        if best is not None:
            ms, (bm, bn, bk, warps, stages) = best
            print(f"{n}^3 {mode} best {bm}x{bn}x{bk} w{warps} s{stages}: "
                  f"{flops / ms / 1e9:.1f} TFLOP/s, {cb / ms:.3f}x cuBLAS", flush=True)
            # which instruction the best configuration compiled to
            try:
                k = mm.warmup(a, b, c, n, n, n, BM=bm, BN=bn, BK=bk, GROUP=8,
                              num_warps=warps, num_stages=stages, grid=(1,))
                ptx = k.asm.get("ptx", "")
                print(f"{n}^3 {mode} best: mma.sync in its PTX {ptx.count('mma.sync')}, "
                      f"wgmma {ptx.count('wgmma.mma_async')}", flush=True)
            except Exception as ex:
                print(f"{n}^3 {mode} best: PTX not read ({type(ex).__name__}: {ex})",
                      flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shapes", default="4096,8192")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--child", choices=["mma-v2", "wgmma"])
    args = ap.parse_args()
    shapes = [int(x) for x in args.shapes.split(",")]
    if args.child:
        child(args.child, shapes, args.reps)
        return 0
    rc = 0
    for mode in ("mma-v2", "wgmma"):
        r = subprocess.run([sys.executable, __file__, "--child", mode, "--shapes", args.shapes,
                            "--reps", str(args.reps)])
        rc = rc or r.returncode
    return rc


if __name__ == "__main__":
    sys.exit(main())

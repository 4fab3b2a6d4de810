#!/usr/bin/env python3
"""bench/triton-dot-scaled.py - Triton's tl.dot_scaled on this GPU: its D
checked against softmma's model bf16-upcast-<gpu> bit for bit, and its speed
at 8192^3, the best of 16 tile configurations, beside cuBLAS bf16 (torch) in
the same process.

  python3 bench/triton-dot-scaled.py [--softmma tools/softmma] [--out DIR]
                                     [--formats mxfp8,mxfp4,bf16-mxfp4,...]
                                     [--check-shapes 256x256x512,128x128x512]
                                     [--mixed mxfp4,bf16-mxfp4,mxfp8]

Formats (A x B, e8m0 scales per 32): mxfp8 (e4m3 x e4m3), mxfp8e5m2-e4m3
(e5m2 x e4m3), mxfp4 (e2m1 x e2m1), mxfp8-mxfp4 (e4m3 x e2m1), bf16-mxfp4
(bf16 x e2m1, A unscaled).  The check writes the inputs and Triton's D as a
softmma-gemm-inputs file and a D file and runs `softmma gemm --inputs ...
--check ...` on every element; the softmma program must be built.  The
timing compiles the 16 configurations in parallel processes first (Triton's
cache), then times each with triton.testing.do_bench (CUDA events, the
median).  The record of a run is bench/sm80-kernels.md.

--mixed times the same kernel at the shapes of LLM decoding and small
prefill instead (M in 1, 2, 4, ..., 512 rows of activations, A, times
weights B of N x K in 8192 x 8192, 28672 x 8192, 8192 x 28672), the best of
a few small-M tile configurations a shape (rows of A past M masked), beside
torch.matmul in bf16 at each shape, and prints one line a shape:
"triton <pair> M=<m> N=<n> K=<k>: <r>x cuBLAS bf16 (<card>)", the form of
bench/sm90-kernels.md.  Triton 3.6's dot_scaled takes e8m0 scales only:
NVFP4 (ue4m3 per 16) is not timed.
"""
import argparse
import multiprocessing as mp
import os
import subprocess
import sys

import torch
import triton
import triton.language as tl

FORMATS = {
    "mxfp8": ("e4m3", "e4m3"),
    "mxfp8e5m2-e4m3": ("e5m2", "e4m3"),
    "mxfp4": ("e2m1", "e2m1"),
    "mxfp8-mxfp4": ("e4m3", "e2m1"),
    "bf16-mxfp4": ("bf16", "e2m1"),
}
SOFTMMA_FMT = {"e4m3": "e4m3", "e5m2": "e5m2", "e2m1": "e2m1", "bf16": "bf16"}


@triton.jit
def mm_kernel(a_ptr, as_ptr, b_ptr, bs_ptr, c_ptr, M, N, K,
              A_FMT: tl.constexpr, B_FMT: tl.constexpr,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    per_group = GROUP * num_n
    first = (pid // per_group) * GROUP
    rows = min(num_m - first, GROUP)
    pid_m = first + (pid % per_group) % rows
    pid_n = (pid % per_group) // rows
    A_DIV: tl.constexpr = 2 if A_FMT == "e2m1" else 1
    B_DIV: tl.constexpr = 2 if B_FMT == "e2m1" else 1
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_ka = tl.arange(0, BK // A_DIV)
    offs_kb = tl.arange(0, BK // B_DIV)
    offs_ks = tl.arange(0, BK // 32)
    in_m = offs_m[:, None] < M
    a_ptrs = a_ptr + offs_m[:, None] * (K // A_DIV) + offs_ka[None, :]
    b_ptrs = b_ptr + offs_n[None, :] * (K // B_DIV) + offs_kb[:, None]
    as_ptrs = as_ptr + offs_m[:, None] * (K // 32) + offs_ks[None, :]
    bs_ptrs = bs_ptr + offs_n[:, None] * (K // 32) + offs_ks[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, K, BK):
        a = tl.load(a_ptrs)  # A holds whole tiles of BM rows (run() checks)
        b = tl.load(b_ptrs)
        sb = tl.load(bs_ptrs)
        if A_FMT == "bf16":
            acc = tl.dot_scaled(a, None, A_FMT, b, sb, B_FMT, acc)
        else:
            sa = tl.load(as_ptrs)
            acc = tl.dot_scaled(a, sa, A_FMT, b, sb, B_FMT, acc)
        a_ptrs += BK // A_DIV
        b_ptrs += BK // B_DIV
        as_ptrs += BK // 32
        bs_ptrs += BK // 32
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc, mask=in_m)


def torch_view(codes, fmt):
    """A uint8 tensor of codes as the tensor dot_scaled takes."""
    if fmt == "e4m3":
        return codes.view(torch.float8_e4m3fn)
    if fmt == "e5m2":
        return codes.view(torch.float8_e5m2)
    return codes


def random_operand(fmt, rows, k, gen):
    """Random codes (finite) of an operand stored K-major: uint8 [rows, k]
    (e2m1: [rows, k/2], the even element in the low nibble) or bf16."""
    if fmt == "bf16":
        x = torch.randint(0, 1 << 16, (rows, k), generator=gen, dtype=torch.int32)
        exp = torch.randint(120, 134, (rows, k), generator=gen, dtype=torch.int32)
        bits = (x & 0x807f) | (exp << 7)
        return bits.to(torch.int16).view(torch.bfloat16)
    b = torch.randint(0, 256, (rows, k // 2 if fmt == "e2m1" else k), generator=gen,
                      dtype=torch.int32)
    if fmt == "e4m3":
        b = b & 0xf7   # no NaN
    elif fmt == "e5m2":
        b = b & 0xbb   # no Inf or NaN
    return b.to(torch.uint8)


def random_scales(rows, k, gen, lo=118, hi=136):
    return torch.randint(lo, hi, (rows, k // 32), generator=gen, dtype=torch.int32).to(torch.uint8)


def run(a, sa, b, sb, fmts, m, n, k, cfg):
    bm, bn, bk, warps, stages = cfg
    # The kernel loads A and its scales unmasked (a masked load of fp8 codes
    # with a fill value does not compile in Triton 3.6): the caller gives
    # whole tiles of rows, the rows past m ignored.
    if a.shape[0] < triton.cdiv(m, bm) * bm or (sa is not None and sa.shape[0] < a.shape[0]):
        raise ValueError("A has %d rows, %d tiles of %d need %d"
                         % (a.shape[0], triton.cdiv(m, bm), bm, triton.cdiv(m, bm) * bm))
    c = torch.empty((m, n), dtype=torch.float32, device="cuda")
    grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)
    mm_kernel[grid](a, sa if sa is not None else sb, b, sb, c, m, n, k, fmts[0], fmts[1],
                    bm, bn, bk, 8, num_warps=warps, num_stages=stages)
    return c


def codes_rows(t, fmt):
    """Per row, the list of element codes (hex strings) of an operand."""
    t = t.cpu()
    if fmt == "bf16":
        return [["0x%04x" % (v & 0xffff) for v in r.view(torch.int16).tolist()] for r in t]
    rows = []
    for r in t.tolist():
        if fmt == "e2m1":
            out = []
            for byte in r:
                out += ["0x%x" % (byte & 15), "0x%x" % (byte >> 4)]
            rows.append(out)
        else:
            rows.append(["0x%02x" % v for v in r])
    return rows


def check(name, fmts, softmma, outdir, model, m=256, n=256, k=512, cfg=(128, 128, 128, 8, 3)):
    gen = torch.Generator().manual_seed(12345)
    a = random_operand(fmts[0], m, k, gen)
    b = random_operand(fmts[1], n, k, gen)
    sa = random_scales(m, k, gen)
    sb = random_scales(n, k, gen)
    d = run(torch_view(a.cuda(), fmts[0]), sa.cuda() if fmts[0] != "bf16" else None,
            torch_view(b.cuda(), fmts[1]), sb.cuda(), fmts, m, n, k, cfg)
    torch.cuda.synchronize()
    inputs = os.path.join(outdir, "triton-%s-%dx%dx%d-inputs.txt" % (name, m, n, k))
    dfile = os.path.join(outdir, "triton-%s-%dx%dx%d-d.txt" % (name, m, n, k))
    with open(inputs, "w") as f:
        f.write("softmma-gemm-inputs 1\na %s\nb %s\nscale e8m0\nvec 32\nc none\n"
                % (SOFTMMA_FMT[fmts[0]], SOFTMMA_FMT[fmts[1]]))
        f.write("m %d\nn %d\nk %d\nA\n" % (m, n, k))
        for r in codes_rows(a, fmts[0]):
            f.write(" ".join(r) + "\n")
        # An unscaled (bf16) A is written with scales of 1, as softmma
        # --save-inputs writes it: the same products.
        f.write("SA\n")
        for r in sa.tolist():
            f.write(" ".join("0x%02x" % (v if fmts[0] != "bf16" else 0x7f) for v in r) + "\n")
        f.write("B\n")
        for r in codes_rows(b, fmts[1]):
            f.write(" ".join(r) + "\n")
        f.write("SB\n")
        for r in sb.tolist():
            f.write(" ".join("0x%02x" % v for v in r) + "\n")
    with open(dfile, "w") as f:
        for r in d.cpu().view(torch.int32).tolist():
            f.write(" ".join("0x%08x" % (v & 0xffffffff) for v in r) + "\n")
    res = subprocess.run([softmma, "gemm", "--inputs", inputs, "--model", model, "--check",
                          dfile, "--samples", str(m * n)], capture_output=True, text=True)
    out = (res.stdout + res.stderr).strip().splitlines()
    print("check %-16s %dx%dx%d vs %s: exit %d" % (name, m, n, k, model, res.returncode))
    for line in out[:14]:
        print("   " + line)
    return res.returncode


def compile_one(args):
    fmts, cfg = args
    m = n = k = 8192
    gen = torch.Generator().manual_seed(1)
    a = random_operand(fmts[0], 256, k, gen)
    try:
        # Compile with the shapes of the timed runs (same specialization).
        aa = torch_view(torch.zeros_like(a).cuda().repeat(m // 256, 1), fmts[0])
        bb = torch_view(torch.zeros(n, k // 2 if fmts[1] == "e2m1" else k, dtype=torch.uint8,
                                    device="cuda"), fmts[1])
        if fmts[0] == "bf16":
            aa = torch.zeros(m, k, dtype=torch.bfloat16, device="cuda")
        s = torch.full((m, k // 32), 127, dtype=torch.uint8, device="cuda")
        run(aa, s if fmts[0] != "bf16" else None, bb, s, fmts, m, n, k, cfg)
        torch.cuda.synchronize()
        return None
    except Exception as e:  # a configuration that does not fit is not timed
        return "%s: %s" % (cfg, str(e).splitlines()[0] if str(e) else type(e).__name__)


def configs():
    return [(128, bn, bk, w, st) for bn in (128, 256) for bk in (64, 128) for w in (4, 8)
            for st in (3, 4)]


def time_format(name, fmts, reps):
    m = n = k = 8192
    gen = torch.Generator().manual_seed(7)
    a = torch_view(random_operand(fmts[0], m, k, gen).cuda(), fmts[0])
    b = torch_view(random_operand(fmts[1], n, k, gen).cuda(), fmts[1])
    sa = random_scales(m, k, gen).cuda() if fmts[0] != "bf16" else None
    sb = random_scales(n, k, gen).cuda()
    best = None
    for cfg in configs():
        try:
            ms = triton.testing.do_bench(lambda: run(a, sa, b, sb, fmts, m, n, k, cfg),
                                         warmup=25, rep=reps, return_mode="median")
        except Exception as e:
            print("  %-16s %-24s failed: %s" % (name, cfg, str(e).splitlines()[0][:80]))
            continue
        tf = 2.0 * m * n * k / ms / 1e9
        print("  %-16s BM %d BN %d BK %d warps %d stages %d: %.3f ms %.1f TFLOP/s"
              % ((name,) + cfg + (ms, tf)))
        if best is None or tf > best[1]:
            best = (cfg, tf)
    return best


MIXED_M = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
MIXED_NK = ((8192, 8192), (28672, 8192), (8192, 28672))


def mixed_configs(m):
    """Tile configurations for M rows of activations: the M tile the
    smallest of 16, 32, 64, 128 holding M."""
    bm = 16
    while bm < m and bm < 128:
        bm *= 2
    return [(bm, bn, bk, 4, 3) for bn in (64, 128) for bk in (128, 256)]


def time_mixed(names, reps):
    card = torch.cuda.get_device_name()
    gen = torch.Generator().manual_seed(11)
    for name in names:
        fmts = FORMATS[name]
        for n, k in MIXED_NK:
            b = torch_view(random_operand(fmts[1], n, k, gen).cuda(), fmts[1])
            sb = random_scales(n, k, gen).cuda()
            w16 = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
            for m in MIXED_M:
                mp = (m + 127) // 128 * 128   # whole tiles of any configuration's rows
                a = torch_view(random_operand(fmts[0], mp, k, gen).cuda(), fmts[0])
                sa = random_scales(mp, k, gen).cuda() if fmts[0] != "bf16" else None
                x16 = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
                cb = triton.testing.do_bench(lambda: torch.matmul(x16, w16.t()), warmup=10,
                                             rep=reps, return_mode="median")
                best = None
                for cfg in mixed_configs(m):
                    try:
                        ms = triton.testing.do_bench(
                            lambda: run(a, sa, b, sb, fmts, m, n, k, cfg), warmup=10, rep=reps,
                            return_mode="median")
                    except Exception as e:
                        print("  %-12s M=%d %s failed: %s"
                              % (name, m, cfg, str(e).splitlines()[0][:80]))
                        continue
                    if best is None or ms < best[1]:
                        best = (cfg, ms)
                if best is None:
                    print("triton %s M=%d N=%d K=%d: no configuration ran (%s)"
                          % (name, m, n, k, card))
                    continue
                print("  %-12s M=%d N=%d K=%d best %s %.4f ms, cuBLAS bf16 %.4f ms"
                      % (name, m, n, k, best[0], best[1], cb))
                print("triton %s M=%d N=%d K=%d: %.2fx cuBLAS bf16 (%s)"
                      % (name, m, n, k, cb / best[1], card), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--softmma", default="tools/softmma")
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--formats", default="mxfp8,mxfp8e5m2-e4m3,mxfp4,mxfp8-mxfp4,bf16-mxfp4")
    ap.add_argument("--time", default="mxfp8,mxfp4,bf16-mxfp4")
    ap.add_argument("--reps", type=int, default=100, help="do_bench rep, ms")
    ap.add_argument("--model", default="bf16-upcast-h100")
    ap.add_argument("--check-shapes", default="256x256x512",
                    help="m x n x k of the checks, comma-separated")
    ap.add_argument("--mixed", default="",
                    help="time these pairs at the decoding shapes instead (mxfp4,...)")
    opt = ap.parse_args()
    os.makedirs(opt.out, exist_ok=True)
    print("device: %s; torch %s; triton %s" % (torch.cuda.get_device_name(), torch.__version__,
                                              triton.__version__))
    if opt.mixed:
        for name in opt.mixed.split(","):
            if name not in FORMATS:
                print("triton-dot-scaled.py: --mixed: unknown pair %s (known: %s)"
                      % (name, ", ".join(FORMATS)), file=sys.stderr)
                return 2
        time_mixed(opt.mixed.split(","), min(opt.reps, 25))
        return 0
    failures = 0
    for name in opt.formats.split(","):
        for shape in opt.check_shapes.split(","):
            m, n, k = (int(v) for v in shape.split("x"))
            failures += check(name, FORMATS[name], opt.softmma, opt.out, opt.model, m, n, k) != 0
    # cuBLAS bf16 at 8192^3, the baseline.
    x = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    y = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    ms = triton.testing.do_bench(lambda: torch.matmul(x, y.t()), warmup=25, rep=opt.reps,
                                 return_mode="median")
    cublas = 2.0 * 8192 ** 3 / ms / 1e9
    print("cuBLAS bf16 (torch.matmul) 8192^3: %.3f ms %.1f TFLOP/s" % (ms, cublas))
    names = [t for t in opt.time.split(",") if t]
    jobs = [(FORMATS[t], cfg) for t in names for cfg in configs()]
    ctx = mp.get_context("spawn")
    with ctx.Pool(min(16, len(jobs) or 1)) as pool:
        for err in pool.map(compile_one, jobs):
            if err:
                print("  not compiled: " + err)
    for t in names:
        best = time_format(t, FORMATS[t], opt.reps)
        if best:
            print("best %-16s %s: %.1f TFLOP/s (%.3f of cuBLAS bf16)"
                  % (t, best[0], best[1], best[1] / cublas))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

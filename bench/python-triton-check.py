#!/usr/bin/env python3
"""bench/python-triton-check.py - checks Triton's tl.dot_scaled (MXFP8 x MXFP8:
e4m3 elements, one e8m0 scale per 32 along K) against softmma's numerics
model bf16-upcast-h100, bit for bit, on a GPU.

What it does, per input class (random: any finite e4m3 codes and scales in
2^-20..2^20; exact: every partial sum exact in fp32, so every correct kernel
agrees) and per tile configuration:
  1. softmma.gemm_generate makes A (M x K) and B (K x N) e4m3 codes and their
     scales SA (M x K/32) and SB (N x K/32), e8m0 bytes, in the layout
     tl.dot_scaled takes (row m of SA holds the scales of row m of A, row n
     of SB those of column n of B; B's scales are not transposed);
  2. a Triton kernel runs tl.dot_scaled over K in steps of BLOCK_K with an
     fp32 accumulator; D is copied back as fp32 bits;
  3. softmma.gemm computes D under bf16-upcast-h100 and the two are compared
     bitwise; the first mismatches are printed with row, column and both
     values.
It prints the number of outputs compared and of mismatches and exits 0 when
every output is equal, 1 on any mismatch, 2 when it cannot run (no CUDA
device, no torch or triton, no libsoftmma).

Run it from the root of a built softmma tree (./configure && make):
    python3 bench/python-triton-check.py [--log FILE]
The module is taken from python/ beside this script and finds the tree's
.libs/libsoftmma.so.0 itself (or set SOFTMMA_LIB).  --no-gpu runs the same
plumbing with softmma's own result as the subject, and then with one bit of
it flipped, to check the comparison without a GPU.
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'python'))

MODEL = 'bf16-upcast-h100'
# (M, N, K) problems and (BLOCK_M, BLOCK_N, BLOCK_K, num_warps) tiles.
PROBLEMS = [(256, 256, 512), (128, 192, 256)]
TILES = [(64, 64, 64, 4), (128, 128, 128, 8), (64, 64, 256, 4)]
# --no-gpu checks the plumbing only: one small problem.
PROBLEMS_NO_GPU = [(64, 64, 128)]

np = None

log_file = None


def say(*parts):
    line = ' '.join(str(p) for p in parts)
    print(line, flush=True)
    if log_file is not None:
        log_file.write(line + '\n')
        log_file.flush()


def make_inputs(softmma, m, n, k, cls, seed):
    """A, B, SA, SB of an MXFP8 x MXFP8 problem, as tl.dot_scaled takes them:
    SB as N x Kb (Triton's rhs_scale), the transpose of softmma's Kb x N."""
    g = softmma.gemm_generate('e4m3', 'e4m3', m, n, k, scale_fmt='e8m0', vec=32, cls=cls,
                              seed=seed)
    return (np.ascontiguousarray(g['a']), np.ascontiguousarray(g['b']),
            np.ascontiguousarray(g['sa']), np.ascontiguousarray(np.asarray(g['sb']).T))


def reference(softmma, a, b, sa, sb):
    """D under the model, fp32 bits (uint32, M x N); sb in Triton's N x Kb."""
    return softmma.gemm(MODEL, a, b, a_fmt='e4m3', b_fmt='e4m3', sa=sa,
                        sb=softmma.BScales(sb.T), scale_fmt='e8m0', vec=32, d_fmt='fp32')


def compare(softmma, what, want, got):
    """Prints the count of outputs compared and of mismatches, and the first
    mismatches; returns the number of mismatches."""
    bad = np.argwhere(want != got)
    say('%-44s %7d outputs compared, %d mismatch%s' % (what, want.size, len(bad),
                                                      '' if len(bad) == 1 else 'es'))
    for i, j in bad[:10]:
        w = softmma.decode('fp32', want[i:i + 1, j])[0]
        g = softmma.decode('fp32', got[i:i + 1, j])[0]
        say('    D[%d][%d]: want 0x%08x (%r), got 0x%08x (%r)' % (i, j, want[i, j], w,
                                                               got[i, j], g))
    return len(bad)


def triton_kernel():
    """The Triton kernel, built only when Triton is there."""
    import triton
    import triton.language as tl

    @triton.jit
    def mxfp8_dot(a_ptr, b_ptr, sa_ptr, sb_ptr, d_ptr, M, N, K,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
        # One BLOCK_M x BLOCK_N tile of D; A is M x K and B is K x N row-major
        # e4m3 bytes, SA is M x K/32 and SB is N x K/32 row-major e8m0 bytes.
        rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
        rk = tl.arange(0, BLOCK_K)
        rs = tl.arange(0, BLOCK_K // 32)
        kb = K // 32
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            a = tl.load(a_ptr + rm[:, None] * K + (k0 + rk)[None, :])
            b = tl.load(b_ptr + (k0 + rk)[:, None] * N + rn[None, :])
            sa = tl.load(sa_ptr + rm[:, None] * kb + (k0 // 32 + rs)[None, :])
            sb = tl.load(sb_ptr + rn[:, None] * kb + (k0 // 32 + rs)[None, :])
            acc = tl.dot_scaled(a, sa, "e4m3", b, sb, "e4m3", acc=acc)
        tl.store(d_ptr + rm[:, None] * N + rn[None, :], acc)

    return mxfp8_dot


def run_triton(kernel, torch, a, b, sa, sb, tile):
    """D of the Triton kernel as fp32 bits (uint32, M x N)."""
    bm, bn, bk, warps = tile
    m, k = a.shape
    n = b.shape[1]
    dev = torch.device('cuda')
    ta, tb = torch.from_numpy(a).to(dev), torch.from_numpy(b).to(dev)
    tsa, tsb = torch.from_numpy(sa).to(dev), torch.from_numpy(sb).to(dev)
    d = torch.empty((m, n), dtype=torch.float32, device=dev)
    kernel[(m // bm, n // bn)](ta, tb, tsa, tsb, d, m, n, k, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                               num_warps=warps)
    torch.cuda.synchronize()
    return d.cpu().numpy().view(np.uint32)


def main():
    global log_file, np
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--log', help='also write the report to this file')
    ap.add_argument('--no-gpu', action='store_true',
                    help='check the plumbing with softmma itself as the subject')
    args = ap.parse_args()
    if args.log:
        log_file = open(args.log, 'w')
    t0 = time.time()
    try:
        import numpy
        np = numpy
        import softmma
    except ImportError as e:
        say('cannot run: %s' % e)
        return 2
    say('softmma', softmma.library_path(), '- model', MODEL)
    if args.no_gpu:
        torch = kernel = None
    else:
        try:
            import torch
            import triton
        except ImportError as e:
            say('cannot run: %s (use --no-gpu to check without a GPU)' % e)
            return 2
        if not torch.cuda.is_available():
            say('cannot run: no CUDA device (torch %s)' % torch.__version__)
            return 2
        say('torch', torch.__version__, 'triton', triton.__version__, 'numpy', np.__version__,
            'device', torch.cuda.get_device_name(0))
        kernel = triton_kernel()
    compared = mismatches = 0
    for cls in ('random', 'exact'):
        for p, (m, n, k) in enumerate(PROBLEMS_NO_GPU if args.no_gpu else PROBLEMS):
            a, b, sa, sb = make_inputs(softmma, m, n, k, cls, seed=11 + p)
            want = reference(softmma, a, b, sa, sb)
            for tile in TILES:
                if m % tile[0] or n % tile[1] or k % tile[2]:
                    continue
                what = '%s %dx%dx%d tile %dx%dx%d/%dw' % ((cls, m, n, k) + tile)
                if args.no_gpu:
                    got = want.copy()
                else:
                    got = run_triton(kernel, torch, a, b, sa, sb, tile)
                compared += want.size
                mismatches += compare(softmma, what, want, got)
    if args.no_gpu:
        # The comparison must see a one-bit difference.
        got = want.copy()
        got[1, 2] ^= 1
        seen = compare(softmma, 'self-check: one bit flipped on purpose', want, got)
        if seen != 1:
            say('FAILED: the comparison missed a flipped bit')
            return 1
    if args.no_gpu:
        verdict = 'the comparison works (no GPU: softmma was its own subject)'
    elif mismatches == 0:
        verdict = 'tl.dot_scaled equals %s bit for bit' % MODEL
    else:
        verdict = 'MISMATCH: tl.dot_scaled differs from %s' % MODEL
    say('%d outputs compared, %d mismatches (%.1f s): %s' % (
        compared, mismatches, time.time() - t0, verdict))
    return 0 if mismatches == 0 else 1


if __name__ == '__main__':
    sys.exit(main())

"""tests/python/torch-t.py - what cuBLASLt computes, through PyTorch on an sm_90
GPU, against the models softmma names for it (doc/models.md), bit for bit.

  - torch._scaled_mm, per-tensor scales 1, every fp8 pair torch takes (e4m3 x
    e4m3, e4m3 x e5m2, e5m2 x e4m3), fp32 and bf16 D: use_fast_accum=True
    against cublaslt-fp8-fast (= h100-fp8), False against
    cublaslt-fp8-promoted, over a sweep of shapes (K a multiple of 128 and
    not, small M and N with large K);
  - per-tensor scales other than 1: the model's epilogue with alpha =
    fp32(scale_a * scale_b);
  - torch.matmul in bf16 (bf16 D) against h100-bf16.
Where M N is small and K large cuBLASLt splits K and sums the slices in an
order no model names yet (seen on an H200: fp8 at M N <= 4096 with K >=
8192, bf16 at M N <= 16384 with K >= 4096): those comparisons are reported
as diagnostics with their counts, not as points.
Inputs are softmma.gemm_generate's (seeded, finite codes).  Each point
checks every output up to 4,096 of them, else 4,096 sampled ones.  Skips
with the reason without torch, without a CUDA device, on a device other
than compute capability 9.0.  TEST_LEVEL=1 adds the larger shapes.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import Tap  # noqa: E402

import softmma  # noqa: E402

t = Tap()
try:
    import torch
except ImportError:
    print('1..0 # SKIP no torch')
    sys.exit(0)
if not torch.cuda.is_available():
    print('1..0 # SKIP no CUDA device')
    sys.exit(0)
cap = torch.cuda.get_device_capability()
if cap != (9, 0):
    print('1..0 # SKIP needs sm_90 (the models are the H100/H200 ones), not %d.%d' % cap)
    sys.exit(0)
import softmma.torch as st  # noqa: E402 (needs torch)

level = int(os.environ.get('TEST_LEVEL', '0') or 0)
dev = torch.device('cuda')
t.diag('device: %s (%d.%d), torch %s, CUDA %s' % (torch.cuda.get_device_name(), cap[0], cap[1],
                                                 torch.__version__, torch.version.cuda))

PAIRS = [('e4m3', 'e4m3'), ('e4m3', 'e5m2'), ('e5m2', 'e4m3')]
SHAPES = [(16, 16, 16), (128, 128, 1024), (128, 256, 2048), (32, 48, 400), (128, 128, 1040),
          (64, 64, 8192), (16, 32, 16384)]
if level >= 1:
    SHAPES += [(256, 128, 4096), (1024, 1024, 1024), (48, 16, 12288), (512, 256, 16384)]
SAMPLES = 4096
TORCH_DT = {'e4m3': torch.float8_e4m3fn, 'e5m2': torch.float8_e5m2}


def operands(af, bf, m, n, k, seed):
    """Codes (numpy, A M x K, B K x N) and the tensors torch._scaled_mm takes:
    A row-major, B column-major (the transpose of an N x K row-major)."""
    g = softmma.gemm_generate(af, bf, m, n, k, seed=seed)
    a, b = g['a'], g['b']
    ta = torch.from_numpy(np.ascontiguousarray(a)).view(TORCH_DT[af]).to(dev)
    tb = torch.from_numpy(np.ascontiguousarray(b.T)).view(TORCH_DT[bf]).to(dev).t()
    return a, b, ta, tb


def split_k(m, n, k):
    """The shapes where cuBLASLt was seen to split K (H200, CUDA 13.0)."""
    return m * n <= 4096 and k >= 8192


def check(model, d, a, b, af, bf, what, alpha=None, unmodeled=None):
    kw = dict(a_fmt=af, b_fmt=bf, d_fmt=st.format_of(d))
    if alpha is not None:
        kw['alpha'] = alpha
    v = softmma.gemm_verify(model, st.codes(d), a, b, samples=SAMPLES, seed=7, keep=3, **kw)
    line = '%s: %d of %d outputs equal %s' % (what, v.checked - v.mismatches, v.checked, model)
    if unmodeled:
        t.diag("not modeled (%s): %s" % (unmodeled, line))
    elif not t.ok(v.mismatches == 0, line):
        for mm in v.first:
            t.diag('  D[%d][%d]: model 0x%x, torch 0x%x' % mm)
    return v


SPLIT = 'cuBLASLt splits K'


seed = 1
for af, bf in PAIRS:
    for m, n, k in SHAPES:
        a, b, ta, tb = operands(af, bf, m, n, k, seed)
        seed += 1
        one = torch.tensor(1.0, device=dev)
        for fast, model in ((True, 'cublaslt-fp8-fast'), (False, 'cublaslt-fp8-promoted')):
            for out in (torch.float32, torch.bfloat16):
                d = torch._scaled_mm(ta, tb, scale_a=one, scale_b=one, out_dtype=out,
                                     use_fast_accum=fast)
                check(model, d, a, b, af, bf, '_scaled_mm %s x %s %dx%dx%d fast=%s %s' %
                      (af, bf, m, n, k, fast, st.format_of(d)),
                      unmodeled=SPLIT if split_k(m, n, k) else None)

# Per-tensor scales other than 1: the candidate alpha = fp32(scale_a * scale_b).
for sa_, sb_ in ((2.0, 0.25), (1.1, 0.7), (3.0, 1.0 / 3.0)):
    a, b, ta, tb = operands('e4m3', 'e4m3', 128, 128, 1024, 99)
    sa_t = torch.tensor(sa_, device=dev, dtype=torch.float32)
    sb_t = torch.tensor(sb_, device=dev, dtype=torch.float32)
    alpha = float((sa_t * sb_t).item())
    for fast, model in ((True, 'cublaslt-fp8-fast'), (False, 'cublaslt-fp8-promoted')):
        d = torch._scaled_mm(ta, tb, scale_a=sa_t, scale_b=sb_t, out_dtype=torch.float32,
                             use_fast_accum=fast)
        check(model, d, a, b, 'e4m3', 'e4m3', '_scaled_mm scales %r, %r fast=%s, alpha %r' %
              (sa_, sb_, fast, alpha), alpha=alpha)

# torch.matmul in bf16 (bf16 D): h100-bf16 in one chain where cuBLAS runs one.
for m, n, k in ((256, 256, 2048), (512, 512, 512), (128, 128, 4096), (64, 64, 8192)):
    g = softmma.gemm_generate('bf16', 'bf16', m, n, k, seed=m + k)
    a, b = g['a'], g['b']
    ta = torch.from_numpy(a.view(np.int16)).view(torch.bfloat16).to(dev)
    tb = torch.from_numpy(np.ascontiguousarray(b).view(np.int16)).view(torch.bfloat16).to(dev)
    d = torch.matmul(ta, tb)
    check('h100-bf16', d, a, b, 'bf16', 'bf16', 'matmul bf16 %dx%dx%d' % (m, n, k),
          unmodeled=SPLIT if m * n <= 128 * 128 and k >= 4096 else None)

# The helper on one real result.
a, b, ta, tb = operands('e4m3', 'e4m3', 128, 128, 1024, 5)
one = torch.tensor(1.0, device=dev)
d = torch._scaled_mm(ta, tb, scale_a=one, scale_b=one, out_dtype=torch.float32,
                     use_fast_accum=False)
res = st.which_models(d, ta, tb, samples=1024)
for r in res[:4]:
    t.diag('which_models: %s %s %d checked, %d differ' % (r.model, r.aliases, r.checked,
                                                          r.mismatches))
t.ok(res and res[0].model == 'cublaslt-fp8-promoted' and res[0].mismatches == 0,
     'softmma.torch.which_models names cublaslt-fp8-promoted first for use_fast_accum=False')
t.done()

"""tests/python/torch-t.py - what cuBLASLt computes, through PyTorch on an sm_90
GPU, against the models softmma names for it (doc/models.md), bit for bit.

  - torch._scaled_mm, per-tensor scales 1, every fp8 pair torch takes (e4m3 x
    e4m3, e4m3 x e5m2, e5m2 x e4m3), fp32 and bf16 D: use_fast_accum=True
    against cublaslt-fp8-fast (= h100-fp8), False against
    cublaslt-fp8-promoted, over a sweep of shapes (K a multiple of 128 and
    not, small M and N with large K);
  - fp16 D as well (both accumulations);
  - per-tensor scales other than 1 (K a multiple of 128 and not): the
    model's epilogue with alpha = fp32(scale_a * scale_b);
  - row-wise scales (scale_a per row of A, scale_b per column of B, bf16
    D): the model's fp32 sum, then rn_fp32(rn_fp32(acc * scale_b[j]) *
    scale_a[i]) rounded to bf16;
  - the bias (bf16 or fp16, D's format), after either kind of scales:
    rn_fp32(x + bias), then D rounded; softmma.scaled_mm computes all of
    these epilogues;
  - torch.matmul in bf16 (bf16 D) and fp16 (fp16 D) against h100-bf16;
  - Triton's tl.dot (where Triton is present; else a diagnostic): bf16
    against triton-dot-bf16 (= h100-bf16), e4m3 against triton-dot-fp8
    (= h100-fp8), k tiles of 32, 64 and 128.
Where M N is small and K large cuBLASLt may split K (seen on an H200: fp8
at M N <= 4096 with K >= 8192, bf16 at M N <= 16384 with K >= 4096; its
choice differs by card): there each point asks which slice counts S (1:
not split) reproduce every output as S slices of 128-aligned K, each the
model's sum from zero, added in fp32 in order (softmma.gemm_split_k), and
passes where one does (row-wise scales at
32 x 16 x 8192 gave the unsplit sum on an H200, and are checked so).
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


def check(model, d, a, b, af, bf, what, alpha=None):
    kw = dict(a_fmt=af, b_fmt=bf, d_fmt=st.format_of(d))
    if alpha is not None:
        kw['alpha'] = alpha
    v = softmma.gemm_verify(model, st.codes(d), a, b, samples=SAMPLES, seed=7, keep=3, **kw)
    line = '%s: %d of %d outputs equal %s' % (what, v.checked - v.mismatches, v.checked, model)
    if not t.ok(v.mismatches == 0, line):
        for mm in v.first:
            t.diag('  D[%d][%d]: model 0x%x, torch 0x%x' % mm)
    return v


SLICES = (1, 2, 3, 4, 5, 6, 8, 12, 16)
_sums = {}


def check_split(model, d, a, b, af, bf, what):
    """Where cuBLASLt may split K: which of SLICES slices of 128-aligned K
    (softmma.split_k_slices; 1: not split), each the model's fp32 sum from
    zero, summed in fp32 in order, give every output (softmma.gemm_split_k).
    A point that at least one does; the counts that do go to the line (the
    choice is cuBLASLt's per card: bf16 1 x 4096 x 4096 was split in 2 on
    an H200, not at all on an H100)."""
    dfmt = st.format_of(d)
    got = st.codes(d)
    fits = []
    for s_ in SLICES:
        try:
            softmma.split_k_slices(a.shape[1], s_)
        except softmma.SoftmmaError:
            continue
        # The cache holds a and b, so that their ids are not reused by
        # another problem's operands while it lives.
        key = (id(a), id(b), model, s_)
        if key not in _sums:
            _sums[key] = (a, b, softmma.gemm_split_k(model, a, b, a_fmt=af, b_fmt=bf,
                                                     slices=s_))
        acc = _sums[key][2].view(np.float32)
        want = acc.view(np.uint32) if dfmt == 'fp32' else softmma.encode(dfmt, acc, round='rn',
                                                                          sat=False)
        if np.array_equal(want, got):
            fits.append(s_)
    t.ok(fits, '%s: cuBLASLt splits K or not; %s in %s slices of 128-aligned K, summed in fp32 '
         'in order, gives all %d outputs' % (what, model, ' or '.join(map(str, fits))
                                             or 'none of ' + repr(SLICES), got.size))


seed = 1
for af, bf in PAIRS:
    for m, n, k in SHAPES:
        a, b, ta, tb = operands(af, bf, m, n, k, seed)
        seed += 1
        one = torch.tensor(1.0, device=dev)
        for fast, model in ((True, 'cublaslt-fp8-fast'), (False, 'cublaslt-fp8-promoted')):
            for out in (torch.float32, torch.bfloat16, torch.float16):
                d = torch._scaled_mm(ta, tb, scale_a=one, scale_b=one, out_dtype=out,
                                     use_fast_accum=fast)
                what = '_scaled_mm %s x %s %dx%dx%d fast=%s %s' % (af, bf, m, n, k, fast,
                                                                  st.format_of(d))
                if split_k(m, n, k):
                    check_split('h100-fp8' if fast else model, d, a, b, af, bf, what)
                else:
                    check(model, d, a, b, af, bf, what)

def check_scaled(model, d, a, b, what, **kw):
    """Every output of d against softmma.scaled_mm (the model's fp32 sum,
    then torch._scaled_mm's epilogue: the scales, the bias, D)."""
    want = softmma.scaled_mm(model, a, b, a_fmt='e4m3', b_fmt='e4m3', out=st.format_of(d), **kw)
    got = st.codes(d)
    same = int((want == got).sum())
    if not t.ok(same == got.size, '%s: %d of %d outputs equal softmma.scaled_mm over %s'
                % (what, same, got.size, model)):
        for i, j in list(zip(*np.nonzero(want != got)))[:3]:
            t.diag('  D[%d][%d]: model 0x%x, torch 0x%x' % (i, j, want[i, j], got[i, j]))


def f32s(x):
    return torch.tensor(np.float32(x), device=dev, dtype=torch.float32)


MODELS = ((True, 'cublaslt-fp8-fast'), (False, 'cublaslt-fp8-promoted'))
TORCH_D = {'fp32': torch.float32, 'bf16': torch.bfloat16, 'fp16': torch.float16}

# Per-tensor scales other than 1, K a multiple of 128 and not: the model's
# epilogue with alpha = fp32(scale_a * scale_b).
for (m, n, k), (sa_, sb_) in (((128, 128, 1024), (2.0, 0.25)), ((128, 128, 1024), (1.1, 0.7)),
                              ((128, 128, 1024), (3.0, 1.0 / 3.0)), ((128, 128, 400), (1.1, 0.7)),
                              ((64, 96, 1040), (3.0, 1.0 / 3.0))):
    a, b, ta, tb = operands('e4m3', 'e4m3', m, n, k, 99 + k)
    for fast, model in MODELS:
        for dfmt in ('fp32', 'bf16', 'fp16') if k % 128 else ('fp32',):
            d = torch._scaled_mm(ta, tb, scale_a=f32s(sa_), scale_b=f32s(sb_),
                                 out_dtype=TORCH_D[dfmt], use_fast_accum=fast)
            check_scaled(model, d, a, b, '_scaled_mm %dx%dx%d scales %r, %r fast=%s %s D'
                         % (m, n, k, sa_, sb_, fast, dfmt), scale_a=np.float32(sa_),
                         scale_b=np.float32(sb_))

# The bias (torch takes it with bf16 or fp16 D, in D's format): added after
# the scales, rn_fp32(rn_fp32(alpha acc) + bias), then D rounded (fp16 D
# tells it from one fma: on an H100 one fma missed 1 of 16,384).
rng = np.random.default_rng(3)
for m, n, k in ((128, 128, 400), (64, 96, 1040), (128, 256, 2048)):
    a, b, ta, tb = operands('e4m3', 'e4m3', m, n, k, 77 + k)
    for fast, model in MODELS:
        for dfmt in ('bf16', 'fp16'):
            bias = torch.from_numpy(((rng.random(n) - 0.5) * 8).astype(np.float32)).to(dev)
            bias = bias.to(TORCH_D[dfmt])
            d = torch._scaled_mm(ta, tb, scale_a=f32s(1.1), scale_b=f32s(0.7), bias=bias,
                                 out_dtype=TORCH_D[dfmt], use_fast_accum=fast)
            check_scaled(model, d, a, b, '_scaled_mm %dx%dx%d scales 1.1, 0.7, %s bias, fast=%s'
                         % (m, n, k, dfmt, fast), scale_a=np.float32(1.1),
                         scale_b=np.float32(0.7), bias=bias.float().cpu().numpy())

# Row-wise scales: the model's fp32 sum (not split at 32 x 16 x 8192 either),
# then each scale in the epilogue, B's column scale first (rn_fp32 after
# each multiplication), then the bias where there is one, then bf16.  On an
# H200 that order fit 362,496 of 362,496 outputs with fast accumulation,
# where scale_a first, or rn_fp32(scale_a scale_b) once, missed 1-3
# (bench/logs/h200-torch-cublaslt.log).
rng = np.random.default_rng(5)
for m, n, k in ((128, 128, 1024), (64, 96, 400), (128, 256, 2048), (32, 16, 8192)):
    a, b, ta, tb = operands('e4m3', 'e4m3', m, n, k, 21 + k)
    sa_ = (np.exp2(rng.integers(-3, 4, m)) * (1 + rng.random(m))).astype(np.float32)
    sb_ = (np.exp2(rng.integers(-3, 4, n)) * (1 + rng.random(n))).astype(np.float32)
    bias = torch.from_numpy(((rng.random(n) - 0.5) * 8).astype(np.float32)).to(dev)
    bias = bias.to(torch.bfloat16)
    for fast, model in MODELS:
        for bi in (None, bias) if k <= 1024 else (None,):
            d = torch._scaled_mm(ta, tb, scale_a=torch.from_numpy(sa_).to(dev).view(m, 1),
                                 scale_b=torch.from_numpy(sb_).to(dev).view(1, n), bias=bi,
                                 out_dtype=torch.bfloat16, use_fast_accum=fast)
            check_scaled(model, d, a, b, '_scaled_mm row-wise scales %dx%dx%d fast=%s%s'
                         % (m, n, k, fast, '' if bi is None else ', bf16 bias'),
                         scale_a=sa_, scale_b=sb_,
                         bias=None if bi is None else bi.float().cpu().numpy())

# torch.matmul in bf16 (bf16 D) and fp16 (fp16 D): h100-bf16 in one chain
# where cuBLAS runs one.
for m, n, k in ((256, 256, 2048), (512, 512, 512), (128, 128, 4096), (64, 64, 8192),
                (100, 200, 300), (1, 4096, 4096), (1, 1, 1), (7, 3, 5), (1, 17, 33),
                (16384, 1, 16)):
    for fmt, dt in (('bf16', torch.bfloat16), ('fp16', torch.float16)):
        g = softmma.gemm_generate(fmt, fmt, m, n, k, seed=m + n + k)
        a, b = g['a'], g['b']
        ta = torch.from_numpy(a.view(np.int16)).view(dt).to(dev)
        tb = torch.from_numpy(np.ascontiguousarray(b).view(np.int16)).view(dt).to(dev)
        d = torch.matmul(ta, tb)
        if fmt == 'bf16' and m * n <= 128 * 128 and k >= 4096:
            check_split('h100-bf16', d, a, b, fmt, fmt, 'matmul %s %dx%dx%d' % (fmt, m, n, k))
        else:
            check('h100-bf16', d, a, b, fmt, fmt, 'matmul %s %dx%dx%d' % (fmt, m, n, k))

# Triton's tl.dot: one fp32 accumulator through every k tile.
try:
    import triton
    import triton.language as tl
except ImportError:
    triton = None
    t.diag('no Triton: tl.dot not checked')
if triton is not None:
    @triton.jit
    def _mm(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
            BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        pm = tl.program_id(0)
        pn = tl.program_id(1)
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k0 in range(0, K, BK):
            av = tl.load(a_ptr + rm[:, None] * sam + (k0 + rk)[None, :] * sak,
                         mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K), other=0.0)
            bv = tl.load(b_ptr + (k0 + rk)[:, None] * sbk + rn[None, :] * sbn,
                         mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(av, bv, acc)
        tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc,
                 mask=(rm[:, None] < M) & (rn[None, :] < N))

    def tl_dot(ta, tb, bk):
        m, k = ta.shape
        n = tb.shape[1]
        d = torch.empty((m, n), device=dev, dtype=torch.float32)
        _mm[(triton.cdiv(m, 64), triton.cdiv(n, 64))](
            ta, tb, d, m, n, k, ta.stride(0), ta.stride(1), tb.stride(0), tb.stride(1),
            d.stride(0), d.stride(1), BM=64, BN=64, BK=bk)
        return d

    t.diag('Triton %s' % triton.__version__)
    for m, n, k in ((128, 128, 1024), (64, 64, 4096), (100, 72, 520)):
        g = softmma.gemm_generate('bf16', 'bf16', m, n, k, seed=3 + k)
        a, b = g['a'], g['b']
        ta = torch.from_numpy(a.view(np.int16)).view(torch.bfloat16).to(dev)
        tb = torch.from_numpy(np.ascontiguousarray(b).view(np.int16)).view(torch.bfloat16).to(dev)
        for bk in (32, 64):
            check('triton-dot-bf16', tl_dot(ta, tb, bk), a, b, 'bf16', 'bf16',
                  'tl.dot bf16 %dx%dx%d k tile %d' % (m, n, k, bk))
        a, b, ta, tb = operands('e4m3', 'e4m3', m, n, k, 4 + k)
        for bk in (32, 64, 128):
            check('triton-dot-fp8', tl_dot(ta, tb, bk), a, b, 'e4m3', 'e4m3',
                  'tl.dot e4m3 %dx%dx%d k tile %d' % (m, n, k, bk))

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

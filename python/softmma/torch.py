"""softmma.torch - which numerics model reproduces a PyTorch result, bit for bit.

Importing this module imports torch; importing softmma does not.  Tensors
go in as PyTorch gives them (any device, any memory order); their codes are
read bit for bit (an fp8 tensor as its bytes, bf16 and fp16 as their 16-bit
patterns, fp32 as its 32 bits) and handed to softmma.gemm_match.

    import torch, softmma.torch as st
    a = torch.randn(128, 1024, device='cuda').to(torch.float8_e4m3fn)
    b = torch.randn(256, 1024, device='cuda').to(torch.float8_e4m3fn).t()
    one = torch.tensor(1.0, device='cuda')
    d = torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.float32,
                         use_fast_accum=False)
    for r in st.which_models(d, a, b):
        print(r.model, r.aliases, r.checked, r.mismatches)

doc/python.md shows it on a real torch._scaled_mm result.
"""

import numpy as np
import torch

from .gemm import gemm_match
from .splitk import SplitKTable, h100_split_k_table, read_split_k_table

__all__ = ['codes', 'format_of', 'which_models', 'split_k']

_FORMATS = {
    torch.float8_e4m3fn: ('e4m3', np.uint8, torch.uint8),
    torch.float8_e5m2: ('e5m2', np.uint8, torch.uint8),
    torch.bfloat16: ('bf16', np.uint16, torch.int16),
    torch.float16: ('fp16', np.uint16, torch.int16),
    torch.float32: ('fp32', np.uint32, torch.int32),
}


def format_of(t):
    """softmma's name for the element format of tensor t ('e4m3', 'e5m2',
    'bf16', 'fp16', 'fp32'); ValueError for another dtype."""
    try:
        return _FORMATS[t.dtype][0]
    except KeyError:
        raise ValueError('no softmma format for %s (e4m3fn, e5m2, bfloat16, float16, float32)'
                         % t.dtype) from None


def codes(t):
    """The codes of a 2-D tensor as a numpy array of the format's container
    (uint8, uint16, uint32), same shape, copied to the host."""
    format_of(t)
    if t.dim() != 2:
        raise ValueError('a 2-D tensor, not %d-D' % t.dim())
    _, np_dtype, view = _FORMATS[t.dtype]
    host = t.detach().contiguous().cpu()
    return host.view(view).numpy().view(np_dtype).copy()


def which_models(d, a, b, *, c=None, alpha=None, models=None, samples=None, seed=1, keep=5):
    """The numerics models that reproduce D = alpha (C + A B) bit for bit.

    a (M, K), b (K, N) and d (M, N) are tensors (b may be a transposed view,
    as torch._scaled_mm takes it); c an optional fp32/bf16/fp16 (M, N)
    tensor; alpha an optional fp32 number (the product of per-tensor scales
    is one candidate: where a library applies them is a property of the
    library, to be checked).  models, samples, seed and keep are
    softmma.gemm_match's.  Returns its GemmMatch tuples: the models that
    reproduce every entry checked first."""
    kw = dict(a_fmt=format_of(a), b_fmt=format_of(b), d_fmt=format_of(d))
    if c is not None:
        kw.update(c=codes(c), c_fmt=format_of(c))
    if alpha is not None:
        kw['alpha'] = float(alpha)
    return gemm_match(codes(d), codes(a), codes(b), models=models, samples=samples, seed=seed,
                      keep=keep, **kw)


def split_k(a, b, table=None):
    """How cuBLASLt splits K for torch.matmul(a, b) (a (M, K), b (K, N), both
    bf16 or both fp16): the SplitKPrediction (slices, their bounds, the
    reduction scheme, whether the table, a rule or nothing answered: 'not
    modeled', and whether the cut is known) of table, a SplitKTable or the
    path of a table bench/cublaslt-probe.py wrote on the card that runs the
    matmul; None: the H100 table shipped with the module (torch's default
    cuBLAS path, doc/models.md)."""
    fa, fb = format_of(a), format_of(b)
    if fa != fb or fa not in ('bf16', 'fp16'):
        raise ValueError('a and b both bf16 or both fp16, not %s and %s' % (fa, fb))
    if a.dim() != 2 or b.dim() != 2 or a.shape[1] != b.shape[0]:
        raise ValueError('a (M, K) and b (K, N), not %s and %s'
                         % (tuple(a.shape), tuple(b.shape)))
    if table is None:
        table = h100_split_k_table()
    elif not isinstance(table, SplitKTable):
        table = read_split_k_table(table)
    return table.predict(int(a.shape[0]), int(b.shape[1]), int(a.shape[1]), fa)

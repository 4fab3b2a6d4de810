"""The reference GEMM under named numerics models (softmma/gemm.h).

    D[i][j] = C[i][j] + sum_k (A[i][k] SA[i][k/vec]) (B[k][j] SB[k/vec][j])

Operands are codes in their formats' dtypes (codec.code_dtype): A of shape
(M, K), B of shape (K, N) in any memory order, C (M, N).  A scale array has
the shape of its operand with K counted in blocks, Kb = ceil(K / vec): SA is
(M, Kb), SB is (Kb, N), as the gemm vector suites, `softmma export --npy`
and gemm_generate hold them (Triton's rhs_scale is SB.T).  An SB of the
other orientation, (N, Kb), is refused by its shape; when Kb == N > 1 the
shape cannot tell, so a plain square array is refused and the orientation
must be stated by wrapping it: sb=BScales(x).  D comes back as codes of
d_fmt: uint32 for fp32, uint16 for bf16 and fp16.
"""

import ctypes
from collections import namedtuple

import numpy as np

from . import _lib, codec
from ._lib import SoftmmaError, lib

__all__ = ['models', 'model_aliases', 'model_info', 'gemm', 'gemm_values', 'gemm_verify',
           'gemm_match', 'gemm_generate', 'gemm_split_k', 'split_k_slices', 'split_k_match',
           'scaled_mm', 'BScales', 'GemmVerify', 'GemmMatch', 'Mismatch', 'SplitKMatch']

_NONE = 10  # SMMA_NONE: SMMA_FORMAT_COUNT

class Mismatch(namedtuple('Mismatch', 'i j want got')):
    """One differing entry of D: its row, column, expected and actual codes
    (ints, shown in hex as softmma gemm --check shows them)."""
    __slots__ = ()

    def __repr__(self):
        return 'Mismatch(i=%d, j=%d, want=0x%x, got=0x%x)' % self
GemmMatch = namedtuple('GemmMatch', 'model aliases checked mismatches first')
GemmMatch.__doc__ = ('One model in the answer of gemm_match: its name, the aliases that name '
                     'it, entries checked, how many differ, and the first few Mismatch tuples.')
GemmVerify = namedtuple('GemmVerify', 'checked mismatches first')
GemmVerify.__doc__ = ('The result of gemm_verify: entries checked, how many differ, and the '
                      'first few as Mismatch tuples.')

SplitKMatch = namedtuple('SplitKMatch', 'slices bounds checked mismatches')
SplitKMatch.__doc__ = ('One slice count in the answer of split_k_match: the slices, their '
                       '(k0, k1) bounds, entries compared, how many differ.')

_KINDS = ('exact', 'fp32-fma-seq', 'block-fma', 'promote')


def _model_dict(m):
    d = {}
    for name, _ in _lib.Model._fields_:
        v = getattr(m, name)
        d[name] = v.decode() if isinstance(v, bytes) else v
    d['kind'] = _KINDS[m.kind] if 0 <= m.kind < len(_KINDS) else m.kind
    d['round'] = lib.smma_round_name(m.round).decode()
    buf = ctypes.create_string_buffer(256)
    lib.smma_model_inputs(ctypes.byref(m), buf, len(buf))
    d['takes'] = buf.value.decode()
    return d


def models():
    """The numerics models (smma_model_at) as dicts: name, summary, kind,
    round, fma, neab, floor, normalize, upcast_bf16, promote, inner, inputs,
    status, the sets of formats it takes (ab_formats, scale_formats,
    d_formats: bit 1 << format id, 0 for all) and `takes`, those sets in
    words (smma_model_inputs)."""
    return [_model_dict(lib.smma_model_at(i).contents) for i in range(lib.smma_model_count())]


def model_aliases():
    """The aliases (smma_model_alias_at) as dicts: name, model (the model it
    stands for), summary, status.  model_info(alias) gives that model."""
    out = []
    for i in range(lib.smma_model_alias_count()):
        a = lib.smma_model_alias_at(i).contents
        out.append({f: getattr(a, f).decode() for f, _ in _lib.ModelAlias._fields_})
    return out


def _model(name):
    p = _lib.ModelP()
    err = _lib.Error()
    if lib.smma_model_from_name(_lib.enc(name), ctypes.byref(p), ctypes.byref(err)) != _lib.OK:
        # The library's message has room for part of the list: give it all.
        n = lib.smma_model_names(None, 0) + 1
        buf = ctypes.create_string_buffer(n)
        lib.smma_model_names(buf, n)
        raise SoftmmaError('unknown model %r (known: %s)' % (name, buf.value.decode()),
                           _lib.EINVAL)
    return p


def model_info(name):
    """One model's dict, looked up by name (smma_model_from_name)."""
    return _model_dict(_model(name).contents)


def _fmt(name, what):
    if name is None or name == 'none':
        return _NONE
    try:
        return codec.format_id(name)
    except SoftmmaError as e:
        raise SoftmmaError('%s: %s' % (what, e), e.status)


def _shape(a_fmt, b_fmt, scale_fmt, vec, c_fmt, d_fmt, m, n, k, alpha):
    s = _lib.GemmShape()
    s.a_fmt = _fmt(a_fmt, 'a_fmt')
    s.b_fmt = _fmt(b_fmt, 'b_fmt')
    s.scale_fmt = _fmt(scale_fmt, 'scale_fmt')
    s.vec = _lib.require_int(vec, 'vec', 0, 0xffffffff)
    s.c_fmt = _fmt(c_fmt, 'c_fmt')
    s.d_fmt = _fmt(d_fmt, 'd_fmt')
    s.m, s.n, s.k = m, n, k
    s.has_alpha = alpha is not None
    s.alpha = 0 if alpha is None else _lib.require_f32(alpha, 'alpha')
    err = _lib.Error()
    _lib.check(lib.smma_gemm_shape_check(ctypes.byref(s), ctypes.byref(err)), err)
    return s


def _codes(x, fid, what, shape):
    """x checked (dtype of format fid, shape, range) and widened to a
    C-contiguous uint32 array, one code per element, as smma_gemm takes."""
    name = codec.formats()[fid]
    _lib.require_array(x, what, codec.code_dtype(name), ndim=2)
    if shape is not None and tuple(x.shape) != tuple(shape):
        raise SoftmmaError('%s must have shape %s, not %s' % (what, tuple(shape), x.shape))
    _lib.require_below(x, 1 << codec._info(fid)['storage_bits'], what)
    return np.ascontiguousarray(x, dtype=np.uint32)


class BScales:
    """B's scale codes, stated to be Kb x N: x[t, j] scales B[t*vec .. t*vec +
    vec - 1, j], as B is K x N.  gemm, gemm_verify and gemm_match take sb as
    a plain (Kb, N) array when Kb != N; when Kb == N > 1 its shape cannot
    say which way it lies, so they take it only wrapped in BScales.
    gemm_generate and read_vectors return B's scales wrapped.  The wrapper
    has no .T or arithmetic: np.asarray(x) (or .array) gives the array, and
    a plain array made from it must be wrapped again to be taken as sb."""

    __slots__ = ('array',)

    def __init__(self, x):
        if isinstance(x, BScales):
            x = x.array
        if not isinstance(x, np.ndarray) or x.ndim != 2:
            raise SoftmmaError('BScales: a 2-D numpy array (Kb, N), not %r' % (type(x),))
        self.array = x

    @property
    def shape(self):
        return self.array.shape

    @property
    def dtype(self):
        return self.array.dtype

    def __array__(self, dtype=None, copy=None):
        return self.array if dtype is None else self.array.astype(dtype)

    def __repr__(self):
        return 'BScales(%r)' % (self.array,)


def _b_scales(sb, fid, kb, n):
    """sb (BScales, or a plain array when its shape is not square) checked
    to be (Kb, N) and laid out as smma_gemm_operands.sb takes it: N x Kb,
    K-major, one contiguous row per column of B."""
    stated = isinstance(sb, BScales)
    x = sb.array if stated else sb
    if not stated and isinstance(x, np.ndarray) and x.ndim == 2 and kb == n and n > 1:
        raise SoftmmaError('sb is %d x %d: square (Kb = N), so its shape cannot say its '
                           'orientation; pass sb=softmma.BScales(x) to state that x is Kb x N '
                           '(x[t, j] scales B[t*vec .. t*vec+vec-1, j]), as vector files, '
                           'softmma export and gemm_generate hold it' % (kb, n))
    if isinstance(x, np.ndarray) and x.ndim == 2 and x.shape == (n, kb) and kb != n:
        raise SoftmmaError('sb must have shape (Kb, N) = %s, not (N, Kb) = %s: B\'s scales '
                           'lie as B does (K x N), one row per k block; pass x.T'
                           % ((kb, n), x.shape))
    return np.ascontiguousarray(_codes(x, fid, 'sb', (kb, n)).T)


class _Problem:
    """The shape and operands of one call, with the arrays they point into."""

    def __init__(self, a, b, a_fmt, b_fmt, sa, sb, scale_fmt, vec, c, c_fmt, d_fmt, alpha):
        for v, what in ((a, 'a'), (b, 'b')):
            if not isinstance(v, np.ndarray) or v.ndim != 2:
                raise SoftmmaError('%s must be a 2-D numpy array' % what)
        m, k = a.shape
        if b.shape[0] != k:
            raise SoftmmaError('b must have K = %d rows (a is %d x %d), not shape %s'
                               % (k, m, k, b.shape))
        n = b.shape[1]
        if (sa is not None or sb is not None) and scale_fmt in (None, 'none'):
            raise SoftmmaError('scales given without scale_fmt')
        if c is not None and c_fmt in (None, 'none'):
            raise SoftmmaError('c given without c_fmt')
        self.s = _shape(a_fmt, b_fmt, scale_fmt, vec, c_fmt, d_fmt, m, n, k, alpha)
        s = self.s
        self.a = _codes(a, s.a_fmt, 'a', None)
        # B as N x K, K-major: one contiguous row per column of B.
        self.b = np.ascontiguousarray(_codes(b, s.b_fmt, 'b', None).T)
        kb = lib.smma_gemm_kblocks(ctypes.byref(s))
        self.sa = None if sa is None else _codes(sa, s.scale_fmt, 'sa', (m, kb))
        self.sb = None if sb is None else _b_scales(sb, s.scale_fmt, kb, n)
        self.c = None if c is None else _codes(c, s.c_fmt, 'c', (m, n))
        op = _lib.GemmOperands()
        op.a, op.lda, op.a_kmajor = _lib.ptr(self.a, ctypes.c_uint32), k, True
        op.b, op.ldb, op.b_kmajor = _lib.ptr(self.b, ctypes.c_uint32), k, True
        op.sa = _lib.ptr(self.sa, ctypes.c_uint32)
        op.sb = _lib.ptr(self.sb, ctypes.c_uint32)
        op.c = _lib.ptr(self.c, ctypes.c_uint32)
        self.op = op
        self.d_dtype = codec.code_dtype(codec.formats()[s.d_fmt])


def gemm(model, a, b, *, a_fmt, b_fmt, sa=None, sb=None, scale_fmt=None, vec=32, c=None,
         c_fmt=None, d_fmt='fp32', alpha=None):
    """D under the named model (smma_gemm), as codes of d_fmt.

    a (M, K) and b (K, N) hold codes of a_fmt and b_fmt; sa (M, Kb) and sb
    (Kb, N) the scale codes of scale_fmt ('e8m0', 'ue4m3' or None), one per
    vec (16 or 32) elements along K (a square sb wrapped: BScales); c (M, N) codes of c_fmt ('fp32',
    'bf16', 'fp16' or None).  alpha, an fp32 number or None, is the epilogue
    multiplier of softmma/gemm.h (smma_gemm_shape.has_alpha and alpha).
    A scale array left None with a scale_fmt is passed as NULL: the library
    decides what that means (softmma/gemm.h)."""
    p = _Problem(a, b, a_fmt, b_fmt, sa, sb, scale_fmt, vec, c, c_fmt, d_fmt, alpha)
    d = np.empty((p.s.m, p.s.n), dtype=np.uint32)
    err = _lib.Error()
    _lib.check(lib.smma_gemm(_model(model), ctypes.byref(p.s), ctypes.byref(p.op),
                             _lib.ptr(d, ctypes.c_uint32), ctypes.byref(err)), err)
    return d.astype(p.d_dtype)


def gemm_values(model, a, b, **kw):
    """gemm's D as exact values (float64): codec.decode of its codes."""
    d = gemm(model, a, b, **kw)
    return codec.decode(kw.get('d_fmt', 'fp32'), d)


def gemm_verify(model, d, a, b, *, samples=1000, seed=1, keep=10, **kw):
    """Sampled verification of a subject's D (smma_gemm_verify): recomputes
    `samples` entries chosen by a seeded generator (all when samples >= M N)
    and compares bitwise.  d holds the subject's codes of d_fmt, shape (M, N);
    the other arguments are gemm's.  Returns GemmVerify(checked, mismatches,
    first) with up to `keep` Mismatch(i, j, want, got)."""
    p = _Problem(a, b, kw.pop('a_fmt'), kw.pop('b_fmt'), kw.pop('sa', None), kw.pop('sb', None),
                 kw.pop('scale_fmt', None), kw.pop('vec', 32), kw.pop('c', None),
                 kw.pop('c_fmt', None), kw.pop('d_fmt', 'fp32'), kw.pop('alpha', None))
    if kw:
        raise SoftmmaError('unknown argument %s' % sorted(kw)[0])
    _lib.require_array(d, 'd', p.d_dtype, shape=(p.s.m, p.s.n))
    d32 = np.ascontiguousarray(d, dtype=np.uint32)
    keep = _lib.require_int(keep, 'keep')
    first = (_lib.Mismatch * max(keep, 1))()
    checked, bad = ctypes.c_size_t(), ctypes.c_size_t()
    err = _lib.Error()
    _lib.check(lib.smma_gemm_verify(_model(model), ctypes.byref(p.s), ctypes.byref(p.op),
                                    _lib.ptr(d32, ctypes.c_uint32),
                                    _lib.require_int(samples, 'samples'),
                                    _lib.require_int(seed, 'seed', 0, 2 ** 64 - 1),
                                    ctypes.byref(checked), ctypes.byref(bad), first, keep,
                                    ctypes.byref(err)), err)
    return GemmVerify(checked.value, bad.value,
                      [Mismatch(f.i, f.j, f.want, f.got) for f in first[:min(bad.value, keep)]])


def gemm_match(d, a, b, *, models=None, samples=None, seed=1, keep=5, **kw):
    """Which numerics models reproduce a subject's D bit for bit: gemm_verify
    of d under each model of `models` (names or aliases; None: every model
    of the table) that takes the problem, all M N entries unless `samples`
    is given.  The other arguments are gemm's.  Returns GemmMatch tuples,
    the models that reproduce every entry checked first, then the others by
    their number of differing entries (ties in table order).  Only the
    models that take the problem are tried (smma_models_taking: its element,
    scale and D formats, and what each can compute); the others are left
    out, the named ones too."""
    kw = dict(kw)
    p = _Problem(a, b, kw.get('a_fmt'), kw.get('b_fmt'), kw.get('sa'), kw.get('sb'),
                 kw.get('scale_fmt'), kw.get('vec', 32), kw.get('c'), kw.get('c_fmt'),
                 kw.get('d_fmt', 'fp32'), kw.get('alpha'))
    if models is None:
        n = lib.smma_models_taking(ctypes.byref(p.s), None, 0)
        found = (_lib.ModelP * max(n, 1))()
        lib.smma_models_taking(ctypes.byref(p.s), found, n)
        names = [found[i].contents.name.decode() for i in range(n)]
    else:
        names = [m.contents.name.decode() for m in (_model(x) for x in models)
                 if lib.smma_model_check(m, ctypes.byref(p.s), None) == _lib.OK]
    al = model_aliases()
    if samples is None:
        samples = int(np.size(d))
    out = []
    for target in names:
        v = gemm_verify(target, d, a, b, samples=samples, seed=seed, keep=keep, **dict(kw))
        out.append(GemmMatch(target, [x['name'] for x in al if x['model'] == target],
                             v.checked, v.mismatches, v.first))
    return sorted(out, key=lambda r: r.mismatches)


def split_k_slices(k, slices, align=128):
    """The bounds (k0, k1) of K split into `slices` slices as cuBLASLt's
    split-K was seen to split it (doc/models.md): ceil(k / slices) rounded
    up to a multiple of align for every slice but the last, which takes the
    rest.  SoftmmaError where that leaves fewer slices than asked for."""
    k = _lib.require_int(k, 'k', 1)
    slices = _lib.require_int(slices, 'slices', 1)
    align = _lib.require_int(align, 'align', 1)
    step = -(-k // slices)
    step = -(-step // align) * align
    out = [(k0, min(k, k0 + step)) for k0 in range(0, k, step)]
    if len(out) != slices:
        raise SoftmmaError('k = %d in slices of %d (a multiple of %d) gives %d slices, not %d'
                           % (k, step, align, len(out), slices))
    return out


def _plain_operands(a, b, d_fmt, what):
    """A (M, K) and B (K, N) as arrays, and a D format of fp32, bf16 or fp16
    (the argument named `what`), or SoftmmaError."""
    if d_fmt not in ('fp32', 'bf16', 'fp16'):
        raise SoftmmaError("%s must be 'fp32', 'bf16' or 'fp16', not %r" % (what, d_fmt))
    a = np.asarray(a)
    b = np.asarray(b)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise SoftmmaError('a (M, K) and b (K, N) with the same K, not %s and %s'
                           % (a.shape, b.shape))
    return a, b


def gemm_split_k(model, a, b, *, a_fmt, b_fmt, slices, align=128, d_fmt='fp32'):
    """D as a split-K GEMM computes it: each slice of K (split_k_slices) an
    fp32 sum of its own under the named model, from zero; the slices' sums
    added in fp32 in slice order, each addition rounded to nearest; then D
    rounded to nearest in d_fmt ('fp32', 'bf16', 'fp16').  cuBLASLt on an
    H200 computes this where it splits K (doc/models.md); reverse order fit
    the same cases, so the order is this function's choice.  Operands without
    block scales, C or alpha (the shapes where cuBLASLt splits K take none
    of them in tests/python/torch-t).  Returns D's codes, as gemm does."""
    a, b = _plain_operands(a, b, d_fmt, 'd_fmt')
    acc = None
    for k0, k1 in split_k_slices(a.shape[1], slices, align):
        part = gemm(model, np.ascontiguousarray(a[:, k0:k1]), np.ascontiguousarray(b[k0:k1, :]),
                    a_fmt=a_fmt, b_fmt=b_fmt, d_fmt='fp32').view(np.float32)
        acc = part if acc is None else (acc + part).astype(np.float32)
    if d_fmt == 'fp32':
        return acc.view(np.uint32).copy()
    return codec.encode(d_fmt, acc, round='rn', sat=False)


def split_k_match(d, a, b, *, model, a_fmt, b_fmt, d_fmt='fp32', slices=range(2, 17), align=128):
    """Which slice counts reproduce a subject's D (all M N entries) as
    gemm_split_k under `model`: SplitKMatch tuples, those with no differing
    entry first, then by their number of differing entries.  Slice counts
    that K cannot be split into are left out."""
    out = []
    for s in slices:
        try:
            bounds = split_k_slices(np.shape(a)[1], s, align)
        except SoftmmaError:
            continue
        want = gemm_split_k(model, a, b, a_fmt=a_fmt, b_fmt=b_fmt, slices=s, align=align,
                            d_fmt=d_fmt)
        got = np.asarray(d)
        out.append(SplitKMatch(s, bounds, int(want.size), int((want != got).sum())))
    return sorted(out, key=lambda r: r.mismatches)


def _f32_values(x, length, what):
    """The values of x, a float32 numpy array of `length` elements in any
    shape (a torch scale of M x 1 as .numpy() gives it), flattened; nothing
    is converted."""
    _lib.require_array(x, what, np.float32)
    if x.size != length:
        raise SoftmmaError('%s: %d values, not %d' % (what, x.size, length))
    return x.reshape(-1)


def _f32_scalar(x, what):
    """An fp32 number (_lib.require_f32: nothing that would round) as
    np.float32."""
    return np.array(_lib.require_f32(x, what), dtype=np.uint32).view(np.float32)[()]


def scaled_mm(model, a, b, *, a_fmt, b_fmt, scale_a=1.0, scale_b=1.0, bias=None, out='fp32',
              rowwise=None, slices=1, align=128):
    """D as cuBLASLt's scaled fp8 GEMM (torch._scaled_mm) computes it on
    H100/H200 (doc/models.md, checked bit for bit by tests/python/torch-t):
    acc, the fp32 sum of `model` (cublaslt-fp8-fast or cublaslt-fp8-promoted;
    split-K as gemm_split_k where slices > 1); then the scales, each product
    rounded to nearest fp32: per-tensor scales (two numbers) as one factor
    alpha = fp32(scale_a * scale_b), x = alpha * acc; row-wise scales
    (scale_a M values, one a row of A; scale_b N values, one a column of B)
    B's first, x = (acc * scale_b[j]) * scale_a[i]; then the bias (N values,
    one a column, held exactly by the output format; torch refuses a bias
    with fp32 D), x + bias rounded to fp32; then D rounded to nearest in
    out ('fp32', 'bf16', 'fp16').  Per-tensor scales are numbers fp32 holds
    exactly; row-wise scales and the bias float32 numpy arrays (any shape of
    that many elements); nothing is converted.  rowwise (None: row-wise where
    either scale holds more than one value) says which for M = N = 1.
    Returns D's codes, as gemm does."""
    a, b = _plain_operands(a, b, out, 'out')
    m, n = a.shape[0], b.shape[1]
    if rowwise is None:
        rowwise = np.size(scale_a) != 1 or np.size(scale_b) != 1
    if rowwise:
        sa_ = _f32_values(scale_a, m, 'scale_a (one a row of A)')
        sb_ = _f32_values(scale_b, n, 'scale_b (one a column of B)')
    else:
        sa_ = _f32_scalar(scale_a, 'scale_a')
        sb_ = _f32_scalar(scale_b, 'scale_b')
    if bias is not None:
        if out == 'fp32':
            raise SoftmmaError('a bias with fp32 D: torch._scaled_mm refuses it')
        bv = _f32_values(bias, n, 'bias (one a column of D)')
        back = codec.decode(out, codec.encode(out, bv, round='rn', sat=False))
        if not np.array_equal(np.asarray(back, np.float32), bv, equal_nan=True):
            raise SoftmmaError('bias: values that %s does not hold exactly' % out)
    if slices == 1:
        acc = gemm(model, a, b, a_fmt=a_fmt, b_fmt=b_fmt, d_fmt='fp32').view(np.float32)
    else:
        acc = gemm_split_k(model, a, b, a_fmt=a_fmt, b_fmt=b_fmt, slices=slices, align=align,
                           d_fmt='fp32').view(np.float32)
    with np.errstate(over='ignore', invalid='ignore'):
        if rowwise:
            x = (acc * sb_[None, :]).astype(np.float32)
            x = (x * sa_[:, None]).astype(np.float32)
        else:
            x = (acc * np.float32(sa_ * sb_)).astype(np.float32)
        if bias is not None:
            x = (x + bv[None, :]).astype(np.float32)
    if out == 'fp32':
        return np.ascontiguousarray(x).view(np.uint32).copy()
    return codec.encode(out, x, round='rn', sat=False)


def gemm_generate(a_fmt, b_fmt, m, n, k, *, scale_fmt=None, vec=32, c_fmt=None, cls='random',
                  seed=1):
    """Seeded inputs (smma_gemm_generate): cls 'random' or 'exact' (every
    partial sum exact in fp32, so every model gives the same D).  Returns a
    dict with a (M, K), b (K, N), sa (M, Kb) and sb (Kb, N, as BScales) when
    scale_fmt is given, c (M, N) when c_fmt is given, each in its format's dtype."""
    if cls not in ('random', 'exact'):
        raise SoftmmaError("cls must be 'random' or 'exact', not %r" % (cls,))
    s = _shape(a_fmt, b_fmt, scale_fmt, vec, c_fmt, 'fp32', _lib.require_int(m, 'm'),
               _lib.require_int(n, 'n'), _lib.require_int(k, 'k'), None)
    data = _lib.GemmData()
    err = _lib.Error()
    _lib.check(lib.smma_gemm_generate(ctypes.byref(s), 0 if cls == 'random' else 1,
                                      _lib.require_int(seed, 'seed', 0, 2 ** 64 - 1),
                                      ctypes.byref(data), ctypes.byref(err)), err)
    kb = lib.smma_gemm_kblocks(ctypes.byref(s))
    fm = codec.formats()

    def take(p, rows, cols, fid):
        v = np.ctypeslib.as_array(p, shape=(rows * cols,)).reshape(rows, cols)
        return v.astype(codec.code_dtype(fm[fid]))

    try:
        out = {'a': take(data.a, s.m, s.k, s.a_fmt), 'b': take(data.b, s.n, s.k, s.b_fmt).T}
        if s.scale_fmt != _NONE:
            out['sa'] = take(data.sa, s.m, kb, s.scale_fmt)
            out['sb'] = BScales(np.ascontiguousarray(take(data.sb, s.n, kb, s.scale_fmt).T))
        if s.c_fmt != _NONE:
            out['c'] = take(data.c, s.m, s.n, s.c_fmt)
    finally:
        lib.smma_gemm_data_free(ctypes.byref(data))
    return out

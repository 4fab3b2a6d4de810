"""cuBLASLt's split-K per shape, read from a table that bench/cublaslt-probe.py
writes on a GPU machine (doc/models.md, "cuBLASLt's split-K").

A table line is what the probe prints for one shape:

    bf16    16  4096   4096 mult128 algo=66 tile=64x64 splitk=2 reduction=inplace ...

that is dtype (bf16, fp16), M, N, K, the K kind (odd, mult16, mult64,
mult128), then key=value attributes of the algorithm cublasLtMatmulAlgoGetHeuristic
gave torch for that shape; 'no algorithm' or 'error ...' where it gave none.
Lines starting with '#' are comments (the probe's first line names the
library, torch and the card); a path ending in .gz is read through gzip.
SplitKTable.predict answers per shape: the slice count where the table has
the shape, else 'not modeled' (slices None); a rule may answer for shapes
outside them (SplitKTable.rule).  The slices' bounds are given only where
the cut is known (doc/models.md): one slice, or an algorithm 66 split of a
K that is a multiple of 128, cut in ceil(K / S) rounded up to 128; other
splits (algorithms 14, 23 and 24, whose S often exceeds K / 128, and any K
not a multiple of 128) have cut 'not modeled' and bounds None.

h100_split_k_table() is the table of an H100 (cuBLASLt 13.1 of PyTorch
2.11.0+cu130, 32 MiB workspace as torch.matmul's default cuBLAS path asks),
shipped with the module: M, N in 1..32 and 64..4096 (powers of two), 25 K.
"""

import gzip
import os
from collections import namedtuple

from ._lib import SoftmmaError
from .gemm import split_k_slices

__all__ = ['read_split_k_table', 'h100_split_k_table', 'SplitKTable', 'SplitKPrediction']

SplitKPrediction = namedtuple('SplitKPrediction', 'slices bounds reduction source cut')
SplitKPrediction.__doc__ = (
    "What cuBLASLt does with one shape: slices (the split-K count, 1 for none, None when "
    "not modeled), bounds (the slices' (k0, k1) as softmma.split_k_slices gives them, None "
    "when the count or the cut is not modeled), reduction (the algorithm's reduction scheme, "
    "or None), source ('table', 'rule' or 'not modeled'), cut ('one slice', 'ceil(K/S) up "
    "to 128' or 'not modeled').")

H100_TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          'cublaslt-h100-splitk.txt.gz')
_h100 = []

_DTYPES = ('bf16', 'fp16')
_KINDS = ('odd', 'mult16', 'mult64', 'mult128')


class SplitKTable:
    """The split-K counts of one card and library, shape by shape.

    header   the comment lines of the file (the probe names the cuBLASLt
             version, torch and the card there)
    entries  dict (dtype, m, n, k) -> dict of the attributes (ints where
             they are numbers: splitk, algo, swizzle, custom, inner, ws;
             strings otherwise), or None where cuBLASLt gave no algorithm
    rule     None, or a function (dtype, m, n, k) -> slices or None that
             predicts shapes the table does not hold
    """

    def __init__(self, header, entries, rule=None):
        self.header = header
        self.entries = entries
        self.rule = rule

    def __len__(self):
        return len(self.entries)

    def predict(self, m, n, k, dtype='bf16', align=128):
        """The SplitKPrediction of D (m x n) = A (m x k) B (k x n) in dtype."""
        if dtype not in _DTYPES:
            raise SoftmmaError("dtype must be 'bf16' or 'fp16', not %r" % (dtype,))
        for v, what in ((m, 'm'), (n, 'n'), (k, 'k')):
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise SoftmmaError('%s must be a positive int, not %r' % (what, v))
        key = (dtype, m, n, k)
        slices, reduction, source, algo = None, None, 'not modeled', None
        if key in self.entries and self.entries[key] is not None:
            e = self.entries[key]
            slices, reduction, source = e['splitk'], e.get('reduction'), 'table'
            algo = e.get('algo')
        elif key not in self.entries and self.rule is not None:
            slices = self.rule(dtype, m, n, k)
            source = 'rule' if slices is not None else source
        bounds, cut = None, 'not modeled'
        if slices == 1:
            bounds, cut = [(0, k)], 'one slice'
        elif slices is not None and algo in (66, None) and k % align == 0:
            # the cut seen in the numerical fits (doc/models.md), algorithm 66's
            try:
                bounds, cut = split_k_slices(k, slices, align), 'ceil(K/S) up to %d' % align
            except SoftmmaError:
                bounds = None
        return SplitKPrediction(slices, bounds, reduction, source, cut)


def _value(v):
    try:
        return int(v)
    except ValueError:
        return v


def read_split_k_table(path):
    """Reads a table bench/cublaslt-probe.py wrote (cublaslt-probe.txt) into
    a SplitKTable.  SoftmmaError naming the file and line for a malformed
    line, an unknown dtype or K kind, a shape given twice, or a line without
    splitk=."""
    header, entries = [], {}
    try:
        f = gzip.open(path, 'rt') if str(path).endswith('.gz') else open(path)
    except OSError as e:
        raise SoftmmaError('%s: cannot open: %s' % (path, e.strerror)) from None
    with f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            if line.startswith('#'):
                header.append(line[1:].strip())
                continue
            tok = line.split()
            where = '%s:%d' % (path, lineno)
            if len(tok) < 6:
                raise SoftmmaError('%s: expected "dtype M N K kind attributes", not %r'
                                   % (where, line))
            dtype, kind = tok[0], tok[4]
            if dtype not in _DTYPES:
                raise SoftmmaError('%s: unknown dtype %r (bf16, fp16)' % (where, dtype))
            if kind not in _KINDS:
                raise SoftmmaError('%s: unknown K kind %r (%s)' % (where, kind,
                                                                   ' '.join(_KINDS)))
            try:
                m, n, k = (int(t) for t in tok[1:4])
            except ValueError:
                raise SoftmmaError('%s: malformed shape %s' % (where, ' '.join(tok[1:4]))) \
                    from None
            if min(m, n, k) < 1:
                raise SoftmmaError('%s: shape %d x %d x %d is empty' % (where, m, n, k))
            key = (dtype, m, n, k)
            if key in entries:
                raise SoftmmaError('%s: %s %d x %d x %d given twice' % ((where,) + key))
            if tok[5] in ('no', 'error'):
                entries[key] = None
                continue
            attrs = {}
            for t in tok[5:]:
                name, eq, v = t.partition('=')
                if not eq or not name:
                    raise SoftmmaError('%s: malformed attribute %r (name=value)' % (where, t))
                attrs[name] = _value(v)
            if not isinstance(attrs.get('splitk'), int) or attrs['splitk'] < 1:
                raise SoftmmaError('%s: no splitk=N (N >= 1) among the attributes' % where)
            entries[key] = attrs
    return SplitKTable(header, entries)


def h100_split_k_table():
    """The split-K table of an H100 shipped with the module (read once)."""
    if not _h100:
        _h100.append(read_split_k_table(H100_TABLE))
    return _h100[0]

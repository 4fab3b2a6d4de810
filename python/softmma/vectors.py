"""Golden vector suites (softmma/vectors.h, doc/vectors.md) read by the C
reader into numpy arrays.

Every value of a field stays its bits, in the unsigned dtype of its type's
size (uint8 for the 8-bit formats and u8, uint16 for bf16, fp16 and u16,
uint32 for fp32 and u32, uint64 for fp64 and u64): e4m3 codes as uint8,
fp32 numbers as uint32 (.view(np.float32) gives the values).
"""

import ctypes
from collections import namedtuple

import numpy as np

from . import _lib
from ._lib import SoftmmaError, lib
from .gemm import BScales

__all__ = ['read_vectors', 'VectorSuite', 'VectorField', 'vec_types']

_VT_COUNT = 15
_DTYPES = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}

VectorField = namedtuple('VectorField', 'name type out block count')
VectorField.__doc__ = ('One field of a suite: name, type name, whether it is an expected '
                       'output, whether it is a block, and its count of tokens (scalars).')


def vec_types():
    """The value types of vector files (smma_vec_type_get): name -> (bits,
    bytes)."""
    out = {}
    for t in range(_VT_COUNT):
        i = lib.smma_vec_type_get(t).contents
        out[i.name.decode()] = (i.bits, i.bytes)
    return out


class VectorSuite:
    """A suite read whole.

    header   dict: version, suite, generator, seed, level, profile, model,
             cases (the file's header lines)
    fields   list of VectorField in token order (scalar inputs, scalar
             outputs, blocks)
    columns  dict: scalar field name -> array of shape (cases,), or
             (cases, count) for name:type[count]
    blocks   dict: block field name -> list, one 2-D array (rows, cols) per
             case; B's scales (a block named sb, Kb x N in every gemm suite:
             doc/vectors.md) wrapped in gemm.BScales, which states that
             orientation to gemm when the block is square
    """

    def __init__(self, header, fields, columns, blocks):
        self.header = header
        self.fields = fields
        self.columns = columns
        self.blocks = blocks

    def __len__(self):
        return self.header['cases']

    def dtype(self, name):
        """The numpy dtype of a field's values."""
        for f in self.fields:
            if f.name == name:
                return np.dtype(_DTYPES[vec_types()[f.type][1]])
        raise SoftmmaError('%s: no field %r' % (self.header['suite'], name))

    def __repr__(self):
        return '<VectorSuite %s: %d cases, fields %s>' % (
            self.header['suite'], len(self), ' '.join(f.name for f in self.fields))


def read_vectors(path):
    """Reads the vector file at path with the library's reader
    (smma_vec_open, smma_vec_next): every malformed line is refused with a
    SoftmmaError "PATH:LINE: message".  Returns a VectorSuite."""
    if not isinstance(path, str):
        path = str(path)
    r = ctypes.c_void_p()
    err = _lib.Error()
    _lib.check(lib.smma_vec_open(path.encode(), ctypes.byref(r), ctypes.byref(err)), err)
    try:
        h = lib.smma_vec_header_of(r).contents
        header = {'version': h.version, 'suite': h.suite.decode(),
                  'generator': h.generator.decode(), 'seed': h.seed, 'level': h.level,
                  'profile': h.profile.decode(), 'model': h.model.decode(), 'cases': h.cases}
        types = {t: lib.smma_vec_type_get(t).contents for t in range(_VT_COUNT)}
        fields = []
        for i in range(h.nfields):
            f = h.fields[i]
            fields.append((i, VectorField(f.name.decode(), types[f.type].name.decode(), f.out,
                                          f.block, f.count), f.offset, types[f.type].bytes))
        ncases, nscalars = h.cases, h.nscalars
        scalars = np.empty((ncases, nscalars), dtype=np.uint64)
        blocks = {f.name: [] for _, f, _, _ in fields if f.block}
        case = ctypes.POINTER(_lib.VecCase)()
        n = 0
        while True:
            _lib.check(lib.smma_vec_next(r, ctypes.byref(case), ctypes.byref(err)), err)
            if not case:
                break
            c = case.contents
            if nscalars:
                ctypes.memmove(scalars[n].ctypes.data, c.scalars, nscalars * 8)
            for i, f, _, nbytes in fields:
                if f.block:
                    b = c.blocks[i]
                    v = np.ctypeslib.as_array(b.v, shape=(b.rows * b.cols,))
                    blocks[f.name].append(v.astype(_DTYPES[nbytes]).reshape(b.rows, b.cols))
            n += 1
    finally:
        lib.smma_vec_close(r)
    columns = {}
    for _, f, off, nbytes in fields:
        if not f.block:
            col = scalars[:, off:off + f.count].astype(_DTYPES[nbytes])
            columns[f.name] = col if f.count > 1 else col.reshape(ncases)
    if 'sb' in blocks:
        blocks['sb'] = [BScales(x) for x in blocks['sb']]
    return VectorSuite(header, [f for _, f, _, _ in fields], columns, blocks)

"""Scale-factor layouts (softmma/scale_layout.h): where the block scales of
one operand lie in memory, both ways.  And the fragment layouts of every
modeled instruction (softmma/grid.h): who holds element (row, col) of an
operand (holder) and which elements a thread holds (cells).

An operand of `rows` rows (M for A, N for B) and K elements per row has a
rows x Kb scale matrix, Kb = ceil(K / vec); scale (m, kb) belongs to row m
and elements kb*vec .. kb*vec + vec - 1.  "linear" stores it row-major;
"128x4" (cuBLAS, CUTLASS, tcgen05), "triton5d" (the same bytes as the Triton
tutorial's 5-D tensor), "cdna4-16" and "cdna4-32" (AMD MFMA) pad it to tiles.
"""

import ctypes
from collections import namedtuple

import numpy as np

from . import _lib
from ._lib import SoftmmaError, lib

__all__ = ['scale_layouts', 'scale_layout_shape', 'scale_layout_size', 'scale_offset',
           'scale_offsets', 'scale_coord', 'scale_pack', 'scale_unpack',
           'scale_triton5d_index', 'ScaleShape', 'layout_shape', 'holder', 'cells', 'Holder',
           'Cells', 'HOLDER_NONE', 'HOLDER_REG', 'HOLDER_TMEM', 'HOLDER_ADDR', 'HOLDER_BYTE']

_LAYOUT_COUNT = 5

ScaleShape = namedtuple('ScaleShape', 'layout rows k vec kb row_tile col_tile rows_pad kb_pad '
                        'bytes')
ScaleShape.__doc__ = 'The geometry of a scale matrix in one layout (smma_scale_shape).'


def scale_layouts():
    """The layout names, in the order of smma_scale_layout."""
    return [lib.smma_scale_layout_name(i).decode() for i in range(_LAYOUT_COUNT)]


def _args(layout, rows, k, vec):
    return (_lib.lookup(lib.smma_scale_layout_from_name, layout, 'layout'),
            _lib.require_int(rows, 'rows'), _lib.require_int(k, 'k'),
            _lib.require_int(vec, 'vec', 0, 0xffffffff))


def scale_layout_shape(layout, rows, k, vec):
    """The geometry of a rows x ceil(k / vec) scale matrix in layout
    (smma_scale_layout_shape), a ScaleShape with the layout's name."""
    a = _args(layout, rows, k, vec)
    s = _lib.ScaleShape()
    err = _lib.Error()
    _lib.check(lib.smma_scale_layout_shape(*a, ctypes.byref(s), ctypes.byref(err)), err)
    return ScaleShape(lib.smma_scale_layout_name(s.layout).decode(), s.rows, s.k, s.vec, s.kb,
                      s.row_tile, s.col_tile, s.rows_pad, s.kb_pad, s.bytes)


def scale_layout_size(layout, rows, k, vec):
    """The bytes of the stored array, padding included (smma_scale_layout_size)."""
    a = _args(layout, rows, k, vec)
    out = ctypes.c_size_t()
    err = _lib.Error()
    _lib.check(lib.smma_scale_layout_size(*a, ctypes.byref(out), ctypes.byref(err)), err)
    return out.value


def scale_offset(layout, rows, k, vec, m, kb):
    """The byte offset of scale (m, kb) in the stored array (smma_scale_offset)."""
    a = _args(layout, rows, k, vec)
    out = ctypes.c_size_t()
    err = _lib.Error()
    _lib.check(lib.smma_scale_offset(*a, _lib.require_int(m, 'm'), _lib.require_int(kb, 'kb'),
                                     ctypes.byref(out), ctypes.byref(err)), err)
    return out.value


def scale_offsets(layout, rows, k, vec):
    """The offsets of every scale: an int64 array of shape (rows, ceil(k / vec)),
    element (m, kb) = scale_offset(layout, rows, k, vec, m, kb)."""
    s = scale_layout_shape(layout, rows, k, vec)
    a = _args(layout, rows, k, vec)
    out = np.empty((s.rows, s.kb), dtype=np.int64)
    off = ctypes.c_size_t()
    err = _lib.Error()
    for m in range(s.rows):
        for kb in range(s.kb):
            _lib.check(lib.smma_scale_offset(*a, m, kb, ctypes.byref(off), ctypes.byref(err)),
                       err)
            out[m, kb] = off.value
    return out


def scale_coord(layout, rows, k, vec, off):
    """Which scale lies at byte off (smma_scale_coord): (m, kb, is_padding),
    the coordinate in the padded matrix and whether it is padding."""
    a = _args(layout, rows, k, vec)
    m, kb = ctypes.c_size_t(), ctypes.c_size_t()
    pad = ctypes.c_bool()
    err = _lib.Error()
    _lib.check(lib.smma_scale_coord(*a, _lib.require_int(off, 'off'), ctypes.byref(m),
                                    ctypes.byref(kb), ctypes.byref(pad), ctypes.byref(err)), err)
    return m.value, kb.value, pad.value


def scale_pack(layout, rows, k, vec, linear, fill=0):
    """Stores a scale matrix (uint8, shape (rows, ceil(k / vec))) in layout
    (smma_scale_pack): a 1-D uint8 array of scale_layout_size bytes with fill
    in every padding byte.  For triton5d, .reshape(rows_pad // 128,
    kb_pad // 4, 32, 4, 4) gives the tutorial's 5-D tensor."""
    a = _args(layout, rows, k, vec)
    s = scale_layout_shape(layout, rows, k, vec)
    _lib.require_array(linear, 'linear', np.uint8, shape=(s.rows, s.kb))
    fill = _lib.require_int(fill, 'fill', 0, 255)
    src = np.ascontiguousarray(linear)
    out = np.empty(s.bytes, dtype=np.uint8)
    err = _lib.Error()
    _lib.check(lib.smma_scale_pack(*a, _lib.ptr(src, ctypes.c_uint8),
                                   _lib.ptr(out, ctypes.c_uint8), fill, ctypes.byref(err)), err)
    return out


def scale_unpack(layout, rows, k, vec, packed):
    """The inverse of scale_pack: the (rows, ceil(k / vec)) uint8 scale matrix
    read from the stored array (uint8, any shape of scale_layout_size
    elements; padding is not read), smma_scale_unpack."""
    a = _args(layout, rows, k, vec)
    s = scale_layout_shape(layout, rows, k, vec)
    _lib.require_array(packed, 'packed', np.uint8)
    if packed.size != s.bytes:
        raise SoftmmaError('packed must hold %d bytes (layout %s, rows %d, k %d, vec %d), not %d'
                           % (s.bytes, s.layout, rows, k, vec, packed.size))
    src = np.ascontiguousarray(packed).reshape(-1)
    out = np.empty((s.rows, s.kb), dtype=np.uint8)
    err = _lib.Error()
    _lib.check(lib.smma_scale_unpack(*a, _lib.ptr(src, ctypes.c_uint8),
                                     _lib.ptr(out, ctypes.c_uint8), ctypes.byref(err)), err)
    return out


def scale_triton5d_index(rows, k, vec, m, kb):
    """The 5-D index (a, b, c, d, e) of scale (m, kb) in the Triton tutorial's
    tensor of shape (R'/128, Kb'/4, 32, 4, 4) (smma_scale_triton5d_index)."""
    idx = (ctypes.c_size_t * 5)()
    err = _lib.Error()
    _lib.check(lib.smma_scale_triton5d_index(
        _lib.require_int(rows, 'rows'), _lib.require_int(k, 'k'),
        _lib.require_int(vec, 'vec', 0, 0xffffffff), _lib.require_int(m, 'm'),
        _lib.require_int(kb, 'kb'), idx, ctypes.byref(err)), err)
    return tuple(idx)


# ---- fragment layouts (softmma/grid.h) ----------------------------------

# The kinds of holder (smma_holder_kind).
HOLDER_NONE, HOLDER_REG, HOLDER_TMEM, HOLDER_ADDR, HOLDER_BYTE = 0, 1, 2, 3, 4

Holder = namedtuple('Holder', 'thread reg elem kind')
Holder.__doc__ = """Who holds each element asked for (smma_layout_holders): int64 arrays of
the coordinates' shape.  kind HOLDER_REG: thread (lane of a warp, thread of a
warpgroup), register, element of the register; HOLDER_TMEM: TMEM lane (128 c
+ lane for CTA c of a pair), column, element of the 32-bit cell;
HOLDER_BYTE: lane and byte (elem) of a scale register; HOLDER_ADDR: the lane
whose address gives the row; HOLDER_NONE: no one (thread, reg, elem -1)."""

Cells = namedtuple('Cells', 'row col reg elem')
Cells.__doc__ = """The elements one thread holds, in register and element order
(smma_layout_cells): int64 arrays of (row, col) of the operand and the
register (TMEM column) and element each sits in."""

_NOBODY = 0xFFFFFFFF


def _opts(byte_id, thread_id, sf_id, num):
    o = _lib.GridOpts()
    for name, v in (('byte_id', byte_id), ('thread_id', thread_id), ('sf_id', sf_id),
                    ('num', num)):
        setattr(o, name, -1 if v is None else _lib.require_int(v, name, 0, 1 << 20))
    return o


def _coords(v, what):
    a = np.asarray(v)
    if a.dtype.kind not in 'iu':
        raise SoftmmaError('%s must be integers, not %s' % (what, a.dtype.name))
    if a.size and (a.min() < 0 or a.max() > 0xFFFFFFFF):
        raise SoftmmaError('%s must lie in [0, 2^32), not %d' %
                           (what, int(a.min() if a.min() < 0 else a.max())))
    return a


def layout_shape(instr, operand, byte_id=None, thread_id=None, sf_id=None, num=None):
    """The operand's tile and its holders (smma_layout_shape): (rows, cols,
    threads), e.g. (16, 16, 32) for layout_shape('mma.m16n8k16.bf16', 'a').
    The selectors are those of softmma layout (--byte-id, --thread-id, --sf-id,
    --num); instruction names as softmma layout --list prints them."""
    r, c, t = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    err = _lib.Error()
    o = _opts(byte_id, thread_id, sf_id, num)
    _lib.check(lib.smma_layout_shape(_lib.enc(instr), _lib.enc(operand), ctypes.byref(o),
                                     ctypes.byref(r), ctypes.byref(c), ctypes.byref(t),
                                     ctypes.byref(err)), err)
    return r.value, c.value, t.value


def holder(instr, operand, rows, cols, byte_id=None, thread_id=None, sf_id=None, num=None):
    """Who holds elements (rows, cols) of the operand: a Holder of int64
    arrays shaped as rows and cols broadcast together (Python ints give
    0-d arrays).  holder('mma.m16n8k16.bf16', 'a', 5, 9) is thread 20,
    register 2, element 1.  A coordinate outside the tile raises
    SoftmmaError naming it and the bound."""
    r = _coords(rows, 'rows')
    c = _coords(cols, 'cols')
    r, c = np.broadcast_arrays(r, c)
    shape = r.shape
    r = np.ascontiguousarray(r, dtype=np.uint32).reshape(-1)
    c = np.ascontiguousarray(c, dtype=np.uint32).reshape(-1)
    n = r.size
    out = [np.empty(n, dtype=np.uint32) for _ in range(3)]
    kind = np.empty(n, dtype=np.int32)
    err = _lib.Error()
    o = _opts(byte_id, thread_id, sf_id, num)
    _lib.check(lib.smma_layout_holders(_lib.enc(instr), _lib.enc(operand), ctypes.byref(o), n,
                                       _lib.ptr(r, ctypes.c_uint32), _lib.ptr(c, ctypes.c_uint32),
                                       *[_lib.ptr(a, ctypes.c_uint32) for a in out],
                                       _lib.ptr(kind, ctypes.c_int32), ctypes.byref(err)), err)
    res = []
    for a in out:
        a = a.astype(np.int64)
        a[a == _NOBODY] = -1
        res.append(a.reshape(shape))
    return Holder(res[0], res[1], res[2], kind.astype(np.int64).reshape(shape))


def cells(instr, operand, thread, byte_id=None, thread_id=None, sf_id=None, num=None):
    """The elements thread holds (the lane, warpgroup thread or TMEM lane of
    holder): a Cells of int64 arrays, in register and element order, the
    inverse of holder.  A thread out of range raises SoftmmaError naming the
    bound."""
    thread = _lib.require_int(thread, 'thread', 0, 0xFFFFFFFF)
    o = _opts(byte_id, thread_id, sf_id, num)
    n = ctypes.c_size_t()
    err = _lib.Error()
    args = (_lib.enc(instr), _lib.enc(operand), ctypes.byref(o), thread)
    _lib.check(lib.smma_layout_cells(*args, 0, None, None, None, None, ctypes.byref(n),
                                     ctypes.byref(err)), err)
    out = [np.empty(n.value, dtype=np.uint32) for _ in range(4)]
    _lib.check(lib.smma_layout_cells(*args, n.value, *[_lib.ptr(a, ctypes.c_uint32) for a in out],
                                     ctypes.byref(n), ctypes.byref(err)), err)
    return Cells(*[a.astype(np.int64) for a in out])

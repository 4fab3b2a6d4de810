"""Scale-factor layouts (softmma/scale_layout.h): where the block scales of
one operand lie in memory, both ways.

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
           'scale_triton5d_index', 'ScaleShape']

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

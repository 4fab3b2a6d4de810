"""Block quantization (softmma/quant.h): MX formats (32 elements per e8m0
scale) and NVFP4 (16 e2m1 per ue4m3 scale, one- or two-level), under a named
profile, and FP4 packing.

Inputs are float32 arrays whose last axis is a row of K values; each row is
quantized on its own (smma_quantize), giving ceil(K / V) scale bytes and K
element codes (uint8, one per byte; pack_fp4 packs e2m1 two per byte).
"""

import ctypes
from collections import namedtuple

import numpy as np

from . import _lib, codec
from ._lib import SoftmmaError, lib

__all__ = ['block_formats', 'block_format_info', 'block_count', 'quantize', 'dequantize',
           'quant_global_decode', 'block_amax', 'block_scale', 'pack_fp4', 'unpack_fp4',
           'which_profiles', 'ProfileMatch', 'QuantDiff']

ProfileMatch = namedtuple('ProfileMatch', 'profile blocks differ first')
ProfileMatch.__doc__ = ('One profile in the answer of which_profiles: its name, the blocks '
                        'compared, how many differ (0: it reproduces the quantization bit for '
                        'bit), and the first difference (a QuantDiff, or None).')
QuantDiff = namedtuple('QuantDiff', 'row block element given expected')
QuantDiff.__doc__ = ('Where a profile first differs from a given quantization: the row, the '
                     'block within it, the element within the block (None: the scale '
                     'differs), the given byte and the profile\'s.')

_BLOCK_FORMAT_COUNT = 6
_GLOBAL_NONE, _GLOBAL_AMAX, _GLOBAL_SCALE = 0, 1, 2


def block_format_id(name):
    """The smma_block_format number of a name ("mxfp8e4m3", "nvfp4", ...)."""
    return _lib.lookup(lib.smma_block_format_from_name, name, 'block format')


def block_formats():
    """The block format names, in the order of smma_block_format."""
    return [lib.smma_block_format_info(i).contents.name.decode()
            for i in range(_BLOCK_FORMAT_COUNT)]


def block_format_info(name):
    """The descriptor of a block format (smma_block_format_info) as a dict:
    name, elem and scale (format names), block (V), emax_elem,
    elem_man_bits, max_elem."""
    d = lib.smma_block_format_info(block_format_id(name)).contents
    return {'id': d.id, 'name': d.name.decode(), 'elem': codec.formats()[d.elem],
            'scale': codec.formats()[d.scale], 'block': d.block, 'emax_elem': d.emax_elem,
            'elem_man_bits': d.elem_man_bits, 'max_elem': d.max_elem}


def block_count(block_format, k):
    """ceil(k / V): the scale bytes of a row of k values (smma_block_count)."""
    return lib.smma_block_count(block_format_id(block_format), _lib.require_int(k, 'k', 1))


_INPUTS = ('fp32', 'bf16')


def _opts(bf, profile, global_amax, global_scale, round, rbits_ptr, input='fp32'):
    o = lib.smma_quant_opts_default(codec._profile(profile))
    if input not in _INPUTS:
        raise SoftmmaError("input must be 'fp32' or 'bf16', not %r" % (input,))
    o.input_bf16 = input == 'bf16'
    if global_amax is not None and global_scale is not None:
        raise SoftmmaError('global_amax and global_scale exclude each other')
    if global_amax is not None:
        o.global_ = _GLOBAL_AMAX
        o.global_bits = _lib.require_f32(global_amax, 'global_amax')
    elif global_scale is not None:
        o.global_ = _GLOBAL_SCALE
        o.global_bits = _lib.require_f32(global_scale, 'global_scale')
    if round is not None:
        o.override_round = True
        o.round = codec.round_id(round)
    o.rbits = rbits_ptr
    return o


def _rows(x, what):
    _lib.require_array(x, what, np.float32)
    if x.ndim < 1 or x.shape[-1] == 0:
        raise SoftmmaError('%s must have at least one dimension and K >= 1 values per row, '
                           'not shape %s' % (what, x.shape))
    return np.ascontiguousarray(x).reshape(-1, x.shape[-1]).view(np.uint32)


def quantize(block_format, x, profile='cuda', global_amax=None, global_scale=None,
             round=None, rbits=None, input='fp32'):
    """Quantizes x (float32, shape (..., K)) row by row in block_format under
    profile (smma_quantize) and returns (scales, codes): uint8 arrays of
    shape (..., ceil(K / V)) and (..., K).  NVFP4 is two-level with
    global_amax (the tensor's amax, from which the profile derives its
    per-tensor scales) or global_scale (the per-tensor decode scale itself),
    each an fp32 number; quant_global_decode gives the decode scale G.
    round overrides the profile's element rounding; with 'rs', rbits (a
    uint32 array of x's shape) gives each element's random bits.  input
    'bf16' says that x holds bf16 numbers (widened to float32): a profile
    that computes in the input's precision (arith_in_input: jax, jax-jit,
    triton-mxfp) then rounds its scale steps to bf16, as its library does
    on a bf16 tensor; a value that is not a bf16 number is refused."""
    bf = block_format_id(block_format)
    rows = _rows(x, 'x')
    k = rows.shape[1]
    nb = lib.smma_block_count(bf, k)
    if rbits is not None:
        _lib.require_array(rbits, 'rbits', np.uint32, shape=x.shape)
        if round != 'rs':
            raise SoftmmaError("rbits apply only to round='rs'")
        rb = np.ascontiguousarray(rbits).reshape(-1, k)
    scales = np.empty((rows.shape[0], nb), dtype=np.uint8)
    codes = np.empty(rows.shape, dtype=np.uint8)
    o = _opts(bf, profile, global_amax, global_scale, round, None, input)
    err = _lib.Error()
    for i in range(rows.shape[0]):
        if rbits is not None:
            o.rbits = _lib.ptr(rb[i], ctypes.c_uint32)
        _lib.check(lib.smma_quantize(bf, _lib.ptr(rows[i], ctypes.c_uint32), k,
                                     ctypes.byref(o), _lib.ptr(scales[i], ctypes.c_uint8),
                                     _lib.ptr(codes[i], ctypes.c_uint8), ctypes.byref(err)), err)
    return scales.reshape(x.shape[:-1] + (nb,)), codes.reshape(x.shape)


def quant_global_decode(block_format, profile='cuda', global_amax=None, global_scale=None):
    """The per-tensor decode scale G (fp32 bits, as a Python int) that
    dequantization multiplies by (smma_quant_global_decode): 0x3f800000 for
    MX formats and single-level NVFP4."""
    bf = block_format_id(block_format)
    o = _opts(bf, profile, global_amax, global_scale, None, None)
    return int(lib.smma_quant_global_decode(bf, ctypes.byref(o)))


def dequantize(block_format, scales, codes, global_decode=None, profile='cuda'):
    """The exact values (float64) of codes (uint8, shape (..., K)) under their
    scales (uint8, shape (..., ceil(K / V))) times G (smma_dequantize).
    global_decode is G's fp32 bits (an int, as quant_global_decode returns)
    or None for 1.0; the profile decides how e8m0 0x00 and a ue4m3 byte with
    bit 7 set are read."""
    bf = block_format_id(block_format)
    info = block_format_info(block_format)
    _lib.require_array(codes, 'codes', np.uint8)
    if codes.ndim < 1 or codes.shape[-1] == 0:
        raise SoftmmaError('codes must have K >= 1 values per row, not shape %s'
                           % (codes.shape,))
    k = codes.shape[-1]
    nb = lib.smma_block_count(bf, k)
    _lib.require_array(scales, 'scales', np.uint8, shape=codes.shape[:-1] + (nb,))
    _lib.require_below(codes, 1 << codec.format_info(info['elem'])['storage_bits'], 'codes')
    g = 0x3f800000 if global_decode is None else \
        _lib.require_int(global_decode, 'global_decode', 0, 0xffffffff)
    c2 = np.ascontiguousarray(codes).reshape(-1, k)
    s2 = np.ascontiguousarray(scales).reshape(-1, nb)
    out = np.empty(c2.shape, dtype=np.float64)
    p = codec._profile(profile)
    err = _lib.Error()
    for i in range(c2.shape[0]):
        _lib.check(lib.smma_dequantize(bf, _lib.ptr(s2[i], ctypes.c_uint8),
                                       _lib.ptr(c2[i], ctypes.c_uint8), k, g, p,
                                       _lib.ptr(out[i], ctypes.c_double), ctypes.byref(err)),
                   err)
    return out.reshape(codes.shape)


def block_amax(block_format, x, profile='cuda'):
    """The amax of one block (a 1-D float32 array of at most V values) as the
    profile computes it (smma_block_amax): fp32 bits, as a Python int."""
    bf = block_format_id(block_format)
    _lib.require_array(x, 'x', np.float32, ndim=1)
    x = np.ascontiguousarray(x).view(np.uint32)
    return int(lib.smma_block_amax(bf, _lib.ptr(x, ctypes.c_uint32), x.size,
                                   codec._profile(profile)))


def block_scale(block_format, x, profile='cuda', global_amax=None, global_scale=None):
    """The scale byte of one block (a 1-D float32 array of at most V values),
    smma_block_scale."""
    bf = block_format_id(block_format)
    _lib.require_array(x, 'x', np.float32, ndim=1)
    x = np.ascontiguousarray(x).view(np.uint32)
    o = _opts(bf, profile, global_amax, global_scale, None, None)
    return int(lib.smma_block_scale(bf, _lib.ptr(x, ctypes.c_uint32), x.size,
                                    ctypes.byref(o)))


def pack_fp4(codes):
    """Packs e2m1 codes (uint8 below 16, shape (..., n)) two per byte, the
    even element in the low nibble (smma_pack_fp4): shape (..., (n + 1) // 2)."""
    _lib.require_array(codes, 'codes', np.uint8)
    if codes.ndim < 1:
        raise SoftmmaError('codes must have at least one dimension')
    _lib.require_below(codes, 16, 'codes')
    n = codes.shape[-1]
    c2 = np.ascontiguousarray(codes).reshape(-1, n)
    out = np.empty((c2.shape[0], (n + 1) // 2), dtype=np.uint8)
    for i in range(c2.shape[0]):
        lib.smma_pack_fp4(_lib.ptr(c2[i], ctypes.c_uint8), n, _lib.ptr(out[i], ctypes.c_uint8))
    return out.reshape(codes.shape[:-1] + ((n + 1) // 2,))


def unpack_fp4(packed, n):
    """The n e2m1 codes per row of packed bytes (uint8, shape
    (..., (n + 1) // 2)), smma_unpack_fp4."""
    _lib.require_array(packed, 'packed', np.uint8)
    n = _lib.require_int(n, 'n', 0)
    if packed.ndim < 1 or packed.shape[-1] != (n + 1) // 2:
        raise SoftmmaError('packed must have (n + 1) // 2 = %d bytes per row, not shape %s'
                           % ((n + 1) // 2, packed.shape))
    p2 = np.ascontiguousarray(packed).reshape(-1, packed.shape[-1])
    out = np.empty((p2.shape[0], n), dtype=np.uint8)
    for i in range(p2.shape[0]):
        lib.smma_unpack_fp4(_lib.ptr(p2[i], ctypes.c_uint8), n, _lib.ptr(out[i], ctypes.c_uint8))
    return out.reshape(packed.shape[:-1] + (n,))


def which_profiles(x, scales, codes, block_format, *, profiles=None, global_amax=None,
                   global_scale=None, input='fp32'):
    """Which profiles reproduce a given quantization bit for bit.

    x (float32, shape (..., K)) are the values, scales (uint8, shape (...,
    ceil(K / V))) and codes (uint8, shape (..., K), one code per byte:
    unpack_fp4 packed e2m1) their quantization in block_format, row by row
    as quantize gives it; global_amax, global_scale and input as quantize
    takes them.  Every profile (or those named in profiles) quantizes x and
    is compared with scales and codes (smma_quant_compare).  Returns a list
    of ProfileMatch, one per profile, those that reproduce every block first
    (differ 0), then the others by the number of blocks that differ, each
    with its first difference (QuantDiff: row, block, element or None for
    the scale, the given byte and the profile's)."""
    bf = block_format_id(block_format)
    rows = _rows(x, 'x')
    k = rows.shape[1]
    nb = lib.smma_block_count(bf, k)
    lead = x.shape[:-1]
    _lib.require_array(codes, 'codes', np.uint8, shape=x.shape)
    _lib.require_array(scales, 'scales', np.uint8, shape=lead + (nb,))
    c2 = np.ascontiguousarray(codes).reshape(-1, k)
    s2 = np.ascontiguousarray(scales).reshape(-1, nb)
    if profiles is None:
        profiles = [lib.smma_profile_at(i).contents.name.decode()
                    for i in range(lib.smma_profile_count())]
    elif isinstance(profiles, str):
        profiles = [profiles]
    out = []
    err = _lib.Error()
    for order, name in enumerate(profiles):
        o = _opts(bf, name, global_amax, global_scale, None, None, input)
        differ, first = 0, None
        for i in range(rows.shape[0]):
            c = _lib.QuantCmp()
            _lib.check(lib.smma_quant_compare(bf, _lib.ptr(rows[i], ctypes.c_uint32), k,
                                              ctypes.byref(o), _lib.ptr(s2[i], ctypes.c_uint8),
                                              _lib.ptr(c2[i], ctypes.c_uint8), ctypes.byref(c),
                                              ctypes.byref(err)), err)
            if c.differ and first is None:
                first = QuantDiff(i, c.first_block, None if c.first_elem < 0 else c.first_elem,
                                  c.given, c.expected)
            differ += c.differ
        out.append((differ, order, ProfileMatch(name, rows.shape[0] * nb, differ, first)))
    return [m for _, _, m in sorted(out, key=lambda t: t[:2])]

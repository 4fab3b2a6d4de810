"""Formats, profiles and the codec (softmma/format.h, softmma/profile.h).

Codes travel in the unsigned dtype of the format's container: uint8 for
e2m1, e2m3, e3m2, e4m3, e5m2, e8m0 and ue4m3 (one code per byte, in the low
bits), uint16 for bf16 and fp16, uint32 for fp32.  Values are float64,
which holds every value of every format exactly.
"""

import ctypes
import functools

import numpy as np

from . import _lib
from ._lib import SoftmmaError, lib

__all__ = ['formats', 'format_info', 'code_dtype', 'decode', 'encode', 'encode_f32bits',
           'profiles', 'ROUNDINGS']

ROUNDINGS = ('rn', 'ra', 'rz', 'rp', 'rm', 'rs')
_FORMAT_COUNT = 10


def _desc_dict(d):
    return {'id': d.id, 'name': d.name.decode(), 'title': d.title.decode(), 'bits': d.bits,
            'storage_bits': d.storage_bits, 'has_sign': d.has_sign, 'exp_bits': d.exp_bits,
            'man_bits': d.man_bits, 'bias': d.bias, 'has_subnormals': d.has_subnormals,
            'has_zero': d.has_zero, 'max_code': d.max_code, 'min_sub_code': d.min_sub_code,
            'min_norm_code': d.min_norm_code, 'emax': d.emax, 'emin': d.emin}


def formats():
    """The canonical names of the formats, in the order of smma_format."""
    return [lib.smma_format_name(i).decode() for i in range(_FORMAT_COUNT)]


def format_id(name):
    """The smma_format number of a format name (smma_format_from_name: "e4m3",
    "fp8e4m3", "fp4", ...)."""
    return _lib.lookup(lib.smma_format_from_name, name, 'format')


@functools.lru_cache(maxsize=None)
def _info(fid):
    return _desc_dict(lib.smma_format_info(fid).contents)


def format_info(name):
    """The descriptor of a format (smma_format_info) as a dict."""
    return dict(_info(format_id(name)))


def code_dtype(name):
    """The numpy dtype that holds the codes of a format."""
    sb = _info(format_id(name))['storage_bits']
    return np.dtype(np.uint8 if sb <= 8 else np.uint16 if sb <= 16 else np.uint32)


def check_codes(name, codes, what='codes'):
    """Refuses codes that are not an array of the format's dtype or that have
    bits set above the format's storage width.  Returns the format id."""
    fid = format_id(name)
    _lib.require_array(codes, what, code_dtype(name))
    _lib.require_below(codes, 1 << _info(fid)['storage_bits'], what)
    return fid


@functools.lru_cache(maxsize=None)
def _table(fid):
    """Every code's value (smma_decode) of a format of at most 16 bits."""
    n = 1 << _info(fid)['storage_bits']
    return np.array([lib.smma_decode(fid, c) for c in range(n)], dtype=np.float64)


def _scalar_or(a, scalar):
    """a, or its one element as a numpy scalar when the input was a scalar."""
    return a[()] if scalar else a


def decode(fmt, codes, strict=True):
    """Decodes codes of format fmt to exact float64 values
    (smma_decode_checked), keeping their shape.  codes is an array of the
    format's dtype (code_dtype), or one code: a Python int, a numpy integer
    or a 0-d array, which gives a numpy float64 scalar.  A code with bits
    above the format's width is refused; so is a ue4m3 byte with bit 7 set
    unless strict is False (then that bit is cleared, as a lenient profile
    does).  NaN codes give NaN with the code's sign, infinities +-inf."""
    codes, scalar = _lib.as_array(codes, 'codes', [code_dtype(fmt)],
                                  'an array of %s codes or an int' % code_dtype(fmt).name)
    return _scalar_or(_decode(fmt, codes, strict), scalar)


def _decode(fmt, codes, strict):
    fid = check_codes(fmt, codes)
    info = _info(fid)
    flat = codes.reshape(-1)
    if info['name'] == 'ue4m3':
        high = np.flatnonzero(flat & 0x80)
        if high.size and strict:
            err = _lib.Error()
            out = ctypes.c_double()
            _lib.check(lib.smma_decode_checked(fid, int(flat[high[0]]), True,
                                               ctypes.byref(out), ctypes.byref(err)), err)
        flat = flat & 0x7f
    if info['storage_bits'] <= 16:
        return _table(fid)[flat].reshape(codes.shape)
    out = np.fromiter((lib.smma_decode(fid, int(c)) for c in flat), dtype=np.float64,
                      count=flat.size)
    return out.reshape(codes.shape)


def _profile(name):
    """The smma_profile pointer of a profile name (None: cuda)."""
    p = _lib.ProfileP()
    err = _lib.Error()
    _lib.check(lib.smma_profile_from_name(_lib.enc('cuda' if name is None else name),
                                          ctypes.byref(p), ctypes.byref(err)), err)
    return p


def round_id(name):
    """The smma_round number of a rounding name."""
    return _lib.lookup(lib.smma_round_from_name, name, 'rounding')


def _cvt(fid, rnd, sat, profile):
    p = _profile(profile)
    c = lib.smma_profile_cvt_for(p, fid)
    if rnd is not None:
        c.round = round_id(rnd)
    if sat is not None:
        if not isinstance(sat, (bool, np.bool_)):
            raise SoftmmaError('sat must be True, False or None, not %r' % (sat,))
        c.sat = bool(sat)
    return c


def _encode(fid, bits, kind, rnd, sat, profile, rbits):
    """The per-element loop of encode and encode_f32bits: without random bits
    each distinct input is converted once by the C library."""
    c = _cvt(fid, rnd, sat, profile)
    cp = ctypes.byref(c)
    if kind == 'f32':
        def one(u):
            return lib.smma_encode_f32bits(fid, int(u), cp)
    else:
        def one(u):
            return lib.smma_encode(fid, float(np.uint64(u).view(np.float64)), cp)
    flat = bits.reshape(-1)
    out = np.empty(flat.size, dtype=np.uint32)
    if rbits is not None:
        if c.round != round_id('rs'):
            raise SoftmmaError('rbits apply only to rounding rs')
        _lib.require_array(rbits, 'rbits', np.uint32, shape=bits.shape)
        for i, (u, r) in enumerate(zip(flat, rbits.reshape(-1))):
            c.rbits = int(r)
            out[i] = one(u)
    else:
        uniq, inv = np.unique(flat, return_inverse=True)
        out = np.array([one(u) for u in uniq], dtype=np.uint32)[inv.reshape(-1)]
    return out.astype(code_dtype(formats()[fid])).reshape(bits.shape)


def encode(fmt, x, round=None, sat=None, profile='cuda', rbits=None):
    """Encodes the values of x, a float32 or float64 array, in format fmt
    (smma_encode_f32bits for float32, smma_encode for float64: both exact in
    their input) and returns the codes in the format's dtype, shape kept.
    x may also be a number (a Python float or int, a numpy float32 or
    float64) or a 0-d array: the code comes back as a numpy scalar of the
    format's dtype, as NumPy's ufuncs return scalars (encode('e4m3', 1.5) is
    np.uint8(0x3c)); a list or tuple becomes a float64 array.
    round ('rn', 'ra', 'rz', 'rp', 'rm', 'rs') and sat (True for satfinite)
    default to the profile's choice for that format (smma_profile_cvt_for);
    rbits, a uint32 array of x's shape, gives the random bits of rounding rs
    (zero when None), as smma_encode defines them."""
    fid = format_id(fmt)
    x, scalar = _lib.as_array(x, 'x', [np.float64, np.float32],
                              'a float32 or float64 array or a number')
    if x.dtype == np.float32:
        return _scalar_or(_encode(fid, x.view(np.uint32), 'f32', round, sat, profile, rbits),
                          scalar)
    return _scalar_or(_encode(fid, x.view(np.uint64), 'f64', round, sat, profile, rbits),
                      scalar)


def encode_f32bits(fmt, bits, round=None, sat=None, profile='cuda', rbits=None):
    """As encode, with the fp32 inputs given by their bits (a uint32 array, or
    one: an int, a numpy integer or a 0-d array, giving a numpy scalar), so
    that every NaN payload reaches the library as it is."""
    fid = format_id(fmt)
    bits, scalar = _lib.as_array(bits, 'bits', [np.uint32], 'a uint32 array or an int')
    return _scalar_or(_encode(fid, bits, 'f32', round, sat, profile, rbits), scalar)


def profiles():
    """The built-in profiles (smma_profile_at) as dicts: name, summary and
    quant_summary, the codec's and quantization's choices as numbers."""
    out = []
    for i in range(lib.smma_profile_count()):
        p = lib.smma_profile_at(i).contents
        d = {}
        for name, _ in _lib.Profile._fields_:
            v = getattr(p, name)
            d[name] = v.decode() if isinstance(v, bytes) else v
        out.append(d)
    return out

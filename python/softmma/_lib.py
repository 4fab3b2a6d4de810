"""The shared library libsoftmma and its C declarations, mirrored with ctypes.

Every structure below has the fields of its C definition in the same order
and with the same types (ref/softmma/*.h); tests/python/abi.c prints the
sizes and offsets the C compiler gives them and tests/python/module-t.py
compares them with these.  Enumerations are C ints.

Where the library is found, in order:
  1. the file named by the environment variable SOFTMMA_LIB;
  2. the build tree, when this package is imported from the source tree of
     an in-tree build (python/softmma/ beside .libs/);
  3. the directory the library was installed into (_config.LIBDIR, written
     by make);
  4. the system loader (ctypes.util.find_library, then libsoftmma.so.0).
"""

import ctypes
import ctypes.util
import os

import numpy as np

__all__ = ['SoftmmaError', 'lib', 'library_path']


class SoftmmaError(ValueError):
    """An error from softmma: a message from the C library (naming the
    argument, or the file and line), or a refused argument (wrong dtype,
    shape or range).  status is the C status code (SMMA_EINVAL = 1, ...)."""

    def __init__(self, message, status=1):
        super().__init__(message)
        self.status = status


# Status codes (softmma/format.h).
OK, EINVAL, ERANGE, EIO, EPARSE, ENOMEM = 0, 1, 2, 3, 4, 5

c_enum = ctypes.c_int
c_str = ctypes.c_char_p
c_u8p = ctypes.POINTER(ctypes.c_uint8)
c_u32p = ctypes.POINTER(ctypes.c_uint32)
c_u64p = ctypes.POINTER(ctypes.c_uint64)
c_f64p = ctypes.POINTER(ctypes.c_double)
c_sizep = ctypes.POINTER(ctypes.c_size_t)


# ---- softmma/format.h -------------------------------------------------

class FormatDesc(ctypes.Structure):
    _fields_ = [('id', c_enum), ('name', c_str), ('title', c_str), ('bits', ctypes.c_uint),
                ('storage_bits', ctypes.c_uint), ('has_sign', ctypes.c_bool),
                ('exp_bits', ctypes.c_uint), ('man_bits', ctypes.c_uint), ('bias', ctypes.c_int),
                ('has_subnormals', ctypes.c_bool), ('has_zero', ctypes.c_bool),
                ('inf', c_enum), ('nan', c_enum), ('max_code', ctypes.c_uint32),
                ('min_sub_code', ctypes.c_uint32), ('min_norm_code', ctypes.c_uint32),
                ('emax', ctypes.c_int), ('emin', ctypes.c_int)]


class Error(ctypes.Structure):
    _fields_ = [('msg', ctypes.c_char * 256)]


class Cvt(ctypes.Structure):
    _fields_ = [('round', c_enum), ('sat', ctypes.c_bool), ('rbits', ctypes.c_uint32),
                ('profile', ctypes.c_void_p)]


# ---- softmma/profile.h ------------------------------------------------

class Profile(ctypes.Structure):
    _fields_ = [('name', c_str), ('summary', c_str), ('round', c_enum),
                ('sat', ctypes.c_bool), ('nan_to_finite', c_enum), ('nan_out', c_enum),
                ('inf_nonf', c_enum), ('neg_unsigned', c_enum), ('e8m0_zero', c_enum),
                ('e8m0_inf', c_enum), ('e8m0_round', c_enum), ('e8m0_rn', c_enum),
                ('ue4m3_strict', ctypes.c_bool),
                ('scale_rule', c_enum), ('scale_ratio', c_enum), ('scale_cvt', c_enum),
                ('amax_nan', c_enum), ('zero_block', c_enum), ('nonfinite_nan', ctypes.c_bool),
                ('scale_overflow', c_enum), ('elem_apply', c_enum),
                ('nan_positive', ctypes.c_bool), ('nvfp4', c_enum), ('elem_quirk', c_enum),
                ('dq_zero_scale_zero', ctypes.c_bool), ('arith_in_input', ctypes.c_bool),
                ('quant_summary', c_str)]


ProfileP = ctypes.POINTER(Profile)


# ---- softmma/quant.h --------------------------------------------------

class BlockFormatDesc(ctypes.Structure):
    _fields_ = [('id', c_enum), ('name', c_str), ('elem', c_enum), ('scale', c_enum),
                ('block', ctypes.c_uint), ('emax_elem', ctypes.c_int),
                ('elem_man_bits', ctypes.c_uint), ('max_elem', ctypes.c_double)]


class QuantOpts(ctypes.Structure):
    _fields_ = [('profile', ProfileP), ('global_', c_enum), ('global_bits', ctypes.c_uint32),
                ('override_round', ctypes.c_bool), ('round', c_enum), ('rbits', c_u32p),
                ('input_bf16', ctypes.c_bool)]


class QuantCmp(ctypes.Structure):
    _fields_ = [('blocks', ctypes.c_size_t), ('differ', ctypes.c_size_t),
                ('first_block', ctypes.c_size_t), ('first_elem', ctypes.c_long),
                ('given', ctypes.c_uint8), ('expected', ctypes.c_uint8)]


# ---- softmma/scale_layout.h -------------------------------------------

class ScaleShape(ctypes.Structure):
    _fields_ = [('layout', c_enum), ('rows', ctypes.c_size_t), ('k', ctypes.c_size_t),
                ('vec', ctypes.c_uint), ('kb', ctypes.c_size_t), ('row_tile', ctypes.c_uint),
                ('col_tile', ctypes.c_uint), ('rows_pad', ctypes.c_size_t),
                ('kb_pad', ctypes.c_size_t), ('bytes', ctypes.c_size_t)]


# ---- softmma/grid.h ---------------------------------------------------

class GridOpts(ctypes.Structure):
    _fields_ = [('byte_id', ctypes.c_int), ('thread_id', ctypes.c_int),
                ('sf_id', ctypes.c_int), ('num', ctypes.c_int)]


# ---- softmma/gemm.h ---------------------------------------------------

class Model(ctypes.Structure):
    _fields_ = [('name', c_str), ('summary', c_str), ('kind', c_enum), ('round', c_enum),
                ('fma', ctypes.c_uint), ('neab', ctypes.c_int), ('floor', ctypes.c_int),
                ('normalize', ctypes.c_bool), ('upcast_bf16', ctypes.c_bool),
                ('promote', ctypes.c_uint), ('inner', c_str), ('inputs', c_str),
                ('status', c_str), ('psum_apart', ctypes.c_bool), ('psum_round', c_enum),
                ('korder', ctypes.POINTER(ctypes.c_ubyte)), ('korder_len', ctypes.c_uint),
                ('upcast_f16', ctypes.c_bool), ('f16_acc', c_enum), ('c_last', ctypes.c_bool),
                ('zero_plus', ctypes.c_bool), ('unscaled', ctypes.c_bool),
                ('ab_formats', ctypes.c_uint), ('scale_formats', ctypes.c_uint),
                ('d_formats', ctypes.c_uint)]


ModelP = ctypes.POINTER(Model)


class ModelAlias(ctypes.Structure):
    _fields_ = [('name', c_str), ('model', c_str), ('summary', c_str), ('status', c_str)]


class GemmShape(ctypes.Structure):
    _fields_ = [('a_fmt', c_enum), ('b_fmt', c_enum), ('scale_fmt', c_enum),
                ('vec', ctypes.c_uint), ('c_fmt', c_enum), ('d_fmt', c_enum),
                ('m', ctypes.c_size_t), ('n', ctypes.c_size_t), ('k', ctypes.c_size_t),
                ('has_alpha', ctypes.c_bool), ('alpha', ctypes.c_uint32)]


class GemmOperands(ctypes.Structure):
    _fields_ = [('a', c_u32p), ('lda', ctypes.c_size_t), ('a_kmajor', ctypes.c_bool),
                ('b', c_u32p), ('ldb', ctypes.c_size_t), ('b_kmajor', ctypes.c_bool),
                ('sa', c_u32p), ('sb', c_u32p), ('c', c_u32p)]


class Mismatch(ctypes.Structure):
    _fields_ = [('i', ctypes.c_size_t), ('j', ctypes.c_size_t), ('want', ctypes.c_uint32),
                ('got', ctypes.c_uint32)]


class GemmData(ctypes.Structure):
    _fields_ = [('a', c_u32p), ('b', c_u32p), ('sa', c_u32p), ('sb', c_u32p), ('c', c_u32p)]


# ---- softmma/vectors.h ------------------------------------------------

VEC_MAX_FIELDS = 16
VEC_NAME_MAX = 32
VEC_TEXT_MAX = 128
VEC_GEN_MAX = 512


class VecTypeInfo(ctypes.Structure):
    _fields_ = [('id', c_enum), ('name', c_str), ('bits', ctypes.c_uint),
                ('digits', ctypes.c_uint), ('bytes', ctypes.c_uint)]


class VecField(ctypes.Structure):
    _fields_ = [('name', ctypes.c_char * VEC_NAME_MAX), ('type', c_enum),
                ('out', ctypes.c_bool), ('block', ctypes.c_bool), ('count', ctypes.c_uint),
                ('offset', ctypes.c_size_t)]


class VecHeader(ctypes.Structure):
    _fields_ = [('version', ctypes.c_uint), ('suite', ctypes.c_char * VEC_TEXT_MAX),
                ('generator', ctypes.c_char * VEC_GEN_MAX), ('seed', ctypes.c_uint64),
                ('level', ctypes.c_uint), ('profile', ctypes.c_char * VEC_TEXT_MAX),
                ('model', ctypes.c_char * VEC_TEXT_MAX), ('nfields', ctypes.c_size_t),
                ('fields', VecField * VEC_MAX_FIELDS), ('cases', ctypes.c_uint64),
                ('nscalars', ctypes.c_size_t), ('nblocks', ctypes.c_size_t),
                ('suite_line', ctypes.c_size_t)]


class VecBlock(ctypes.Structure):
    _fields_ = [('rows', ctypes.c_size_t), ('cols', ctypes.c_size_t), ('v', c_u64p)]


class VecCase(ctypes.Structure):
    _fields_ = [('index', ctypes.c_uint64), ('line', ctypes.c_size_t), ('scalars', c_u64p),
                ('blocks', VecBlock * VEC_MAX_FIELDS)]


# The structures tests/python/abi.c measures, by their C names.
STRUCTS = {
    'smma_format_desc': FormatDesc, 'smma_error': Error, 'smma_cvt': Cvt,
    'smma_profile': Profile, 'smma_block_format_desc': BlockFormatDesc,
    'smma_quant_opts': QuantOpts, 'smma_quant_cmp': QuantCmp, 'smma_scale_shape': ScaleShape, 'smma_model': Model,
    'smma_grid_opts': GridOpts,
    'smma_model_alias': ModelAlias,
    'smma_gemm_shape': GemmShape, 'smma_gemm_operands': GemmOperands,
    'smma_mismatch': Mismatch, 'smma_gemm_data': GemmData,
    'smma_vec_type_info': VecTypeInfo, 'smma_vec_field': VecField,
    'smma_vec_header': VecHeader, 'smma_vec_block': VecBlock, 'smma_vec_case': VecCase,
}

_errp = ctypes.POINTER(Error)
_size = ctypes.c_size_t

# name: (restype, argtypes)
_PROTOTYPES = {
    'smma_format_info': (ctypes.POINTER(FormatDesc), [c_enum]),
    'smma_format_from_name': (ctypes.c_int, [c_str, ctypes.POINTER(c_enum), _errp]),
    'smma_format_name': (c_str, [c_enum]),
    'smma_round_from_name': (ctypes.c_int, [c_str, ctypes.POINTER(c_enum), _errp]),
    'smma_round_name': (c_str, [c_enum]),
    'smma_decode': (ctypes.c_double, [c_enum, ctypes.c_uint32]),
    'smma_decode_checked': (ctypes.c_int, [c_enum, ctypes.c_uint32, ctypes.c_bool, c_f64p,
                                           _errp]),
    'smma_encode': (ctypes.c_uint32, [c_enum, ctypes.c_double, ctypes.POINTER(Cvt)]),
    'smma_encode_f32bits': (ctypes.c_uint32, [c_enum, ctypes.c_uint32, ctypes.POINTER(Cvt)]),
    'smma_profile_count': (_size, []),
    'smma_profile_at': (ProfileP, [_size]),
    'smma_profile_from_name': (ctypes.c_int, [c_str, ctypes.POINTER(ProfileP), _errp]),
    'smma_profile_cvt_for': (Cvt, [ProfileP, c_enum]),
    'smma_block_format_info': (ctypes.POINTER(BlockFormatDesc), [c_enum]),
    'smma_block_format_from_name': (ctypes.c_int, [c_str, ctypes.POINTER(c_enum), _errp]),
    'smma_block_count': (_size, [c_enum, _size]),
    'smma_quant_opts_default': (QuantOpts, [ProfileP]),
    'smma_block_amax': (ctypes.c_uint32, [c_enum, c_u32p, _size, ProfileP]),
    'smma_block_scale': (ctypes.c_uint8, [c_enum, c_u32p, _size, ctypes.POINTER(QuantOpts)]),
    'smma_quant_global_decode': (ctypes.c_uint32, [c_enum, ctypes.POINTER(QuantOpts)]),
    'smma_quantize': (ctypes.c_int, [c_enum, c_u32p, _size, ctypes.POINTER(QuantOpts), c_u8p,
                                     c_u8p, _errp]),
    'smma_quant_compare': (ctypes.c_int, [c_enum, c_u32p, _size, ctypes.POINTER(QuantOpts),
                                          c_u8p, c_u8p, ctypes.POINTER(QuantCmp), _errp]),
    'smma_dequantize': (ctypes.c_int, [c_enum, c_u8p, c_u8p, _size, ctypes.c_uint32, ProfileP,
                                       c_f64p, _errp]),
    'smma_pack_fp4': (None, [c_u8p, _size, c_u8p]),
    'smma_unpack_fp4': (None, [c_u8p, _size, c_u8p]),
    'smma_layout_holders': (ctypes.c_int, [c_str, c_str, ctypes.POINTER(GridOpts), _size, c_u32p,
                                           c_u32p, c_u32p, c_u32p, c_u32p,
                                           ctypes.POINTER(ctypes.c_int32), _errp]),
    'smma_layout_cells': (ctypes.c_int, [c_str, c_str, ctypes.POINTER(GridOpts), ctypes.c_uint,
                                         _size, c_u32p, c_u32p, c_u32p, c_u32p, c_sizep, _errp]),
    'smma_layout_shape': (ctypes.c_int, [c_str, c_str, ctypes.POINTER(GridOpts),
                                         ctypes.POINTER(ctypes.c_uint),
                                         ctypes.POINTER(ctypes.c_uint),
                                         ctypes.POINTER(ctypes.c_uint), _errp]),
    'smma_scale_layout_from_name': (ctypes.c_int, [c_str, ctypes.POINTER(c_enum), _errp]),
    'smma_scale_layout_name': (c_str, [c_enum]),
    'smma_scale_layout_shape': (ctypes.c_int, [c_enum, _size, _size, ctypes.c_uint,
                                               ctypes.POINTER(ScaleShape), _errp]),
    'smma_scale_layout_size': (ctypes.c_int, [c_enum, _size, _size, ctypes.c_uint, c_sizep,
                                              _errp]),
    'smma_scale_offset': (ctypes.c_int, [c_enum, _size, _size, ctypes.c_uint, _size, _size,
                                         c_sizep, _errp]),
    'smma_scale_coord': (ctypes.c_int, [c_enum, _size, _size, ctypes.c_uint, _size, c_sizep,
                                        c_sizep, ctypes.POINTER(ctypes.c_bool), _errp]),
    'smma_scale_pack': (ctypes.c_int, [c_enum, _size, _size, ctypes.c_uint, c_u8p, c_u8p,
                                       ctypes.c_uint8, _errp]),
    'smma_scale_unpack': (ctypes.c_int, [c_enum, _size, _size, ctypes.c_uint, c_u8p, c_u8p,
                                         _errp]),
    'smma_scale_triton5d_index': (ctypes.c_int, [_size, _size, ctypes.c_uint, _size, _size,
                                                 _size * 5, _errp]),
    'smma_model_count': (_size, []),
    'smma_model_at': (ModelP, [_size]),
    'smma_model_alias_count': (_size, []),
    'smma_model_alias_at': (ctypes.POINTER(ModelAlias), [_size]),
    'smma_model_from_name': (ctypes.c_int, [c_str, ctypes.POINTER(ModelP), _errp]),
    'smma_gemm_shape_check': (ctypes.c_int, [ctypes.POINTER(GemmShape), _errp]),
    'smma_model_check': (ctypes.c_int, [ModelP, ctypes.POINTER(GemmShape), _errp]),
    'smma_model_takes': (ctypes.c_int, [ModelP, ctypes.POINTER(GemmShape), _errp]),
    'smma_model_inputs': (None, [ModelP, ctypes.c_char_p, _size]),
    'smma_model_names': (_size, [ctypes.c_char_p, _size]),
    'smma_models_taking': (_size, [ctypes.POINTER(GemmShape), ctypes.POINTER(ModelP), _size]),
    'smma_gemm_kblocks': (_size, [ctypes.POINTER(GemmShape)]),
    'smma_gemm': (ctypes.c_int, [ModelP, ctypes.POINTER(GemmShape),
                                 ctypes.POINTER(GemmOperands), c_u32p, _errp]),
    'smma_gemm_verify': (ctypes.c_int, [ModelP, ctypes.POINTER(GemmShape),
                                        ctypes.POINTER(GemmOperands), c_u32p, _size,
                                        ctypes.c_uint64, c_sizep, c_sizep,
                                        ctypes.POINTER(Mismatch), _size, _errp]),
    'smma_gemm_generate': (ctypes.c_int, [ctypes.POINTER(GemmShape), c_enum, ctypes.c_uint64,
                                          ctypes.POINTER(GemmData), _errp]),
    'smma_gemm_data_free': (None, [ctypes.POINTER(GemmData)]),
    'smma_vec_type_get': (ctypes.POINTER(VecTypeInfo), [c_enum]),
    'smma_vec_open': (ctypes.c_int, [c_str, ctypes.POINTER(ctypes.c_void_p), _errp]),
    'smma_vec_header_of': (ctypes.POINTER(VecHeader), [ctypes.c_void_p]),
    'smma_vec_next': (ctypes.c_int, [ctypes.c_void_p, ctypes.POINTER(ctypes.POINTER(VecCase)),
                                     _errp]),
    'smma_vec_close': (None, [ctypes.c_void_p]),
}


def _candidates():
    """The places to look for the library, in order (see the module doc)."""
    env = os.environ.get('SOFTMMA_LIB')
    if env:
        return [env], True
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(os.path.dirname(here))
    found = []
    if os.path.isfile(os.path.join(top, 'ref', 'softmma', 'format.h')):
        found += [os.path.join(top, '.libs', n) for n in ('libsoftmma.so.0', 'libsoftmma.so')]
    try:
        from . import _config
        found += [os.path.join(_config.LIBDIR, n) for n in ('libsoftmma.so.0', 'libsoftmma.so')]
    except ImportError:
        pass
    return found, False


def _load():
    paths, forced = _candidates()
    for p in paths:
        if forced or os.path.isfile(p):
            try:
                return ctypes.CDLL(p), p
            except OSError as e:
                if forced:
                    raise ImportError('softmma: SOFTMMA_LIB=%s cannot be loaded: %s' % (p, e))
    for name in (ctypes.util.find_library('softmma'), 'libsoftmma.so.0'):
        if name:
            try:
                return ctypes.CDLL(name), name
            except OSError:
                pass
    raise ImportError('softmma: libsoftmma.so not found (looked in: %s; set SOFTMMA_LIB to '
                      'its path)' % (', '.join(paths + ['the system loader'])))


lib, _path = _load()
for _name, (_res, _args) in _PROTOTYPES.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args


def library_path():
    """The path (or name) of the libsoftmma that was loaded."""
    return _path


def check(status, err):
    """Raises SoftmmaError with the library's message when status is not OK."""
    if status != OK:
        raise SoftmmaError(err.msg.decode('ascii', 'replace'), status)


def ptr(a, ctype):
    """A pointer to the data of the contiguous array a (None for None)."""
    if a is None:
        return None
    return a.ctypes.data_as(ctypes.POINTER(ctype))


def enc(s):
    """A name as bytes for the C library; refuses what is not a str."""
    if not isinstance(s, str):
        raise SoftmmaError('a name must be a str, not %r' % (s,))
    return s.encode('ascii', 'replace')


def lookup(fn, name, what):
    """An enum value by name through fn (smma_*_from_name)."""
    out = c_enum()
    err = Error()
    check(fn(enc(name), ctypes.byref(out), ctypes.byref(err)), err)
    return out.value


def require_array(a, what, dtype, ndim=None, shape=None):
    """Checks that a is a numpy array of exactly dtype (and ndim or shape);
    nothing is converted.  Returns it."""
    if not isinstance(a, np.ndarray):
        raise SoftmmaError('%s must be a numpy array of %s, not %s'
                           % (what, np.dtype(dtype).name, _kind_of(a)))
    if a.dtype != np.dtype(dtype):
        raise SoftmmaError('%s must have dtype %s, not %s'
                           % (what, np.dtype(dtype).name, a.dtype.name))
    if ndim is not None and a.ndim != ndim:
        raise SoftmmaError('%s must have %d dimension%s, not shape %s'
                           % (what, ndim, '' if ndim == 1 else 's', a.shape))
    if shape is not None and tuple(a.shape) != tuple(shape):
        raise SoftmmaError('%s must have shape %s, not %s' % (what, tuple(shape), a.shape))
    return a


def _kind_of(v):
    """What v is, for a message: 'a numpy float32 scalar', 'a list', 'str'."""
    if isinstance(v, np.generic):
        return 'a numpy %s scalar' % v.dtype.name
    return type(v).__name__


def as_array(x, what, dtypes, kind):
    """x as a numpy array of one of dtypes, and whether it is a scalar (a
    Python or numpy number, or a 0-d array: the caller then returns a numpy
    scalar, as NumPy's ufuncs do).  An array must already have one of dtypes
    (nothing is converted); a number, list or tuple is converted to dtypes[0]
    where that holds it exactly.  Anything else, bool included, is refused,
    naming `what` and `kind` (what it takes)."""
    if isinstance(x, (bool, np.bool_)):
        raise SoftmmaError('%s must be %s, not %r' % (what, kind, x))
    dtypes = [np.dtype(d) for d in dtypes]
    if isinstance(x, np.ndarray):
        if x.dtype not in dtypes:
            raise SoftmmaError('%s must be %s, not an array of %s' % (what, kind, x.dtype.name))
        return x, x.ndim == 0
    if not isinstance(x, (int, float, np.number, list, tuple)):
        raise SoftmmaError('%s must be %s, not %s' % (what, kind, _kind_of(x)))
    try:
        a = np.asarray(x)
    except (ValueError, OverflowError) as e:
        raise SoftmmaError('%s: %s' % (what, e))
    if a.dtype in dtypes:
        return a, a.ndim == 0
    if a.dtype.kind not in 'iuf':
        raise SoftmmaError('%s must be %s, not %r' % (what, kind, x))
    with np.errstate(over='ignore', invalid='ignore'):
        b = a.astype(dtypes[0])
        back = b.astype(a.dtype)
    if not np.array_equal(back, a, equal_nan=a.dtype.kind == 'f'):
        raise SoftmmaError('%s = %r does not fit in %s exactly' % (what, x, dtypes[0].name))
    return b, b.ndim == 0


def require_below(a, limit, what):
    """Refuses values of the unsigned array a at or above limit, naming the
    first one."""
    if a.size and limit <= np.iinfo(a.dtype).max:
        bad = np.flatnonzero(a.reshape(-1) >= limit)
        if bad.size:
            idx = np.unravel_index(bad[0], a.shape)
            # int() of each index: numpy 2 writes its scalars as np.int64(1)
            raise SoftmmaError('%s%s = 0x%x does not fit (must be below 0x%x)'
                               % (what, [int(i) for i in idx] if a.ndim else '',
                                  int(a[idx]), limit))


def require_int(v, what, lo=0, hi=None):
    """A Python or numpy integer in [lo, hi]; bool and float are refused."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise SoftmmaError('%s must be an integer, not %r' % (what, v))
    v = int(v)
    if hi is None and v < lo:
        raise SoftmmaError('%s = %d is out of range (must be at least %d)' % (what, v, lo))
    if v < lo or (hi is not None and v > hi):
        raise SoftmmaError('%s = %d is out of range [%d, %d]' % (what, v, lo, hi))
    return v


def require_f32(v, what):
    """The fp32 bits of v, a number that fp32 holds exactly (a Python float
    or int, or a numpy float32/float64 scalar); anything that would round is
    refused."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.floating,
                                                              np.integer)):
        raise SoftmmaError('%s must be a number, not %r' % (what, v))
    with np.errstate(over='ignore'):
        f = np.float32(v)
    if not (np.isnan(f) and np.isnan(float(v))) and float(f) != float(v):
        raise SoftmmaError('%s = %r is not an fp32 number (it would round to %r)'
                           % (what, v, float(f)))
    return int(np.array(f, dtype=np.float32).view(np.uint32))

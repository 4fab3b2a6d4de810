"""tests/python/module-t.py - the Python module's own behaviour:
  - its ctypes structures have the sizes and offsets the C compiler gives
    (tests/python/abi prints them);
  - it loads the library named by SOFTMMA_LIB, finds the build tree's
    without it, and says which path failed;
  - arguments of the wrong dtype, shape or range are refused with
    SoftmmaError, and the library's own messages come through;
  - each function against values worked out by hand or against the
    softmma program's answer (profiles, models, quant, dequant, gemm,
    layout scale, decode);
  - alpha and one-sided scales (softmma/gemm.h)."""

import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import Tap  # noqa: E402

import softmma  # noqa: E402
from softmma import _lib, SoftmmaError  # noqa: E402

t = Tap()
src = os.environ['SMMA_SRCDIR']
build = os.environ['SMMA_BUILDDIR']
prog = os.path.join(build, 'tools', 'softmma')
E = SoftmmaError


def run(*args, stdin=None):
    """The softmma program's standard output (it must exit 0)."""
    r = subprocess.run([prog] + list(args), input=stdin, capture_output=True, text=True,
                       check=False)
    if r.returncode != 0:
        raise RuntimeError('softmma %s: exit %d: %s' % (' '.join(args), r.returncode,
                                                        r.stderr))
    return r.stdout


def u8(*v):
    return np.array(v, dtype=np.uint8)


def f32(*v):
    return np.array(v, dtype=np.float32)


# ---------------------------------------------------------------- ABI

abi = subprocess.run([os.path.join(build, 'tests', 'python', 'abi')], capture_output=True,
                     text=True, check=True).stdout.split('\n')
c_layout = {}
for line in abi:
    if line:
        what, kind, n = line.split()
        c_layout[(what, kind)] = int(n)
t.is_(4, c_layout[('enum', 'size')], 'C enums are 4-byte ints, as ctypes passes them')
for cname, cls in _lib.STRUCTS.items():
    seen = {(cname, 'size'): _lib.ctypes.sizeof(cls)}
    for fname, _ in cls._fields_:
        seen[('%s.%s' % (cname, fname.rstrip('_')), 'offset')] = getattr(cls, fname).offset
    want = {k: v for k, v in c_layout.items() if k[0] == cname or k[0].startswith(cname + '.')}
    t.is_(want, seen, '%s: ctypes mirror has the C size and every field at its offset' % cname)

# ---------------------------------------------------------------- loading

t.is_(os.environ['SOFTMMA_LIB'], softmma.library_path(), 'the library named by SOFTMMA_LIB')
env = dict(os.environ, SOFTMMA_LIB='/nonexistent/libsoftmma.so.0')
r = subprocess.run([sys.executable, '-c', 'import softmma'], env=env, capture_output=True,
                   text=True, check=False)
t.ok(r.returncode != 0 and 'SOFTMMA_LIB=/nonexistent/libsoftmma.so.0' in r.stderr,
     'a SOFTMMA_LIB that cannot be loaded: ImportError naming it')
if os.path.samefile(src, build):
    env = {k: v for k, v in os.environ.items() if k != 'SOFTMMA_LIB'}
    r = subprocess.run([sys.executable, '-c', 'import softmma; print(softmma.library_path())'],
                       env=env, capture_output=True, text=True, check=False)
    t.is_(os.path.realpath(os.path.join(src, '.libs', 'libsoftmma.so.0')),
          os.path.realpath(r.stdout.strip()), 'without SOFTMMA_LIB: the build tree\'s library')
else:
    t.skip('without SOFTMMA_LIB: the build tree\'s library', 'build tree is not the source tree')

# ---------------------------------------------------------------- refusals

t.raises(lambda: softmma.decode('e4m3', np.arange(3)), 'not an array of int64',
         'decode: int64 codes refused (no silent conversion)')
t.raises(lambda: softmma.decode('e4m3', [1, 300]), 'does not fit in uint8 exactly',
         'decode: a list whose codes do not fit refused')

# Scalars as NumPy's ufuncs take them: a Python or numpy number, or a 0-d
# array, gives a numpy scalar.  1.5 in e4m3 = 0 0111 100 = 0x3c.
for x in (1.5, np.float32(1.5), np.float64(1.5), np.array(1.5), np.array(1.5, np.float32)):
    r = softmma.encode('e4m3', x)
    t.ok(type(r) is np.uint8 and r == 0x3c, 'encode: %s gives np.uint8 0x3c (%r)'
         % (type(x).__name__, r))
t.ok(softmma.encode('e4m3', 2) == 0x40 and softmma.encode('e4m3', [1.5, 2]).tolist()
     == [0x3c, 0x40], 'encode: a Python int (2 = 0x40) and a list')
r = softmma.decode('e4m3', 0x3c)
t.ok(type(r) is np.float64 and r == 1.5, 'decode: an int code gives np.float64 1.5')
t.ok(softmma.decode('e4m3', np.array(0x3c, np.uint8)) == 1.5 and
     softmma.encode_f32bits('e4m3', 0x3fc00000) == 0x3c,
     'decode of a 0-d array, encode_f32bits of an int (0x3fc00000 = 1.5)')
t.raises(lambda: softmma.decode('e2m1', 0x11), 'codes = 0x11 does not fit (must be below 0x10)',
         'decode: a scalar code too wide, in hex')
t.raises(lambda: softmma.encode('e4m3', True), 'not True', 'encode: bool refused')
t.raises(lambda: softmma.encode('e4m3', 2 ** 60 + 1), 'does not fit in float64 exactly',
         'encode: an int that float64 would round refused')
t.raises(lambda: softmma.quantize('mxfp8e4m3', np.float32(1)),
         'must be a numpy array of float32, not a numpy float32 scalar',
         'quantize: a numpy scalar is named as one')
t.raises(lambda: softmma.split_k_slices(0, 2), 'k = 0 is out of range (must be at least 1)',
         'a range with no upper bound is written "at least", never None')
t.raises(lambda: softmma.decode('e2m1', u8(3, 16)), 'codes[1] = 0x10 does not fit',
         'decode: an e2m1 code above 0xf refused, naming its index')
t.raises(lambda: softmma.decode('ue4m3', u8(0x38, 0x80)), '0x80',
         'decode: ue4m3 byte with bit 7 set refused in strict mode (the library\'s message)')
t.is_([1.0, 0.0], softmma.decode('ue4m3', u8(0x38, 0x80), strict=False).tolist(),
      'decode: lenient mode clears bit 7 of ue4m3')
t.raises(lambda: softmma.decode('e9m9', u8(1)), "unknown format 'e9m9'",
         'an unknown format: the library\'s message')
t.raises(lambda: softmma.encode('e4m3', np.array([1.0], dtype=np.float16)), 'float32 or float64',
         'encode: float16 input refused')
t.raises(lambda: softmma.encode('e4m3', f32(1), profile='nosuch'), "unknown profile 'nosuch'",
         'encode: an unknown profile: the library\'s message')
t.raises(lambda: softmma.encode('e4m3', f32(1), round='rq'), "'rq'",
         'encode: an unknown rounding refused')
t.raises(lambda: softmma.encode('e4m3', f32(1), rbits=np.zeros(1, np.uint32)),
         'only to rounding rs', 'encode: random bits without rs refused')
t.raises(lambda: softmma.encode('e4m3', f32(1, 2), round='rs', rbits=np.zeros(3, np.uint32)),
         'shape (2,)', 'encode: random bits of another shape refused')
t.raises(lambda: softmma.quantize('mxfp8e4m3', np.ones(32)), 'dtype float32',
         'quantize: float64 input refused')
t.raises(lambda: softmma.quantize('mxfp8e4m3', np.ones(32, np.float32), global_amax=1.0),
         'mxfp8e4m3', 'quantize: a global scale for an MX format: the library refuses it')
t.raises(lambda: softmma.quantize('nvfp4', np.ones(16, np.float32), global_amax=0.1),
         'not an fp32 number', 'quantize: a global amax that fp32 cannot hold refused')
t.raises(lambda: softmma.quantize('mxfp9', np.ones(32, np.float32)), "'mxfp9'",
         'quantize: an unknown block format: the library\'s message')
t.raises(lambda: softmma.dequantize('mxfp4', u8(1, 2), u8(1, 2)), 'shape (1,)',
         'dequantize: scales of the wrong shape refused')
t.raises(lambda: softmma.pack_fp4(u8(1, 16)), 'codes[1] = 0x10',
         'pack_fp4: a code above 0xf refused')
t.raises(lambda: softmma.scale_offset('128x4', 2, 64, 24, 0, 0), 'vec',
         'scale_offset: vec 24: the library\'s message')
t.raises(lambda: softmma.scale_offset('128x4', 2, 64, 32, 2, 0), 'm',
         'scale_offset: m past the rows: the library\'s message')
t.raises(lambda: softmma.scale_layout_size('cdna4-16', 2, 64, 16), 'vec',
         'cdna4 layouts refuse vec 16')
t.raises(lambda: softmma.scale_offset('128x4', 2, 64, 32, 0.0, 0), 'integer',
         'scale_offset: a float index refused')

a16 = np.array([[0x45e0, 0xb9e0, 0xc5c0]], dtype=np.uint16)
b16 = np.full((3, 1), 0x3f80, dtype=np.uint16)
t.raises(lambda: softmma.gemm('exact-rn', a16, b16[:2], a_fmt='bf16', b_fmt='bf16'),
         'K = 3 rows', 'gemm: B with the wrong K refused')
t.raises(lambda: softmma.gemm('exact-rn', a16.astype(np.uint32), b16, a_fmt='bf16',
                              b_fmt='bf16'), 'dtype uint16', 'gemm: A of the wrong dtype refused')
t.raises(lambda: softmma.gemm('exact-rn', a16.astype(np.uint8), b16, a_fmt='e8m0',
                              b_fmt='bf16'), 'e8m0 is not an element format',
         'gemm: a scale format as element format: the library\'s message')
t.raises(lambda: softmma.gemm('h100-bf16', a16.astype(np.uint32), b16, a_fmt='fp32',
                              b_fmt='bf16'), 'h100-bf16',
         'gemm: a model that cannot take fp32 elements: the library\'s message')
t.raises(lambda: softmma.gemm('exact-rn', a16, b16, a_fmt='bf16', b_fmt='bf16', alpha=0.1),
         'not an fp32 number', 'gemm: an alpha that fp32 cannot hold refused')
t.raises(lambda: softmma.gemm('exact-rn', a16, b16, a_fmt='bf16', b_fmt='bf16', sa=u8(1)),
         'without scale_fmt', 'gemm: scales without a scale format refused')
t.raises(lambda: softmma.read_vectors('/nonexistent.vec'), '/nonexistent.vec',
         'read_vectors: a missing file: the library\'s message names it')
bad = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'smma-py-bad.%d.vec' % os.getpid())
with open(bad, 'w') as f:
    f.write('softmma-vectors 1\nsuite decode.e2m1\nin code:e2m1\nout value:fp32\ncases 2\n'
            '0 00000000\nend\n')
t.raises(lambda: softmma.read_vectors(bad), bad + ':', 'read_vectors: a malformed file refused '
         'with FILE:LINE')
os.remove(bad)

# ---------------------------------------------------------------- codec

t.is_([line.split()[0] for line in run('formats').split('\n')[1:11]], softmma.formats(),
      'formats: the names softmma formats lists, in order')
for fmt in ('e2m1', 'e2m3', 'e3m2', 'e4m3', 'e5m2', 'e8m0', 'ue4m3', 'bf16', 'fp16'):
    info = softmma.format_info(fmt)
    codes = np.arange(1 << info['bits'], dtype=softmma.code_dtype(fmt))
    v = softmma.decode(fmt, codes)
    keep = np.isfinite(v)
    back = softmma.encode(fmt, v[keep], sat=True, round='rn')
    t.ok(np.array_equal(back, codes[keep]),
         '%s: encode(decode(c)) == c for all %d finite codes' % (fmt, keep.sum()))
want = [float(line.split()[2]) for line in run('decode', 'e8m0', '0x00', '0xff', '0x7f',
                                                  '0xfe').split('\n') if line]
seen = softmma.decode('e8m0', u8(0x00, 0xff, 0x7f, 0xfe)).tolist()
t.ok(want[0] == seen[0] == 2.0 ** -127 and np.isnan(want[1]) and np.isnan(seen[1]) and
     want[2:] == seen[2:] == [1.0, 2.0 ** 127],
     'decode e8m0 equals softmma decode: 0x00 is 2^-127, 0xff NaN, 0x7f 1, 0xfe 2^127')
t.is_([0x7e, 0x7f], softmma.encode('e4m3', f32(464, 465), sat=False).tolist(),
      'encode e4m3 without satfinite: 464 ties to 448, 465 overflows to NaN')
t.is_([0x7e], softmma.encode('e4m3', f32(465)).tolist(),
      'encode e4m3: the cuda profile saturates by default')
t.is_([8], softmma.encode('e2m1', f32(np.nan), profile='ml_dtypes', sat=False).tolist(),
      'encode: the profile decides NaN into FP4 (ml_dtypes: -0)')
nanbits = np.array([0xffc00001], dtype=np.uint32)
t.is_([0x0f, 0x07], [int(softmma.encode_f32bits('e2m1', nanbits, profile='cutlass-host')[0]),
                     int(softmma.encode_f32bits('e2m1', nanbits, profile='cuda')[0])],
      'encode_f32bits: a negative NaN payload reaches the profile (cutlass-host -6, cuda +6)')
t.is_([0, 1], softmma.encode('e2m1', f32(0.25, 0.25), round='rs',
                             rbits=np.array([0x7fffffff, 0x80000000], np.uint32)).tolist(),
      'encode rs: 0.25 between 0 and 0.5 rounds up from rbits 2^31 on')
t.is_([0x80], softmma.encode('e8m0', f32(1.5)).tolist(),
      'encode e8m0: the cuda profile rounds scales up (rp) by default')
x3 = np.arange(24, dtype=np.float64).reshape(2, 3, 4) / 4
t.is_((2, 3, 4), softmma.encode('e4m3', x3).shape, 'encode keeps the shape')
t.ok(any(p['name'] == 'torchao-rceil' for p in softmma.profiles()) and
     [p['name'] for p in softmma.profiles()] ==
     [line.split(':')[0] for line in run('profiles').split('\n')
      if line and not line.startswith(' ')],
     'profiles: the names softmma profiles lists, in order')

# ---------------------------------------------------------------- quant

x = (15.625 * np.arange(1, 33)).astype(np.float32)
cli = run('quant', '--format', 'mxfp8e4m3', '--profile', 'ocp', '-',
          stdin='\n'.join('%.3f' % v for v in x)).split('\n')
blk = [line for line in cli if line.startswith('block ')][0].split()
sc, co = softmma.quantize('mxfp8e4m3', x, profile='ocp')
t.is_([int(blk[3], 16)] + [int(c, 16) for c in blk[6:]], [int(sc[0])] + co.tolist(),
      'quantize mxfp8e4m3 ocp: scale and codes equal softmma quant\'s')
dq = softmma.dequantize('mxfp8e4m3', sc, co, profile='ocp')
cli = run('dequant', '-', stdin='\n'.join(
    line for line in run('quant', '--format', 'mxfp8e4m3', '--profile', 'ocp', '-',
                         stdin='\n'.join('%.3f' % v for v in x)).split('\n')))
t.is_([float(v) for v in cli.split()], dq.tolist(), 'dequantize equals softmma dequant')
t.is_(448.0, dq[-1], 'FLOOR clips 500 to 448')
x4 = np.arange(2 * 3 * 40, dtype=np.float32).reshape(2, 3, 40) - 100
sc, co = softmma.quantize('mxfp4', x4, profile='cuda')
t.is_(((2, 3, 2), (2, 3, 40)), (sc.shape, co.shape),
      'quantize: rows along the last axis, ceil(40/32) = 2 scales per row')
t.ok(np.array_equal(softmma.quantize('mxfp4', x4[1, 2], profile='cuda')[1], co[1, 2]),
     'quantize: each row on its own')
t.is_(int(sc[1, 2, 0]), softmma.block_scale('mxfp4', x4[1, 2, :32]),
      'block_scale equals the scale quantize gives the block')
t.is_(0x43960000, softmma.block_amax('mxfp4', -np.arange(301, dtype=np.float32)[-32:]),
      'block_amax: the largest magnitude (300) as fp32 bits')
nv = (np.arange(1, 17) / 512).astype(np.float32)
sc_te, co_te = softmma.quantize('nvfp4', nv, profile='te', global_amax=2688)
sc_ta, co_ta = softmma.quantize('nvfp4', nv, profile='torchao-floor', global_amax=2688)
t.is_((0x03, 0x08), (int(sc_te[0]), int(sc_ta[0])),
      'nvfp4 two-level: te keeps the subnormal scale 0x03, torchao clamps to 0x08 (the tour)')
g = softmma.quant_global_decode('nvfp4', profile='te', global_amax=2688)
t.is_(0x3f800000, g, 'quant_global_decode: a tensor amax of 2688 gives G = 1')
g2 = softmma.quant_global_decode('nvfp4', profile='torchao-floor', global_scale=0.5)
t.is_(0x3f000000, g2, 'quant_global_decode: a given decode scale is G itself')
dq = softmma.dequantize('nvfp4', sc_te, co_te, global_decode=0x40000000, profile='te')
t.ok(np.array_equal(2 * softmma.dequantize('nvfp4', sc_te, co_te, profile='te'), dq),
     'dequantize: G multiplies every value')
rb = np.full(32, 0xffffffff, np.uint32)
up = softmma.quantize('mxfp4', np.full(32, 0.3, np.float32), round='rs', rbits=rb)[1]
down = softmma.quantize('mxfp4', np.full(32, 0.3, np.float32), round='rs')[1]
t.ok(int(up[0]) == int(down[0]) + 1, 'quantize rs: rbits all ones round up, none round down')
codes = np.arange(15, dtype=np.uint8)
packed = softmma.pack_fp4(codes)
t.is_([0x10, 0x32], packed[:2].tolist(), 'pack_fp4: the even element in the low nibble')
t.is_(0x0e, int(packed[-1]), 'pack_fp4: an odd count leaves the last high nibble 0')
t.ok(np.array_equal(softmma.unpack_fp4(packed, 15), codes), 'unpack_fp4 reverses pack_fp4')

# ---------------------------------------------------------------- scale layouts

shape = softmma.scale_layout_shape('triton5d', 200, 320, 32)
t.is_((256, 12, 3072), (shape.rows_pad, shape.kb_pad, shape.bytes),
      'scale_layout_shape: 200 rows, Kb 10 pad to 256 x 12')
ok5 = True
five = (shape.rows_pad // 128, shape.kb_pad // 4, 32, 4, 4)
for m, kb in ((0, 0), (37, 5), (199, 9), (128, 4), (95, 3)):
    idx = softmma.scale_triton5d_index(200, 320, 32, m, kb)
    off = softmma.scale_offset('triton5d', 200, 320, 32, m, kb)
    ok5 = ok5 and int(np.ravel_multi_index(idx, five)) == off and \
        idx == (m // 128, kb // 4, m % 32, (m // 32) % 4, kb % 4) and \
        off == softmma.scale_offset('128x4', 200, 320, 32, m, kb)
t.ok(ok5, 'triton5d: the 5-D index, row-major, is the offset, the 128x4 offset')
t.is_(run('layout', 'scale', '--layout', 'cdna4-32', '--rows', '64', '--k', '512',
           '--vec', '32', '--at', '45,11').strip().split('\n')[-1],
      '       = %d' % softmma.scale_offset('cdna4-32', 64, 512, 32, 45, 11),
      'scale_offset equals the last line of softmma layout scale --at')
t.is_((1, 2, True), softmma.scale_coord('128x4', 2, 64, 32, 18),
      'scale_coord: byte 18 is padding at row 1, column 2 (doc/softmma.1)')
lin = np.arange(20, dtype=np.uint8).reshape(2, 10) + 1
p = softmma.scale_pack('128x4', 2, 320, 32, lin, fill=0xee)
t.ok(p.size == 1536 and (p == 0xee).sum() == 1536 - 20 and
     np.array_equal(softmma.scale_unpack('128x4', 2, 320, 32, p.reshape(3, 512)), lin),
     'scale_pack fills the padding; scale_unpack reads any shape of the right size back')

# ---------------------------------------------------------------- fragment layouts

h = softmma.holder('mma.m16n8k16.bf16', 'a', 5, 9)
t.is_((20, 2, 1, softmma.layout.HOLDER_REG), (int(h.thread), int(h.reg), int(h.elem), int(h.kind)),
      'holder: mma.m16n8k16.bf16 A (5, 9) is T20:r2.1')
t.is_(run('layout', 'mma.m16n8k16.bf16', 'a', '--at', '5,9').strip(),
      'mma.m16n8k16.bf16 a (m 5, k 9): T20:r2.1 (lane 20, register 2, element 1)',
      '... as softmma layout --at says')
t.is_((16, 16, 32), softmma.layout_shape('mma.m16n8k16.bf16', 'a'), 'layout_shape')
rr, cc = np.meshgrid(np.arange(64), np.arange(16), indexing='ij')
h = softmma.holder('wgmma.m64n16k16.bf16', 'd', rr, cc)
good = h.thread.shape == (64, 16) and (h.kind == softmma.layout.HOLDER_REG).all()
for th in (0, 37, 127):
    c = softmma.cells('wgmma.m64n16k16.bf16', 'd', th)
    good = good and len(c.row) == 8 and (h.thread[c.row, c.col] == th).all() and \
        (h.reg[c.row, c.col] == c.reg).all()
t.ok(good, 'holder of a 64 x 16 grid and cells of three threads are inverse (wgmma D)')
h = softmma.holder('tcgen05.mma.m128n64.cg2', 'd', [70, 0], [40, 63])
t.is_([[198, 64], [8, 31], [2, 2]], [h.thread.tolist(), h.reg.tolist(), h.kind.tolist()],
      'holder of tcgen05 D (M 128, cta_group::2): TMEM lanes and columns')
c = softmma.cells('tcgen05.mma.mxf4.2x', 'sfa', 33)
t.is_(8, len(c.row), 'cells of a tcgen05 scale-factor lane: every copy it holds')
h = softmma.holder('ldmatrix.x1', 'regs', np.array([0, 7], dtype=np.uint8), 1)
t.is_([0, 28], h.thread.tolist(), 'holder takes any integer dtype and broadcasts')
t.raises(lambda: softmma.holder('mma.m16n8k16.bf16', 'a', [1, 16], [0, 0]),
         'element 1: row 16 is outside mma.m16n8k16.bf16 a: m is 0..15',
         'holder: a row out of range is named with its bound')
t.raises(lambda: softmma.holder('mma.m16n8k16.bf16', 'a', 1.0, 0), 'rows must be integers',
         'holder: float coordinates are refused')
t.raises(lambda: softmma.cells('mma.m16n8k16.bf16', 'a', 32), 'threads are 0..31',
         'cells: a thread out of range is named with its bound')
t.raises(lambda: softmma.cells('tcgen05.mma.m128n12', 'd', 0), 'N 12 is not a multiple of 8',
         'cells: an illegal N is refused')
t.raises(lambda: softmma.holder('mma.m16n8k16.bf16', 'a', 0, 0, num=2), 'takes no selectors',
         'holder: a selector the instruction does not take is refused')

# ---------------------------------------------------------------- gemm

answers = [int(softmma.gemm(m, a16, b16, a_fmt='bf16', b_fmt='bf16')[0, 0])
           for m in ('exact-rn', 'fp32-fma-seq', 'h100-bf16')]
t.is_([0x447ffff9, 0x447ffff8, 0x447ffffa], answers,
      'gemm: one case, three answers (doc/models.md)')
inp = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'smma-py-three.%d.txt' % os.getpid())
with open(inp, 'w') as f:
    f.write('softmma-gemm-inputs 1\na bf16\nb bf16\nscale none\nvec 32\nc none\nm 1\nn 1\n'
            'k 3\nA\n0x45e0 0xb9e0 0xc5c0\nB\n0x3f80 0x3f80 0x3f80\n')
t.is_([int(run('gemm', '--inputs', inp, '--model', m), 16)
       for m in ('exact-rn', 'fp32-fma-seq', 'h100-bf16')], answers,
      'gemm: the same answers as softmma gemm --inputs')
os.remove(inp)
t.is_(1023.99957275390625, softmma.gemm_values('exact-rn', a16, b16, a_fmt='bf16',
                                               b_fmt='bf16')[0, 0],
      'gemm_values: the value of D')
t.is_(0x4480, int(softmma.gemm('exact-rn', a16, b16, a_fmt='bf16', b_fmt='bf16',
                               d_fmt='bf16')[0, 0]),
      'gemm: a bf16 D (1024 - 7 2^-14 rounds to 1024), uint16')

kw = dict(a_fmt='e4m3', b_fmt='e2m1', scale_fmt='e8m0', vec=32, c_fmt='fp32')
ex = softmma.gemm_generate('e4m3', 'e2m1', 24, 16, 96, cls='exact', seed=5, scale_fmt='e8m0',
                           c_fmt='fp32')
t.is_({'a': (24, 96), 'b': (96, 16), 'sa': (24, 3), 'sb': (3, 16), 'c': (24, 16)},
      {k: v.shape for k, v in ex.items()}, 'gemm_generate: shapes, B as (K, N), SB as (Kb, N)')
ops = dict(kw, sa=ex['sa'], sb=ex['sb'], c=ex['c'])
ds = [softmma.gemm(m, ex['a'], ex['b'], **ops) for m in ('exact-rn', 'fp32-fma-seq',
                                                        'b200-fp8', 'bf16-upcast-h100')]
t.ok(all(np.array_equal(ds[0], d) for d in ds), 'gemm: exact-class inputs, every model agrees')
bt = np.asfortranarray(ex['b'])
t.ok(np.array_equal(softmma.gemm('exact-rn', ex['a'], bt, **ops), ds[0]) and
     np.array_equal(softmma.gemm('exact-rn', ex['a'], ex['b'].copy(), **ops), ds[0]),
     'gemm: B in either memory order gives the same D')
rn = softmma.gemm_generate('e4m3', 'e2m1', 24, 16, 96, seed=9, scale_fmt='e8m0', c_fmt='fp32')
ops = dict(kw, sa=rn['sa'], sb=rn['sb'], c=rn['c'])
d = softmma.gemm('bf16-upcast-h100', rn['a'], rn['b'], **ops)
r = softmma.gemm_verify('bf16-upcast-h100', d, rn['a'], rn['b'], samples=10 ** 6, **ops)
t.is_((24 * 16, 0, []), tuple(r), 'gemm_verify: every entry checked, none differs')
bad = d.copy()
bad[7, 3] ^= 1
r = softmma.gemm_verify('bf16-upcast-h100', bad, rn['a'], rn['b'], samples=10 ** 6, **ops)
t.is_((1, [softmma.Mismatch(7, 3, int(d[7, 3]), int(bad[7, 3]))]), (r.mismatches, r.first),
      'gemm_verify: a one-bit change named by row, column, expected and got')
r = softmma.gemm_verify('bf16-upcast-h100', bad, rn['a'], rn['b'], samples=50, seed=3, **ops)
t.is_(50, r.checked, 'gemm_verify: samples entries checked')
t.raises(lambda: softmma.gemm_verify('exact-rn', d[:2], rn['a'], rn['b'], **ops), 'shape',
         'gemm_verify: D of the wrong shape refused')
t.is_([m['name'] for m in softmma.models()] + [a['name'] for a in softmma.model_aliases()],
      [line.split()[0] for line in run('models').split('\n') if line and line[0] != ' '],
      'models, model_aliases: the names softmma models lists, in order')
t.is_('bf16-upcast-h100', softmma.model_info('bf16-upcast-h100')['name'],
      'model_info by name')
t.is_(('h100-fp8', 'h100-fp8'), (softmma.model_info('cublaslt-fp8-fast')['name'],
                                 [a['model'] for a in softmma.model_aliases()
                                  if a['name'] == 'cublaslt-fp8-fast'][0]),
      'model_info by an alias gives the model it stands for')
# gemm_match: a D computed under one model is matched by it (and its
# aliases) first, with every entry checked; the others differ; models that
# refuse the problem are left out.
f8 = softmma.gemm_generate('e4m3', 'e4m3', 8, 8, 300, seed=3)
f8kw = dict(a_fmt='e4m3', b_fmt='e4m3')
d = softmma.gemm('cublaslt-fp8-promoted', f8['a'], f8['b'], **f8kw)
res = softmma.gemm_match(d, f8['a'], f8['b'], **f8kw)
t.is_(('cublaslt-fp8-promoted', 64, 0), (res[0].model, res[0].checked, res[0].mismatches),
      'gemm_match: the model that computed D comes first, 64 of 64 equal')
t.ok(all(r.mismatches > 0 for r in res[1:]) and
     'h100-fp8-promote32' not in [r.model for r in res],
     'gemm_match: the others differ; a model that needs scales is left out')
d = softmma.gemm('h100-fp8', f8['a'], f8['b'], **f8kw)
res = softmma.gemm_match(d, f8['a'], f8['b'], models=['cublaslt-fp8-fast', 'exact-rn'],
                         samples=10, **f8kw)
t.is_([('h100-fp8', ['cublaslt-fp8-fast', 'triton-dot-fp8'], 10, 0), ('exact-rn', [], 10, 10)],
      [(r.model, r.aliases, r.checked, r.mismatches) for r in res],
      'gemm_match: by alias, sampled, with the aliases of each model')
t.ok(repr(res[1].first[0]).startswith('Mismatch(i=') and
     'want=0x%x, got=0x%x)' % res[1].first[0][2:] in repr(res[1].first[0]),
     'Mismatch shows its codes in hex (%r)' % (res[1].first[0],))
# Only the models that take the problem: MXFP4 (e2m1, e8m0 scales) is not
# h100-fp8's, nor h100-bf16's, even when named.
m4 = softmma.gemm_generate('e2m1', 'e2m1', 4, 4, 64, seed=2, scale_fmt='e8m0')
m4kw = dict(a_fmt='e2m1', b_fmt='e2m1', scale_fmt='e8m0', sa=m4['sa'], sb=m4['sb'])
d = softmma.gemm('b200-fp8', m4['a'], m4['b'], **m4kw)
names = [r.model for r in softmma.gemm_match(d, m4['a'], m4['b'], **m4kw)]
t.is_(sorted(['exact-rn', 'exact-rz', 'fp32-fma-seq', 'b200-fp8', 'bf16-upcast-h100',
              'bf16-upcast-a100', 'bf16-upcast-ada', 'bf16-upcast-b200',
              'h100-fp8-promote32', 'h100-fp8-promote16']), sorted(names),
      'gemm_match on MXFP4: only the models that take it (smma_models_taking)')
t.is_([], softmma.gemm_match(d, m4['a'], m4['b'], models=['h100-fp8', 'h100-bf16'], **m4kw),
      'gemm_match: named models that do not take the problem are left out')
t.raises(lambda: softmma.gemm('h100-fp8', m4['a'], m4['b'], **m4kw),
         'model h100-fp8 takes A and B e4m3 or e5m2', 'gemm: h100-fp8 refuses MXFP4')
msg = ''
try:
    softmma.model_info('nosuch')
except softmma.SoftmmaError as e:
    msg = str(e)
t.ok(all(m['name'] in msg for m in softmma.models()) and
     all(a['name'] + ' (' + a['model'] + ')' in msg for a in softmma.model_aliases()),
     'an unknown model: every model and alias in the message (%d bytes)' % len(msg))
t.is_('A and B e4m3 or e5m2; scales none or e8m0; any D', softmma.model_info('h100-fp8')['takes'],
      "model_info: 'takes', what the model takes in words")

# Without alpha (alpha=None) D is C + sum, and alpha = 1 is the same as none.
ops = dict(kw, sa=ex['sa'], sb=ex['sb'], c=ex['c'])
d1 = softmma.gemm('exact-rn', ex['a'], ex['b'], alpha=1.0, **ops)
t.ok(np.array_equal(d1, ds[0]), 'gemm: alpha = 1 gives the D of alpha = None')
# D = alpha (C + sum): alpha = 2 doubles exact-class results exactly.
d2 = softmma.gemm('exact-rn', ex['a'], ex['b'], alpha=2.0, **ops)
twice = (softmma.decode('fp32', ds[0]) * 2).astype(np.float32).view(np.uint32)
t.ok(np.array_equal(d2, twice), 'gemm: alpha = 2 doubles D')
# sa = None with a scale format: A unscaled; it must equal scales of 2^0 (0x7f).
ones = np.full_like(ex['sa'], 0x7f)
want = softmma.gemm('exact-rn', ex['a'], ex['b'], **dict(ops, sa=ones))
got = softmma.gemm('exact-rn', ex['a'], ex['b'], **dict(ops, sa=None))
t.ok(np.array_equal(got, want), 'gemm: sa = None scales A by 1')

# Split-K: the slices' bounds, one slice is the model itself, two slices
# are each slice's fp32 sum from zero added in fp32, and split_k_match
# finds the slice count that computed a D (and refuses bad arguments).
t.is_([(0, 1408), (1408, 2816), (2816, 4096)], softmma.split_k_slices(4096, 3),
      'split_k_slices: 4096 in 3, 128-aligned')
t.is_([(0, 1408), (1408, 2816), (2816, 4224), (4224, 5632), (5632, 7040), (7040, 8192)],
      softmma.split_k_slices(8192, 6), 'split_k_slices: 8192 in 6, the last the rest')
t.raises(lambda: softmma.split_k_slices(200, 3), 'gives 2 slices, not 3',
         'split_k_slices: 200 in slices of 128 is 2, not 3')
sk = softmma.gemm_generate('bf16', 'bf16', 4, 5, 300, seed=9)
skw = dict(a_fmt='bf16', b_fmt='bf16')
t.ok(np.array_equal(softmma.gemm_split_k('h100-bf16', sk['a'], sk['b'], slices=1, **skw),
                    softmma.gemm('h100-bf16', sk['a'], sk['b'], **skw)),
     'gemm_split_k: one slice is the model')
p0 = softmma.gemm('h100-bf16', np.ascontiguousarray(sk['a'][:, :256]),
                  np.ascontiguousarray(sk['b'][:256]), **skw).view(np.float32)
p1 = softmma.gemm('h100-bf16', np.ascontiguousarray(sk['a'][:, 256:]),
                  np.ascontiguousarray(sk['b'][256:]), **skw).view(np.float32)
two = softmma.gemm_split_k('h100-bf16', sk['a'], sk['b'], slices=2, d_fmt='bf16', **skw)
t.ok(two.dtype == np.uint16
     and np.array_equal(two, softmma.encode('bf16', (p0 + p1).astype(np.float32))),
     'gemm_split_k: two slices summed in fp32, then bf16')
big = softmma.gemm_generate('bf16', 'bf16', 8, 8, 1024, seed=2)
d3 = softmma.gemm_split_k('h100-bf16', big['a'], big['b'], slices=3, **skw)
m3 = softmma.split_k_match(d3, big['a'], big['b'], model='h100-bf16', slices=range(1, 9), **skw)
t.ok(m3[0].slices == 3 and m3[0].mismatches == 0 and m3[0].checked == 64 and
     all(r.mismatches > 0 for r in m3[1:]) and [r.slices for r in m3] != [3],
     'split_k_match: the slice count that computed D fits every entry, the others do not: %s'
     % [(r.slices, r.mismatches) for r in m3])
t.raises(lambda: softmma.gemm_split_k('h100-bf16', sk['a'], big['b'], slices=2, **skw),
         'the same K', 'gemm_split_k: A and B of different K refused')
t.raises(lambda: softmma.gemm_split_k('h100-bf16', sk['a'], sk['b'], slices=2, d_fmt='e4m3',
                                      **skw), "d_fmt must be", "gemm_split_k: d_fmt 'e4m3' refused")

# scaled_mm, torch._scaled_mm's epilogue: per-tensor scales as one alpha
# (softmma's own epilogue), row-wise scales B's first, then the bias after
# the scales with its own rounding; refusals.
sm = softmma.gemm_generate('e4m3', 'e4m3', 24, 40, 400, seed=11)
smw = dict(a_fmt='e4m3', b_fmt='e4m3')
acc = softmma.gemm('cublaslt-fp8-fast', sm['a'], sm['b'], **smw).view(np.float32)
al = np.float32(np.float32(1.1) * np.float32(0.7))
t.ok(np.array_equal(softmma.scaled_mm('cublaslt-fp8-fast', sm['a'], sm['b'],
                                      scale_a=np.float32(1.1), scale_b=np.float32(0.7), **smw),
                    softmma.gemm('cublaslt-fp8-fast', sm['a'], sm['b'], alpha=float(al), **smw)),
     'scaled_mm: per-tensor scales are the model with alpha = fp32(scale_a * scale_b)')
rs = np.random.default_rng(4)
ra = (np.exp2(rs.integers(-3, 4, 24)) * (1 + rs.random(24))).astype(np.float32)
rb = (np.exp2(rs.integers(-3, 4, 40)) * (1 + rs.random(40))).astype(np.float32)
b_first = ((acc * rb[None, :]).astype(np.float32) * ra[:, None]).astype(np.float32)
a_first = ((acc * ra[:, None]).astype(np.float32) * rb[None, :]).astype(np.float32)
got = softmma.scaled_mm('cublaslt-fp8-fast', sm['a'], sm['b'], scale_a=ra, scale_b=rb, **smw)
t.ok(np.array_equal(got, b_first.view(np.uint32)) and not np.array_equal(b_first, a_first),
     "scaled_mm: row-wise scales, B's first, each product rounded to fp32 (A's first differs "
     "in %d of 960)" % int((b_first != a_first).sum()))
bias = softmma.decode('fp16', softmma.encode('fp16', (rs.random(40) - 0.5) * 8)).astype(np.float32)
x = (acc * al).astype(np.float32)
two_step = softmma.encode('fp16', (x + bias[None, :]).astype(np.float32), round='rn', sat=False)
bias_first = softmma.encode('fp16', ((acc + bias[None, :]).astype(np.float32) * al)
                            .astype(np.float32), round='rn', sat=False)
got = softmma.scaled_mm('cublaslt-fp8-fast', sm['a'], sm['b'], scale_a=np.float32(1.1),
                        scale_b=np.float32(0.7), bias=bias, out='fp16', **smw)
t.ok(got.dtype == np.uint16 and np.array_equal(got, two_step) and
     not np.array_equal(two_step, bias_first),
     'scaled_mm: the bias added to rn_fp32(alpha acc), rounded to fp32, then fp16 (the bias '
     'before alpha differs in %d of 960)' % int((two_step != bias_first).sum()))
bbias = softmma.decode('bf16', softmma.encode('bf16', (rs.random(40) - 0.5) * 8)).astype(np.float32)
got = softmma.scaled_mm('cublaslt-fp8-fast', sm['a'], sm['b'], scale_a=ra, scale_b=rb,
                        bias=bbias, out='bf16', **smw)
t.ok(np.array_equal(got, softmma.encode('bf16', (b_first + bbias[None, :]).astype(np.float32),
                                        round='rn', sat=False)),
     'scaled_mm: row-wise scales, then the bias, then bf16')
t.raises(lambda: softmma.scaled_mm('cublaslt-fp8-fast', sm['a'], sm['b'], bias=bias, **smw),
         'fp32 D', 'scaled_mm: a bias with fp32 D refused')
t.raises(lambda: softmma.scaled_mm('cublaslt-fp8-fast', sm['a'], sm['b'], out='bf16',
                                   bias=np.full(40, 1.0 + 2.0 ** -12, np.float32), **smw),
         'does not hold exactly', 'scaled_mm: a bias bf16 does not hold refused')
t.raises(lambda: softmma.scaled_mm('cublaslt-fp8-fast', sm['a'], sm['b'], scale_a=ra[:5],
                                   scale_b=rb, **smw), '5 values, not 24',
         'scaled_mm: row-wise scale_a of the wrong length refused')
t.raises(lambda: softmma.scaled_mm('cublaslt-fp8-fast', sm['a'], sm['b'], scale_a=1.1, **smw),
         'not an fp32 number', 'scaled_mm: a scale that is not an fp32 value refused')
t.raises(lambda: softmma.scaled_mm('cublaslt-fp8-fast', sm['a'], sm['b'],
                                   scale_a=ra.astype(np.float64), scale_b=rb, **smw),
         'must have dtype float32', 'scaled_mm: row-wise scales of another dtype refused')
t.ok(np.array_equal(softmma.scaled_mm('cublaslt-fp8-fast', sm['a'], sm['b'],
                                      scale_a=ra.reshape(24, 1), scale_b=rb.reshape(1, 40),
                                      **smw), b_first.view(np.uint32)),
     "scaled_mm: row-wise scales shaped as torch's (M x 1, 1 x N)")
t.raises(lambda: softmma.scaled_mm('cublaslt-fp8-fast', sm['a'], sm['b'], out='e4m3', **smw),
         "out must be", "scaled_mm: out 'e4m3' refused")

# One orientation for B's scales: (Kb, N), as the vector files and export
# hold them.  The other, (N, Kb), is refused by its shape; a square sb
# (Kb = N) only when stated with BScales, never taken silently.
sq = softmma.gemm_generate('e4m3', 'e2m1', 4, 2, 64, scale_fmt='e8m0', seed=4)
sqkw = dict(a_fmt='e4m3', b_fmt='e2m1', scale_fmt='e8m0', sa=sq['sa'])
t.ok(isinstance(sq['sb'], softmma.BScales) and sq['sb'].shape == (2, 2),
     'gemm_generate: B\'s scales come as BScales (Kb, N)')
sqd = softmma.gemm('exact-rn', sq['a'], sq['b'], sb=sq['sb'], **sqkw)
sbv = np.asarray(sq['sb'])
want = np.array([[softmma.gemm('exact-rn', sq['a'][i:i + 1, :], sq['b'][:, j:j + 1],
                               a_fmt='e4m3', b_fmt='e2m1', scale_fmt='e8m0',
                               sa=sq['sa'][i:i + 1, :], sb=sbv[:, j:j + 1])[0, 0]
                  for j in range(2)] for i in range(4)], dtype=np.uint32)
t.ok(np.array_equal(sqd, want), 'gemm: sb[t, j] scales column j of B (one column at a time)')
t.raises(lambda: softmma.gemm('exact-rn', sq['a'], sq['b'], sb=sbv, **sqkw),
         'square (Kb = N), so its shape cannot say', 'gemm: a plain square sb refused')
t.raises(lambda: softmma.gemm('exact-rn', sq['a'], sq['b'], sb=sbv.T, **sqkw),
         'pass sb=softmma.BScales(x)', 'gemm: a transposed square sb refused')
t.raises(lambda: softmma.gemm_verify('exact-rn', sqd, sq['a'], sq['b'], sb=sbv.T, **sqkw),
         'square', 'gemm_verify: a plain square sb refused')
t.ok(np.array_equal(softmma.gemm('exact-rn', sq['a'], sq['b'], sb=softmma.BScales(sbv),
                                 **sqkw), sqd) and
     not np.array_equal(softmma.gemm('exact-rn', sq['a'], sq['b'],
                                      sb=softmma.BScales(sbv.T.copy()), **sqkw), sqd),
     'gemm: BScales(x) takes x as Kb x N; its transpose gives another D')
t.ok(not hasattr(sq['sb'], 'T'), 'BScales has no .T')
ns = softmma.gemm_generate('e4m3', 'e2m1', 4, 3, 64, scale_fmt='e8m0', seed=4)
nskw = dict(a_fmt='e4m3', b_fmt='e2m1', scale_fmt='e8m0', sa=ns['sa'])
t.raises(lambda: softmma.gemm('exact-rn', ns['a'], ns['b'], sb=np.asarray(ns['sb']).T, **nskw),
         'sb must have shape (Kb, N) = (2, 3), not (N, Kb) = (3, 2)',
         'gemm: sb as (N, Kb) refused by its shape, naming both')
t.ok(np.array_equal(softmma.gemm('exact-rn', ns['a'], ns['b'], sb=np.asarray(ns['sb']), **nskw),
                    softmma.gemm('exact-rn', ns['a'], ns['b'], sb=ns['sb'], **nskw)),
     'gemm: a plain (Kb, N) sb is taken when not square')
t.raises(lambda: softmma.BScales(np.zeros(3, np.uint8)), '2-D', 'BScales: 1-D refused')
kv = softmma.read_vectors(os.path.join(src, 'vectors', 'gemm.bf16-mxfp4.kernel.exact.vec'))
t.ok(all(isinstance(x, softmma.BScales) and x.shape == (-(-int(k) // 32), int(n))
         for x, n, k in zip(kv.blocks['sb'], kv.columns['n'], kv.columns['k'])),
     'read_vectors: a gemm suite\'s sb blocks come as BScales (Kb, N)')

t.done()

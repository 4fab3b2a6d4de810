"""tests/python/which-t.py - which profile reproduces a quantization
(softmma.which_profiles), the profiles pytorch, jax, jax-jit and triton-mxfp on the
inputs their rules were written for (doc/profiles.md), quantize's
input='bf16', and the split-K table reader (softmma.read_split_k_table).

Worked by hand from the libraries' source:
  [NaN, 1] in mxfp8e4m3: pytorch scale 0xff, codes 7f 00 (1 * 2^-128 -> 0);
  jax 0x00 (NaN's round-up bits wrap), codes 7f 7e (1 / 2^-127 saturates);
  triton-mxfp and cuda 0xff, 7f 7f.
  A zero block: triton-mxfp's MXScaleTensor gives 0xff (values <= 0 are
  NaN) and 0 / NaN = NaN elements become +6 (0x7); pytorch and jax 0x00.
  [0.25 + 2^-25, 1, ...] under triton-mxfp in mxfp4 (amax 1: scale
  floor(log2(1/6)) = -3, 0x7c; x * 8): 2.0000002 is nearest 2 (0x4), and
  8 (0.25 + 2^-25) = 2 + 2^-22 too; but amax 6 (scale 0x7f) and 0.25 + 2^-25:
  nearer 0.5 by 6e-8, the even candidate 0 wins by the 1e-6 bias (0x0);
  cuda gives 0.5 (0x1).
  pytorch mxfp4 rounds through bf16: amax 6 (scale 2^0), 2.5 + 2^-20 -> bf16
  2.5 -> e2m1 tie -> 2 (0x4) where cuda rounds 2.50000095 up to 3 (0x5).
"""

import gzip
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import Tap  # noqa: E402

import softmma  # noqa: E402

t = Tap()


def f32(*v):
    return np.array([v], dtype=np.float32)


def block(vals, n=32):
    x = np.zeros((1, n), np.float32)
    x[0, :len(vals)] = vals
    return x


def q(fmt, x, p, **kw):
    s, c = softmma.quantize(fmt, x, profile=p, **kw)
    return int(s[0, 0]), [int(v) for v in c[0, :2]]


nan1 = block([np.nan, 1.0])
t.is_((0xff, [0x7f, 0x00]), q('mxfp8e4m3', nan1, 'pytorch'), 'pytorch: NaN block 0xff, 1 -> 0')
t.is_((0x00, [0x7f, 0x7e]), q('mxfp8e4m3', nan1, 'jax'), 'jax: NaN block 0x00, 1 -> 448')
t.is_((0xff, [0x7f, 0x7f]), q('mxfp8e4m3', nan1, 'triton-mxfp'), 'triton-mxfp: NaN block 0xff')
t.is_((0xff, [0x7, 0x7]), q('mxfp4', block([]), 'triton-mxfp'),
      'triton-mxfp: a zero block: scale 0xff, elements 0 / NaN -> +6')
t.is_((0x00, [0x0, 0x0]), q('mxfp4', block([]), 'pytorch'), 'pytorch: a zero block: 0x00')
t.is_((0x00, [0x0, 0x0]), q('mxfp4', block([]), 'jax'), 'jax: a zero block: 0x00')
near = block([np.float32(0.25) + np.float32(2.0 ** -25), 6.0])
t.is_((0x7f, [0x0, 0x7]), q('mxfp4', near, 'triton-mxfp'),
      'triton-mxfp: 0.25 + 2^-25 goes to the even candidate 0 by the 1e-6 bias')
t.is_((0x7f, [0x1, 0x7]), q('mxfp4', near, 'cuda'), 'cuda: 0.25 + 2^-25 rounds to 0.5')
tie = block([np.float32(2.5) + np.float32(2.0 ** -20), 6.0])
t.is_((0x7f, [0x4, 0x7]), q('mxfp4', tie, 'pytorch'),
      'pytorch: 2.5 + 2^-20 rounds to bf16 2.5 first, then to even 2')
t.is_((0x7f, [0x5, 0x7]), q('mxfp4', tie, 'cuda'), 'cuda: 2.5 + 2^-20 rounds up to 3')
# pytorch: the fp32 log2 of a ratio just above 2^4 rounds to 4 (ulp of 4 is
# 2^-21 > log2(1 + 2^-23)): the scale is 2^4 (0x83), not 2^5, and the amax
# saturates to 6.
just = block([np.nextafter(np.float32(96.0), np.float32(200.0))])
t.is_((0x83, [0x7, 0x0]), q('mxfp4', just, 'pytorch'),
      'pytorch: amax/6 a step above 2^4: log2 rounds to 4, scale 2^4, amax clamps to 6')
t.is_((0x84, [0x5, 0x0]), q('mxfp4', just, 'cuda'),
      'cuda: the same block rounds up to 2^5, amax 3.0000002 -> 3')

# ---- input='bf16'
j = f32(float.fromhex('0x1.82p-125'))
t.is_((0x01, [0x5]), (int(softmma.quantize('mxfp4', j, profile='jax')[0][0, 0]),
                      [int(softmma.quantize('mxfp4', j, profile='jax')[1][0, 0])]),
      'jax fp32: the ratio stays fp32: scale 0x01')
s, c = softmma.quantize('mxfp4', j, profile='jax', input='bf16')
t.is_((0x00, 0x7), (int(s[0, 0]), int(c[0, 0])), "jax input='bf16': the ratio rounds to 2^-127")
s, c = softmma.quantize('mxfp4', j, profile='cuda', input='bf16')
t.is_((0x01, 0x5), (int(s[0, 0]), int(c[0, 0])), "cuda input='bf16': the same as fp32")
t.raises(lambda: softmma.quantize('mxfp4', f32(1.1), input='bf16'), 'is not a bf16 number',
         "input='bf16' refuses a value that is not bf16")
t.raises(lambda: softmma.quantize('mxfp4', f32(1.0), input='fp16'), "'fp32' or 'bf16'",
         'input must be fp32 or bf16')

# ---- which_profiles
x = np.vstack([block([np.nan, 1.0]), block([3.0, -0.5, 7.0])])
s, c = softmma.quantize('mxfp8e4m3', x, profile='jax')
r = softmma.which_profiles(x, s, c, 'mxfp8e4m3')
t.is_('jax', r[0].profile, 'which_profiles: jax first for what jax gave')
t.is_(0, r[0].differ, 'which_profiles: jax reproduces every block')
t.is_(['jax', 'jax-jit'], sorted(m.profile for m in r if m.differ == 0),
      'which_profiles: only jax and jax-jit (the same on fp32) reproduce the NaN block')
# bf16 450: op by op bf16(450 / 448) rounds up to scale 0x80; under jit
# bf16(450 * bf16(1 / 448)) = 1, scale 0x7f (doc/profiles.md)
x450 = block([450.0])
for p, want in (('jax', 0x80), ('jax-jit', 0x7f)):
    s4, c4 = softmma.quantize('mxfp8e4m3', x450, profile=p, input='bf16')
    t.is_(want, int(s4[0, 0]), '%s bf16 [450]: scale 0x%02x' % (p, want))
    r4 = softmma.which_profiles(x450, s4, c4, 'mxfp8e4m3', profiles=['jax', 'jax-jit'],
                                input='bf16')
    t.is_([p], [m.profile for m in r4 if m.differ == 0],
          'which_profiles bf16 [450]: only %s' % p)
t.is_(len(softmma.profiles()), len(r), 'which_profiles: one answer per profile')
pt = [m for m in r if m.profile == 'pytorch'][0]
t.is_((1, softmma.QuantDiff(0, 0, None, 0x00, 0xff)), (pt.differ, pt.first),
      'which_profiles: pytorch differs in row 0 block 0 at the scale, 0x00 given, 0xff its')
c2 = c.copy()
c2[1, 2] ^= 1
r = softmma.which_profiles(x, s, c2, 'mxfp8e4m3', profiles=['jax', 'cuda'])
t.is_(['cuda', 'jax'] if r[0].profile == 'cuda' else ['jax', 'cuda'], [m.profile for m in r],
      'which_profiles: only the profiles asked for')
jx = [m for m in r if m.profile == 'jax'][0]
t.is_((1, 1, 2, int(c2[1, 2]), int(c[1, 2])),
      (jx.differ, jx.first.row, jx.first.element, jx.first.given, jx.first.expected),
      'which_profiles: one changed code: row 1, element 2, both codes')
t.is_(sorted(m.differ for m in r), [m.differ for m in r], 'which_profiles: nearest first')
nv = block([16.0, 1.0], 16)
s, c = softmma.quantize('nvfp4', nv, profile='jax', global_scale=0.25)
r = softmma.which_profiles(nv, s, c, 'nvfp4', global_scale=0.25, profiles='jax')
t.is_(0, r[0].differ, 'which_profiles: nvfp4 two-level under jax')
t.raises(lambda: softmma.which_profiles(x, s, c, 'mxfp8e4m3'), 'shape',
         'which_profiles: scales of the wrong shape')
t.raises(lambda: softmma.which_profiles(x, np.zeros((2, 1), np.uint8),
                                        np.zeros((2, 31), np.uint8), 'mxfp8e4m3'),
         'codes must have shape (2, 32)', 'which_profiles: codes of the wrong shape')
t.raises(lambda: softmma.which_profiles(x, np.zeros((2, 1), np.uint8),
                                        np.zeros((2, 32), np.uint8), 'mxfp9'),
         "unknown block format 'mxfp9'", 'which_profiles: an unknown format')
t.raises(lambda: softmma.which_profiles(x, np.zeros((2, 1), np.uint8),
                                        np.full((2, 32), 0x10, np.uint8), 'mxfp4'),
         'code 0x10 does not fit 4-bit e2m1', 'which_profiles: a code too wide')
t.raises(lambda: softmma.which_profiles(x, np.zeros((2, 1), np.uint8),
                                        np.zeros((2, 32), np.uint8), 'mxfp4',
                                        profiles=['nvidia']),
         "unknown profile 'nvidia'", 'which_profiles: an unknown profile')
t.raises(lambda: softmma.which_profiles(x.astype(np.float64), np.zeros((2, 1), np.uint8),
                                        np.zeros((2, 32), np.uint8), 'mxfp4'),
         'dtype float32', 'which_profiles: x not float32')

# ---- split-K tables
text = """# cuBLASLt 130000 at /x/libcublasLt.so.13 (torch 2.11, NVIDIA H100)
# dtype M N K kind: ...
bf16     1  4096   4096 mult128 algo=66 tile=TILE_64x64 splitk=2 reduction=inplace swizzle=0
bf16   128   128   4096 mult128 algo=66 tile=TILE_128x128 splitk=3 reduction=compute-type
bf16    16    16   1023 odd     algo=6 tile=TILE_16x16 splitk=1 reduction=none
fp16     2     2     33 odd     no algorithm
"""
d = tempfile.mkdtemp()
path = os.path.join(d, 'probe.txt')
with open(path, 'w') as f:
    f.write(text)
tab = softmma.read_split_k_table(path)
t.is_(4, len(tab), 'read_split_k_table: four shapes')
t.ok('H100' in tab.header[0], 'read_split_k_table: the header keeps the card')
p = tab.predict(1, 4096, 4096)
t.is_((2, [(0, 2048), (2048, 4096)], 'inplace', 'table'), (p.slices, p.bounds, p.reduction,
                                                            p.source),
      'predict: 1 x 4096 x 4096 bf16 in 2 slices of 2048')
p = tab.predict(128, 128, 4096)
t.is_((3, [(0, 1408), (1408, 2816), (2816, 4096)]), (p.slices, p.bounds),
      'predict: 3 slices of ceil(4096 / 3) rounded up to 128')
t.is_((1, 'table'), tab.predict(16, 16, 1023).slices and (1, tab.predict(16, 16, 1023).source),
      'predict: not split')
t.is_((None, 'not modeled'), (tab.predict(64, 64, 8192).slices,
                              tab.predict(64, 64, 8192).source),
      'predict: a shape outside the table is not modeled')
t.is_(None, tab.predict(2, 2, 33, 'fp16').slices, 'predict: no algorithm: not modeled')
tab.rule = lambda dt, m, n, k: 1 if k <= 1024 else None
t.is_((1, 'rule'), (tab.predict(7, 7, 500).slices, tab.predict(7, 7, 500).source),
      'predict: a rule answers where the table does not')
t.raises(lambda: tab.predict(1, 1, 1, 'fp8'), "'bf16' or 'fp16'", 'predict: an unknown dtype')

# ---- the H100 table shipped with the module (doc/models.md)
h1 = softmma.h100_split_k_table()
t.is_(76050, len(h1), 'H100 table: 2 dtypes x 1521 (M, N) x 25 K')
t.ok('H100' in h1.header[0] and '130100' in h1.header[0], 'H100 table: card and cuBLASLt named')
for (m, n, k, s, why) in ((128, 128, 4096, 3, 'as fitted numerically'),
                          (64, 64, 8192, 6, 'as fitted numerically'),
                          (1, 4096, 4096, 1, 'not split on the H100'),
                          (16, 4096, 4096, 2, 'the tile 128x16 splits in 2')):
    p = h1.predict(m, n, k)
    t.is_((s, 'table'), (p.slices, p.source), 'H100 bf16 %d x %d x %d: S = %d, %s'
          % (m, n, k, s, why))
p = h1.predict(128, 128, 4096)
t.is_(([(0, 1408), (1408, 2816), (2816, 4096)], 'ceil(K/S) up to 128'), (p.bounds, p.cut),
      'H100 128 x 128 x 4096: algorithm 66, 128-aligned slices')
p = h1.predict(1, 4096, 4096)
t.is_(([(0, 4096)], 'one slice'), (p.bounds, p.cut), 'H100 1 x 4096 x 4096: one slice')
p = h1.predict(14, 21, 2048)
t.is_((264, None, 'not modeled'), (p.slices, p.bounds, p.cut),
      'H100 14 x 21 x 2048: algorithm 24, S = 264 > K / 128: the cut is not modeled')
p = h1.predict(7, 1024, 1023)
t.is_((15, None, 'not modeled'), (p.slices, p.bounds, p.cut),
      'H100 7 x 1024 x 1023: K not a multiple of 128: the cut is not modeled')
t.is_(8, h1.predict(7, 1024, 1023, 'fp16').slices, 'H100 fp16 7 x 1024 x 1023: S = 8')
p = h1.predict(1024, 10, 1024)
t.is_((8, None, 'not modeled'), (p.slices, p.bounds, p.cut),
      'H100 1024 x 10 x 1024: algorithm 23 in 8: 128 each would fit, but its cut is not modeled')
p = h1.predict(1, 8, 4112)
t.is_((3, None, 'not modeled'), (p.slices, p.bounds, p.cut),
      'H100 1 x 8 x 4112: algorithm 66, K not a multiple of 128: not modeled')
p = h1.predict(33, 33, 4096)
t.is_((None, None, 'not modeled'), (p.slices, p.bounds, p.source),
      'H100 33 x 33 x 4096: off the probed grid, not modeled')
gz = os.path.join(d, 'probe.txt.gz')
with gzip.open(gz, 'wt') as f:
    f.write(text)
t.is_(4, len(softmma.read_split_k_table(gz)), 'read_split_k_table reads a .gz table')
os.unlink(gz)
t.raises(lambda: tab.predict(0, 1, 1), 'm must be a positive int', 'predict: m = 0')
for bad, needle in (('bf16 1 1 x odd splitk=1', 'malformed shape'),
                    ('bf32 1 1 1 odd splitk=1', "unknown dtype 'bf32'"),
                    ('bf16 1 1 1 even splitk=1', "unknown K kind 'even'"),
                    ('bf16 1 1 1 odd algo=3', 'no splitk=N'),
                    ('bf16 1 1 1 odd splitk', 'malformed attribute'),
                    ('bf16 1 1 1', 'expected "dtype M N K kind attributes"'),
                    ('bf16 1 1 1 odd splitk=1\nbf16 1 1 1 odd splitk=2', 'given twice')):
    with open(path, 'w') as f:
        f.write('# header\n' + bad + '\n')
    t.raises(lambda: softmma.read_split_k_table(path), needle,
             'read_split_k_table refuses %r' % bad.split('\n')[-1])
t.raises(lambda: softmma.read_split_k_table(os.path.join(d, 'none.txt')), 'cannot open',
         'read_split_k_table: a missing file')
os.unlink(path)
os.rmdir(d)

t.done()
sys.exit(1 if t.failed else 0)

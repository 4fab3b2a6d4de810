"""tests/python/suites-t.py - the Python module against the committed golden
vectors: for every decode, encode, quant, scale-layout and gemm suite under
vectors/ (read with softmma.read_vectors), the module computes the outputs
from the inputs and must give the suite's expected outputs bit for bit.
One TAP point per suite; a mismatch prints the first differing cases.

The suites were written by softmma gen (the C generators); the module goes
through the library's public functions, as a Python user would."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import Tap  # noqa: E402

import softmma  # noqa: E402

t = Tap()
vec = os.path.join(os.environ['SMMA_SRCDIR'], 'vectors')
names = sorted(f[:-4] for f in os.listdir(vec) if f.endswith('.vec'))


def same(desc, want, seen, show=None):
    """One point: two arrays equal element for element (and in shape)."""
    want, seen = np.asarray(want), np.asarray(seen)
    good = want.shape == seen.shape and np.array_equal(want, seen)
    t.ok(good, desc)
    if not good:
        if want.shape != seen.shape:
            t.diag('shapes differ: wanted %s, seen %s' % (want.shape, seen.shape))
        else:
            bad = np.argwhere(want != seen)
            t.diag('%d differ; the first:' % len(bad))
            for idx in bad[:10]:
                idx = tuple(idx)
                t.diag('  at %s: wanted %s, seen %s%s' % (
                    list(idx), hex(int(want[idx])), hex(int(seen[idx])),
                    '' if show is None else '  (' + show(idx) + ')'))
    return good


def f32(bits):
    """fp32 bits (uint32) from float64 values: exact where they fit."""
    return np.asarray(bits, dtype=np.float64).astype(np.float32).view(np.uint32)


# ---------------------------------------------------------------- decode

for name in [n for n in names if n.startswith('decode.')]:
    s = softmma.read_vectors(os.path.join(vec, name + '.vec'))
    fmt = name.split('.')[1]
    codes = s.columns['code']
    values = softmma.decode(fmt, codes, strict=False)
    # The suite writes each value as fp32 bits; a NaN as the canonical NaN
    # with the code's sign (doc/vectors.md).
    seen = f32(values)
    nan = np.isnan(values)
    seen[nan] = np.where(np.signbit(values[nan]), 0xffc00000, 0x7fc00000).astype(np.uint32)
    same('%s: decode of %d codes equals the suite' % (name, len(s)), s.columns['value'], seen)

# ---------------------------------------------------------------- encode

for name in [n for n in names if n.startswith('encode.')]:
    s = softmma.read_vectors(os.path.join(vec, name + '.vec'))
    _, fmt, rnd, profile = name.split('.', 3)
    x = s.columns['x']
    rbits = s.columns.get('rbits')
    if s.dtype('x') == np.uint64:       # x:fp64 (the fp32 target)
        got = softmma.encode(fmt, x.view(np.float64), round=rnd, profile=profile, rbits=rbits)
    else:
        got = softmma.encode_f32bits(fmt, x, round=rnd, profile=profile, rbits=rbits)
    same('%s: encode of %d inputs equals the suite' % (name, len(s)), s.columns['code'], got,
         lambda i, x=x: 'x = ' + hex(int(x[i[0]])))

# ---------------------------------------------------------------- quant

for name in [n for n in names if n.startswith('quant.')]:
    s = softmma.read_vectors(os.path.join(vec, name + '.vec'))
    _, bf, profile = name.split('.', 2)
    x = s.columns['x'].view(np.float32)
    if bf == 'nvfp4':
        scales = np.empty(len(s), dtype=np.uint8)
        codes = np.empty(x.shape, dtype=np.uint8)
        gdec = np.empty(len(s), dtype=np.uint32)
        for i in range(len(s)):
            g = int(s.columns['global'][i])
            gv = float(s.columns['gbits'][i:i + 1].view(np.float32)[0])
            kw = {'global_amax': gv} if g == 1 else {'global_scale': gv} if g == 2 else {}
            sc, co = softmma.quantize(bf, x[i], profile=profile, **kw)
            scales[i], codes[i] = sc[0], co
            gdec[i] = softmma.quant_global_decode(bf, profile=profile, **kw)
        ok = same('%s: global decode scales equal the suite' % name, s.columns['gdecode'], gdec)
    else:
        sc, codes = softmma.quantize(bf, x, profile=profile)
        scales = sc[:, 0]
        ok = True
    same('%s: %d blocks quantized, scale bytes equal the suite' % (name, len(s)),
         s.columns['scale'], scales)
    same('%s: element codes equal the suite' % name, s.columns['codes'], codes)

# ---------------------------------------------------------------- scale layouts

for name in [n for n in names if n.startswith('scale-layout.')]:
    s = softmma.read_vectors(os.path.join(vec, name + '.vec'))
    layout = name.split('.', 1)[1]
    sizes, offs, rt = [], [], True
    for i in range(len(s)):
        rows, k, v = (int(s.columns[f][i]) for f in ('rows', 'k', 'vec'))
        sizes.append(softmma.scale_layout_size(layout, rows, k, v))
        o = softmma.scale_offsets(layout, rows, k, v)
        offs.append(np.array_equal(o, s.blocks['offset'][i].astype(np.int64)))
        # Each scale packed lands at its offset, and unpacks back.
        lin = (np.arange(o.size, dtype=np.uint32) % 251 + 1).astype(np.uint8).reshape(o.shape)
        packed = softmma.scale_pack(layout, rows, k, v, lin)
        rt = rt and np.array_equal(packed[o], lin) and \
            np.array_equal(softmma.scale_unpack(layout, rows, k, v, packed), lin)
    same('%s: stored sizes of %d shapes equal the suite' % (name, len(s)),
         s.columns['bytes'], np.array(sizes, dtype=np.uint32))
    t.ok(all(offs), '%s: every scale offset equals the suite' % name)
    t.ok(rt, '%s: scale_pack puts each scale at its offset; scale_unpack reverses it' % name)

# ---------------------------------------------------------------- gemm

BLOCK = {'mxfp8': ('e4m3', 'e4m3', 'e8m0', 32), 'mxfp6e2m3': ('e2m3', 'e2m3', 'e8m0', 32),
         'mxfp6e3m2': ('e3m2', 'e3m2', 'e8m0', 32), 'mxfp4': ('e2m1', 'e2m1', 'e8m0', 32),
         'nvfp4': ('e2m1', 'e2m1', 'ue4m3', 16), 'mxfp8-mxfp4': ('e4m3', 'e2m1', 'e8m0', 32),
         'bf16': ('bf16', 'bf16', None, 32), 'mxfp8e5m2': ('e5m2', 'e5m2', 'e8m0', 32),
         'mxfp8-e4m3-e5m2': ('e4m3', 'e5m2', 'e8m0', 32),
         'bf16-mxfp4': ('bf16', 'e2m1', 'e8m0', 32), 'bf16-mxfp8': ('bf16', 'e4m3', 'e8m0', 32),
         'fp16': ('fp16', 'fp16', None, 32), 'fp8': ('e4m3', 'e4m3', None, 32),
         'fp8-e4m3-e5m2': ('e4m3', 'e5m2', None, 32), 'fp8-e5m2-e4m3': ('e5m2', 'e4m3', None, 32)}
D_FMTS = ('fp32', 'bf16', 'fp16')  # the kernel and wgmma suites' d_fmt codes
for name in [n for n in names if n.startswith('gemm.')]:
    s = softmma.read_vectors(os.path.join(vec, name + '.vec'))
    parts = name.split('.')
    combo = parts[1]
    kernel = parts[2] in ('kernel', 'wgmma')
    if kernel:
        parts = parts[:2] + parts[3:]
    if parts[2] != 'exact':
        models = [parts[3]]
    elif kernel:    # the kernel-scale problems: two models (vectors-t takes every one)
        models = ['exact-rn', 'fp32-fma-seq']
    else:
        models = [m['name'] for m in softmma.models()]
    a_fmt, b_fmt, scale_fmt, v = BLOCK[combo]
    good, verified = True, True
    for model in models:
        for i in range(len(s)):
            kw = dict(a_fmt=a_fmt, b_fmt=b_fmt, scale_fmt=scale_fmt, vec=v, d_fmt='fp32')
            if scale_fmt is not None:
                # The suite holds SB as (kb x n), as the module takes it
                # (read_vectors wraps it in BScales).  No sa: A unscaled.
                kw.update(sa=s.blocks['sa'][i] if 'sa' in s.blocks else None,
                          sb=s.blocks['sb'][i])
            if 'c' in s.blocks and (not kernel or s.columns['has_c'][i]):
                kw.update(c=s.blocks['c'][i], c_fmt='fp32')
            if kernel:
                kw.update(d_fmt=D_FMTS[int(s.columns['d_fmt'][i])])
                alpha = np.array([s.columns['alpha'][i]], dtype=np.uint32).view(np.float32)[0]
                if alpha != 1.0:
                    kw.update(alpha=float(alpha))
            want = s.blocks['d'][i]
            if kw['d_fmt'] != 'fp32':   # a 16-bit D in the kernel suites' d:u32
                want = want.astype(np.uint16)
            try:
                d = softmma.gemm(model, s.blocks['a'][i], s.blocks['b'][i], **kw)
            except softmma.SoftmmaError as e:
                if parts[2] == 'exact':
                    continue        # a model that cannot compute these formats
                raise
            if not np.array_equal(d, want):
                good = False
                t.diag('%s case %d under %s: %d of %d entries differ' % (
                    name, i, model, int((d != want).sum()), d.size))
            r = softmma.gemm_verify(model, want, s.blocks['a'][i], s.blocks['b'][i],
                                    samples=d.size, **kw)
            verified = verified and r.mismatches == 0 and r.checked == d.size
    t.ok(good, '%s: D of %d cases equals the suite under %s' % (
        name, len(s), 'every model that takes them' if parts[2] == 'exact' else models[0]))
    t.ok(verified, '%s: gemm_verify finds the suite\'s D correct' % name)

t.done()

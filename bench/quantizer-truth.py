#!/usr/bin/env python3
"""bench/quantizer-truth.py - the block quantizers that ship with PyTorch, JAX
and Triton, run on a GPU and compared bit for bit with softmma's profiles
pytorch, jax, jax-jit and triton-mxfp (doc/profiles.md).

What it runs, per library and per block format the library takes:
  pytorch      torch.testing._internal.common_quantized.to_mxfp (format
               'mxfp8': mxfp8e4m3, 'mxfp4': mxfp4), the reference of
               PyTorch's MX GEMM tests.  Importing it needs the expecttest
               module; when it is missing a stub with TestCase is put in
               sys.modules.
  jax          jax._src.cudnn.scaled_matmul_stablehlo.quantize with the block
               configs BlockScaleConfig(mode 'mxfp8', 32, element dtype,
               float8_e8m0fnu) for e4m3, e5m2, e2m1 (and e2m3, e3m2 where
               jnp has them), and (mode 'nvfp4', 16, float4_e2m1fn,
               float8_e4m3fn, global scale G); under jax.jit ("jax",
               against profile jax-jit) and op by op ("jax-eager", as
               JAX's tests call it, against profile jax).
  triton-mxfp  triton.tools.mxfp as Triton's tests and users compose it:
               scale = MXScaleTensor(data=amax / 6.0), elements =
               MXFP4Tensor(data=x / scale.to(float32)) (mxfp4).
Inputs are seeded blocks of every class softmma's quant generator knows
(CLASSES below), as fp32 and as bf16 tensors on the GPU; a bf16 input is
given to softmma as its fp32 value with input='bf16' (the profiles that
compute in the input's precision read it).

For every (library, format, dtype, class) it prints a TAP-like line (ok /
not ok, cases, blocks equal, the first differing block with its input,
both scales and both codes), then a summary table, the blocks each other
profile reproduces, and writes the raw results under --out:
  quantizer-truth-<library>.npz   per "<format>.<dtype>.<class>": .x (fp32
      bits of the input), .scale and .codes (the library's), .pscale and
      .pcodes (the profile's, when the profile exists), .g (nvfp4: G bits)
  quantizer-truth.log             what it printed
Exit status: 0 when every block matched its profile, 1 on any difference,
2 when nothing could run.  --no-gpu runs the plumbing with softmma itself
as the library (profile cuda), then with one code flipped, without a GPU.

Run it from the root of a built tree (./configure && make), in < 4 minutes
on an H100:
    python3 bench/quantizer-truth.py --out DIR [--blocks N] [--seed S]
        [--libs pytorch,jax,triton-mxfp]
bench/device-run.sh's step quant-truth runs it.
"""

import argparse
import os
import sys
import time
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, 'python'))

import numpy as np  # noqa: E402

import softmma  # noqa: E402

CLASSES = ['zero', 'subnormal', 'underflow', 'normal', 'overflow', 'boundary', 'ties', 'nan',
           'pinf', 'ninf', 'suite', 'global']
DTYPES = ['fp32', 'bf16']
LIBRARIES = {
    'pytorch': ('pytorch', ['mxfp8e4m3', 'mxfp4']),
    'jax': ('jax-jit', ['mxfp8e4m3', 'mxfp8e5m2', 'mxfp4', 'mxfp6e2m3', 'mxfp6e3m2', 'nvfp4']),
    'jax-eager': ('jax', ['mxfp8e4m3', 'mxfp8e5m2', 'mxfp4', 'mxfp6e2m3', 'mxfp6e3m2', 'nvfp4']),
    'triton-mxfp': ('triton-mxfp', ['mxfp4']),
}
NAN_BITS = np.array([0x7fc00000, 0xffc00000, 0x7f800001, 0x7fffffff, 0xff810000], np.uint32)


class Skip(Exception):
    """A library or format that cannot run here, with the reason."""


def classes_of(fmt):
    """The classes that apply to a block format: 'global' (a per-tensor scale
    G other than 1) only to nvfp4."""
    return [c for c in CLASSES if c != 'global' or fmt == 'nvfp4']


# ---------------------------------------------------------------- inputs

def f32bits(v):
    return np.asarray(v, np.float64).astype(np.float32).view(np.uint32)


def to_bf16_bits(u32):
    """fp32 bits rounded to bf16 (to nearest, ties to even; a NaN keeps its
    sign and top payload bits and stays a NaN), widened back to fp32 bits."""
    u = u32.astype(np.uint64)
    nan = (u & 0x7fffffff) > 0x7f800000
    r = ((u + 0x7fff + ((u >> 16) & 1)) >> 16) << 16
    q = ((u >> 16) << 16) | 0x400000
    return np.where(nan, q, r).astype(np.uint32)


def spread(rng, n, v, lo, hi, zeros=0.2):
    """n blocks of v values: block b has top exponent t_b uniform in [lo, hi]
    (element 0 at t_b, its place shuffled), the others 0..15 binades below
    (not below the fp32 normal range), random mantissas and signs, a
    fraction of zeros."""
    t = rng.integers(lo, hi + 1, size=(n, 1))
    e = t - rng.integers(0, 16, size=(n, v))
    e[:, :1] = t
    e = np.clip(e, -126, 127)
    man = rng.integers(0, 1 << 23, size=(n, v), dtype=np.uint64)
    sign = rng.integers(0, 2, size=(n, v), dtype=np.uint64) << 31
    x = (sign | ((e + 127).astype(np.uint64) << 23) | man).astype(np.uint32)
    z = rng.random((n, v)) < zeros
    z[:, 0] = False
    x[z] = 0
    for row in x:
        rng.shuffle(row)
    return x


def midpoints(elem):
    """The values halfway between adjacent non-negative codes of an element
    format, as float64."""
    vals = sorted({softmma.decode(elem, np.array([c], softmma.code_dtype(elem)))[0]
                   for c in range(1 << (softmma.format_info(elem)['storage_bits'] - 1))})
    vals = [v for v in vals if np.isfinite(v)]
    return np.array([(a + b) / 2 for a, b in zip(vals, vals[1:])])


def make_class(cls, fmt, n, rng, ulp, srcdir):
    """n blocks (uint32 fp32 bits, shape (n, V)) of class cls for block format
    fmt; ulp is the step of the dtype's last place in fp32 bits (1 for fp32,
    0x10000 for bf16)."""
    info = softmma.block_format_info(fmt)
    v, mx = info['block'], info['max_elem']
    if cls == 'zero':
        return (rng.integers(0, 2, size=(n, v), dtype=np.uint64) << 31).astype(np.uint32)
    if cls == 'subnormal':
        x = rng.integers(1, 1 << 23, size=(n, v), dtype=np.uint64)
        x |= rng.integers(0, 2, size=(n, v), dtype=np.uint64) << 31
        x[rng.random((n, v)) < 0.25] = 0
        return x.astype(np.uint32)
    if cls == 'underflow':
        # amax where amax / max_elem is at the bottom of e8m0 (2^-127) and
        # where ue4m3 underflows
        top = int(np.floor(np.log2(mx))) - 127
        return spread(rng, n, v, -126, max(top + 8, -120))
    if cls == 'normal':
        return spread(rng, n, v, -100, 100)
    if cls == 'overflow':
        x = spread(rng, n, v, 118, 127)
        x[::4, 0] = 0x7f7fffff
        return x
    if cls == 'boundary':
        # amax at P * 2^k and its neighbours, P a scale rule's boundary
        sat = mx + 2.0 ** (np.floor(np.log2(mx)) - info['elem_man_bits'] - 1)
        even = 2.0 - 2.0 ** (-info['elem_man_bits'] - 1)
        pts = np.array([1.0, mx, sat, even, 1.5 * mx, 0.75 * mx])
        x = spread(rng, n, v, -40, 40, zeros=0.5)
        p = pts[rng.integers(0, len(pts), size=n)]
        k = rng.integers(-133, 126, size=n)
        k[: n // 4] = rng.integers(-20, 20, size=n // 4)
        a = np.ldexp(p, k)
        a = np.clip(a, 2.0 ** -149, 3.0e38)
        b = f32bits(a).astype(np.int64) + rng.integers(-3, 4, size=n) * ulp
        b = np.clip(b, 1, 0x7f7fffff).astype(np.uint32)
        # the others below the amax
        x = np.where((x & 0x7fffffff) >= (b[:, None] & 0x7fffffff), x & 0x80000000, x)
        x[:, 0] = b | (rng.integers(0, 2, size=n).astype(np.uint32) << 31)
        for row in x:
            rng.shuffle(row)
        return x.astype(np.uint32)
    if cls == 'ties':
        # amax = max_elem * s exactly, the others at element midpoints times s
        # (and one step either side); s = 2^k, or an e4m3 value for nvfp4
        mids = midpoints(info['elem'])
        if fmt == 'nvfp4':
            codes = rng.integers(0x08, 0x7f, size=n).astype(np.uint8)
            s = softmma.decode('e4m3', codes)
        else:
            s = np.ldexp(1.0, rng.integers(-20, 21, size=n))
        vals = mids[rng.integers(0, len(mids), size=(n, v))] * s[:, None]
        vals[:, 0] = mx * s
        x = f32bits(vals).astype(np.int64)
        x[:, 1:] += rng.integers(-1, 2, size=(n, v - 1)) * ulp
        x = x.astype(np.uint32) | (rng.integers(0, 2, size=(n, v)).astype(np.uint32) << 31)
        for row in x:
            rng.shuffle(row)
        return x
    if cls in ('nan', 'pinf', 'ninf'):
        x = spread(rng, n, v, -30, 30)
        pos = rng.integers(0, v, size=n)
        if cls == 'nan':
            x[np.arange(n), pos] = NAN_BITS[rng.integers(0, len(NAN_BITS), size=n)]
            x[1::3, (pos[1::3] + 1) % v] = 0x7fc00000
            x[::16] = 0x7fc00000
        else:
            x[np.arange(n), pos] = 0x7f800000 if cls == 'pinf' else 0xff800000
            x[::8, (pos[::8] + 3) % v] = 0x7f7fffff
        return x
    if cls == 'suite':
        path = os.path.join(srcdir, 'vectors', 'quant.%s.cuda.vec' % fmt)
        s = softmma.read_vectors(path)
        x = s.columns['x']
        if 'global' in s.columns:
            x = x[s.columns['global'] == 0]
        return np.ascontiguousarray(x.astype(np.uint32))
    if cls == 'global':
        return spread(rng, n, v, -10, 10)
    raise ValueError('unknown class %s' % cls)


def global_of(cls, x):
    """The per-tensor decode scale G (an fp32 number) of nvfp4 class cls:
    1 except for 'global', where it is fp32(amax / 2688) of the batch."""
    if cls != 'global':
        return np.float32(1.0)
    a = np.abs(x.view(np.float32)).max()
    return np.float32(a / np.float32(2688.0))


# ---------------------------------------------------------------- libraries

def _u8(a):
    return np.ascontiguousarray(a).view(np.uint8)


def unpack_nibbles(p, k):
    c = np.empty(p.shape[:-1] + (2 * p.shape[-1],), np.uint8)
    c[..., 0::2] = p & 0xf
    c[..., 1::2] = p >> 4
    return c[..., :k]


class Torch:
    """The torch side shared by pytorch and triton-mxfp."""

    def __init__(self):
        try:
            import torch
        except ImportError as e:
            raise Skip('torch not importable (%s)' % e)
        if not torch.cuda.is_available():
            raise Skip('no CUDA device')
        self.torch = torch

    def tensor(self, x, dtype):
        t = self.torch
        if dtype == 'bf16':
            h = (x >> 16).astype(np.uint16).view(np.int16)
            return t.from_numpy(h.copy()).cuda().view(t.bfloat16)
        return t.from_numpy(x.view(np.int32).copy()).cuda().view(t.float32)


class PyTorch(Torch):
    def __init__(self):
        super().__init__()
        if 'expecttest' not in sys.modules:
            try:
                import expecttest  # noqa: F401
            except ImportError:
                stub = types.ModuleType('expecttest')
                stub.TestCase = unittest.TestCase
                sys.modules['expecttest'] = stub
        try:
            from torch.testing._internal.common_quantized import to_mxfp
        except Exception as e:  # an import error of any kind is a reason to skip
            raise Skip('torch.testing._internal.common_quantized.to_mxfp: %s: %s'
                       % (type(e).__name__, e))
        self.to_mxfp = to_mxfp
        self.version = 'torch ' + self.torch.__version__

    def run(self, fmt, x, dtype, g):
        t = self.torch
        n, v = x.shape
        name = {'mxfp8e4m3': 'mxfp8', 'mxfp4': 'mxfp4'}[fmt]
        scale, data = self.to_mxfp(self.tensor(x, dtype), block_size=32, format=name)
        t.cuda.synchronize()
        s = scale.view(t.uint8).cpu().numpy().reshape(n, -1)
        d = data.view(t.uint8).cpu().numpy().reshape(n, -1)
        codes = unpack_nibbles(d, v) if fmt == 'mxfp4' else d
        return s, codes


class TritonMxfp(Torch):
    def __init__(self):
        super().__init__()
        try:
            import triton
            from triton.tools.mxfp import MXFP4Tensor, MXScaleTensor
        except Exception as e:
            raise Skip('triton.tools.mxfp: %s: %s' % (type(e).__name__, e))
        self.fp4, self.scale = MXFP4Tensor, MXScaleTensor
        self.version = 'triton ' + triton.__version__

    def run(self, fmt, x, dtype, g):
        t = self.torch
        n, v = x.shape
        xt = self.tensor(x, dtype)
        amax = xt.abs().amax(dim=-1)
        sc = self.scale(data=amax / 6.0)
        deq = sc.to(t.float32)
        q = self.fp4(data=(xt / deq.unsqueeze(-1)).reshape(-1))
        t.cuda.synchronize()
        return (sc.data.cpu().numpy().reshape(n, 1).astype(np.uint8),
                q.data.cpu().numpy().reshape(n, v).astype(np.uint8))


class Jax:
    def __init__(self, jit=True):
        try:
            import jax
            import jax.numpy as jnp
            from jax._src.cudnn.scaled_matmul_stablehlo import BlockScaleConfig, quantize
        except Exception as e:
            raise Skip('jax scaled_matmul_stablehlo.quantize: %s: %s' % (type(e).__name__, e))
        try:
            gpus = jax.devices('gpu')
        except RuntimeError as e:
            raise Skip('no GPU for jax (%s)' % e)
        if not gpus:
            raise Skip('no GPU for jax')
        self.jax, self.jnp, self.cfg, self.quantize = jax, jnp, BlockScaleConfig, quantize
        self.jit = jit
        self.version = 'jax ' + jax.__version__
        self.cache = {}

    def config(self, fmt, g):
        jnp = self.jnp
        elem = {'mxfp8e4m3': 'float8_e4m3fn', 'mxfp8e5m2': 'float8_e5m2',
                'mxfp4': 'float4_e2m1fn', 'mxfp6e2m3': 'float6_e2m3fn',
                'mxfp6e3m2': 'float6_e3m2fn', 'nvfp4': 'float4_e2m1fn'}[fmt]
        if not hasattr(jnp, elem):
            raise Skip('jax.numpy has no %s' % elem)
        if fmt == 'nvfp4':
            return self.cfg(mode='nvfp4', block_size=16, data_type=getattr(jnp, elem),
                            scale_type=jnp.float8_e4m3fn,
                            global_scale=jnp.asarray(g, dtype=jnp.float32), infer_only=False)
        return self.cfg(mode='mxfp8', block_size=32, data_type=getattr(jnp, elem),
                        scale_type=jnp.float8_e8m0fnu, global_scale=None, infer_only=False)

    def run(self, fmt, x, dtype, g):
        jax, jnp = self.jax, self.jnp
        n, v = x.shape
        if dtype == 'bf16':
            xj = jax.lax.bitcast_convert_type(jnp.asarray((x >> 16).astype(np.uint16)),
                                              jnp.bfloat16)
        else:
            xj = jax.lax.bitcast_convert_type(jnp.asarray(x), jnp.float32)
        cfg = self.config(fmt, g)
        if self.jit:
            fn = jax.jit(lambda a, c=cfg: self.quantize(a, c))
            xq, sq = fn(xj)
        else:
            xq, sq = self.quantize(xj, cfg)
        xq, sq = np.asarray(xq), np.asarray(sq)
        return _u8(sq).reshape(n, -1), _u8(xq).reshape(n, v)


class Self:
    """--no-gpu: softmma itself under profile cuda as the library; with flip,
    one code of block 0 of every batch changed."""

    def __init__(self, flip=False):
        self.flip = flip
        self.version = 'softmma (plumbing check)'

    def run(self, fmt, x, dtype, g):
        kw = {'global_scale': float(g)} if fmt == 'nvfp4' else {}
        s, c = softmma.quantize(fmt, x.view(np.float32), profile='cuda',
                                input=dtype, **kw)
        if self.flip:
            c = c.copy()
            c[0, 0] ^= 1
        return s, c


def open_library(name):
    return {'pytorch': PyTorch, 'jax': Jax, 'jax-eager': lambda: Jax(jit=False),
            'triton-mxfp': TritonMxfp}[name]()


# ---------------------------------------------------------------- comparing

def profile_quantize(profile, fmt, x, dtype, g):
    kw = {'global_scale': float(g)} if fmt == 'nvfp4' else {}
    return softmma.quantize(fmt, x.view(np.float32), profile=profile, input=dtype, **kw)


def equal_blocks(s1, c1, s2, c2):
    return np.all(s1 == s2, axis=1) & np.all(c1 == c2, axis=1)


def describe(x, s, c, ps, pc, b):
    hexes = ' '.join('%08x' % w for w in x[b])
    return ('block %d: x = [%s]; library scale %s codes [%s]; profile scale %s codes [%s]'
            % (b, hexes, ' '.join('%02x' % w for w in s[b]),
               ' '.join('%x' % w for w in c[b]), ' '.join('%02x' % w for w in ps[b]),
               ' '.join('%x' % w for w in pc[b])))


class Report:
    def __init__(self, log):
        self.log = log
        self.n = 0
        self.failed = 0
        self.rows = []

    def say(self, line):
        print(line, flush=True)
        if self.log is not None:
            self.log.write(line + '\n')
            self.log.flush()

    def tap(self, ok, what, extra=''):
        self.n += 1
        if not ok:
            self.failed += 1
        self.say('%s %d - %s%s' % ('ok' if ok else 'not ok', self.n, what, extra))

    def skip(self, what, reason):
        self.n += 1
        self.say('ok %d - %s # SKIP %s' % (self.n, what, reason))


def run_library(name, lib, rep, blocks, seed, srcdir, store, other_profiles):
    """Runs library name over its formats, dtypes and classes; returns
    the arrays to store."""
    profile, formats = LIBRARIES[name]
    known = set(d['name'] for d in softmma.profiles())
    for fi, fmt in enumerate(formats):
        for di, dtype in enumerate(DTYPES):
            ulp = 0x10000 if dtype == 'bf16' else 1
            for ci, cls in enumerate(classes_of(fmt)):
                what = '%s %s %s %s' % (name, fmt, dtype, cls)
                rng = np.random.default_rng([seed, fi, di, ci])
                x = make_class(cls, fmt, blocks, rng, ulp, srcdir)
                if dtype == 'bf16':
                    x = to_bf16_bits(x)
                g = global_of(cls, x) if fmt == 'nvfp4' else np.float32(1.0)
                try:
                    s, c = lib.run(fmt, x, dtype, g)
                except Skip as e:
                    rep.skip(what, str(e))
                    break
                except Exception as e:
                    rep.tap(False, what, ': the library failed: %s: %s'
                            % (type(e).__name__, str(e).splitlines()[0][:200]))
                    continue
                key = '%s.%s.%s' % (fmt, dtype, cls)
                store[key + '.x'] = x
                store[key + '.scale'] = s
                store[key + '.codes'] = c
                store[key + '.g'] = np.array([g]).view(np.uint32)
                if profile not in known:
                    rep.tap(False, what, ': no profile %s in this libsoftmma' % profile)
                    eq = None
                else:
                    ps, pc = profile_quantize(profile, fmt, x, dtype, g)
                    store[key + '.pscale'] = ps
                    store[key + '.pcodes'] = pc
                    eq = equal_blocks(s, c, ps, pc)
                    bad = np.flatnonzero(~eq)
                    extra = ': %d cases, %d equal' % (len(eq), int(eq.sum()))
                    if len(bad):
                        extra += '; first differing ' + describe(x, s, c, ps, pc, bad[0])
                    rep.tap(len(bad) == 0, what, extra)
                others = {}
                for p in other_profiles:
                    try:
                        os_, oc = profile_quantize(p, fmt, x, dtype, g)
                    except softmma.SoftmmaError:
                        continue
                    others[p] = int(equal_blocks(s, c, os_, oc).sum())
                rep.rows.append((name, fmt, dtype, cls, len(x),
                                 None if eq is None else int(eq.sum()), others))


def summary(rep):
    rep.say('# summary: library format dtype class: cases, equal to the profile; '
            'the other profiles that reproduce every case')
    for name, fmt, dtype, cls, n, eq, others in rep.rows:
        full = [p for p, k in others.items() if k == n]
        rep.say('#   %-11s %-9s %-4s %-9s %4d %5s  %s'
                % (name, fmt, dtype, cls, n, '-' if eq is None else eq,
                   ' '.join(full) if full else '(none)'))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default='out', help='directory of the results (default out)')
    ap.add_argument('--blocks', type=int, default=256, help='blocks per class (default 256)')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--libs', default='pytorch,jax,jax-eager,triton-mxfp')
    ap.add_argument('--no-gpu', action='store_true',
                    help='check the plumbing with softmma as the library')
    a = ap.parse_args()
    if a.blocks < 16:
        ap.error('--blocks must be at least 16')
    os.makedirs(a.out, exist_ok=True)
    log = open(os.path.join(a.out, 'quantizer-truth.log'), 'w')
    rep = Report(log)
    srcdir = os.environ.get('SMMA_SRCDIR', ROOT)
    t0 = time.time()
    rep.say('# libsoftmma %s' % softmma.library_path())
    ran = 0
    if a.no_gpu:
        for flip in (False, True):
            LIBRARIES['self'] = ('cuda', ['mxfp8e4m3', 'nvfp4'])
            store = {}
            run_library('self', Self(flip), rep, 32, a.seed, srcdir, store, [])
            ran += 1
        summary(rep)
        rep.say('1..%d' % rep.n)
        # the flipped run must have failed every class, the plain one none
        ok = rep.failed == len(rep.rows) // 2
        rep.say('# plumbing %s (%d of %d failed, expected %d)'
                % ('ok' if ok else 'BROKEN', rep.failed, rep.n, len(rep.rows) // 2))
        return 0 if ok else 1
    others = [d['name'] for d in softmma.profiles()]
    for name in a.libs.split(','):
        if name not in LIBRARIES:
            ap.error('unknown library %s (known: %s)' % (name, ' '.join(LIBRARIES)))
        try:
            lib = open_library(name)
        except Skip as e:
            rep.skip(name, str(e))
            continue
        rep.say('# %s: %s' % (name, lib.version))
        store = {}
        t1 = time.time()
        run_library(name, lib, rep, a.blocks, a.seed, srcdir, store, others)
        np.savez_compressed(os.path.join(a.out, 'quantizer-truth-%s.npz' % name), **store)
        rep.say('# %s: %.1f s' % (name, time.time() - t1))
        ran += 1
    summary(rep)
    rep.say('1..%d' % rep.n)
    rep.say('# %d failed of %d, %.1f s' % (rep.failed, rep.n, time.time() - t0))
    if ran == 0:
        return 2
    return 1 if rep.failed else 0


if __name__ == '__main__':
    sys.exit(main())

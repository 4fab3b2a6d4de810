#!/usr/bin/env python3
"""bench/cublaslt-probe.py - which cuBLASLt algorithm PyTorch's bf16 and fp16
matmul gets, per shape: its split-K count, tile, reduction scheme and the
other config attributes, asked of the cuBLASLt library that torch itself
loaded (ctypes; nothing is compiled).

What it does:
  1. imports torch, runs one matmul so that torch loads cuBLAS and cuBLASLt,
     and opens the libcublasLt it mapped (/proc/self/maps);
  2. for bf16 and fp16 and every shape of the grid (M, N in 1..32 and the
     powers of two 64..4096; K odd, a multiple of 16 but not 64, of 64 but
     not 128, and of 128), describes D = A B the way PyTorch's
     bgemm_internal_cublaslt does for row-major A (M x K), B (K x N): the
     column-major product D^T = B^T A^T (cuBLAS m = N, n = M, k = K, both
     operands not transposed, lda = N, ldb = K, ldc = N), compute type
     CUBLAS_COMPUTE_32F, scale type fp32, C and D of the input type; the
     preference: the workspace limit (--workspace-kib, default 32768: the
     one workspace of cuBLAS and cuBLASLt of PyTorch 2.11 on Hopper) and
     256-byte alignment of A, B and C (the caching allocator's); asks
     cublasLtMatmulAlgoGetHeuristic for one algorithm and reads its
     CUBLASLT_ALGO_CONFIG_* attributes;
  3. for a sample of shapes (--check, default 24), runs cublasLtMatmul with
     that algorithm on random inputs at the workspace limits 1, 4 and 32 MiB
     and compares D bitwise with torch.matmul under each preferred BLAS
     library (torch.backends.cuda.preferred_blas_library 'cublas', the
     default, and 'cublaslt').

Output (under --out, default out): cublaslt-probe.txt, one line per
(dtype, M, N, K): the algorithm id, tile, split-K count, reduction scheme,
CTA swizzling, custom option, stages, inner shape, cluster shape, the
workspace the algorithm needs and the waves count (tile, stages and cluster
are named from a cublasLt.h found beside the library or under CUDA_HOME,
else numbered); cublaslt-check.txt, the bitwise comparisons.  It prints a
summary: per dtype, how many shapes the heuristic splits K and by how much.
Runs in about a minute on an H100 (the heuristic is asked some 70,000
times).

    python3 bench/cublaslt-probe.py --out DIR [--workspace-kib N] [--check N]
        [--quick]

bench/device-run.sh's step splitk runs it.  softmma.torch.split_k_rule reads
cublaslt-probe.txt (doc/models.md).
"""

import argparse
import ctypes
import glob
import os
import re
import sys
import time

MN = list(range(1, 33)) + [64, 128, 256, 512, 1024, 2048, 4096]
KS = {
    'odd': [33, 127, 255, 1023, 2047, 4095],
    'mult16': [16, 48, 80, 208, 1040, 4112],
    'mult64': [64, 192, 320, 1088, 4160],
    'mult128': [128, 256, 384, 1024, 2048, 4096, 8192, 16384],
}
MN_QUICK = [1, 2, 7, 16, 17, 32, 64, 256, 1024, 4096]

# cublasLt.h / library_types.h / cublas_api.h enum values
CUDA_R_16F, CUDA_R_16BF, CUDA_R_32F = 2, 14, 0
CUBLAS_COMPUTE_32F = 68
DESC_TRANSA, DESC_TRANSB = 3, 4
PREF_MAX_WORKSPACE_BYTES = 1
PREF_MIN_ALIGN_A, PREF_MIN_ALIGN_B, PREF_MIN_ALIGN_C, PREF_MIN_ALIGN_D = 5, 6, 7, 8
# CUBLASLT_ALGO_CONFIG_*: (attribute, ctypes type)
CONFIG = [('algo', 0, ctypes.c_int32), ('tile', 1, ctypes.c_uint32),
          ('splitk', 2, ctypes.c_int32), ('reduction', 3, ctypes.c_uint32),
          ('swizzle', 4, ctypes.c_uint32), ('custom', 5, ctypes.c_uint32),
          ('stages', 6, ctypes.c_uint32), ('inner', 7, ctypes.c_uint16),
          ('cluster', 8, ctypes.c_uint16)]
REDUCTION = {0: 'none', 1: 'inplace', 2: 'compute-type', 4: 'output-type'}


class Algo(ctypes.Structure):
    _fields_ = [('data', ctypes.c_uint64 * 8)]


class Heuristic(ctypes.Structure):
    _fields_ = [('algo', Algo), ('workspaceSize', ctypes.c_size_t), ('state', ctypes.c_int),
                ('wavesCount', ctypes.c_float), ('reserved', ctypes.c_int * 4)]


def find_header(libpath):
    """A cublasLt.h of the library's installation, or None."""
    d = os.path.dirname(libpath)
    cands = [os.path.join(d, '..', 'include', 'cublasLt.h')]
    for env in ('CUDA_HOME', 'CUDA_PATH'):
        if os.environ.get(env):
            cands.append(os.path.join(os.environ[env], 'include', 'cublasLt.h'))
    cands += glob.glob('/usr/local/cuda*/include/cublasLt.h')
    for c in cands:
        if os.path.exists(c):
            return os.path.normpath(c)
    return None


def enum_names(header, prefix):
    """value -> name of the enum entries PREFIX_NAME = value in header."""
    out = {}
    if header is None:
        return out
    for m in re.finditer(r'\b%s([0-9A-Za-z_]+)\s*=\s*(\d+)' % prefix, open(header).read()):
        out.setdefault(int(m.group(2)), m.group(1))
    return out


class Lt:
    def __init__(self, path):
        self.path = path
        self.so = ctypes.CDLL(path)
        vp, vpp, i, sz = (ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int,
                          ctypes.c_size_t)
        for name, args in (
                ('cublasLtCreate', [vpp]),
                ('cublasLtMatmulDescCreate', [vpp, i, i]),
                ('cublasLtMatmulDescSetAttribute', [vp, i, vp, sz]),
                ('cublasLtMatrixLayoutCreate', [vpp, i, ctypes.c_uint64, ctypes.c_uint64,
                                                ctypes.c_int64]),
                ('cublasLtMatmulPreferenceCreate', [vpp]),
                ('cublasLtMatmulPreferenceSetAttribute', [vp, i, vp, sz]),
                ('cublasLtMatmulAlgoGetHeuristic', [vp, vp, vp, vp, vp, vp, vp, i,
                                                    ctypes.POINTER(Heuristic),
                                                    ctypes.POINTER(i)]),
                ('cublasLtMatmulAlgoConfigGetAttribute', [ctypes.POINTER(Algo), i, vp, sz,
                                                          ctypes.POINTER(sz)]),
                ('cublasLtMatmul', [vp, vp, vp, vp, vp, vp, vp, vp, vp, vp, vp, vp,
                                    ctypes.POINTER(Algo), vp, sz, vp]),
                ('cublasLtMatmulPreferenceDestroy', [vp]),
                ('cublasLtMatrixLayoutDestroy', [vp]),
                ('cublasLtMatmulDescDestroy', [vp])):
            fn = getattr(self.so, name)
            fn.argtypes = args
            fn.restype = i
        self.handle = ctypes.c_void_p()
        self.call('cublasLtCreate', ctypes.byref(self.handle))
        self.so.cublasLtGetVersion.restype = ctypes.c_size_t
        self.version = self.so.cublasLtGetVersion()

    def call(self, name, *args):
        rc = getattr(self.so, name)(*args)
        if rc != 0:
            raise RuntimeError('%s returned %d' % (name, rc))

    def descs(self, dtype_id, m, n, k, workspace):
        """The descriptors of torch's column-major call for row-major
        A (m x k) @ B (k x n): cuBLAS (N, M, K) with B first."""
        vp = ctypes.c_void_p
        op, a, b, c, pref = vp(), vp(), vp(), vp(), vp()
        self.call('cublasLtMatmulDescCreate', ctypes.byref(op), CUBLAS_COMPUTE_32F, CUDA_R_32F)
        zero = ctypes.c_int32(0)
        self.call('cublasLtMatmulDescSetAttribute', op, DESC_TRANSA, ctypes.byref(zero), 4)
        self.call('cublasLtMatmulDescSetAttribute', op, DESC_TRANSB, ctypes.byref(zero), 4)
        for d, rows, cols, ld in ((a, n, k, n), (b, k, m, k), (c, n, m, n)):
            self.call('cublasLtMatrixLayoutCreate', ctypes.byref(d), dtype_id, rows, cols, ld)
        self.call('cublasLtMatmulPreferenceCreate', ctypes.byref(pref))
        ws = ctypes.c_uint64(workspace)
        self.call('cublasLtMatmulPreferenceSetAttribute', pref, PREF_MAX_WORKSPACE_BYTES,
                  ctypes.byref(ws), 8)
        al = ctypes.c_uint32(256)
        for attr in (PREF_MIN_ALIGN_A, PREF_MIN_ALIGN_B, PREF_MIN_ALIGN_C):
            self.call('cublasLtMatmulPreferenceSetAttribute', pref, attr, ctypes.byref(al), 4)
        return op, a, b, c, pref

    def free(self, op, a, b, c, pref):
        self.so.cublasLtMatmulPreferenceDestroy(pref)
        for d in (a, b, c):
            self.so.cublasLtMatrixLayoutDestroy(d)
        self.so.cublasLtMatmulDescDestroy(op)

    def heuristic(self, dtype_id, m, n, k, workspace):
        ds = self.descs(dtype_id, m, n, k, workspace)
        op, a, b, c, pref = ds
        res = Heuristic()
        count = ctypes.c_int(0)
        try:
            self.call('cublasLtMatmulAlgoGetHeuristic', self.handle, op, a, b, c, c, pref, 1,
                      ctypes.byref(res), ctypes.byref(count))
        finally:
            self.free(*ds)
        if count.value == 0:
            return None
        out = {'ws': res.workspaceSize, 'waves': res.wavesCount, 'raw': res}
        for name, attr, ct in CONFIG:
            v = ct(0)
            written = ctypes.c_size_t(0)
            self.call('cublasLtMatmulAlgoConfigGetAttribute', ctypes.byref(res.algo), attr,
                      ctypes.byref(v), ctypes.sizeof(v), ctypes.byref(written))
            out[name] = v.value
        return out

    def matmul(self, torch, dtype_id, x, w, workspace):
        """D = x @ w (row-major torch tensors) with the heuristic's algorithm
        at this workspace limit."""
        m, k = x.shape
        n = w.shape[1]
        h = self.heuristic(dtype_id, m, n, k, workspace)
        if h is None:
            return None, None
        d = torch.empty((m, n), dtype=x.dtype, device=x.device)
        wsbuf = torch.empty(max(workspace, 1), dtype=torch.uint8, device=x.device)
        ds = self.descs(dtype_id, m, n, k, workspace)
        op, a, b, c, pref = ds
        alpha, beta = ctypes.c_float(1.0), ctypes.c_float(0.0)
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        try:
            self.call('cublasLtMatmul', self.handle, op, ctypes.byref(alpha),
                      ctypes.c_void_p(w.data_ptr()), a, ctypes.c_void_p(x.data_ptr()), b,
                      ctypes.byref(beta), ctypes.c_void_p(d.data_ptr()), c,
                      ctypes.c_void_p(d.data_ptr()), c, ctypes.byref(h['raw'].algo),
                      ctypes.c_void_p(wsbuf.data_ptr()), ctypes.c_size_t(workspace), stream)
        finally:
            self.free(*ds)
        torch.cuda.synchronize()
        return d, h


def loaded_cublaslt():
    with open('/proc/self/maps') as f:
        for line in f:
            if 'libcublasLt' in line:
                return line.split()[-1]
    return None


def shapes(quick):
    mn = MN_QUICK if quick else MN
    for kind, ks in KS.items():
        for k in ks[:3] if quick else ks:
            for m in mn:
                for n in mn:
                    yield kind, m, n, k


def fmt_row(dt, m, n, k, kind, h, names):
    if h is None:
        return '%-4s %5d %5d %6d %-7s no algorithm' % (dt, m, n, k, kind)
    tile = names['tile'].get(h['tile'], str(h['tile']))
    stages = names['stages'].get(h['stages'], str(h['stages']))
    cluster = names['cluster'].get(h['cluster'], str(h['cluster']))
    return ('%-4s %5d %5d %6d %-7s algo=%d tile=%s splitk=%d reduction=%s swizzle=%d custom=%d '
            'stages=%s inner=%d cluster=%s ws=%d waves=%.3f'
            % (dt, m, n, k, kind, h['algo'], tile, h['splitk'],
               REDUCTION.get(h['reduction'], str(h['reduction'])), h['swizzle'], h['custom'],
               stages, h['inner'], cluster, h['ws'], h['waves']))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default='out')
    ap.add_argument('--workspace-kib', type=int, default=32768)
    ap.add_argument('--check', type=int, default=24, help='shapes checked bitwise (default 24)')
    ap.add_argument('--quick', action='store_true', help='a small grid')
    ap.add_argument('--seed', type=int, default=1)
    a = ap.parse_args()
    try:
        import torch
    except ImportError as e:
        print('cannot run: torch not importable (%s)' % e)
        return 2
    if not torch.cuda.is_available():
        print('cannot run: no CUDA device')
        return 2
    os.makedirs(a.out, exist_ok=True)
    x = torch.ones((64, 64), device='cuda', dtype=torch.bfloat16)
    (x @ x).sum().item()
    path = loaded_cublaslt()
    if path is None:
        print('cannot run: torch has not loaded a libcublasLt')
        return 2
    lt = Lt(path)
    header = find_header(path)
    names = {'tile': enum_names(header, 'CUBLASLT_MATMUL_TILE_'),
             'stages': enum_names(header, 'CUBLASLT_MATMUL_STAGES_'),
             'cluster': enum_names(header, 'CUBLASLT_CLUSTER_SHAPE_')}
    ws = a.workspace_kib * 1024
    head = ['# cuBLASLt %d at %s (torch %s, %s); names from %s' %
            (lt.version, path, torch.__version__, torch.cuda.get_device_name(), header),
            '# workspace limit %d bytes, alignment 256; D^T = B^T A^T as torch calls it '
            '(m = N, n = M, k = K)' % ws,
            '# dtype M N K kind: the heuristic\'s first algorithm and its config attributes']
    t0 = time.time()
    stats = {}
    with open(os.path.join(a.out, 'cublaslt-probe.txt'), 'w') as f:
        for line in head:
            f.write(line + '\n')
            print(line)
        for dt, did in (('bf16', CUDA_R_16BF), ('fp16', CUDA_R_16F)):
            for kind, m, n, k in shapes(a.quick):
                try:
                    h = lt.heuristic(did, m, n, k, ws)
                except RuntimeError as e:
                    f.write('%-4s %5d %5d %6d %-7s error %s\n' % (dt, m, n, k, kind, e))
                    continue
                f.write(fmt_row(dt, m, n, k, kind, h, names) + '\n')
                if h is not None:
                    key = (dt, kind, h['splitk'])
                    stats[key] = stats.get(key, 0) + 1
    print('# heuristic asked for every shape in %.1f s' % (time.time() - t0))
    print('# shapes per dtype, K kind and split-K count:')
    for key in sorted(stats):
        print('#   %-4s %-7s splitk=%-3d %6d' % (key + (stats[key],)))
    # the bitwise check
    g = torch.Generator(device='cuda')
    g.manual_seed(a.seed)
    import random
    rnd = random.Random(a.seed)
    sample = [(1, 4096, 4096), (16, 4096, 4096), (128, 128, 4096), (128, 128, 16384),
              (4, 64, 16384), (32, 32, 8191), (7, 1024, 1023), (256, 256, 2048)]
    all_shapes = list(shapes(a.quick))
    while len(sample) < a.check:
        _, m, n, k = rnd.choice(all_shapes)
        sample.append((m, n, k))
    fails = 0
    with open(os.path.join(a.out, 'cublaslt-check.txt'), 'w') as f:
        line = ('# dtype M N K: torch.matmul (preferred cublas / cublaslt) bitwise equal to '
                'cublasLtMatmul with the heuristic\'s algorithm at workspace 1, 4, 32 MiB')
        f.write(line + '\n')
        print(line)
        for dt, tdt, did in (('bf16', torch.bfloat16, CUDA_R_16BF),
                             ('fp16', torch.float16, CUDA_R_16F)):
            for m, n, k in sample[:a.check]:
                xa = torch.randn((m, k), device='cuda', generator=g).to(tdt)
                wb = torch.randn((k, n), device='cuda', generator=g).to(tdt)
                ref = {}
                for backend in ('cublas', 'cublaslt'):
                    torch.backends.cuda.preferred_blas_library(backend)
                    ref[backend] = torch.matmul(xa, wb)
                torch.backends.cuda.preferred_blas_library('cublas')
                parts = []
                for mib in (1, 4, 32):
                    d, h = lt.matmul(torch, did, xa, wb, mib << 20)
                    if d is None:
                        parts.append('%dMiB: no algorithm' % mib)
                        continue
                    eq = ['%s=%s' % (b, 'eq' if torch.equal(d.view(torch.int16),
                                                            ref[b].view(torch.int16)) else
                                      'DIFF') for b in ref]
                    parts.append('%dMiB(splitk=%d tile=%s): %s'
                                 % (mib, h['splitk'], names['tile'].get(h['tile'], h['tile']),
                                    ' '.join(eq)))
                line = '%-4s %5d %5d %6d  %s' % (dt, m, n, k, '; '.join(parts))
                if 'DIFF' in line and 'eq' not in line:
                    fails += 1
                f.write(line + '\n')
                print(line)
    print('# %d of %d checked shapes match no torch.matmul at any workspace; %.1f s in all'
          % (fails, 2 * len(sample[:a.check]), time.time() - t0))
    return 0


if __name__ == '__main__':
    sys.exit(main())

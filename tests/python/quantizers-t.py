"""tests/python/quantizers-t.py - the block quantizers that ship with
PyTorch (to_mxfp), JAX (scaled_matmul_stablehlo.quantize, under jax.jit and
op by op) and Triton (triton.tools.mxfp) run on the GPU and compared with
softmma's profiles pytorch, jax-jit (under jax.jit), jax (op by op) and
triton-mxfp, bit for bit, on seeded
blocks of every input class (zero, subnormal, underflowing and normal and
near-overflow block maxima, the scale rules' boundaries, element ties,
NaN, +Inf and -Inf in a block, the committed quant suite, a per-tensor scale
for nvfp4), fp32 and bf16 inputs, every block format the library takes: one
point per (library, format, dtype, class), with the first differing block
in the diagnostics.  bench/quantizer-truth.py does the work (and writes the
raw results when run by hand); first its plumbing is checked with softmma
itself as the library: equal, then with one code changed, unequal.  A
library's points skip with the reason where it is not importable or there is
no CUDA device.  TEST_LEVEL=1 takes 256 blocks per class instead of 64.
"""

import importlib.util
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import Tap  # noqa: E402

SRC = os.environ.get('SMMA_SRCDIR') or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                    '..', '..')
spec = importlib.util.spec_from_file_location(
    'quantizer_truth', os.path.join(SRC, 'bench', 'quantizer-truth.py'))
qt = importlib.util.module_from_spec(spec)
spec.loader.exec_module(qt)

t = Tap()
level = int(os.environ.get('TEST_LEVEL', '0') or 0)
blocks = 256 if level >= 1 else 64


class Quiet(qt.Report):
    """The bench's report turned into this test's points."""

    def __init__(self):
        super().__init__(None)

    def say(self, line):
        pass

    def tap(self, ok, what, extra=''):
        self.n += 1
        if not t.ok(ok, what) and extra:
            t.diag(extra.lstrip(': '))

    def skip(self, what, reason):
        self.n += 1
        t.skip(what, reason)


# The plumbing: softmma as the library agrees with itself, and a changed
# code is seen.
qt.LIBRARIES['self'] = ('cuda', ['mxfp4', 'nvfp4'])
for flip in (False, True):
    rep = qt.Report(None)
    rep.say = lambda line: None
    qt.run_library('self', qt.Self(flip), rep, 16, 1, SRC, {}, [])
    want = len(rep.rows) if flip else 0
    t.is_(want, rep.failed, 'plumbing: softmma against itself%s: %d of %d classes differ'
          % (' with one code changed' if flip else '', want, len(rep.rows)))
del qt.LIBRARIES['self']

# bf16 inputs reach softmma as bf16 numbers
x = qt.to_bf16_bits(np.array([0x3f8ccccd, 0x7fc00001, 0xff800000, 0x3f808000,
                              0x3f818000], np.uint32))
t.is_([0x3f8d0000, 0x7fc00000, 0xff800000, 0x3f800000, 0x3f820000], [int(v) for v in x],
      'to_bf16_bits rounds to nearest even and keeps NaNs')

for name in qt.LIBRARIES:
    profile, formats = qt.LIBRARIES[name]
    try:
        lib = qt.open_library(name)
    except qt.Skip as e:
        for fmt in formats:
            for dtype in qt.DTYPES:
                for cls in qt.classes_of(fmt):
                    t.skip('%s %s %s %s' % (name, fmt, dtype, cls), str(e))
        continue
    t.diag('%s: %s' % (name, lib.version))
    qt.run_library(name, lib, Quiet(), blocks, 1, SRC, {}, [])

t.done()
sys.exit(1 if t.failed else 0)

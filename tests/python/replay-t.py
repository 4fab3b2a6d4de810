"""tests/python/replay-t.py - bench/quantizer-replay.py on the committed
sample of an H100 run of bench/quantizer-truth.py
(bench/logs/h100-quantizer-truth/: every block where the libraries differed
from the profiles as first written from source, and the first 8 blocks, of
every (library, format, dtype, class)): each library's blocks under its
profile bit for bit, one point per (library, format, dtype, class); the jit
and op-by-op JAX results each under the other's profile must differ (bf16
MX scales); bad input exits 2 with the reason."""

import importlib.util
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import Tap  # noqa: E402

SRC = os.environ.get('SMMA_SRCDIR') or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                    '..', '..')
SCRIPT = os.path.join(SRC, 'bench', 'quantizer-replay.py')
DATA = os.path.join(SRC, 'bench', 'logs', 'h100-quantizer-truth')
spec = importlib.util.spec_from_file_location('quantizer_replay', SCRIPT)
qr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(qr)

t = Tap()
mixed = {}
for lib, prof in qr.PROFILES.items():
    data = np.load(os.path.join(DATA, 'quantizer-truth-%s.npz' % lib))
    keys = qr.keys_of(data, lib)
    t.ok(len(keys) > 0, '%s: the sample holds %d (format, dtype, class)' % (lib, len(keys)))
    for key in keys:
        cases, equal, first, arrays = qr.replay(data, key, prof)
        if not t.is_(cases, equal, '%s %s under %s: %d blocks' % (lib, key, prof, cases)):
            t.diag('first differing ' + qr.describe(first, arrays))
        other = {'jax': 'jax', 'jax-eager': 'jax-jit'}.get(lib)
        if other is not None and key.split('.')[1] == 'bf16' and not key.startswith('nvfp4'):
            c2, e2 = qr.replay(data, key, other)[:2]
            mixed[lib] = mixed.get(lib, 0) + c2 - e2
t.ok(mixed.get('jax', 0) > 0,
     'jit results under jax (op by op): %d bf16 MX blocks differ' % mixed.get('jax', 0))
t.ok(mixed.get('jax-eager', 0) > 0,
     'op-by-op results under jax-jit: %d bf16 MX blocks differ' % mixed.get('jax-eager', 0))

env = dict(os.environ)


def run(*args):
    p = subprocess.run([sys.executable, SCRIPT] + list(args), env=env, capture_output=True,
                       text=True)
    return p.returncode, p.stdout, p.stderr


rc, out, err = run(DATA)
t.is_(0, rc, 'the script on the sample: exit 0')
t.ok('# 0 failed of ' in out, 'the script on the sample: 0 failed')
rc, out, err = run(DATA, '--libs', 'jax', '--profile', 'jax=jax')
t.is_(1, rc, 'the script, jit results under jax: exit 1')
t.ok('not ok' in out and 'first differing block' in out, 'the script names the first block')
with tempfile.TemporaryDirectory() as tmp:
    rc, out, err = run(os.path.join(tmp, 'none'))
    t.is_((2, True), (rc, 'no such directory' in err), 'a missing directory: exit 2, named')
    rc, out, err = run(tmp)
    t.is_((2, True), (rc, 'no quantizer-truth-<library>.npz' in err), 'no .npz: exit 2')
    rc, out, err = run(DATA, '--libs', 'mxnet')
    t.is_((2, True), (rc, 'unknown library mxnet' in err), 'an unknown library: exit 2')
    rc, out, err = run(DATA, '--profile', 'jax=nosuch')
    t.is_((2, True), (rc, '--profile jax=nosuch' in err), 'an unknown profile: exit 2')
    np.savez(os.path.join(tmp, 'quantizer-truth-pytorch.npz'),
             **{'mxfp4.fp32.zero.x': np.zeros((1, 32), np.uint32)})
    rc, out, err = run(tmp, '--libs', 'pytorch')
    t.is_((2, True), (rc, 'has no array mxfp4.fp32.zero.scale' in err),
          'a file without .scale: exit 2, the array named')
    with open(os.path.join(tmp, 'quantizer-truth-jax.npz'), 'w') as f:
        f.write('not a zip\n')
    rc, out, err = run(tmp, '--libs', 'jax')
    t.is_((2, True), (rc, 'not an .npz file' in err), 'a file that is no .npz: exit 2')
t.done()

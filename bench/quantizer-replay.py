#!/usr/bin/env python3
"""bench/quantizer-replay.py - replays the raw results of
bench/quantizer-truth.py (its quantizer-truth-<library>.npz files) against
softmma's profiles, with no GPU.

For every library file found in DIR and every "<format>.<dtype>.<class>" it
holds, it quantizes the stored inputs (.x, fp32 bits; a bf16 input is given
with input='bf16'; nvfp4 with the stored per-tensor decode scale .g) under
the library's profile and compares the scale bytes and element codes with
the library's (.scale, .codes), bit for bit.  It prints one TAP line per
(library, format, dtype, class) with the cases, the blocks equal and the
first differing block, then the blocks validated per profile.

    python3 bench/quantizer-replay.py DIR [--libs pytorch,jax,...]
        [--profile LIBRARY=PROFILE ...]

The libraries and their profiles:
  pytorch      pytorch       (torch.testing._internal.common_quantized.to_mxfp)
  jax          jax-jit       (scaled_matmul_stablehlo.quantize under jax.jit)
  jax-eager    jax           (the same op by op, as JAX's tests call it)
  triton-mxfp  triton-mxfp   (triton.tools.mxfp)
--profile replays a library against another profile (e.g. jax=jax to see
where jit and eager differ).  Exit status 0 when every block matched, 1 on
any difference, 2 on bad input (a missing directory, no .npz, an unknown
library or profile, a file without the arrays it should hold).
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'python'))

import numpy as np  # noqa: E402

import softmma  # noqa: E402

PROFILES = {'pytorch': 'pytorch', 'jax': 'jax-jit', 'jax-eager': 'jax',
            'triton-mxfp': 'triton-mxfp'}


class BadInput(Exception):
    pass


def keys_of(data, path):
    """The "<format>.<dtype>.<class>" keys of one file, each checked for
    the arrays a replay reads."""
    keys = sorted({k.rsplit('.', 1)[0] for k in data.files})
    for k in keys:
        for part in ('x', 'scale', 'codes', 'g'):
            if '%s.%s' % (k, part) not in data.files:
                raise BadInput('%s: %s has no array %s.%s' % (path, k, k, part))
        if len(k.split('.')) != 3:
            raise BadInput('%s: %s is not <format>.<dtype>.<class>' % (path, k))
    return keys


def replay(data, key, profile):
    """(cases, equal, first differing block or None, library and profile
    results) of one key under profile."""
    fmt, dtype, _ = key.split('.')
    x = np.ascontiguousarray(data[key + '.x'], np.uint32)
    s, c = data[key + '.scale'], data[key + '.codes']
    g = float(np.asarray(data[key + '.g'], np.uint32).view(np.float32)[0])
    kw = {'global_scale': g} if fmt == 'nvfp4' else {}
    ps, pc = softmma.quantize(fmt, x.view(np.float32), profile=profile, input=dtype, **kw)
    if ps.shape != s.shape or pc.shape != c.shape:
        raise BadInput('%s: the library gave scales %s and codes %s, the profile %s and %s'
                       % (key, s.shape, c.shape, ps.shape, pc.shape))
    eq = np.all(s == ps, axis=1) & np.all(c == pc, axis=1)
    bad = np.flatnonzero(~eq)
    first = int(bad[0]) if len(bad) else None
    return len(eq), int(eq.sum()), first, (x, s, c, ps, pc)


def describe(b, arrays):
    x, s, c, ps, pc = arrays
    return ('block %d: x = [%s]; library scale %s codes [%s]; profile scale %s codes [%s]'
            % (b, ' '.join('%08x' % w for w in x[b]), ' '.join('%02x' % w for w in s[b]),
               ' '.join('%x' % w for w in c[b]), ' '.join('%02x' % w for w in ps[b]),
               ' '.join('%x' % w for w in pc[b])))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('dir', help='the directory quantizer-truth.py wrote (--out)')
    ap.add_argument('--libs', default=','.join(PROFILES))
    ap.add_argument('--profile', action='append', default=[], metavar='LIBRARY=PROFILE')
    a = ap.parse_args()
    profiles = dict(PROFILES)
    known = {d['name'] for d in softmma.profiles()}
    try:
        for spec in a.profile:
            lib, _, prof = spec.partition('=')
            if lib not in PROFILES or prof not in known:
                raise BadInput('--profile %s: LIBRARY one of %s, PROFILE one of softmma '
                               'profiles' % (spec, ' '.join(PROFILES)))
            profiles[lib] = prof
        libs = a.libs.split(',')
        for lib in libs:
            if lib not in PROFILES:
                raise BadInput('--libs: unknown library %s (known: %s)'
                               % (lib, ' '.join(PROFILES)))
        if not os.path.isdir(a.dir):
            raise BadInput('%s: no such directory' % a.dir)
        n = failed = 0
        totals = {}
        found = 0
        for lib in libs:
            path = os.path.join(a.dir, 'quantizer-truth-%s.npz' % lib)
            if not os.path.exists(path):
                print('# %s: no %s' % (lib, path))
                continue
            found += 1
            try:
                data = np.load(path)
            except Exception as e:
                raise BadInput('%s: not an .npz file (%s)' % (path, e))
            prof = profiles[lib]
            for key in keys_of(data, path):
                cases, equal, first, arrays = replay(data, key, prof)
                n += 1
                ok = first is None
                failed += not ok
                line = '%s %d - %s %s under %s: %d cases, %d equal' % (
                    'ok' if ok else 'not ok', n, lib, key.replace('.', ' '), prof, cases, equal)
                if not ok:
                    line += '; first differing ' + describe(first, arrays)
                print(line)
                t = totals.setdefault((lib, prof), [0, 0, 0])
                t[0] += cases
                t[1] += equal
                t[2] += 1
        if found == 0:
            raise BadInput('%s: no quantizer-truth-<library>.npz for %s' % (a.dir, a.libs))
    except (BadInput, softmma.SoftmmaError) as e:
        print('quantizer-replay: %s' % e, file=sys.stderr)
        return 2
    print('1..%d' % n)
    for (lib, prof), (cases, equal, keys) in totals.items():
        print('# %-11s under %-11s %6d blocks, %6d equal, over %d (format, dtype, class)'
              % (lib, prof, cases, equal, keys))
    print('# %d failed of %d' % (failed, n))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

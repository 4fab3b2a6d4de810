# Check a kernel from Python: inputs, the subject's D, gemm_verify and gemm_match.
import softmma
g = softmma.gemm_generate('e4m3', 'e4m3', 64, 32, 256, scale_fmt='e8m0', seed=7)
a, b = g['a'], g['b']
kw = dict(a_fmt='e4m3', b_fmt='e4m3', scale_fmt='e8m0', sa=g['sa'], sb=g['sb'])
# The subject, your kernel here; this stand-in is the reference with one bit off.
d = softmma.gemm('h100-fp8-promote32', a, b, **kw)
d[3, 5] ^= 1
r = softmma.gemm_verify('h100-fp8-promote32', d, a, b, samples=d.size, **kw)
print(r.checked, r.mismatches, [(m.i, m.j, hex(m.want), hex(m.got)) for m in r.first])
d[3, 5] ^= 1                                  # fixed: which models reproduce it bit for bit?
print([m.model for m in softmma.gemm_match(d, a, b, **kw) if m.mismatches == 0])

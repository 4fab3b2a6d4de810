#!/bin/sh
# Check a kernel from the shell: golden MXFP8 GEMM problems, the subject's D, softmma ver.
set -e
softmma gen gemm.mxfp8.exact -o suite.vec     # 2 problems: the inputs and the expected D
softmma export --npy suite.vec run            # run/a.N.npy b sa sb c d; rm d: the subject's
rm run/d.*.npy                                # to write, m x n fp32 bits (sb is Kb x N, like b)
"${PYTHON:-python3}" - <<'END'                # the subject (your kernel here); a stand-in:
import numpy as np, softmma                   # softmma's own Python reference
for i in range(2):
    x = lambda f: np.load('run/%s.%d.npy' % (f, i))
    np.save('run/d.%d.npy' % i, softmma.gemm('exact-rn', x('a'), x('b'), a_fmt='e4m3',
            b_fmt='e4m3', scale_fmt='e8m0', sa=x('sa'), sb=softmma.BScales(x('sb')),
            c=x('c'), c_fmt='fp32'))
END
softmma ver suite.vec run                     # exit 0: every case equal; 1: differences shown

/*
 * gpu/sm80/bs_v1.cu - version 1 of the block-scaled mma.sync GEMM: the
 * teaching kernel, the block-scaled counterpart of gemm_v1.cu.
 *
 * Computes D = alpha * (C + sum_k (A SA)(B SB)) for every format pair the
 * block-scaled kernels take (MXFP8, MXFP6, MXFP4, NVFP4, mixed, bf16 x MX)
 * with the model bf16-upcast-<gpu>: each element times its scale is rounded
 * once to bf16 (gpu/sm80/convert.cuh says how), then mma.sync.m16n8k16
 * after mma.sync.m16n8k16 in k order into one fp32 accumulator per element.
 *
 * What it shows: one warp computes one 16 x 8 tile of D; every lane reads
 * the codes of its own fragment slots straight from global memory (the
 * fragment formulas of sim/softmma/sm80.h), looks up the scale of the
 * element's row (of A) or column (of B) and 32- or 16-element block (linear
 * or 128x4 layout), converts, and packs two bf16 per register.  The format
 * is a run-time switch, so one kernel serves every pair, slowly.  Read it
 * beside `softmma layout mma.m16n8k16.bf16 a --text` and
 * `softmma layout scale --layout 128x4 ...`; bs_large.cu and bs_small.cu are
 * the fast kernels.
 *
 * Any M, N and K (K a multiple of 2 for e2m1, whose codes come two per
 * byte); A and B K-major; padded k: A -0, B +0, so that padded products are
 * -0, the identity of the sum.
 */
#include "convert.cuh"
#include "common.cuh"
#include "sm80.h"

namespace {

struct v1_scales {
    const uint8_t *sa, *sb;
    uint32_t vec, kb, kb_pad;
    int layout, sfmt, afmt, bfmt;
};

/* The value of element `at` (row-major index in elements) of a matrix
 * stored in format f at base. */
__device__ __forceinline__ float
v1_value(int f, const void *base, size_t at)
{
    const uint8_t *b = (const uint8_t *) base;
    float f0, f1;

    switch (f) {
    case CV_BF16:
        return __uint_as_float((uint32_t) ((const uint16_t *) base)[at] << 16);
    case CV_E4M3:
        cv_e4m3x2(b[at], f0, f1);
        return f0;
    case CV_E5M2:
        cv_e5m2x2(b[at], f0, f1);
        return f0;
    case CV_E2M3:
        return cv_fp6<2>(b[at] & 0x3fu);
    case CV_E3M2:
        return cv_fp6<3>(b[at] & 0x3fu);
    default: /* e2m1, the even element in the low nibble */
        return cv_e2m1(b[at / 2] >> (4 * (at % 2)));
    }
}

/* The scale (fp32) of row `row` of an operand and k block of kk; 1 for an
 * unscaled operand. */
__device__ __forceinline__ float
v1_scale(const v1_scales &s, const uint8_t *sc, uint32_t row, uint32_t kk)
{
    uint32_t kbi = kk / s.vec;

    if (sc == NULL)
        return 1.0f;
    return cv_scale(s.sfmt, sc[smma_sm80_scale_off(s.layout, row, kbi, s.kb, s.kb_pad)]);
}

/* Two elements (k_lo, k_lo + 1) of row i of A as a bf16 pair: -0 past K,
 * +0 past M. */
__device__ __forceinline__ uint32_t
v1_a(const sm80_params &p, const v1_scales &s, uint32_t i, uint32_t k_lo)
{
    float v[2];

    for (int e = 0; e < 2; e++) {
        uint32_t kk = k_lo + e;

        v[e] = kk >= p.k ? -0.0f : i >= p.m ? 0.0f
               : v1_value(s.afmt, p.a, (size_t) i * p.lda + kk) * v1_scale(s, s.sa, i, kk);
    }
    return cv_pack(v[0], v[1], 1.0f);
}

/* Two elements (k_lo, k_lo + 1) of column j of B: +0 past K or N. */
__device__ __forceinline__ uint32_t
v1_b(const sm80_params &p, const v1_scales &s, uint32_t k_lo, uint32_t j)
{
    float v[2];

    for (int e = 0; e < 2; e++) {
        uint32_t kk = k_lo + e;

        v[e] = kk >= p.k || j >= p.n
                   ? 0.0f
                   : v1_value(s.bfmt, p.b, (size_t) j * p.ldb + kk) * v1_scale(s, s.sb, j, kk);
    }
    return cv_pack(v[0], v[1], 1.0f);
}

__global__ void
sm80_bs_v1_kernel(sm80_params p, v1_scales s)
{
    const unsigned lane = threadIdx.x % 32;
    const uint64_t warp = ((uint64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const uint32_t tiles_n = (p.n + 7) / 8;
    const uint32_t i0 = (uint32_t) (warp / tiles_n) * 16, j0 = (uint32_t) (warp % tiles_n) * 8;
    float acc[4];

    if (i0 >= p.m)
        return;
    for (unsigned r = 0; r < 4; r++) {
        uint32_t i = i0 + smma_frag_cd_row(lane, r), j = j0 + smma_frag_cd_col(lane, r);

        acc[r] = i < p.m && j < p.n ? epi_c(p, i, j) : 0.0f;
    }
    for (uint32_t k0 = 0; k0 < p.k; k0 += 16) {
        uint32_t a[4], b[2];

        /* Register r of A: row group + 8 (r % 2), k 2 tig + 8 (r / 2) and the
         * next; register r of B: column group, k 2 tig + 8 r and the next.
         * Each value is code x scale, rounded to bf16 in the packing. */
        for (unsigned r = 0; r < 4; r++)
            a[r] = v1_a(p, s, i0 + smma_frag_a_row(lane, r),
                        k0 + smma_frag_a_col(lane, r, 0, 2, 16));
        for (unsigned r = 0; r < 2; r++)
            b[r] = v1_b(p, s, k0 + smma_frag_b_row(lane, r, 0, 2, 16),
                        j0 + smma_frag_b_col(lane));
        mma16816<false>(acc, a, b);
    }
    for (unsigned r = 0; r < 4; r += 2) {
        uint32_t i = i0 + smma_frag_cd_row(lane, r), j = j0 + smma_frag_cd_col(lane, r);

        if (i < p.m && j < p.n)
            epi_store(p, i, j, acc[r], acc[r + 1], j + 1 < p.n);
    }
}

} /* namespace */

int
smma_sm80_bs_v1_launch(const smma_gpu_gemm_args *x, char *msg, size_t msg_len)
{
    sm80_params p = sm80_params_of(x);
    const smma_gemm_shape *sh = &x->shape;
    uint64_t tiles = (uint64_t) ((p.m + 15) / 16) * ((p.n + 7) / 8);
    const unsigned threads = 128;
    uint64_t blocks = (tiles * 32 + threads - 1) / threads;
    v1_scales s;

    if (blocks > 0x7fffffffu)
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EINVAL, "sm80-bs-v1: %llu tiles of "
                            "16 x 8 are too many for one launch", (unsigned long long) tiles);
    s.sa = sh->a_fmt == SMMA_BF16 ? NULL : (const uint8_t *) x->sa;
    s.sb = sh->b_fmt == SMMA_BF16 ? NULL : (const uint8_t *) x->sb;
    s.vec = sh->vec;
    s.kb = (uint32_t) ((sh->k + sh->vec - 1) / sh->vec);
    s.kb_pad = (s.kb + 3) / 4 * 4;
    s.layout = x->scale_layout == SMMA_SL_128X4;
    s.sfmt = sh->scale_fmt == SMMA_UE4M3 ? CV_UE4M3 : CV_E8M0;
    s.afmt = (int) sh->a_fmt;
    s.bfmt = (int) sh->b_fmt;
    sm80_bs_v1_kernel<<<(unsigned) blocks, threads, 0, (cudaStream_t) x->stream>>>(p, s);
    return sm80_launched("sm80-bs-v1", msg, msg_len);
}

/*
 * gpu/sm80/gemm_v1.cu - version 1 of the mma.sync GEMM: the teaching kernel.
 *
 * Computes D = alpha * (C + A B) for bf16 or fp16 A and B with one fp32
 * accumulator chain per element of D: mma.sync.m16n8k16 after
 * mma.sync.m16n8k16, k = 0..15, 16..31, ... in order.  On an H100 that is
 * the model h100-bf16 chained over K (doc/kernels.md has the contract).
 *
 * What it shows: one warp computes one 16 x 8 tile of D.  Every lane loads
 * its own registers of A and B straight from global memory, with the
 * fragment formulas of the PTX ISA (sim/softmma/sm80.h, the same functions
 * the simulator uses).  Read it beside
 *     softmma layout mma.m16n8k16.bf16 a --text
 *     softmma layout mma.m16n8k16.bf16 b --text
 *     softmma layout mma.m16n8k16.bf16 d --text
 * which draw which lane holds which element.  Nothing is shared between
 * lanes except through the mma instruction, so this is slow on purpose (each
 * element of A is read from memory by every warp of its tile row); version
 * 2 (gemm_v2.cu) is the fast kernel.
 *
 * It takes any M, N and K and either majorness of A and B.  When K is not a
 * multiple of 16, the last mma gets padded k: A is padded with -0 and B with
 * +0, so every padded product is -0, the identity of the sum (a +0 would
 * turn a sum of -0 terms into +0).
 *
 * Run it: `softmma gemm --on gpu --kernel sm80-v1 ...` or through the API
 * (softmma/gpu.h, kernel SMMA_GPU_SM80_V1); tested by tests/gpu/gemm-t.
 *
 * Versions of the sm_80 kernels:
 *   1. gemm_v1.cu  one warp per 16 x 8 tile, fragments from global memory
 *   2. gemm_v2.cu  CTA tiles of 128 x 256, cp.async pipeline, ldmatrix
 */
#include "common.cuh"
#include "sm80.h"

namespace {

/* The code of A(i, kk) as the mma reads it: -0 past K, +0 past M. */
__device__ __forceinline__ uint16_t
v1_a(const sm80_params &p, bool kmajor, uint32_t i, uint32_t kk)
{
    const uint16_t *a = (const uint16_t *) p.a;

    if (kk >= p.k)
        return 0x8000u;
    if (i >= p.m)
        return 0;
    return kmajor ? a[(size_t) i * p.lda + kk] : a[(size_t) kk * p.lda + i];
}

/* The code of B(kk, j): +0 past K or N. */
__device__ __forceinline__ uint16_t
v1_b(const sm80_params &p, bool kmajor, uint32_t kk, uint32_t j)
{
    const uint16_t *b = (const uint16_t *) p.b;

    if (kk >= p.k || j >= p.n)
        return 0;
    return kmajor ? b[(size_t) j * p.ldb + kk] : b[(size_t) kk * p.ldb + j];
}

template <bool FP16>
__global__ void
sm80_v1_kernel(sm80_params p, bool a_kmajor, bool b_kmajor)
{
    const unsigned lane = threadIdx.x % 32;
    const uint64_t warp = ((uint64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const uint32_t tiles_n = (p.n + 7) / 8;
    const uint32_t i0 = (uint32_t) (warp / tiles_n) * 16; /* first row of the tile */
    const uint32_t j0 = (uint32_t) (warp % tiles_n) * 8;  /* first column */
    float acc[4];

    if (i0 >= p.m)
        return;

    /* The accumulator starts as C: register r of lane holds D(row, col) with
     * row = group + 8 (r / 2), col = 2 tig + (r % 2) (the C/D fragment). */
    for (unsigned r = 0; r < 4; r++) {
        uint32_t i = i0 + smma_frag_cd_row(lane, r), j = j0 + smma_frag_cd_col(lane, r);

        acc[r] = i < p.m && j < p.n ? epi_c(p, i, j) : 0.0f;
    }

    for (uint32_t k0 = 0; k0 < p.k; k0 += 16) {
        uint32_t a[4], b[2];

        /* A, 16 x 16: register r holds row group + 8 (r % 2) and the two k
         * 2 tig + e + 8 (r / 2), e = 0, 1; the lower k in the lower half. */
        for (unsigned r = 0; r < 4; r++) {
            uint32_t i = i0 + smma_frag_a_row(lane, r);
            uint32_t k_lo = k0 + smma_frag_a_col(lane, r, 0, 2, 16);
            uint32_t k_hi = k0 + smma_frag_a_col(lane, r, 1, 2, 16);

            a[r] = v1_a(p, a_kmajor, i, k_lo) | (uint32_t) v1_a(p, a_kmajor, i, k_hi) << 16;
        }
        /* B, 16 x 8: register r holds column group and the two k
         * 2 tig + e + 8 r. */
        for (unsigned r = 0; r < 2; r++) {
            uint32_t j = j0 + smma_frag_b_col(lane);
            uint32_t k_lo = k0 + smma_frag_b_row(lane, r, 0, 2, 16);
            uint32_t k_hi = k0 + smma_frag_b_row(lane, r, 1, 2, 16);

            b[r] = v1_b(p, b_kmajor, k_lo, j) | (uint32_t) v1_b(p, b_kmajor, k_hi, j) << 16;
        }
        mma16816<FP16>(acc, a, b); /* acc = A B + acc: one more block of 16 k */
    }

    /* D: registers 0, 1 are columns 2 tig, 2 tig + 1 of row group; 2, 3 the
     * same columns of row group + 8. */
    for (unsigned r = 0; r < 4; r += 2) {
        uint32_t i = i0 + smma_frag_cd_row(lane, r), j = j0 + smma_frag_cd_col(lane, r);

        if (i < p.m && j < p.n)
            epi_store(p, i, j, acc[r], acc[r + 1], j + 1 < p.n);
    }
}

} /* namespace */

int
smma_sm80_v1_launch(const smma_gpu_gemm_args *x, char *msg, size_t msg_len)
{
    sm80_params p = sm80_params_of(x);
    uint64_t tiles = (uint64_t) ((p.m + 15) / 16) * ((p.n + 7) / 8);
    const unsigned threads = 128;
    uint64_t blocks = (tiles * 32 + threads - 1) / threads;
    cudaStream_t st = (cudaStream_t) x->stream;

    if (blocks > 0x7fffffffu)
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EINVAL, "sm80-v1: %llu tiles of 16 x 8 "
                        "are too many for one launch", (unsigned long long) tiles);
    if (x->shape.a_fmt == SMMA_FP16)
        sm80_v1_kernel<true><<<(unsigned) blocks, threads, 0, st>>>(p, x->a_kmajor,
                                                                   x->b_kmajor);
    else
        sm80_v1_kernel<false><<<(unsigned) blocks, threads, 0, st>>>(p, x->a_kmajor,
                                                                    x->b_kmajor);
    return sm80_launched("sm80-v1", msg, msg_len);
}

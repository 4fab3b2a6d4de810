/*
 * gpu/sm80/gemm_v2.cu - version 2 of the mma.sync GEMM: the fast kernel.
 *
 * Computes the same D = alpha * (C + A B) as version 1 (gemm_v1.cu), bf16 or
 * fp16 A and B, bit for bit: each element of D is one fp32 accumulator chain
 * through mma.sync.m16n8k16 in k order, so its model is the device's
 * block-FMA model chained over K (h100-bf16 on an H100; doc/kernels.md).
 * Only the movement of data changes.
 *
 * What it adds over version 1, and why:
 *   - CTA tiles of 128 x 256, 8 warps of 64 x 64: each element loaded from
 *     global memory is used by 64 or 32 mma instead of one.
 *   - A cp.async pipeline of 4 stages (3 where the device has less than 192
 *     KB of shared memory per block, as an A100), BK = 64 k and 48 KB per
 *     stage: the loads of the next tiles are in flight while one is computed.
 *   - Shared-memory tiles stored with an XOR swizzle of 16-byte chunks
 *     (smma_sm80_smem_offset), so ldmatrix reads eight rows without a bank
 *     conflict; ldmatrix.x4 gives each lane its four A registers (or two B
 *     registers of two n8 tiles) in one instruction; ldmatrix .trans reads
 *     an N-major B in the same fragment layout.
 *   - The fragments of the next k16 step are loaded while the mma of this
 *     one run (two register buffers), across the tile boundary too: the
 *     tile's one barrier comes before its last k16 step, so warps wait at
 *     it while their mma are still running, and the loads of the next tile
 *     are spread over the k16 steps.
 *   - CTAs are ordered in groups of 8 tile rows (smma_sm80_tile_of) so that
 *     the CTAs running together read the same panels of A and B from L2.
 *
 * Tails: any M and N (rows past M and columns past N are read as zeros and
 * not written); K a multiple of 8.  A chunk of 8 k past K is stored as -0 in
 * A and +0 in B, so every padded product is -0, the identity of the sum, and
 * the last mma of a K that is not a multiple of 16 computes the short block
 * the model defines.  A must be K-major (row-major); B either.
 *
 * Build: compiled into gpu/libsoftmma_gpu.a for every configured target; on
 * an H100 the driver runs the sm_90a SASS of this same source.  Run:
 * `softmma gemm --on gpu --kernel sm80-v2 ...`, tests/gpu/gemm-t,
 * bench/gemm-bench (beside cuBLAS).
 */
#include <stdlib.h>
#include <string.h>

#include "common.cuh"
#include "sm80.h"

namespace {

constexpr int BM = 128, BN = 256, BK = 64;
constexpr int THREADS = 256;
constexpr int A_ROW = BK * 2;            /* bytes of a row of the A tile (m) */
constexpr int A_BYTES = BM * A_ROW;      /* 16 KB */
constexpr int B_BYTES = BN * BK * 2;     /* 32 KB, K-major (rows n) or N-major (rows k) */
constexpr int BK_ROW = BK * 2;           /* K-major B: bytes of a row (n) */
constexpr int BN_ROW = BN * 2;           /* N-major B: bytes of a row (k) */
constexpr int STAGE_BYTES = A_BYTES + B_BYTES; /* = SMMA_GPU_V2_STAGE */
constexpr uint32_t GROUP = 8;

/* The cp.async chunks a thread issues per k tile: 4 of A (128 rows x 8
 * chunks), 8 of B; issued in three parts during the three k16 steps before
 * the tile's barrier (smaller bursts, spread among the mma). */
constexpr int A_ITERS = BM * 8 / THREADS, B_ITERS = BN * BK / 8 / THREADS;
constexpr int LOAD_PARTS = BK / 16 - 1;
constexpr int PER_PART = (A_ITERS + B_ITERS + LOAD_PARTS - 1) / LOAD_PARTS;

/* Issues chunk `it` (0 .. A_ITERS + B_ITERS - 1) of this thread's share of k
 * tile kt into the stage at shared address st. */
template <bool B_KMAJOR>
__device__ __forceinline__ void
v2_load_chunk(const sm80_params &p, uint32_t st, uint32_t tm, uint32_t tn, uint32_t kt, int it)
{
    const uint16_t *a = (const uint16_t *) p.a, *b = (const uint16_t *) p.b;
    const uint32_t k0 = kt * BK;

    if (it < A_ITERS) {
        /* A: rows m of 8 chunks of 8 k. */
        uint32_t id = threadIdx.x + it * THREADS, r = id / 8, c = id % 8;
        uint32_t gm = tm * BM + r, gk = k0 + c * 8;
        uint32_t dst = st + smma_sm80_smem_offset(r, c, 0, A_ROW);

        if (gk >= p.k)
            st_shared_v4(dst, 0x80008000u); /* -0: the identity of the sum */
        else if (gm >= p.m)
            cp_async16(dst, a, 0);
        else
            cp_async16(dst, a + (size_t) gm * p.lda + gk, 16);
    } else if (B_KMAJOR) {
        /* B: rows n of 8 chunks of 8 k. */
        uint32_t id = threadIdx.x + (it - A_ITERS) * THREADS, r = id / 8, c = id % 8;
        uint32_t gn = tn * BN + r, gk = k0 + c * 8;
        uint32_t dst = st + A_BYTES + smma_sm80_smem_offset(r, c, 0, BK_ROW);

        if (gk >= p.k || gn >= p.n)
            cp_async16(dst, b, 0);
        else
            cp_async16(dst, b + (size_t) gn * p.ldb + gk, 16);
    } else {
        /* B: rows k of 32 chunks of 8 n; a chunk may end past N. */
        uint32_t id = threadIdx.x + (it - A_ITERS) * THREADS, r = id / (BN / 8);
        uint32_t c = id % (BN / 8), gk = k0 + r, gn = tn * BN + c * 8;
        uint32_t dst = st + A_BYTES + smma_sm80_smem_offset(r, c, 0, BN_ROW);

        if (gk >= p.k || gn >= p.n)
            cp_async16(dst, b, 0);
        else
            cp_async16(dst, b + (size_t) gk * p.ldb + gn, p.n - gn >= 8 ? 16 : (p.n - gn) * 2);
    }
}

/* Part `part` of the loads of k tile kt (part < LOAD_PARTS), or all of them
 * (part < 0). */
template <bool B_KMAJOR>
__device__ __forceinline__ void
v2_load(const sm80_params &p, uint32_t st, uint32_t tm, uint32_t tn, uint32_t kt, int part)
{
#pragma unroll
    for (int it = 0; it < A_ITERS + B_ITERS; it++)
        if (part < 0 || it / PER_PART == part)
            v2_load_chunk<B_KMAJOR>(p, st, tm, tn, kt, it);
}

/* The fragments of one k16 step of a warp: 4 m16 tiles of A, 8 n8 tiles of
 * B. */
struct frags {
    uint32_t a[4][4];
    uint32_t b[8][2];
};

template <bool B_KMAJOR>
__device__ __forceinline__ void
v2_frags(uint32_t st, unsigned lane, uint32_t wm, uint32_t wn, uint32_t kk, frags &f)
{
    unsigned row, chunk;

#pragma unroll
    for (int mi = 0; mi < 4; mi++) {
        smma_sm80_ldsm_a(lane, wm + 16 * mi, kk, &row, &chunk);
        ldsm_x4(st + smma_sm80_smem_offset(row, chunk, 0, A_ROW), f.a[mi]);
    }
#pragma unroll
    for (int nj = 0; nj < 4; nj++) {
        uint32_t r[4];

        if (B_KMAJOR) {
            smma_sm80_ldsm_b_kmajor(lane, wn + 16 * nj, kk, &row, &chunk);
            ldsm_x4(st + A_BYTES + smma_sm80_smem_offset(row, chunk, 0, BK_ROW), r);
        } else {
            smma_sm80_ldsm_b_nmajor(lane, wn + 16 * nj, kk, &row, &chunk);
            ldsm_x4_trans(st + A_BYTES + smma_sm80_smem_offset(row, chunk, 0, BN_ROW), r);
        }
        f.b[2 * nj][0] = r[0];
        f.b[2 * nj][1] = r[1];
        f.b[2 * nj + 1][0] = r[2];
        f.b[2 * nj + 1][1] = r[3];
    }
}

static_assert(STAGE_BYTES == SMMA_GPU_V2_STAGE, "the stage size of gemm_internal.h");

template <bool FP16, bool B_KMAJOR, int STAGES>
__global__ void __launch_bounds__(THREADS, 1)
sm80_v2_kernel(sm80_params p)
{
    extern __shared__ __align__(128) uint8_t smem[];
    const uint32_t base = smem_u32(smem);
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const uint32_t wm = (warp / 4) * 64, wn = (warp % 4) * 64;
    const uint32_t ktiles = (p.k + BK - 1) / BK;
    uint32_t tm, tn;
    float acc[4][8][4];
    frags f[2];

    smma_sm80_tile_of(blockIdx.x, p.tiles_m, p.tiles_n, p.group, &tm, &tn);

    /* The accumulators start as C (or +0). */
#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int nj = 0; nj < 8; nj++)
#pragma unroll
            for (int r = 0; r < 4; r++) {
                uint32_t i = tm * BM + wm + 16 * mi + smma_frag_cd_row(lane, r);
                uint32_t j = tn * BN + wn + 8 * nj + smma_frag_cd_col(lane, r);

                acc[mi][nj][r] = i < p.m && j < p.n ? epi_c(p, i, j) : 0.0f;
            }

    /* Prologue: the first STAGES - 1 tiles, and the fragments of k16 step 0. */
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if ((uint32_t) s < ktiles)
            v2_load<B_KMAJOR>(p, base + s * STAGE_BYTES, tm, tn, s, -1);
        cp_async_commit();
    }
    cp_async_wait<STAGES - 2>();
    __syncthreads();
    v2_frags<B_KMAJOR>(base, lane, wm, wn, 0, f[0]);

    /* Each k tile: four k16 steps.  Step kk loads the fragments of step
     * kk + 1 (for the last step: step 0 of the next tile), issues a third of
     * the loads of tile kt + STAGES - 1, then its 32 mma.  After the mma of
     * step 2 the tile's barrier: tile kt + 1 has landed for every thread, and
     * every warp has read stage kt for the last time, so that the next tile
     * can refill it.  The barrier waits while the mma just issued run. */
    for (uint32_t kt = 0; kt < ktiles; kt++) {
        const uint32_t st = base + (kt % STAGES) * STAGE_BYTES;
        const uint32_t next = base + ((kt + 1) % STAGES) * STAGE_BYTES;
        const uint32_t lt = kt + STAGES - 1, lst = base + (lt % STAGES) * STAGE_BYTES;

#pragma unroll
        for (int kk = 0; kk < BK / 16; kk++) {
            if (kk + 1 < BK / 16)
                v2_frags<B_KMAJOR>(st, lane, wm, wn, kk + 1, f[(kk + 1) % 2]);
            else if (kt + 1 < ktiles)
                v2_frags<B_KMAJOR>(next, lane, wm, wn, 0, f[(kk + 1) % 2]);
            if (kk < LOAD_PARTS && lt < ktiles)
                v2_load<B_KMAJOR>(p, lst, tm, tn, lt, kk);
#pragma unroll
            for (int mi = 0; mi < 4; mi++)
#pragma unroll
                for (int nj = 0; nj < 8; nj++)
                    mma16816<FP16>(acc[mi][nj], f[kk % 2].a[mi], f[kk % 2].b[nj]);
            if (kk == BK / 16 - 2) {
                cp_async_commit();
                cp_async_wait<STAGES - 2>();
                __syncthreads();
            }
        }
    }
    cp_async_wait<0>();

#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int nj = 0; nj < 8; nj++)
#pragma unroll
            for (int r = 0; r < 4; r += 2) {
                uint32_t i = tm * BM + wm + 16 * mi + smma_frag_cd_row(lane, r);
                uint32_t j = tn * BN + wn + 8 * nj + smma_frag_cd_col(lane, r);

                if (i < p.m && j < p.n)
                    epi_store(p, i, j, acc[mi][nj][r], acc[mi][nj][r + 1], j + 1 < p.n);
            }
}

template <bool FP16, bool B_KMAJOR, int STAGES>
int
v2_run(sm80_params p, cudaStream_t st, char *msg, size_t msg_len)
{
    const int smem = STAGES * STAGE_BYTES;
    static int raised[64]; /* the limit is raised once per device */
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);

    if (e == cudaSuccess && (dev < 0 || dev >= 64 || !raised[dev])) {
        e = cudaFuncSetAttribute(sm80_v2_kernel<FP16, B_KMAJOR, STAGES>,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
        if (e == cudaSuccess && dev >= 0 && dev < 64)
            raised[dev] = 1;
    }
    if (e != cudaSuccess)
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_ECUDA, "sm80-v2: "
                            "cudaFuncSetAttribute: %s (%s)", cudaGetErrorString(e),
                            cudaGetErrorName(e));
    sm80_v2_kernel<FP16, B_KMAJOR, STAGES><<<p.tiles_m * p.tiles_n, THREADS, smem, st>>>(p);
    return sm80_launched("sm80-v2", msg, msg_len);
}

template <bool FP16, bool B_KMAJOR>
int
v2_stages(sm80_params p, size_t stages, cudaStream_t st, char *msg, size_t msg_len)
{
    return stages >= 4 ? v2_run<FP16, B_KMAJOR, 4>(p, st, msg, msg_len)
                       : v2_run<FP16, B_KMAJOR, 3>(p, st, msg, msg_len);
}

} /* namespace */

int
smma_sm80_v2_launch(const smma_gpu_gemm_args *x, char *msg, size_t msg_len)
{
    sm80_params p = sm80_params_of(x);
    cudaStream_t st = (cudaStream_t) x->stream;
    bool fp16 = x->shape.a_fmt == SMMA_FP16;
    int dev = 0, smem = 0;
    size_t stages;

    p.tiles_m = (p.m + BM - 1) / BM;
    p.tiles_n = (p.n + BN - 1) / BN;
    p.group = GROUP;
    if ((uint64_t) p.tiles_m * p.tiles_n > 0x7fffffffu)
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EINVAL, "sm80-v2: too many CTA tiles");
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) !=
            cudaSuccess)
        return sm80_launched("sm80-v2", msg, msg_len);
    stages = smma_gpu_v2_stages((size_t) smem);
    if (stages == 4 && getenv("SMMA_SM80_V2_STAGES") != NULL &&
        strcmp(getenv("SMMA_SM80_V2_STAGES"), "3") == 0)
        stages = 3; /* a tuning knob: compare 3 stages with 4 where both fit */
    if (stages == 0)
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EARCH, "sm80-v2: the device has %d "
                            "bytes of shared memory per block", smem);
    if (fp16)
        return x->b_kmajor ? v2_stages<true, true>(p, stages, st, msg, msg_len)
                           : v2_stages<true, false>(p, stages, st, msg, msg_len);
    return x->b_kmajor ? v2_stages<false, true>(p, stages, st, msg, msg_len)
                       : v2_stages<false, false>(p, stages, st, msg, msg_len);
}

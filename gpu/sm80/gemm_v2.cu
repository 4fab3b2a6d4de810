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
 *   - CTAs are ordered in groups of 16 tile rows (smma_sm80_tile_of) so that
 *     the CTAs running together read the same panels of A and B from L2.
 *   - D through shared memory where the CTA's tile lies inside M and N
 *     (v2_store_tile): 16-byte stores of whole rows instead of each lane's
 *     pairs, a tenth of the epilogue's instructions; 0.91-0.92x CUTLASS's
 *     Ampere GEMM at 4096^3 became 0.98-1.00x.
 *   - One CTA tile.  Tiles of 128 x 128 (two CTAs per SM) and 256 x 128, and
 *     mbarriers in place of the tile's barrier, were built and measured
 *     beside it and were never faster (bench/sm80-kernels.md); they are
 *     removed.
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

#include "sm80.h"
#include "tile.cuh"

namespace {

using namespace sm80tile;

/* The CTA tile: 2 x 4 warps of 64 x 64 (tile.cuh), 128 x 256, one CTA per
 * SM; BK = 64 k per stage, 4 stages, or 3 where the device has less shared
 * memory (the numerics do not depend on the stages: each element is one
 * accumulator chain in k order). */
template <int STAGES_>
struct v2_cfg {
    static constexpr int WARPS_M = 2, WARPS_N = 4;
    static constexpr int BM = 64 * WARPS_M, BN = 64 * WARPS_N, WN = WARPS_N;
    static constexpr int THREADS = 32 * WARPS_M * WARPS_N;
    static constexpr int STAGES = STAGES_, MINB = 1;
    static constexpr int A_ROW = ROW;          /* bytes of a row of the A tile (m) */
    static constexpr int BK_ROW = ROW;         /* K-major B: bytes of a row (n) */
    static constexpr int BN_ROW = BN * 2;      /* N-major B: bytes of a row (k) */
    static constexpr int A_BYTES = BM * ROW, B_BYTES = BN * ROW;
    static constexpr int STAGE_BYTES = A_BYTES + B_BYTES;
    /* The cp.async chunks a thread issues per k tile (A: BM rows x 8
     * chunks), issued in three parts during the three k16 steps before
     * the tile's barrier (smaller bursts, spread among the mma). */
    static constexpr int A_ITERS = BM * 8 / THREADS, B_ITERS = BN * BK / 8 / THREADS;
    static constexpr int LOAD_PARTS = BK / 16 - 1;
    static constexpr int PER_PART = (A_ITERS + B_ITERS + LOAD_PARTS - 1) / LOAD_PARTS;
};

/* What a thread needs to find its loads and its fragments, computed once
 * (gpu/sm80/common.cuh's address functions, sim/softmma/sm80.h): every
 * address in the main loop is then a base plus a constant, or an XOR. */
struct v2_plan {
    const uint16_t *ga, *gb;  /* global: chunk 0 of this thread in k tile 0 */
    uint32_t ga_step, gb_step; /* elements from chunk it to it + 1 */
    uint32_t gb_tile;          /* elements of B from one k tile to the next */
    uint32_t a_dst, b_dst;     /* shared: chunk 0 of this thread in a stage */
    uint32_t a_rows, b_rows;   /* bit it: chunk it lies inside M (A) or N (B) */
    uint32_t kc;               /* the k of B's chunk 0 in a k tile */
    uint32_t kc_a;             /* the k of A's chunks in a k tile */
    uint32_t b_bytes;          /* N-major B: bytes of the chunk before N */
    uint32_t a_frag, b_frag[4]; /* the lane's ldmatrix bases (b_frag[1..3]: N-major) */
};

template <class C, bool B_KMAJOR>
__device__ __forceinline__ void
v2_plan_make(const sm80_params &p, uint32_t tm, uint32_t tn, unsigned lane, uint32_t wm,
             uint32_t wn, v2_plan &q)
{
    constexpr int BM = C::BM, BN = C::BN, THREADS = C::THREADS;
    constexpr int A_ROW = C::A_ROW, BK_ROW = C::BK_ROW, BN_ROW = C::BN_ROW;
    constexpr int A_ITERS = C::A_ITERS, B_ITERS = C::B_ITERS;
    const unsigned t = threadIdx.x;
    const uint16_t *a = (const uint16_t *) p.a, *b = (const uint16_t *) p.b;
    uint32_t am = tm * BM + t / 8, bn = tn * BN + t / 8;

    q.ga = a + (size_t) am * p.lda + (t % 8) * 8;
    q.ga_step = THREADS / 8 * p.lda;
    q.a_dst = smma_sm80_load_base(t, A_ROW);
    q.kc_a = (t % 8) * 8;
    q.a_rows = 0;
    for (int it = 0; it < A_ITERS; it++)
        q.a_rows |= (am + it * (THREADS / 8) < p.m ? 1u : 0u) << it;
    q.b_rows = 0;
    if (B_KMAJOR) {
        q.gb = b + (size_t) bn * p.ldb + (t % 8) * 8;
        q.gb_step = THREADS / 8 * p.ldb;
        q.gb_tile = BK;
        q.b_dst = smma_sm80_load_base(t, BK_ROW);
        for (int it = 0; it < B_ITERS; it++)
            q.b_rows |= (bn + it * (THREADS / 8) < p.n ? 1u : 0u) << it;
        q.b_bytes = 16;
        q.kc = (t % 8) * 8;
        q.b_frag[0] = smma_sm80_ldsm_bk_base(lane, wn, BK_ROW);
    } else {
        uint32_t gn = tn * BN + (t % (BN / 8)) * 8;

        q.gb = b + (size_t) (t / (BN / 8)) * p.ldb + gn;
        q.gb_step = THREADS / (BN / 8) * p.ldb;
        q.gb_tile = BK * p.ldb;
        q.b_dst = smma_sm80_load_base(t, BN_ROW);
        q.b_bytes = gn >= p.n ? 0 : p.n - gn >= 8 ? 16 : (p.n - gn) * 2;
        q.kc = t / (BN / 8);
        for (int nj = 0; nj < 4; nj++)
            q.b_frag[nj] = smma_sm80_ldsm_bn_base(lane, wn + 16 * nj, BN_ROW);
    }
    q.a_frag = smma_sm80_ldsm_a_base(lane, wm, A_ROW);
}

/* Issues part `part` of this thread's loads of k tile kt (all of them when
 * part < 0) into the stage at shared address st, without a branch, so that
 * the compiler can place the loads among the mma: a chunk outside M, N or K,
 * or of a tile past the last (kt >= ktiles), is zero-filled (its source is
 * not read).  The padding of A past K is made -0 later, in registers (see
 * v2_mask_tail). */
template <class C, bool B_KMAJOR>
__device__ __forceinline__ void
v2_load(const sm80_params &p, const v2_plan &q, uint32_t st, uint32_t kt, uint32_t ktiles,
        int part)
{
    constexpr int BN = C::BN, THREADS = C::THREADS;
    constexpr int A_ROW = C::A_ROW, BK_ROW = C::BK_ROW, BN_ROW = C::BN_ROW;
    constexpr int A_ITERS = C::A_ITERS, B_ITERS = C::B_ITERS;
    constexpr int A_BYTES = C::A_BYTES, PER_PART = C::PER_PART;
    const uint32_t k0 = kt * BK;
    const char *ga = (const char *) q.ga + (size_t) k0 * 2;
    const char *gb = (const char *) q.gb + (size_t) kt * q.gb_tile * 2;
    const bool live = kt < ktiles;
    const bool kin = live && k0 + q.kc < p.k;     /* K-major B's chunks: inside K */
    const bool kin_a = live && k0 + q.kc_a < p.k; /* A's chunks: inside K */

#pragma unroll
    for (int it = 0; it < A_ITERS + B_ITERS; it++) {
        if (part >= 0 && it / PER_PART != part)
            continue; /* resolved at compile time */
        if (it < A_ITERS) {
            uint32_t dst = st + q.a_dst + it * smma_sm80_load_stride(THREADS, A_ROW);
            uint32_t n = kin_a && ((q.a_rows >> it) & 1) ? 16 : 0;

            cp_async16(dst, ga + (size_t) it * q.ga_step * 2, n);
        } else {
            const int ib = it - A_ITERS;
            uint32_t dst = st + A_BYTES + q.b_dst +
                           ib * smma_sm80_load_stride(THREADS, B_KMAJOR ? BK_ROW : BN_ROW);
            uint32_t n = B_KMAJOR
                             ? (kin && ((q.b_rows >> ib) & 1) ? 16 : 0)
                             : (live && k0 + q.kc + ib * (THREADS / (BN / 8)) < p.k ? q.b_bytes
                                                                                  : 0);

            cp_async16(dst, gb + (size_t) ib * q.gb_step * 2, n);
        }
    }
}

template <class C, bool B_KMAJOR>
__device__ __forceinline__ void
v2_frags(uint32_t st, const v2_plan &q, int kk, frags &f)
{
    frags_a(st, q.a_frag, kk, f);
    if (B_KMAJOR)
        frags_bk(st + C::A_BYTES, q.b_frag[0], kk, f);
    else
        frags_bn(st + C::A_BYTES, q.b_frag, kk, C::BN_ROW, f);
}

/* The last k tile, kt, whose step-0 fragments are in f[0]: the k past K
 * (stored as +0) become -0 in the A fragments before their mma. */
template <class C, bool FP16, bool B_KMAJOR>
__device__ __forceinline__ void
v2_last_tile(const sm80_params &p, const v2_plan &q, uint32_t base, uint32_t kt,
             unsigned lane, frags (&f)[2], float (&acc)[4][8][4])
{
    const uint32_t st = base + (kt % C::STAGES) * C::STAGE_BYTES;

#pragma unroll
    for (int kk = 0; kk < BK / 16; kk++) {
        if (kk + 1 < BK / 16)
            v2_frags<C, B_KMAJOR>(st, q, kk + 1, f[(kk + 1) % 2]);
        mask_tail(f[kk % 2], kt * BK + 16 * kk, p.k, lane);
        mma_step<FP16>(acc, f[kk % 2]);
    }
}

/* The CTA's tile of D through shared memory (the stages, free once every
 * warp is past its last fragment read), where the whole tile lies inside M
 * and N and D's rows start 16-byte aligned: each warp writes its pairs
 * (epi_bits2) into a row-major tile of BN + 8 elements a row (the pad puts
 * the eight rows of a fragment store in eight bank groups), then every
 * thread copies 16-byte pieces, a warp 512 contiguous bytes of a row per
 * store.  store_d's direct stores (a warp 8 rows x 16 bytes each, every
 * element's checks and address) cost sm80-v2 a tenth of its time at
 * 4096^3 (bench/sm80-kernels.md). */
template <class C, int ES>
__device__ __forceinline__ void
v2_store_tile(const sm80_params &p, uint8_t *smem, uint32_t tm, uint32_t tn, uint32_t wm,
              uint32_t wn, unsigned lane, const float (&acc)[4][8][4])
{
    constexpr int LD = C::BN + 8, CPR = C::BN * ES / 16; /* row: elements, 16-byte pieces */
    static_assert(C::BM * LD * ES <= C::STAGES * C::STAGE_BYTES, "D's tile fits the stages");

    __syncthreads();
#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int nj = 0; nj < 8; nj++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                uint32_t r = wm + 16 * mi + smma_frag_cd_row(lane, 2 * h);
                uint32_t c = wn + 8 * nj + smma_frag_cd_col(lane, 0), v[2];
                uint8_t *at = smem + ((size_t) r * LD + c) * ES;

                epi_bits2(p, acc[mi][nj][2 * h], acc[mi][nj][2 * h + 1], v);
                if (ES == 4)
                    *(uint2 *) at = make_uint2(v[0], v[1]);
                else
                    *(uint32_t *) at = v[0];
            }
    __syncthreads();
    for (uint32_t q = threadIdx.x; q < C::BM * CPR; q += C::THREADS) {
        uint32_t r = q / CPR, piece = q % CPR;
        uint4 v = *(const uint4 *) (smem + (size_t) r * LD * ES + 16 * piece);

        *(uint4 *) ((uint8_t *) p.d + ((size_t) (tm * C::BM + r) * p.ldd + tn * C::BN) * ES
                    + 16 * piece) = v;
    }
}

/* The default tile, whose stage size the host checks (gemm_internal.h). */
using v2_default = v2_cfg<4>;
static_assert(v2_default::STAGE_BYTES == SMMA_GPU_V2_STAGE, "the stage size of gemm_internal.h");

template <class C, bool FP16, bool B_KMAJOR>
__global__ void __launch_bounds__(C::THREADS, C::MINB)
sm80_v2_kernel(sm80_params p)
{
    constexpr int BM = C::BM, BN = C::BN, STAGES = C::STAGES, STAGE_BYTES = C::STAGE_BYTES;
    extern __shared__ __align__(128) uint8_t smem[];
    const uint32_t base = smem_u32(smem);
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const uint32_t wm = (warp / C::WN) * 64, wn = (warp % C::WN) * 64;
    const uint32_t ktiles = (p.k + BK - 1) / BK;
    uint32_t tm, tn;
    float acc[4][8][4];
    frags f[2];
    v2_plan q;

    smma_sm80_tile_of(blockIdx.x, p.tiles_m, p.tiles_n, p.group, &tm, &tn);
    v2_plan_make<C, B_KMAJOR>(p, tm, tn, lane, wm, wn, q);

    acc_init(p, tm * BM + wm, tn * BN + wn, lane, acc);

    /* Prologue: the first STAGES - 1 tiles, and the fragments of k16 step 0. */
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        v2_load<C, B_KMAJOR>(p, q, base + s * STAGE_BYTES, s, ktiles, -1);
        cp_async_commit();
    }
    cp_async_wait<STAGES - 2>();
    __syncthreads();
    v2_frags<C, B_KMAJOR>(base, q, 0, f[0]);

    /* Each k tile but the last: four k16 steps.  Step kk loads the fragments
     * of step kk + 1 (for the last step: step 0 of the next tile), issues a
     * third of the loads of tile kt + STAGES - 1, then its 32 mma.  After the
     * mma of step 2 the tile's barrier: tile kt + 1 has landed for every
     * thread, and every warp has read stage kt for the last time, so that the
     * next tile can refill it.  The barrier waits while the mma just issued
     * run.  Nothing in a k tile branches, so the loads and the fragment reads
     * fall in among the mma. */
    for (uint32_t kt = 0; kt + 1 < ktiles; kt++) {
        const uint32_t st = base + (kt % STAGES) * STAGE_BYTES;
        const uint32_t next = base + ((kt + 1) % STAGES) * STAGE_BYTES;
        const uint32_t lt = kt + STAGES - 1, lst = base + (lt % STAGES) * STAGE_BYTES;

#pragma unroll
        for (int kk = 0; kk < BK / 16; kk++) {
            if (kk + 1 < BK / 16)
                v2_frags<C, B_KMAJOR>(st, q, kk + 1, f[(kk + 1) % 2]);
            else
                v2_frags<C, B_KMAJOR>(next, q, 0, f[(kk + 1) % 2]);
            if (kk < C::LOAD_PARTS)
                v2_load<C, B_KMAJOR>(p, q, lst, lt, ktiles, kk);
            mma_step<FP16>(acc, f[kk % 2]);
            if (kk == BK / 16 - 2) {
                cp_async_commit();
                cp_async_wait<STAGES - 2>();
                __syncthreads();
            }
        }
    }

    v2_last_tile<C, FP16, B_KMAJOR>(p, q, base, ktiles - 1, lane, f, acc);
    cp_async_wait<0>();
    if ((tm + 1) * BM <= p.m && (tn + 1) * BN <= p.n && p.d_vec16) {
        if (p.d_fmt == SM80_D_FP32)
            v2_store_tile<C, 4>(p, smem, tm, tn, wm, wn, lane, acc);
        else
            v2_store_tile<C, 2>(p, smem, tm, tn, wm, wn, lane, acc);
    } else {
        store_d(p, tm * BM + wm, tn * BN + wn, lane, acc);
    }
}

/* Launches sm80-v2 with configuration C: one CTA per tile. */
template <class C, bool FP16, bool B_KMAJOR>
int
v2_run(sm80_params p, cudaStream_t st, char *msg, size_t msg_len)
{
    const int smem = C::STAGES * C::STAGE_BYTES;
    int rc = raise_smem<sm80_v2_kernel<C, FP16, B_KMAJOR>>(smem, "sm80-v2", msg, msg_len);

    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    p.tiles_m = (p.m + C::BM - 1) / C::BM;
    p.tiles_n = (p.n + C::BN - 1) / C::BN;
    if ((uint64_t) p.tiles_m * p.tiles_n > 0x7fffffffu)
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EINVAL, "sm80-v2: too many CTA tiles");
    sm80_v2_kernel<C, FP16, B_KMAJOR><<<p.tiles_m * p.tiles_n, C::THREADS, smem, st>>>(p);
    return sm80_launched("sm80-v2", msg, msg_len);
}

/* The stages smma_gpu_v2_choose picked: 4, or 3 where the device has less
 * than 192 KB of shared memory per block (or SMMA_SM80_V2_STAGES=3). */
template <bool FP16, bool B_KMAJOR>
int
v2_pick(sm80_params p, size_t stages, cudaStream_t st, char *msg, size_t msg_len)
{
    return stages >= 4 ? v2_run<v2_default, FP16, B_KMAJOR>(p, st, msg, msg_len)
                       : v2_run<v2_cfg<3>, FP16, B_KMAJOR>(p, st, msg, msg_len);
}

} /* namespace */

int
smma_sm80_v2_launch(const smma_gpu_gemm_args *x, char *msg, size_t msg_len)
{
    sm80_params p = sm80_params_of(x);
    cudaStream_t st = (cudaStream_t) x->stream;
    bool fp16 = x->shape.a_fmt == SMMA_FP16;
    int dev = 0, smem = 0, rc;
    size_t stages;

    p.group = GROUP;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) !=
            cudaSuccess)
        return sm80_launched("sm80-v2", msg, msg_len);
    rc = smma_gpu_v2_choose(getenv("SMMA_SM80_V2_TILE"), getenv("SMMA_SM80_V2_STAGES"),
                            (size_t) smem, &stages, msg, msg_len);
    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    if (fp16)
        return x->b_kmajor ? v2_pick<true, true>(p, stages, st, msg, msg_len)
                           : v2_pick<true, false>(p, stages, st, msg, msg_len);
    return x->b_kmajor ? v2_pick<false, true>(p, stages, st, msg, msg_len)
                       : v2_pick<false, false>(p, stages, st, msg, msg_len);
}

/*
 * gpu/sm90/gemm_mixed.cu - sm90-mixed (version 5 of the sm90 kernels): a
 * block-scaled product where it is memory-bound, a few rows of bf16
 * activations (the caller's A, M rows) times a large block-scaled matrix
 * (the caller's B: weights, N x K as stored, MXFP4, NVFP4 or MXFP8), on
 * Hopper's bf16 tensor core.
 *
 * What it computes: every weight times its scale, rounded once to bf16
 * (bf16-upcast-h100, as sm90-bs and the sm_80 block-scaled kernels), then
 * one chain of wgmma.m64nNk16 per output in k order from C: the model
 * bf16-upcast-h100, bit for bit.  The products of D^T = W X^T are those of
 * D = X W^T, so the model's blocks of 16 products are the same.
 *
 * What it adds over sm90-bs, and why:
 *   1. W, the large operand, streams once, as stored: TMA lands 64 rows of
 *      each k-step's 64 kq k in the stage (32 kq bytes a row for e2m1, 64
 *      kq for the 8-bit formats; kq atoms of 64 k, 1 by default, 2 or 4 by
 *      SMMA_SM90_KQ), and no copy of it is written anywhere.  sm90-bs's
 *      pass writes and reads a bf16 copy of both operands on every call,
 *      2.5-4.5 times the bytes of e2m1 weights.
 *   2. W is wgmma's A, from registers: each consumer thread reads the bytes
 *      of its fragment (plan.h's smma_sm90_mx_a_cell: rows 16 w + group
 *      and + 8, k 2 tig, 2 tig + 1 and 2 tig + 8, 2 tig + 9 of every 16-k
 *      block) with 16-byte loads of its two rows, picks them with prmt,
 *      converts them (gpu/sm80/convert.cuh: e2m1 through a byte table and
 *      fma.rn.bf16x2 by the scale; the others in fp32 and one
 *      cvt.rn.bf16x2.f32) and hands the registers to the wgmma.  Only the
 *      operand in shared memory can be B, so the small X is B: its rows
 *      are the wgmma's N, the smallest of 8, 16, 32, 64, 128, 256 that
 *      holds M (256 a tile past that).
 *   3. The scales of W are read from global memory (linear or 128x4) by
 *      the thread that needs them, two or four bytes of each of its rows a
 *      k-step.
 *   4. Two CTAs an SM (one for 256 rows of X), each a producer warpgroup
 *      (one thread issues the TMA boxes; setmaxnreg 40) and one consumer
 *      warpgroup (setmaxnreg 216) on its own 64 rows of W, persistent, in
 *      clusters of two that share
 *      X's rows (each CTA loads half of them and multicasts), so that an SM
 *      keeps many loads of W in flight and X's traffic through L2 halves.
 *   5. D from the registers, transposed: the accumulator holds W's rows by
 *      X's, the caller's D transposed (plan.h's smma_sm90_mx_dpos).
 * K past the end of a row: TMA fills W and X with zeros, the converters
 * write +0 for the k past K (a NaN or infinite scale of the last block
 * times a zero would not be 0), and only the wgmma of blocks below K are
 * issued; h100-bf16's blocks of zeros give +0 (zero_plus).
 *
 * Run as `--kernel sm90-mixed` (SMMA_GPU_SM90_MIXED); SMMA_SM90_BN sets the
 * X rows of a tile (8 .. 256), SMMA_SM90_KQ the atoms of a k-step (1, 2, 4),
 * _STAGES and _CLUSTER as for v2.
 */
#include <cuda_runtime.h>

#include "../sm80/convert.cuh"
#include "dev.cuh"

#define MX_THREADS 256
#define MX_PROD_REGS 40
/* 2 CTAs of 256 threads: (40 + 216) x 128 x 2 = 65536 registers; one CTA
 * (for 256 rows of X, whose wgmma's operands need more than 128 registers
 * a thread at entry, ptxas's C7602): (40 + 248) x 128 fits in 65536, and
 * the 128 accumulator registers, two k-steps' A and C's loads fit in 248 */
#define MX_MMA_REGS(BN) (SMMA_SM90_MX_CTAS(BN) == 2 ? 216 : 248)
/* Atoms of 64 k a group of scale loads (the registers of two groups' scale
 * words: 8 or 16 a row for 8 atoms; groups of 2 where the 128 accumulator
 * registers of 256 rows of X leave no room for more) */
#define MX_GROUP(BN) ((BN) == 256 ? 2 : 8)

#if defined(SMMA_SM90_WG)

/* wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16 with A from the
 * registers a[0 .. 3], B (X, K-major) through desc, D in d[0 .. N/2 - 1]:
 * the D list, the rest (A, desc-b, scale-d, imm-scale-a, imm-scale-b,
 * imm-trans-b 0) and the register of scale-d, per N. */
#define MX_D8 "{" \
    "%0, %1, %2, %3" \
    "}"
#define MX_A8 "{%4, %5, %6, %7}, %8, p, 1, 1, 0"
#define MX_SD8 "%9"
#define MX_D16 "{" \
    "%0, %1, %2, %3, %4, %5, %6, %7" \
    "}"
#define MX_A16 "{%8, %9, %10, %11}, %12, p, 1, 1, 0"
#define MX_SD16 "%13"
#define MX_D32 "{" \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15" \
    "}"
#define MX_A32 "{%16, %17, %18, %19}, %20, p, 1, 1, 0"
#define MX_SD32 "%21"
#define MX_D64 "{" \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, " \
    "%30, %31" \
    "}"
#define MX_A64 "{%32, %33, %34, %35}, %36, p, 1, 1, 0"
#define MX_SD64 "%37"
#define MX_D128 S90_N128_D /* dev.cuh */
#define MX_A128 "{%64, %65, %66, %67}, %68, p, 1, 1, 0"
#define MX_SD128 "%69"
#define MX_D256 S90_N256_D /* dev.cuh */
#define MX_A256 "{%128, %129, %130, %131}, %132, p, 1, 1, 0"
#define MX_SD256 "%133"

#define MX_WGMMA(N, ...)                                                                    \
    asm volatile(S90_WGMMA("m64n" #N "k16.f32.bf16.bf16", MX_D##N, MX_A##N, MX_SD##N)       \
                 : __VA_ARGS__                                                              \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(scale_d))
#define MX_D4(d) "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])

template <int N>
static __device__ __forceinline__ void
mx_wgmma(uint32_t (&d)[N / 2], const uint32_t (&a)[4], uint64_t desc, uint32_t scale_d)
{
    if constexpr (N == 8)
        MX_WGMMA(8, MX_D4(d));
    else if constexpr (N == 16)
        MX_WGMMA(16, S90_D8(d, 0));
    else if constexpr (N == 32)
        MX_WGMMA(32, S90_D8(d, 0), S90_D8(d, 8));
    else if constexpr (N == 64)
        MX_WGMMA(64, S90_D8(d, 0), S90_D8(d, 8), S90_D8(d, 16), S90_D8(d, 24));
    else if constexpr (N == 128)
        MX_WGMMA(128, S90_N128_OUT);
    else
        MX_WGMMA(256, S90_N256_OUT);
}

/* The bf16 pair of W's two codes in the low 16 bits of `pair` (element 0
 * in the low byte; F one of the 8- or 6-bit formats) times scale s. */
template <int F>
static __device__ __forceinline__ uint32_t
mx_pair(uint32_t pair, float s)
{
    float f0, f1;

    if constexpr (F == CV_E4M3) {
        cv_e4m3x2(pair, f0, f1);
    } else if constexpr (F == CV_E5M2) {
        cv_e5m2x2(pair, f0, f1);
    } else {
        f0 = cv_fp6<F == CV_E2M3 ? 2 : 3>(pair & 0xffu);
        f1 = cv_fp6<F == CV_E2M3 ? 2 : 3>((pair >> 8) & 0xffu);
    }
    return cv_pack(f0, f1, s);
}

/*
 * The A fragments of thread t (w = t / 32, group, tig) for one k-step: its
 * rows r0 = 16 w + group and r0 + 8 of W as stored at wrow0 and wrow1 (ra
 * bytes each, 16-byte aligned) times the scales sc[row][i] of the k-step's
 * blocks (bytes; NS of them a row), a[j][0 .. 3] for 16-k block j in the
 * register order of smma_sm90_mx_a_cell: (r0, k 2 tig ..), (r0 + 8, ..),
 * (r0, k 2 tig + 8 ..), (r0 + 8, ..).  kv < 64: the k from kv on are +0.
 */
template <int F, int SF, int NS>
static __device__ __forceinline__ void
mx_convert(const uint8_t *wrow0, const uint8_t *wrow1, const uint32_t (&sc)[2][NS],
           uint32_t tig, uint32_t kv, uint32_t (&a)[4][4])
{
    constexpr int RQ = F == CV_E2M1 ? 2 : 4; /* 16-byte words of a row */
    uint32_t w[2][4 * RQ];

#pragma unroll
    for (int q = 0; q < RQ; q++) {
        uint4 v0 = ((const uint4 *) wrow0)[q], v1 = ((const uint4 *) wrow1)[q];

        w[0][4 * q] = v0.x, w[0][4 * q + 1] = v0.y, w[0][4 * q + 2] = v0.z;
        w[0][4 * q + 3] = v0.w;
        w[1][4 * q] = v1.x, w[1][4 * q + 1] = v1.y, w[1][4 * q + 2] = v1.z;
        w[1][4 * q + 3] = v1.w;
    }
#pragma unroll
    for (int j = 0; j < 4; j++) {
        const int si = (16 * j) / (64 / NS); /* the block's scale */

#pragma unroll
        for (int h = 0; h < 2; h++) {
            if constexpr (F == CV_E2M1) {
                /* bytes tig (k 2 tig, + 1) and 4 + tig (k 2 tig + 8, + 9)
                 * of the block's 8 */
                uint32_t x, pr[2], s2 = cv_scale_bf16x2(SF, sc[h][si]);

                asm("prmt.b32 %0, %1, %2, %3;\n"
                    : "=r"(x) : "r"(w[h][2 * j]), "r"(w[h][2 * j + 1]), "r"(tig | (4 + tig) << 4));
                cv_e2m1x4_bf16(x, pr);
                a[j][h] = cv_bmul2(pr[0], s2);
                a[j][2 + h] = cv_bmul2(pr[1], s2);
            } else {
                /* bytes 2 tig, + 1 of the block's first 8 and of its last 8 */
                uint32_t sel = 2 * tig | (2 * tig + 1) << 4, p0, p1;
                float s = cv_scale(SF, sc[h][si]);

                asm("prmt.b32 %0, %1, %2, %3;\n"
                    : "=r"(p0) : "r"(w[h][4 * j]), "r"(w[h][4 * j + 1]), "r"(sel));
                asm("prmt.b32 %0, %1, %2, %3;\n"
                    : "=r"(p1) : "r"(w[h][4 * j + 2]), "r"(w[h][4 * j + 3]), "r"(sel));
                a[j][h] = mx_pair<F>(p0, s);
                a[j][2 + h] = mx_pair<F>(p1, s);
            }
        }
    }
    if (kv < 64) {
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int r = 0; r < 4; r++) {
                uint32_t kk = 16 * j + 2 * tig + 8 * (r >> 1);

                a[j][r] &= (kk < kv ? 0xffffu : 0u) | (kk + 1 < kv ? 0xffff0000u : 0u);
            }
    }
}

/* The scale words of rows g0 and g1 of W (global rows, inside W) for NW
 * runs of four blocks from run kt0 on: word i of row h holds the scales of
 * the row's blocks 4 (kt0 + i) .. + 3, block 4 (kt0 + i) in the low byte.
 * One 4-byte load where the plan says the four lie in an aligned word
 * (sf_words), else four byte loads (the last column repeated past the end
 * of a row); a run wholly past the row's blocks is never read (0). */
template <int NW>
static __device__ __forceinline__ void
mx_scale_words(const smma_sm90_plan &p, const uint8_t *sf, uint32_t g0, uint32_t g1,
               uint32_t kt0, uint32_t (&w)[2][NW])
{
#pragma unroll
    for (int i = 0; i < NW; i++) {
        const uint32_t kb = 4 * (kt0 + i);

#pragma unroll
        for (int h = 0; h < 2; h++) {
            const uint32_t g = h ? g1 : g0;

            if (kb >= p.kb_cols) {
                w[h][i] = 0;
            } else if (p.sf_words) {
                w[h][i] = __ldg((const uint32_t *) (sf + smma_sm90_mx_sf_off(&p, g, kb)));
            } else {
                uint32_t v = 0;

#pragma unroll
                for (int j = 0; j < 4; j++) {
                    const uint32_t c = kb + j < p.kb_cols ? kb + j : p.kb_cols - 1;

                    v |= (uint32_t) __ldg(sf + smma_sm90_mx_sf_off(&p, g, c)) << (8 * j);
                }
                w[h][i] = v;
            }
        }
    }
}

/* C (fp32) into the accumulator of thread t for the tile at (m0, n0) of
 * the plan's D (W rows, X rows), 0 outside the matrix; each register
 * loaded into one of its own and moved (as s90_load_c, so that ptxas
 * keeps the wgmma chain whole). */
template <int R>
static __device__ __forceinline__ void
mx_load_c(const smma_sm90_plan &p, const void *c, uint32_t (&d)[R], uint32_t t, uint32_t m0,
          uint32_t n0)
{
    const uint32_t *src = (const uint32_t *) c;
    uint32_t row, col, v[4];

#pragma unroll
    for (int r0 = 0; r0 < R; r0 += 4) {
#pragma unroll
        for (int r = 0; r < 4; r++) {
            bool in;

            smma_sm90_d_cell(0, t, r0 + r, &row, &col);
            in = m0 + row < p.m && n0 + col < p.n;
            v[r] = __ldg(src + (in ? smma_sm90_mx_dpos(&p, p.c_ld, m0 + row, n0 + col) : 0));
            v[r] = in ? v[r] : 0;
        }
#pragma unroll
        for (int r = 0; r < 4; r++)
            asm volatile("mov.b32 %0, %1;" : "=r"(d[r0 + r]) : "r"(v[r]));
    }
}

/* D from the registers of thread t, inside the matrix only. */
template <int R>
static __device__ __forceinline__ void
mx_store(const smma_sm90_plan &p, void *dst, const uint32_t (&d)[R], uint32_t t, uint32_t m0,
         uint32_t n0)
{
    uint32_t row, col, v;

#pragma unroll
    for (int r = 0; r < R; r++) {
        uint64_t at;

        smma_sm90_d_cell(0, t, r, &row, &col);
        if (m0 + row >= p.m || n0 + col >= p.n)
            continue;
        at = smma_sm90_mx_dpos(&p, p.d_ld, m0 + row, n0 + col);
        v = pipe_epilogue(p.has_alpha, p.alpha, p.d_kind, d[r]);
        if (p.d_kind == SMMA_PIPE_F32)
            ((uint32_t *) dst)[at] = v;
        else
            ((uint16_t *) dst)[at] = (uint16_t) v;
    }
}

#endif /* SMMA_SM90_WG */

/* F: W's format (CV_*), SF: its scales' (CV_E8M0 per 32, CV_UE4M3 per 16),
 * BN: the X rows of a tile (the wgmma's N), HAS_C: C is given. */
template <int F, int SF, int BN, int HAS_C>
__global__ void __launch_bounds__(MX_THREADS, SMMA_SM90_MX_CTAS(BN))
s90_gemm_mixed(const smma_sm90_plan plan, const __grid_constant__ s90_maps maps,
               const s90_bufs x)
{
#if defined(SMMA_SM90_WG)
    constexpr int NS = SF == CV_E8M0 ? 2 : 4; /* scales a row a k-step of 64 */
    smma_sm90_plan p = plan;
    extern __shared__ uint8_t dyn[];
    uint8_t *smem = pipe_smem_base(dyn);
    uint32_t sbase = pipe_smem(smem), wg = threadIdx.x / 128, t = threadIdx.x % 128;
    uint32_t cta = blockIdx.x, cluster = p.pipe.cluster;
    uint32_t rank = cluster > 1 ? pipe_cluster_rank() : 0;
    uint32_t ntiles = smma_pipe_cta_nunits(&p.pipe, cta);

    p.bn = BN;
    /* full[s]: the producer's arrival and the stage's bytes; empty[s]: one
     * release from the consumer warpgroup of each CTA of the cluster. */
    if (threadIdx.x == 0) {
        pipe_init_ring(p.pipe, sbase, cluster);
        pipe_bar_init_fence();
    }
    if (cluster > 1)
        pipe_cluster_sync();
    else
        __syncthreads();

    if (wg == 0) {
        s90_setmaxnreg_dec<MX_PROD_REGS>();
        if (t == 0) {
            pipe_tma_prefetch_map(&maps.m[SMMA_SM90_MAP_A]);
            pipe_tma_prefetch_map(&maps.m[SMMA_SM90_MAP_B]);
            pipe_produce(p.pipe, sbase, cta,
                         [&](uint32_t st, uint32_t full, uint32_t tm, uint32_t tn, uint32_t kit) {
                             uint32_t m0, n0;

                             smma_sm90_origin(&p, tm, tn, &m0, &n0);
                             s90_load_kstep(p, maps, st, full, m0, n0, kit, rank);
                         });
        }
    } else {
        const uint32_t tig = t % 4, r0 = 16 * (t / 32) + t % 32 / 4;
        const uint32_t nsub = (p.k + 63) / 64; /* atoms of 64 k */
        uint32_t i, tm, tn, m0, n0, prev = 0;
        smma_pipe_pos pos = { 0, 0 };
        constexpr int NW = MX_GROUP(BN) * NS / 4; /* scale words a row a group */
        uint32_t d[BN / 2], a0[4][4], a1[4][4], cw[2][NW], nw[2][NW];

        s90_setmaxnreg_inc<MX_MMA_REGS(BN)>();
        for (i = 0; i < ntiles; i++) {
            bool inside = smma_pipe_cta_tile(&p.pipe, cta, i, &tm, &tn);
            uint32_t g0, g1, u;

            smma_sm90_origin(&p, tm, tn, &m0, &n0);
            g0 = m0 + r0 < p.m ? m0 + r0 : p.m - 1;
            g1 = m0 + r0 + 8 < p.m ? m0 + r0 + 8 : p.m - 1;
            if (HAS_C)
                mx_load_c(p, x.c, d, t, m0, n0);
            /* The k-steps in atoms of 64 k (kq a k-step, one wait on its
             * stage), two atoms in flight: each atom's A registers (a0, a1
             * by turns) are converted while the wgmma of the one before
             * run; a k-step's slot is released once the group of its last
             * atom is done. */
            auto step = [&](uint32_t (&a)[4][4], const uint32_t (&sc)[2][NS], uint32_t u) {
                const uint32_t kit = u / p.kq, q = u % p.kq;
                const uint32_t st = sbase + pos.slot * p.pipe.stage_bytes;
                const uint8_t *stage = smem + pos.slot * p.pipe.stage_bytes;
                const uint32_t kv = p.k - 64 * u < 64 ? p.k - 64 * u : 64;

                if (q == 0)
                    pipe_wait_full(p.pipe, sbase, pos);
                mx_convert<F, SF, NS>(stage + smma_sm90_mx_w_off(&p, r0, 64 * q),
                                      stage + smma_sm90_mx_w_off(&p, r0 + 8, 64 * q), sc, tig,
                                      kv, a);
                s90_wgmma_fence();
#pragma unroll
                for (int j = 0; j < 4; j++)
                    if (16 * (uint32_t) j < kv)
                        mx_wgmma<BN>(d, a[j], smma_sm90_mx_desc_x(&p, st, 4 * q + j),
                                     smma_sm90_scale_d(&p, kit, 4 * q + j));
                s90_wgmma_commit();
                s90_wgmma_wait<1>();
                s90_fence_regs(d);
                if (q == 0 && kit > 0)
                    pipe_release(p.pipe, sbase, prev, t);
                if (q + 1 == p.kq || u + 1 == nsub) {
                    prev = pos.slot;
                    smma_pipe_next(&p.pipe, &pos);
                }
            };

            /* The atoms in groups of MX_GROUP: the scales of a group (NW
             * words a row) are loaded as the group before begins, one
             * group ahead, so that their load from memory is never in the
             * chain of the atoms (read two atoms ahead, a 512-byte block
             * of the 128x4 layout missing in L2 held each atom for the
             * latency of memory: the kernel took the same time for MXFP4
             * as for MXFP8). */
            mx_scale_words<NW>(p, x.sa, g0, g1, 0, cw);
            for (u = 0; u < nsub; u += MX_GROUP(BN)) {
                if (u + MX_GROUP(BN) < nsub)
                    mx_scale_words<NW>(p, x.sa, g0, g1, (u + MX_GROUP(BN)) * NS / 4, nw);
#pragma unroll
                for (int j = 0; j < MX_GROUP(BN); j++) {
                    uint32_t sc[2][NS];

                    if (u + j >= nsub)
                        break;
#pragma unroll
                    for (int h = 0; h < 2; h++)
#pragma unroll
                        for (int i = 0; i < NS; i++)
                            sc[h][i] = cw[h][(j * NS + i) / 4] >> (8 * ((j * NS + i) % 4)) & 0xffu;
                    step(j % 2 ? a1 : a0, sc, u + j);
                }
#pragma unroll
                for (int h = 0; h < 2; h++)
#pragma unroll
                    for (int i = 0; i < NW; i++)
                        cw[h][i] = nw[h][i];
            }
            s90_wgmma_wait<0>();
            s90_fence_regs(d);
            pipe_release(p.pipe, sbase, prev, t);
            if (inside)
                mx_store(p, x.d, d, t, m0, n0);
        }
    }
    /* No CTA leaves while its peer may still release its slots or
     * multicast into it. */
    if (cluster > 1)
        pipe_cluster_sync();
#else
    (void) plan;
    (void) maps;
    (void) x;
    __trap(); /* smma_sm90_ready refuses to launch this */
#endif
}

namespace {

template <int F, int SF, int BN>
const void *
mx_pick_c(const smma_sm90_plan *p)
{
    return p->c_kind != SMMA_PIPE_NONE ? (const void *) s90_gemm_mixed<F, SF, BN, 1>
                                       : (const void *) s90_gemm_mixed<F, SF, BN, 0>;
}

template <int F, int SF>
const void *
mx_pick_bn(const smma_sm90_plan *p)
{
    switch (p->bn) {
    case 8: return mx_pick_c<F, SF, 8>(p);
    case 16: return mx_pick_c<F, SF, 16>(p);
    case 32: return mx_pick_c<F, SF, 32>(p);
    case 64: return mx_pick_c<F, SF, 64>(p);
    case 128: return mx_pick_c<F, SF, 128>(p);
    case 256: return mx_pick_c<F, SF, 256>(p);
    default: return NULL;
    }
}

} /* namespace */

const void *
s90_mixed_kernel(const smma_sm90_plan *p)
{
    if ((p->kq != 1 && p->kq != 2 && p->kq != 4) || p->bk != 64 * p->kq || p->wgs != 1)
        return NULL;
    if (p->sf_fmt == SMMA_UE4M3)
        return p->a_fmt == SMMA_E2M1 && p->vshift == 4 ? mx_pick_bn<CV_E2M1, CV_UE4M3>(p) : NULL;
    if (p->sf_fmt != SMMA_E8M0 || p->vshift != 5)
        return NULL;
    switch (p->a_fmt) {
    case SMMA_E2M1: return mx_pick_bn<CV_E2M1, CV_E8M0>(p);
    case SMMA_E4M3: return mx_pick_bn<CV_E4M3, CV_E8M0>(p);
    case SMMA_E5M2: return mx_pick_bn<CV_E5M2, CV_E8M0>(p);
    case SMMA_E2M3: return mx_pick_bn<CV_E2M3, CV_E8M0>(p);
    case SMMA_E3M2: return mx_pick_bn<CV_E3M2, CV_E8M0>(p);
    default: return NULL;
    }
}

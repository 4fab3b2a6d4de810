/*
 * gpu/sm90/dev.cuh - the PTX of the sm_90a kernels beyond the shared
 * pipeline (gpu/pipe.cuh): wgmma.mma_async with A and B from shared memory
 * through descriptors, its fence / commit / wait, setmaxnreg; and the steps
 * both sm90 kernels share (the TMA boxes of a k-step, C into the
 * accumulator, D from the registers).  CUDA C++ only; the instructions
 * exist in the sm_90a build alone (SMMA_SM90_WG, __CUDA_ARCH_FEAT_SM90_ALL),
 * elsewhere the kernels compile to stubs that their launchers never start
 * (smma_sm90_ready).
 *
 * The addresses and descriptors these functions take come from plan.h;
 * nothing here computes one.  The accumulator registers d[0 .. N/2 - 1]
 * hold D as softmma/wgmma_addr.h says (smma_sm90_d_cell).
 */
#ifndef SOFTMMA_GPU_SM90_DEV_CUH
#define SOFTMMA_GPU_SM90_DEV_CUH 1

#include <stdint.h>

#include "../pipe.cuh"
#include "kernels.h"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define SMMA_SM90_WG 1
#endif

#if defined(SMMA_SM90_WG)

/* "wgmma.fence": orders the warpgroup's earlier register accesses of the
 * accumulators before the wgmma that follow. */
static __device__ __forceinline__ void
s90_wgmma_fence(void)
{
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

/* The wgmma issued since the last commit form one group. */
static __device__ __forceinline__ void
s90_wgmma_commit(void)
{
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

/* Waits until at most N groups of the warpgroup are pending. */
template <int N>
static __device__ __forceinline__ void
s90_wgmma_wait(void)
{
    asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(N) : "memory");
}

/* The accumulator registers as operands the asm may not move: the
 * compiler keeps them in registers across the asynchronous wgmma. */
template <int R>
static __device__ __forceinline__ void
s90_fence_regs(uint32_t (&d)[R])
{
#pragma unroll
    for (int i = 0; i < R; i++)
        asm volatile("" : "+r"(d[i]) :: "memory");
}

/* Gives this warpgroup's registers back (producer) or takes more
 * (consumers); the kernel must start with a register cap
 * (__launch_bounds__(threads, 1)). */
template <int N>
static __device__ __forceinline__ void
s90_setmaxnreg_dec(void)
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" :: "n"(N));
}

template <int N>
static __device__ __forceinline__ void
s90_setmaxnreg_inc(void)
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" :: "n"(N));
}

#define S90_D8(d, i) "+r"(d[i]), "+r"(d[i + 1]), "+r"(d[i + 2]), "+r"(d[i + 3]), \
    "+r"(d[i + 4]), "+r"(d[i + 5]), "+r"(d[i + 6]), "+r"(d[i + 7])

/* N = 128: d %0-%63, desc-a %64, desc-b %65, scale-d %66, imm-trans-b %67. */
#define S90_N128_D \
    "{" \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "\
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, "\
    "%30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, "\
    "%44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, "\
    "%58, %59, %60, %61, %62, %63" \
    "}"
#define S90_N128_OUT \
    S90_D8(d, 0), S90_D8(d, 8), S90_D8(d, 16), S90_D8(d, 24), S90_D8(d, 32), \
    S90_D8(d, 40), S90_D8(d, 48), S90_D8(d, 56)

/* N = 256: d %0-%127, desc-a %128, desc-b %129, scale-d %130, imm-trans-b %131. */
#define S90_N256_D \
    "{" \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "\
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, "\
    "%30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, "\
    "%44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, "\
    "%58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, "\
    "%72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, "\
    "%86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, "\
    "%100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "\
    "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, "\
    "%124, %125, %126, %127" \
    "}"
#define S90_N256_OUT \
    S90_D8(d, 0), S90_D8(d, 8), S90_D8(d, 16), S90_D8(d, 24), S90_D8(d, 32), \
    S90_D8(d, 40), S90_D8(d, 48), S90_D8(d, 56), S90_D8(d, 64), S90_D8(d, 72), \
    S90_D8(d, 80), S90_D8(d, 88), S90_D8(d, 96), S90_D8(d, 104), S90_D8(d, 112), \
    S90_D8(d, 120)

/* The operands after the accumulators: desc-a, desc-b, the predicate
 * scale-d, imm-scale-a = imm-scale-b = 1, imm-trans-a = 0, imm-trans-b;
 * and the register that holds scale-d. */
#define S90_N128_REST "%64, %65, p, 1, 1, 0, %67"
#define S90_N128_SD "%66"
#define S90_N256_REST "%128, %129, p, 1, 1, 0, %131"
#define S90_N256_SD "%130"

/* One wgmma: scale-d from a register into a predicate, then the
 * instruction. */
#define S90_WGMMA(SHAPE_TYPES, D, REST, SD)                                               \
    "{\n.reg .pred p;\nsetp.ne.b32 p, " SD ", 0;\n"                                       \
    "wgmma.mma_async.sync.aligned." SHAPE_TYPES " " D ", " REST ";\n}\n"

/*
 * D (64 x N, the f32 bits in registers d) = A (64 x 16 from the descriptor da) times B
 * (16 x N from db), plus D when scale_d != 0: one
 * wgmma.mma_async.sync.aligned.m64nNk16.f32.T.T, T bf16 or f16 (FP16),
 * B N-major when TRANS_B.  Asynchronous: the caller fences, commits and
 * waits.
 */
template <int N, int FP16, int TRANS_B>
static __device__ __forceinline__ void
s90_wgmma(uint32_t (&d)[N / 2], uint64_t da, uint64_t db, uint32_t scale_d)
{
    if constexpr (N == 256) {
        if constexpr (FP16)
            asm volatile(S90_WGMMA("m64n256k16.f32.f16.f16", S90_N256_D, S90_N256_REST,
                                   S90_N256_SD)
                         : S90_N256_OUT : "l"(da), "l"(db), "r"(scale_d), "n"(TRANS_B));
        else
            asm volatile(S90_WGMMA("m64n256k16.f32.bf16.bf16", S90_N256_D, S90_N256_REST,
                                   S90_N256_SD)
                         : S90_N256_OUT : "l"(da), "l"(db), "r"(scale_d), "n"(TRANS_B));
    } else {
        static_assert(N == 128, "N is 128 or 256");
        if constexpr (FP16)
            asm volatile(S90_WGMMA("m64n128k16.f32.f16.f16", S90_N128_D, S90_N128_REST,
                                   S90_N128_SD)
                         : S90_N128_OUT : "l"(da), "l"(db), "r"(scale_d), "n"(TRANS_B));
        else
            asm volatile(S90_WGMMA("m64n128k16.f32.bf16.bf16", S90_N128_D, S90_N128_REST,
                                   S90_N128_SD)
                         : S90_N128_OUT : "l"(da), "l"(db), "r"(scale_d), "n"(TRANS_B));
    }
}

/* fp8: d %0-%63, desc-a %64, desc-b %65, scale-d %66 (0: from zero); no
 * transposes (fp8 wgmma reads K-major A and B only). */
#define S90_N128_REST_FP8 "%64, %65, p, 1, 1"

/*
 * D (64 x 128, f32) = A (64 x 32 e4m3 or e5m2 from da) times B (32 x 128
 * from db), from zero (scale-d 0): one
 * wgmma.mma_async.sync.aligned.m64n128k32.f32.TA.TB (AE5, BE5: e5m2).
 * Asynchronous like s90_wgmma.  d's registers are operands in and out (as
 * the accumulators of s90_wgmma), so the caller defines them before the
 * first wgmma of each tile.
 */
template <int AE5, int BE5>
static __device__ __forceinline__ void
s90_wgmma_fp8_zero(uint32_t (&d)[64], uint64_t da, uint64_t db)
{
#define S90_FP8(T)                                                                          \
    asm volatile(S90_WGMMA("m64n128k32.f32." T, S90_N128_D, S90_N128_REST_FP8, S90_N128_SD) \
                 : S90_N128_OUT : "l"(da), "l"(db), "r"(0u))
    if constexpr (!AE5 && !BE5)
        S90_FP8("e4m3.e4m3");
    else if constexpr (!AE5)
        S90_FP8("e4m3.e5m2");
    else if constexpr (!BE5)
        S90_FP8("e5m2.e4m3");
    else
        S90_FP8("e5m2.e5m2");
#undef S90_FP8
}

/* The plan with the fields that give the operands' width as the
 * constants they are in the kernel at hand: 16-bit operands (v1, v2:
 * k-steps of 64 elements, no promotion) or fp8 (sm90-promote32: k-steps of
 * 128, promotion), so that the plan's functions fold as if written for
 * them.  (A runtime element width in the ragged k-step's wgmma count is
 * enough for ptxas to inject warpgroup.arrive, C7519, and in v1 to
 * serialize the wgmma, C7520.) */
template <int EBYTES>
static __device__ __forceinline__ smma_sm90_plan
s90_plan_for(const smma_sm90_plan &in)
{
    smma_sm90_plan p = in;

    p.ebytes = EBYTES;
    p.bk = SMMA_SM90_ROWB / EBYTES;
    p.promote = EBYTES == 1;
    return p;
}

/* ---- the steps the kernels share ------------------------------------------------------- */

/* The four wgmma of warpgroup wg for a whole k-step kit in the stage slot
 * at shared address st, in k order, as one group (fence, the wgmma,
 * commit); nothing between them touches the accumulator, so they issue
 * back to back. */
template <int BN, int FP16, int TRANS_B>
static __device__ __forceinline__ void
s90_kstep(const smma_sm90_plan &p, uint32_t (&d)[BN / 2], uint32_t st, uint32_t wg, uint32_t kit)
{
    s90_wgmma_fence();
#pragma unroll
    for (uint32_t j = 0; j < SMMA_SM90_K16; j++)
        s90_wgmma<BN, FP16, TRANS_B>(d, smma_sm90_desc_a(&p, st, wg, j),
                                     smma_sm90_desc_b(&p, st, j), smma_sm90_scale_d(&p, kit, j));
    s90_wgmma_commit();
}

/* The same for a ragged last k-step: its first nk wgmma only. */
template <int BN, int FP16, int TRANS_B>
static __device__ __forceinline__ void
s90_kstep_short(const smma_sm90_plan &p, uint32_t (&d)[BN / 2], uint32_t st, uint32_t wg,
                uint32_t kit, uint32_t nk)
{
    s90_wgmma_fence();
#pragma unroll
    for (uint32_t j = 0; j < SMMA_SM90_K16; j++)
        if (j < nk)
            s90_wgmma<BN, FP16, TRANS_B>(d, smma_sm90_desc_a(&p, st, wg, j),
                                         smma_sm90_desc_b(&p, st, j),
                                         smma_sm90_scale_d(&p, kit, j));
    s90_wgmma_commit();
}

/* The TMA boxes of k-step kit of the tile at (m0, n0) into the stage slot
 * at shared address st, completing on the barrier at full (one thread, after
 * its arrive.expect_tx); CTA `rank` of a cluster of two multicasts its half
 * of B to both. */
static __device__ __forceinline__ void
s90_load_kstep(const smma_sm90_plan &p, const s90_maps &maps, uint32_t st, uint32_t full,
               uint32_t m0, uint32_t n0, uint32_t kit, uint32_t rank)
{
    uint32_t i, off;

    for (i = 0; i < smma_sm90_nboxes(&p); i++) {
        unsigned map;
        int32_t c[2];

        if (smma_sm90_box(&p, i, m0, n0, kit, rank, &map, c, &off))
            pipe_tma_2d_mc(st + off, &maps.m[map], c[0], c[1], full,
                           (uint16_t) ((1u << p.pipe.cluster) - 1));
        else
            pipe_tma_2d(st + off, &maps.m[map], c[0], c[1], full);
    }
}

/* Warpgroup wg's fix-up of a ragged k-step kit in the stage at smem (thread
 * t of 128): -0 into A's columns past K up to the end of their 16-k block.
 * The caller fences the asynchronous proxy and synchronizes the warpgroup
 * before wgmma reads the stage. */
static __device__ __forceinline__ void
s90_fixup(const smma_sm90_plan &p, uint8_t *smem, uint32_t kit, uint32_t wg, uint32_t t)
{
    uint32_t n = 64 * smma_sm90_fix_cols(&p, kit), i;

    for (i = t; i < n; i += 128)
        *(uint16_t *) (smem + smma_sm90_fix_off(&p, kit, wg, i)) = (uint16_t) SMMA_SM90_NEG_ZERO;
}

/* What a consumer does before it waits for a slot: nothing (sm90-v2). */
struct s90_no_pre {
    __device__ __forceinline__ void operator()(uint32_t, uint32_t) const {}
};

/*
 * The k-steps of one tile for consumer warpgroup wg (thread t) on the ring
 * `ring`, whose slot s lies at shared address base + s * ring.stage_bytes
 * (at smem_ring + ... in the generic space), from position *pos: the
 * whole k-steps, four wgmma each with one group in flight behind the one
 * just issued (the previous k-step's slot is released once its group is
 * done); a ragged last k-step with only the wgmma that hold a k below K,
 * after the fix-up when FIXUP (v2; sm90-bs's converters write those -0
 * themselves); then every group completed and the last slot released.
 * Before each wait, pre(k-step, slot) does the consumer's own share of
 * filling the slot (sm90-bs: its rows of A).
 */
template <int BN, int FP16, int TRANS_B, bool FIXUP, class PRE>
static __device__ __forceinline__ void
s90_mainloop(const smma_sm90_plan &p, const smma_pipe &ring, uint32_t sbase, uint32_t base,
             uint8_t *smem_ring, uint32_t (&d)[BN / 2], smma_pipe_pos *pos, uint32_t wg,
             uint32_t t, PRE &pre)
{
    uint32_t kfull = smma_sm90_full_ksteps(&p), kit, prev = 0;

    for (kit = 0; kit < kfull; kit++, smma_pipe_next(&ring, pos)) {
        pre(kit, pos->slot);
        pipe_wait_full(ring, sbase, *pos);
        s90_kstep<BN, FP16, TRANS_B>(p, d, base + pos->slot * ring.stage_bytes, wg, kit);
        s90_wgmma_wait<1>();
        s90_fence_regs(d);
        if (kit > 0)
            pipe_release(ring, sbase, prev, t);
        prev = pos->slot;
    }
    if (kfull < p.pipe.kiters) {
        uint32_t st = base + pos->slot * ring.stage_bytes;

        pre(kfull, pos->slot);
        pipe_wait_full(ring, sbase, *pos);
        if (FIXUP && smma_sm90_fix_cols(&p, kfull) != 0) {
            s90_fixup(p, smem_ring + pos->slot * ring.stage_bytes, kfull, wg, t);
            pipe_fence_async_smem();
            pipe_named_sync(1 + wg, 128);
        }
        s90_kstep_short<BN, FP16, TRANS_B>(p, d, st, wg, kfull, smma_sm90_nmma(&p, kfull));
        s90_wgmma_wait<1>();
        s90_fence_regs(d);
        if (kfull > 0)
            pipe_release(ring, sbase, prev, t);
        prev = pos->slot;
        smma_pipe_next(&ring, pos);
    }
    s90_wgmma_wait<0>();
    s90_fence_regs(d);
    pipe_release(ring, sbase, prev, t);
}

/* The accumulator of thread t of warpgroup wg for the tile at (m0, n0)
 * from C (fp32, the only C the sm90 kernels take; 0 outside the matrix).
 * The kernels are built with and without C: without it nothing touches the
 * registers before the first wgmma of a tile, which does not add them
 * (scale-d 0).  A register the wgmma chain starts from that two paths
 * define, or that a load (an instruction of variable latency) defines,
 * makes ptxas serialize the chain (its warning C7515): every register is
 * loaded (from C's first element where the cell lies outside) into a
 * register of its own, selected and moved. */
template <int R>
static __device__ __forceinline__ void
s90_load_c(const smma_sm90_plan &p, const void *c, uint32_t (&d)[R], uint32_t wg, uint32_t t,
           uint32_t m0, uint32_t n0)
{
    const uint32_t *src = (const uint32_t *) c;
    uint32_t row, col, v[4];

    /* Four registers at a time, so that the loaded values and the
     * accumulator fit the registers together. */
#pragma unroll
    for (int r0 = 0; r0 < R; r0 += 4) {
#pragma unroll
        for (int r = 0; r < 4; r++) {
            bool in;

            smma_sm90_d_cell(wg, t, r0 + r, &row, &col);
            in = m0 + row < p.m && n0 + col < p.n;
            v[r] = __ldg(src + (in ? (uint64_t) (m0 + row) * p.c_ld + n0 + col : 0));
            v[r] = in ? v[r] : 0;
        }
#pragma unroll
        for (int r = 0; r < 4; r++)
            asm volatile("mov.b32 %0, %1;" : "=r"(d[r0 + r]) : "r"(v[r]));
    }
}

/* D from the registers of thread t of warpgroup wg, element by element,
 * inside the matrix only (the epilogue of v1, and of v2 where D's rows are
 * not 16-byte aligned). */
template <int R>
static __device__ __forceinline__ void
s90_store_regs(const smma_sm90_plan &p, void *dst, const uint32_t (&d)[R], uint32_t wg,
               uint32_t t, uint32_t m0, uint32_t n0)
{
    uint32_t row, col, v;

#pragma unroll
    for (int r = 0; r < R; r++) {
        smma_sm90_d_cell(wg, t, r, &row, &col);
        if (m0 + row >= p.m || n0 + col >= p.n)
            continue;
        v = pipe_epilogue(p.has_alpha, p.alpha, p.d_kind, d[r]);
        if (p.d_kind == SMMA_PIPE_F32)
            ((uint32_t *) dst)[(uint64_t) (m0 + row) * p.d_ld + n0 + col] = v;
        else
            ((uint16_t *) dst)[(uint64_t) (m0 + row) * p.d_ld + n0 + col] = (uint16_t) v;
    }
}

/* D of one consumer warpgroup (wg 0 or 1 of the tile) through its two
 * epilogue buffers: chunk q (CW columns: 128 bytes of D) of the
 * registers, converted (D's kind KIND, alpha or not: chosen once per tile),
 * into buffer *ebuf % 2 at plan.h's swizzled offsets, then one TMA store of
 * that box.  Before a buffer is written again, the thread that issued its
 * store waits until the store has read it. */
template <int BN, uint32_t KIND, bool ALPHA>
static __device__ __forceinline__ void
s90_epilogue_tma(const smma_sm90_plan &p, const s90_maps &maps, uint8_t *smem, uint32_t sbase,
                const uint32_t (&d)[BN / 2], uint32_t wg, uint32_t t, uint32_t m0, uint32_t n0,
                uint32_t *ebuf)
{
    constexpr int CW = KIND == SMMA_PIPE_F32 ? 32 : 64;
    constexpr int REGS = CW / 2;        /* registers of a thread per chunk */
    uint32_t row, col;

#pragma unroll
    for (int q = 0; q < BN / CW; q++) {
        uint32_t buf = *ebuf & 1u;
        int32_t c[2];

        if (t == 0)
            pipe_bulk_wait_read<1>();
        pipe_named_sync(1 + wg, 128);
#pragma unroll
        for (int r = q * REGS; r < (q + 1) * REGS; r += 2) {
            uint32_t v0 = pipe_epi<KIND, ALPHA>(p.alpha, d[r]);
            uint32_t v1 = pipe_epi<KIND, ALPHA>(p.alpha, d[r + 1]);

            smma_sm90_d_cell(0, t, (uint32_t) r, &row, &col);
            if (KIND == SMMA_PIPE_F32)
                *(uint2 *) (smem + smma_sm90_epi_off(&p, wg, buf, row, col - q * CW)) =
                    make_uint2(v0, v1);
            else
                *(uint32_t *) (smem + smma_sm90_epi_off(&p, wg, buf, row, col - q * CW)) =
                    v0 | v1 << 16;
        }
        /* Generic-proxy writes, read next by the TMA store. */
        pipe_fence_async_smem();
        pipe_named_sync(1 + wg, 128);
        if (t == 0) {
            smma_sm90_epi_coord(&p, m0, n0, wg, (uint32_t) q, c);
            pipe_tma_store_2d(&maps.m[SMMA_SM90_MAP_D], c[0], c[1],
                              sbase + smma_sm90_epi_off(&p, wg, buf, 0, 0));
            pipe_bulk_commit();
        }
        (*ebuf)++;
    }
}

/* The epilogue of a tile (v2, sm90-promote32): through the TMA-store buffers in the case of D
 * and alpha the plan has, or from the registers where D's rows are not
 * 16-byte aligned. */
template <int BN>
static __device__ __forceinline__ void
s90_epilogue(const smma_sm90_plan &p, const s90_maps &maps, const s90_bufs &x, uint8_t *smem,
            uint32_t sbase, const uint32_t (&d)[BN / 2], uint32_t wg, uint32_t t, uint32_t m0,
            uint32_t n0, uint32_t *ebuf)
{
    if (!p.epi_tma)
        s90_store_regs(p, x.d, d, wg, t, m0, n0);
    else if (p.has_alpha && p.d_kind == SMMA_PIPE_F32)
        s90_epilogue_tma<BN, SMMA_PIPE_F32, true>(p, maps, smem, sbase, d, wg, t, m0, n0, ebuf);
    else if (p.has_alpha && p.d_kind == SMMA_PIPE_BF16)
        s90_epilogue_tma<BN, SMMA_PIPE_BF16, true>(p, maps, smem, sbase, d, wg, t, m0, n0, ebuf);
    else if (p.has_alpha)
        s90_epilogue_tma<BN, SMMA_PIPE_F16, true>(p, maps, smem, sbase, d, wg, t, m0, n0, ebuf);
    else if (p.d_kind == SMMA_PIPE_F32)
        s90_epilogue_tma<BN, SMMA_PIPE_F32, false>(p, maps, smem, sbase, d, wg, t, m0, n0, ebuf);
    else if (p.d_kind == SMMA_PIPE_BF16)
        s90_epilogue_tma<BN, SMMA_PIPE_BF16, false>(p, maps, smem, sbase, d, wg, t, m0, n0, ebuf);
    else
        s90_epilogue_tma<BN, SMMA_PIPE_F16, false>(p, maps, smem, sbase, d, wg, t, m0, n0, ebuf);
}

/* The first nb bytes at src, little-endian into w (the rest 0): the last
 * unit of a row in the conversion passes (s90_bs_pre, s90_p32_pre), which
 * reads no byte past the row. */
template <int N>
static __device__ __forceinline__ void
s90_pre_tail(const uint8_t *src, uint32_t nb, uint32_t (&w)[N])
{
#pragma unroll
    for (int i = 0; i < N; i++)
        w[i] = 0;
    for (uint32_t i = 0; i < nb; i++)
        w[i / 4] |= (uint32_t) src[i] << (8 * (i % 4));
}

#endif /* SMMA_SM90_WG */

#endif /* SOFTMMA_GPU_SM90_DEV_CUH */

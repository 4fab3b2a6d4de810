/*
 * gpu/sm100/dev.cuh - the PTX the sm_100 kernels and the TMA probe issue,
 * as small device functions: mbarriers, TMA (cp.async.bulk.tensor),
 * tcgen05 (alloc, cp, mma, commit, ld, st, fences), the proxy fence, and
 * the epilogue's conversions.  CUDA C++ only.
 *
 * Which code exists where:
 *   SMMA_SM100_TMA   mbarrier transaction counts and TMA: sm_90a and
 *                    sm_100a builds (the H100 probe runs this part);
 *   SMMA_SM100_TC05  tcgen05: the sm_100a build only (__CUDA_ARCH__ >= 1000
 *                    and __CUDA_ARCH_FEAT_SM100_ALL, which nvcc 13 defines
 *                    for compute_100a).
 * Elsewhere the kernels compile to stubs that set a flag (the launchers
 * also refuse to launch code built for another architecture).
 *
 * The addresses these functions take are computed by plan.h; nothing here
 * computes one.
 */
#ifndef SOFTMMA_GPU_SM100_DEV_CUH
#define SOFTMMA_GPU_SM100_DEV_CUH 1

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <stdint.h>

#include "plan.h"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000 && defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define SMMA_SM100_TC05 1
#endif
#if defined(SMMA_SM100_TC05) \
    || (defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL))
#define SMMA_SM100_TMA 1
#endif

/* The generic address of shared memory as the 32-bit shared address. */
static __device__ __forceinline__ uint32_t
s100_smem(const void *p)
{
    return (uint32_t) __cvta_generic_to_shared(p);
}

/* The dynamic shared memory of a kernel, aligned up to 1024 bytes (the
 * 128B swizzle pattern repeats every 1024 bytes of address, and the plan
 * takes stage bases at multiples of 1024). */
static __device__ __forceinline__ uint8_t *
s100_smem_base(uint8_t *dyn)
{
    uint32_t a = s100_smem(dyn);

    return dyn + ((1024u - (a & 1023u)) & 1023u);
}

#if defined(SMMA_SM100_TMA)

/* ---- mbarriers ------------------------------------------------------------------- */

static __device__ __forceinline__ void
s100_bar_init(uint32_t bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}

/* Makes the initialized barriers visible to the other threads and to the
 * asynchronous proxy (TMA's complete_tx, tcgen05.commit). */
static __device__ __forceinline__ void
s100_bar_init_fence(void)
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

static __device__ __forceinline__ void
s100_bar_arrive(uint32_t bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(bar) : "memory");
}

/* One arrival that also expects tx bytes of asynchronous writes. */
static __device__ __forceinline__ void
s100_bar_arrive_tx(uint32_t bar, uint32_t tx)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar), "r"(tx)
                 : "memory");
}

/* Waits until the phase of the given parity has completed. */
static __device__ __forceinline__ void
s100_bar_wait(uint32_t bar, uint32_t parity)
{
    uint32_t done = 0;

    while (!done)
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
}

/* Generic-proxy writes to shared memory, then read by the asynchronous
 * proxy (tcgen05.mma, tcgen05.cp). */
static __device__ __forceinline__ void
s100_fence_async_smem(void)
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

/* ---- TMA ---------------------------------------------------------------------------- */

/* One 2-D box of the tensor map at coordinates (x0, x1) to shared memory
 * dst, completing tx bytes on the barrier. */
static __device__ __forceinline__ void
s100_tma_2d(uint32_t dst, const void *map, int32_t x0, int32_t x1, uint32_t bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
                 "[%0], [%1, {%2, %3}], [%4];"
                 :: "r"(dst), "l"(map), "r"(x0), "r"(x1), "r"(bar) : "memory");
}

static __device__ __forceinline__ void
s100_tma_4d(uint32_t dst, const void *map, int32_t x0, int32_t x1, int32_t x2, int32_t x3,
            uint32_t bar)
{
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes "
                 "[%0], [%1, {%2, %3, %4, %5}], [%6];"
                 :: "r"(dst), "l"(map), "r"(x0), "r"(x1), "r"(x2), "r"(x3), "r"(bar)
                 : "memory");
}

static __device__ __forceinline__ void
s100_tma_prefetch_map(const void *map)
{
    asm volatile("prefetch.tensormap [%0];" :: "l"(map) : "memory");
}

#endif /* SMMA_SM100_TMA */

/* ---- the epilogue's arithmetic (any architecture) ------------------------------------- */

/* C[i][j] as the fp32 bits the accumulator starts from: fp32 as is, bf16
 * and fp16 widened exactly. */
static __device__ __forceinline__ uint32_t
s100_c_bits(const void *c, uint64_t idx, uint32_t kind)
{
    if (kind == SMMA_SM100_F32)
        return ((const uint32_t *) c)[idx];
    if (kind == SMMA_SM100_BF16)
        return (uint32_t) ((const uint16_t *) c)[idx] << 16;
    return __float_as_uint(__half2float(__ushort_as_half(((const uint16_t *) c)[idx])));
}

/* D from the accumulator's fp32 bits: rn_fp32(alpha * acc) when there is
 * an alpha (a NaN product is the canonical 0x7fffffff), then to nearest
 * into bf16 or fp16 (NaN: 0x7fff, the canonical NaN of softmma/gemm.h). */
static __device__ __forceinline__ uint32_t
s100_epilogue(const smma_sm100_plan &p, uint32_t acc)
{
    uint32_t x = acc;
    float f;

    if (p.has_alpha) {
        f = __fmul_rn(__uint_as_float(p.alpha), __uint_as_float(acc));
        x = f != f ? 0x7fffffffu : __float_as_uint(f);
    }
    if (p.d_kind == SMMA_SM100_F32)
        return x;
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return 0x7fffu;
    f = __uint_as_float(x);
    if (p.d_kind == SMMA_SM100_BF16)
        return __bfloat16_as_ushort(__float2bfloat16_rn(f));
    return __half_as_ushort(__float2half_rn(f));
}

/* Stores element (row, col) of D. */
static __device__ __forceinline__ void
s100_store_d(const smma_sm100_plan &p, void *d, uint32_t row, uint32_t col, uint32_t v)
{
    uint64_t idx = (uint64_t) row * p.d_ld + col;

    if (p.d_kind == SMMA_SM100_F32)
        ((uint32_t *) d)[idx] = v;
    else
        ((uint16_t *) d)[idx] = (uint16_t) v;
}

#if defined(SMMA_SM100_TC05)

/* ---- tcgen05 -------------------------------------------------------------------------- */

/* Warp-wide: allocates ncols TMEM columns and writes the address to the
 * shared-memory slot; gives up the permit (one allocation per CTA). */
static __device__ __forceinline__ void
s100_tmem_alloc(uint32_t slot, uint32_t ncols)
{
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
                 :: "r"(slot), "r"(ncols) : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
}

static __device__ __forceinline__ void
s100_tmem_dealloc(uint32_t taddr, uint32_t ncols)
{
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" :: "r"(taddr),
                 "r"(ncols) : "memory");
}

static __device__ __forceinline__ void
s100_tc05_before_sync(void)
{
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
}

static __device__ __forceinline__ void
s100_tc05_after_sync(void)
{
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}

/* One 128x4 scale block (32 rows of 16 bytes) to four TMEM columns, every
 * 32-lane partition a copy. */
static __device__ __forceinline__ void
s100_tc05_cp(uint32_t taddr, uint64_t sdesc)
{
    asm volatile("tcgen05.cp.cta_group::1.32x128b.warpx4 [%0], %1;" :: "r"(taddr), "l"(sdesc)
                 : "memory");
}

/* tcgen05.mma, M = 128, block-scaled; accumulate when acc != 0. */
template <int KIND>
static __device__ __forceinline__ void
s100_tc05_mma(const smma_sm100_mma_ops &o, uint32_t acc)
{
    if (KIND == 4)
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %6, 0;\n\t"
                     "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X "
                     "[%0], %1, %2, %3, [%4], [%5], p;\n\t}"
                     :: "r"(o.d), "l"(o.adesc), "l"(o.bdesc), "r"(o.idesc), "r"(o.sfa),
                     "r"(o.sfb), "r"(acc) : "memory");
    else if (KIND == 5)
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %6, 0;\n\t"
                     "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.scale_vec::2X "
                     "[%0], %1, %2, %3, [%4], [%5], p;\n\t}"
                     :: "r"(o.d), "l"(o.adesc), "l"(o.bdesc), "r"(o.idesc), "r"(o.sfa),
                     "r"(o.sfb), "r"(acc) : "memory");
    else
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %6, 0;\n\t"
                     "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X "
                     "[%0], %1, %2, %3, [%4], [%5], p;\n\t}"
                     :: "r"(o.d), "l"(o.adesc), "l"(o.bdesc), "r"(o.idesc), "r"(o.sfa),
                     "r"(o.sfb), "r"(acc) : "memory");
}

/* The barrier gets one arrival when every tcgen05 operation this thread
 * issued before has completed. */
static __device__ __forceinline__ void
s100_tc05_commit(uint32_t bar)
{
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
                 :: "r"(bar) : "memory");
}

#define S100_R8(r, i) "=r"(r[i]), "=r"(r[i + 1]), "=r"(r[i + 2]), "=r"(r[i + 3]), \
    "=r"(r[i + 4]), "=r"(r[i + 5]), "=r"(r[i + 6]), "=r"(r[i + 7])
#define S100_W8(r, i) "r"(r[i]), "r"(r[i + 1]), "r"(r[i + 2]), "r"(r[i + 3]), \
    "r"(r[i + 4]), "r"(r[i + 5]), "r"(r[i + 6]), "r"(r[i + 7])

/* tcgen05.ld.32x32b.x32 (thread t, register r: lane t of the warp's
 * partition, column r) and wait. */
static __device__ __forceinline__ void
s100_tmem_ld32(uint32_t taddr, uint32_t *r)
{
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x32.b32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                 "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, "
                 "%31}, [%32];"
                 : S100_R8(r, 0), S100_R8(r, 8), S100_R8(r, 16), S100_R8(r, 24)
                 : "r"(taddr) : "memory");
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}

/* tcgen05.st.32x32b.x32, the same layout the other way, and wait. */
static __device__ __forceinline__ void
s100_tmem_st32(uint32_t taddr, const uint32_t *r)
{
    asm volatile("tcgen05.st.sync.aligned.32x32b.x32.b32 [%0], "
                 "{%1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                 "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                 "%32};"
                 :: "r"(taddr), S100_W8(r, 0), S100_W8(r, 8), S100_W8(r, 16), S100_W8(r, 24)
                 : "memory");
    asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
}

/* ---- the steps both kernels share ------------------------------------------------------ */

/* One k-step's tensor-core work from one thread, in stage slot `slot`
 * (shared address st): the tcgen05.cp of every scale block, then the four
 * tcgen05.mma into accumulator `acc`, the first of a tile without C
 * starting from zero.  The same thread issues both, so the copies are
 * ordered before the MMAs that read them. */
template <int KIND>
static __device__ __forceinline__ void
s100_issue_kstep(const smma_sm100_plan &p, uint32_t slot, uint32_t st, uint32_t tbase,
                 uint32_t acc, uint32_t kit)
{
    uint32_t j;

    for (j = 0; j < smma_sm100_ncp(&p); j++) {
        uint64_t sdesc;
        uint32_t taddr;

        smma_sm100_cp(&p, slot, j, st, tbase, &sdesc, &taddr);
        s100_tc05_cp(taddr, sdesc);
    }
    for (j = 0; j < SMMA_SM100_MMAS; j++) {
        smma_sm100_mma_ops o;

        smma_sm100_mma(&p, slot, j, st, tbase, acc, &o);
        s100_tc05_mma<KIND>(o, p.c_kind != SMMA_SM100_NONE || kit > 0 || j > 0);
    }
}

/* The warp of lane partition `part` stores its 32 rows of C (0 outside
 * the matrix) into the accumulator at TMEM address dacc with
 * tcgen05.st.32x32b.x32, for the tile at (m0, n0). */
static __device__ __forceinline__ void
s100_load_c(const smma_sm100_plan &p, const void *c, uint32_t dacc, uint32_t part, uint32_t lane,
            uint32_t m0, uint32_t n0)
{
    uint32_t chunk, r, row, col, regs[32];

    for (chunk = 0; chunk < p.bn / 32; chunk++) {
        for (r = 0; r < 32; r++) {
            smma_sm100_epi_cell(part, chunk, lane, r, &row, &col);
            regs[r] = m0 + row < p.m && n0 + col < p.n
                      ? s100_c_bits(c, (uint64_t) (m0 + row) * p.c_ld + n0 + col, p.c_kind)
                      : 0;
        }
        s100_tmem_st32(dacc + smma_sm100_epi_taddr(part, chunk), regs);
    }
}

#endif /* SMMA_SM100_TC05 */

/* ---- the fix-up of a ragged last k-step (any architecture) --------------------------- */

/* Thread `t` of `nt` writes its share of the fix-up of k-step kit into the
 * stage at `stage` (plan.h); the caller orders it after the stage's loads
 * and, before tcgen05 reads it, fences the asynchronous proxy. */
static __device__ __forceinline__ void
s100_fixup(const smma_sm100_plan &p, uint32_t kit, uint8_t *stage, uint32_t t, uint32_t nt)
{
    uint32_t n = smma_sm100_fix_count(&p, kit), i, off, val;

    for (i = t; i < n; i += nt) {
        smma_sm100_fix_item(&p, kit, i, &off, &val);
        stage[off] = (uint8_t) val;
    }
}

#endif /* SOFTMMA_GPU_SM100_DEV_CUH */

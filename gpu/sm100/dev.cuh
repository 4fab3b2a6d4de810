/*
 * gpu/sm100/dev.cuh - the PTX the sm_100 kernels issue beyond the shared
 * pipeline (gpu/pipe.cuh: mbarriers, TMA, the proxy fence, the producer,
 * the epilogue's arithmetic), as small device functions: tcgen05 (alloc,
 * cp, mma, commit, ld, st, fences) and the steps both sm_100 kernels
 * share.  CUDA C++ only.
 *
 * Which code exists where:
 *   SMMA_PIPE_TMA    mbarrier transaction counts and TMA: sm_90a and
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

#include "../pipe.cuh"
#include "plan.h"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000 && defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define SMMA_SM100_TC05 1
#endif

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

/* Every tcgen05 instruction of a kernel takes one cta_group (ptxas refuses
 * a kernel that mixes ::1 and ::2): CG is 1 for sm100-v1 and v2, 2 for
 * sm100-v3, whose instructions act on both CTAs of a pair. */

/* Warp-wide: allocates ncols TMEM columns and writes the address to the
 * shared-memory slot; gives up the permit (one allocation per CTA).  With
 * CG 2 one warp of each CTA of the pair executes it, and both get the same
 * columns. */
template <int CG = 1>
static __device__ __forceinline__ void
s100_tmem_alloc(uint32_t slot, uint32_t ncols)
{
    if (CG == 1) {
        asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;"
                     :: "r"(slot), "r"(ncols) : "memory");
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
    } else {
        asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;"
                     :: "r"(slot), "r"(ncols) : "memory");
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;" ::: "memory");
    }
}

template <int CG = 1>
static __device__ __forceinline__ void
s100_tmem_dealloc(uint32_t taddr, uint32_t ncols)
{
    if (CG == 1)
        asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" :: "r"(taddr),
                     "r"(ncols) : "memory");
    else
        asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;" :: "r"(taddr),
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
 * 32-lane partition a copy (CG 2: in each CTA of the pair, from its own
 * shared memory). */
template <int CG = 1>
static __device__ __forceinline__ void
s100_tc05_cp(uint32_t taddr, uint64_t sdesc)
{
    if (CG == 1)
        asm volatile("tcgen05.cp.cta_group::1.32x128b.warpx4 [%0], %1;" :: "r"(taddr),
                     "l"(sdesc) : "memory");
    else
        asm volatile("tcgen05.cp.cta_group::2.32x128b.warpx4 [%0], %1;" :: "r"(taddr),
                     "l"(sdesc) : "memory");
}

/* The text of a block-scaled tcgen05.mma with the predicate of enable-input-d
 * from operand 6, and its operands. */
#define S100_MMA_ASM(cg, kind, vec)                                                         \
    "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %6, 0;\n\ttcgen05.mma.cta_group::" cg ".kind::" kind \
    ".block_scale.scale_vec::" vec " [%0], %1, %2, %3, [%4], [%5], p;\n\t}"
#define S100_MMA_OPS(o, acc)                                                                \
    "r"(o.d), "l"(o.adesc), "l"(o.bdesc), "r"(o.idesc), "r"(o.sfa), "r"(o.sfb), "r"(acc)

/* tcgen05.mma, block-scaled, M = 128 (CG 1) or 256 over the pair (CG 2);
 * accumulate when acc != 0. */
template <int KIND, int CG = 1>
static __device__ __forceinline__ void
s100_tc05_mma(const smma_sm100_mma_ops &o, uint32_t acc)
{
    if (KIND == 4 && CG == 1)
        asm volatile(S100_MMA_ASM("1", "mxf8f6f4", "1X") :: S100_MMA_OPS(o, acc) : "memory");
    else if (KIND == 4)
        asm volatile(S100_MMA_ASM("2", "mxf8f6f4", "1X") :: S100_MMA_OPS(o, acc) : "memory");
    else if (KIND == 5 && CG == 1)
        asm volatile(S100_MMA_ASM("1", "mxf4", "2X") :: S100_MMA_OPS(o, acc) : "memory");
    else if (KIND == 5)
        asm volatile(S100_MMA_ASM("2", "mxf4", "2X") :: S100_MMA_OPS(o, acc) : "memory");
    else if (CG == 1)
        asm volatile(S100_MMA_ASM("1", "mxf4nvf4", "4X") :: S100_MMA_OPS(o, acc) : "memory");
    else
        asm volatile(S100_MMA_ASM("2", "mxf4nvf4", "4X") :: S100_MMA_OPS(o, acc) : "memory");
}

/* The barrier gets one arrival when every tcgen05 operation this thread
 * issued before has completed. */
static __device__ __forceinline__ void
s100_tc05_commit(uint32_t bar)
{
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];"
                 :: "r"(bar) : "memory");
}

/* The same for the cta_group::2 operations of a pair, arriving on the
 * barrier at the same offset in every CTA of the cluster named in mask. */
static __device__ __forceinline__ void
s100_tc05_commit_pair(uint32_t bar, uint16_t mask)
{
    asm volatile("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster"
                 ".multicast::cluster.b64 [%0], %1;" :: "r"(bar), "h"(mask) : "memory");
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
template <int KIND, int CG = 1>
static __device__ __forceinline__ void
s100_issue_kstep(const smma_sm100_plan &p, uint32_t slot, uint32_t st, uint32_t tbase,
                 uint32_t acc, uint32_t kit)
{
    uint32_t j;

    for (j = 0; j < smma_sm100_ncp(&p); j++) {
        uint64_t sdesc;
        uint32_t taddr;

        smma_sm100_cp(&p, slot, j, st, tbase, &sdesc, &taddr);
        s100_tc05_cp<CG>(taddr, sdesc);
    }
    for (j = 0; j < SMMA_SM100_MMAS; j++) {
        smma_sm100_mma_ops o;

        smma_sm100_mma(&p, slot, j, st, tbase, acc, &o);
        s100_tc05_mma<KIND, CG>(o, p.c_kind != SMMA_SM100_NONE || kit > 0 || j > 0);
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
                      ? pipe_c_bits(c, (uint64_t) (m0 + row) * p.c_ld + n0 + col, p.c_kind)
                      : 0;
        }
        s100_tmem_st32(dacc + smma_sm100_epi_taddr(part, chunk), regs);
    }
}

/* Stores the 32 values of one thread (row `row`, columns col0 .. col0 + 31:
 * tcgen05.ld.32x32b puts column r of the chunk in register r) with 16-byte
 * stores when the row segment is whole and aligned. */
static __device__ __forceinline__ void
s100_store_row(const smma_sm100_plan &p, void *d, uint32_t row, uint32_t col0,
               const uint32_t *acc)
{
    uint32_t v[32], r, esz = p.d_kind == SMMA_SM100_F32 ? 4 : 2;
    uint64_t idx = (uint64_t) row * p.d_ld + col0;
    uint8_t *dst = (uint8_t *) d + idx * esz;

    if (row >= p.m)
        return;
    for (r = 0; r < 32; r++)
        v[r] = pipe_epilogue(p.has_alpha, p.alpha, p.d_kind, acc[r]);
    if (col0 + 32 <= p.n && ((uintptr_t) dst & 15u) == 0) {
        if (esz == 4) {
            for (r = 0; r < 32; r += 4)
                *(uint4 *) (dst + 4 * r) = make_uint4(v[r], v[r + 1], v[r + 2], v[r + 3]);
        } else {
            for (r = 0; r < 32; r += 8)
                *(uint4 *) (dst + 2 * r) = make_uint4(v[r] | v[r + 1] << 16,
                                                      v[r + 2] | v[r + 3] << 16,
                                                      v[r + 4] | v[r + 5] << 16,
                                                      v[r + 6] | v[r + 7] << 16);
        }
        return;
    }
    for (r = 0; r < 32 && col0 + r < p.n; r++)
        s100_store_d(p, d, row, col0 + r, v[r]);
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

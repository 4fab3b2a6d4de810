/*
 * gpu/sm100/gemm_v2.cu - sm100-v2, the fast kernel: the block-scaled GEMM
 * of sm100-v1 (same numbers, bit for bit: the same plan, the same chain of
 * tcgen05.mma per output in k order) with the memory system kept busy.
 *
 * What it adds over v1, and why:
 *   1. TMA with tensor maps (tma.cuh): one thread moves a whole k-step (A,
 *      B and the scale blocks, four boxes) with cp.async.bulk.tensor; the
 *      128-byte swizzle of the box is the layout the descriptors describe,
 *      out-of-bounds elements arrive as 0, and the registers and the other
 *      warps stay free.
 *   2. A multistage mbarrier pipeline: p.pipe.stages (2 to 8) shared-memory stage
 *      slots, each with its own TMEM scale columns, a full barrier (TMA
 *      bytes landed) and an empty barrier (tcgen05.commit after the slot's
 *      MMAs); loads of k-step i + stages overlap the MMAs of k-step i.
 *   3. Warp specialization (192 threads): warp 0 produces (TMA), warp 1
 *      issues tcgen05.cp / tcgen05.mma (one thread) and applies the fix-up
 *      of a ragged last k-step, warps 2-5 are the epilogue warpgroup (warp w
 *      reads lanes 32 (w % 4) .. + 31 of the accumulator: the access
 *      restriction).  No warp waits on another's work except through
 *      mbarriers.
 *   4. Persistent CTAs with a static tile scheduler: min(tiles, SMs) CTAs,
 *      CTA c takes tiles c, c + grid, ...; two accumulators in TMEM when
 *      they fit (2 bn + stages * scale columns <= 512), so that the epilogue
 *      of one tile overlaps the mainloop of the next; acc_full / acc_empty
 *      barriers hand each accumulator between the MMA warp and the
 *      epilogue, which also loads the next tile's C into it.
 * cta_group::2 (256-row tiles over a CTA pair) is sm100-v3, gemm_v3.cu.
 *
 * Build and run as sm100-v1 (SMMA_GPU_SM100_V2); the producer also runs on
 * an H100 in gpu/probes/tma_probe.cu (tests/gpu/tma-t).  Not yet run on a
 * B200.
 */
#include <cuda_runtime.h>

#include "dev.cuh"
#include "kernels.h"
#include "tma.cuh"

#if defined(SMMA_SM100_TC05)

/* Hands accumulator i % acc_stages to the MMA warp for local tile i: C
 * stored into it first when there is a C (epilogue warp `part`'s 32 lanes),
 * then one arrival per warp on acc_empty. */
static __device__ __forceinline__ void
v2_give_acc(const smma_sm100_plan &p, const s100_bufs &x, uint32_t sbase, uint32_t tbase,
            uint32_t part, uint32_t lane, uint32_t i)
{
    uint32_t acc = i % p.acc_stages, m0, n0;

    if (p.c_kind != SMMA_SM100_NONE) {
        smma_sm100_tile(&p, smma_pipe_cta_unit(&p.pipe, blockIdx.x, i), &m0, &n0);
        s100_load_c(p, x.c, tbase + acc * p.bn, part, lane, m0, n0);
    }
    s100_tc05_before_sync();
    __syncwarp();
    if (lane == 0)
        pipe_bar_arrive(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_ACC_EMPTY, acc));
}

#endif /* SMMA_SM100_TC05 */

template <int KIND>
__global__ void __launch_bounds__(192, 1)
s100_gemm_v2(const smma_sm100_plan p, const __grid_constant__ s100_maps maps, const s100_bufs x)
{
#if defined(SMMA_SM100_TC05)
    extern __shared__ uint8_t dyn[];
    uint8_t *smem = pipe_smem_base(dyn);
    uint32_t sbase = pipe_smem(smem), warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    uint32_t ntiles = smma_pipe_cta_nunits(&p.pipe, blockIdx.x), tslot, tbase, i, a;

    tslot = smma_sm100_bar(&p, SMMA_SM100_TMEM_SLOT, 0);
    if (threadIdx.x == 0) {
        pipe_init_ring(p.pipe, sbase, 1);
        for (a = 0; a < p.acc_stages; a++) {
            pipe_bar_init(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_ACC_FULL, a), 1);
            pipe_bar_init(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_ACC_EMPTY, a), 4);
        }
        pipe_bar_init_fence();
    }
    if (warp == 1)
        s100_tmem_alloc(sbase + tslot, p.tmem_cols);
    s100_tc05_before_sync();
    __syncthreads();
    s100_tc05_after_sync();
    tbase = *(volatile uint32_t *) (smem + tslot);

    if (warp == 0) {
        /* The producer. */
        if (lane == 0)
            s100_produce(p, &maps, sbase, blockIdx.x);
    } else if (warp == 1) {
        /* The MMA warp: per tile, wait for its accumulator; per k-step, wait
         * for the stage, fix up a ragged last one, then one thread issues the
         * scale copies and the four MMAs and commits the slot back. */
        uint32_t iter = 0;

        for (i = 0; i < ntiles; i++) {
            uint32_t acc = i % p.acc_stages, kit;

            pipe_bar_wait(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_ACC_EMPTY, acc),
                          (i / p.acc_stages) & 1u);
            s100_tc05_after_sync();
            for (kit = 0; kit < p.pipe.kiters; kit++, iter++) {
                uint32_t slot = smma_pipe_slot(&p.pipe, iter);
                uint32_t st = sbase + slot * p.pipe.stage_bytes;

                pipe_bar_wait(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_FULL, slot),
                              smma_pipe_phase(&p.pipe, iter));
                s100_tc05_after_sync();
                if (smma_sm100_fix_count(&p, kit) != 0) {
                    s100_fixup(p, kit, smem + slot * p.pipe.stage_bytes, lane, 32);
                    pipe_fence_async_smem();
                    __syncwarp();
                }
                if (lane == 0) {
                    s100_issue_kstep<KIND>(p, slot, st, tbase, acc, kit);
                    s100_tc05_commit(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_EMPTY, slot));
                }
                __syncwarp();
            }
            if (lane == 0)
                s100_tc05_commit(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_ACC_FULL, acc));
            __syncwarp();
        }
    } else {
        /* The epilogue warpgroup. */
        uint32_t part = warp % 4, chunk, m0, n0, row, col, regs[32];

        for (i = 0; i < ntiles && i < p.acc_stages; i++)
            v2_give_acc(p, x, sbase, tbase, part, lane, i);
        for (i = 0; i < ntiles; i++) {
            uint32_t acc = i % p.acc_stages;

            smma_sm100_tile(&p, smma_pipe_cta_unit(&p.pipe, blockIdx.x, i), &m0, &n0);
            pipe_bar_wait(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_ACC_FULL, acc),
                          (i / p.acc_stages) & 1u);
            s100_tc05_after_sync();
            for (chunk = 0; chunk < p.bn / 32; chunk++) {
                s100_tmem_ld32(tbase + acc * p.bn + smma_sm100_epi_taddr(part, chunk), regs);
                smma_sm100_epi_cell(part, chunk, lane, 0, &row, &col);
                if (n0 + col < p.n)
                    s100_store_row(p, x.d, m0 + row, n0 + col, regs);
            }
            if (i + p.acc_stages < ntiles)
                v2_give_acc(p, x, sbase, tbase, part, lane, i + p.acc_stages);
        }
    }
    s100_tc05_before_sync();
    __syncthreads();
    if (warp == 1) {
        s100_tc05_after_sync();
        s100_tmem_dealloc(tbase, p.tmem_cols);
    }
#else
    (void) p;
    (void) maps;
    (void) x;
    __trap(); /* s100_need refuses to launch this */
#endif
}

int
s100_launch_v2(const smma_sm100_plan *p, const s100_bufs *b, cudaStream_t st, char *msg,
               size_t len)
{
    return s100_launch_tma(p, b, st, s100_gemm_v2<4>, s100_gemm_v2<5>, s100_gemm_v2<6>,
                           "sm100-v2 launch", msg, len);
}

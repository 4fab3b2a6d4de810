/*
 * gpu/sm90/gemm_v1.cu - sm90-v1, the teaching kernel: a bf16 / fp16 GEMM on
 * Hopper's warpgroup tensor core (wgmma, sm_90a) fed by TMA.
 *
 *     D = alpha * (C + A B)
 *
 * bit for bit the model h100-bf16 of softmma/gemm.h: one fp32 accumulation
 * chain per output in k order, one wgmma.m64n128k16 (a block of 16 k) after
 * another, C loaded into the accumulator first.
 *
 * What one CTA (one warpgroup, 128 threads) does for its 64 x 128 tile,
 * every step in the order of doc/wgmma.md (sections named in the code):
 *   1. thread 0 initializes the ring's full barriers (gpu/pipe.h: one per
 *      stage slot, completed by the bytes TMA lands);
 *   2. C, if any, into the accumulator registers ("Register fragments": D of
 *      m64nNk16, 64 registers a thread);
 *   3. thread 0 starts the loads of the first `stages` k-steps: one TMA box
 *      of A (64 k by 64 rows) and one of B (64 k by 128 rows, or two boxes of
 *      64 columns by 64 k for an N-major B) per k-step, each landing with the
 *      128-byte swizzle ("The shared-memory matrix descriptor": the K-major
 *      and MN-major 128B canonical layouts);
 *   4. per k-step: everyone waits for the slot's full barrier; in a ragged
 *      last k-step, the fix-up (-0 in A's columns past K); then wgmma.fence,
 *      four (fewer in a ragged last k-step) wgmma.mma_async with the
 *      descriptors of plan.h, wgmma.commit_group, wgmma.wait_group 0
 *      ("Executor": D = A B + D, scale-d 0 for the first of a tile without
 *      C); a barrier, and thread 0 reloads the slot with the k-step `stages`
 *      further on;
 *   5. the epilogue: D = rn_fp32(alpha * acc), rounded to bf16 / fp16,
 *      stored from the registers.
 * Every address and descriptor comes from gpu/sm90/plan.h, which
 * tests/sim/sm90-dry-t executes on the simulator.
 *
 * Loads overlap the tensor core (TMA runs `stages` k-steps ahead), but the
 * tensor core waits for each k-step's wgmma before the next ones are
 * issued, and the one warpgroup both waits for data and multiplies.
 * sm90-v2 (gemm_v2.cu) adds warp specialization, two consumer warpgroups,
 * persistent CTAs, clusters and a TMA-store epilogue.
 *
 * Build: part of gpu/libsoftmma_gpu.a, for every configured architecture;
 * the kernel body exists only in the sm_90a build.  Run: smma_gpu_gemm
 * (softmma/gpu.h) with kernel SMMA_GPU_SM90_V1, `softmma gemm --on gpu
 * --kernel sm90-v1`; tests/gpu/gemm-t runs it on a compute capability 9.0
 * device and skips elsewhere.
 */
#include <cuda_runtime.h>

#include "dev.cuh"

template <int FP16, int TRANS_B, int HAS_C>
__global__ void __launch_bounds__(128, 1)
s90_gemm_v1(const smma_sm90_plan plan, const __grid_constant__ s90_maps maps, const s90_bufs x)
{
#if defined(SMMA_SM90_WG)
    const smma_sm90_plan p = s90_plan_for<2>(plan);
    extern __shared__ uint8_t dyn[];
    uint8_t *smem = pipe_smem_base(dyn);
    uint32_t sbase = pipe_smem(smem), t = threadIdx.x;
    uint32_t tm, tn, m0, n0, kit, j, first;
    uint32_t d[64];

    /* One tile per CTA: unit blockIdx.x of the pipeline's scheduler. */
    smma_pipe_cta_tile(&p.pipe, blockIdx.x, 0, &tm, &tn);
    smma_sm90_origin(&p, tm, tn, &m0, &n0);

    /* 1. The ring's barriers, visible to the other threads and to TMA. */
    if (t == 0) {
        pipe_init_ring(p.pipe, sbase, 1);
        pipe_bar_init_fence();
    }
    __syncthreads();

    /* 2. "Register fragments": C into the accumulator (without C the
     * first wgmma does not read it). */
    if (HAS_C)
        s90_load_c(p, x.c, d, 0, t, m0, n0);

    /* 3. The first k-steps, one per stage slot. */
    first = p.pipe.stages < p.pipe.kiters ? p.pipe.stages : p.pipe.kiters;
    if (t == 0)
        for (kit = 0; kit < first; kit++) {
            uint32_t full = sbase + smma_pipe_full(&p.pipe, kit);

            pipe_bar_arrive_tx(full, p.pipe.stage_tx);
            s90_load_kstep(p, maps, sbase + kit * p.pipe.stage_bytes, full, m0, n0, kit, 0);
        }

    /* 4. The k-steps. */
    for (kit = 0; kit < p.pipe.kiters; kit++) {
        smma_pipe_pos pos = { smma_pipe_slot(&p.pipe, kit), smma_pipe_phase(&p.pipe, kit) };
        uint32_t slot = pos.slot, st = sbase + slot * p.pipe.stage_bytes;
        uint32_t nk = smma_sm90_nmma(&p, kit);

        pipe_wait_full(p.pipe, sbase, pos);
        if (smma_sm90_fix_cols(&p, kit) != 0) {
            s90_fixup(p, smem + slot * p.pipe.stage_bytes, kit, 0, t);
            /* Generic-proxy writes, read next by wgmma. */
            pipe_fence_async_smem();
            __syncthreads();
        }
        /* "Executor": four blocks of 16 k in k order, each into the same
         * accumulator; the registers are fenced before the first. */
        s90_wgmma_fence();
#pragma unroll
        for (j = 0; j < SMMA_SM90_K16; j++)
            if (j < nk)
                s90_wgmma<128, FP16, TRANS_B>(d, smma_sm90_desc_a(&p, st, 0, j),
                                              smma_sm90_desc_b(&p, st, j),
                                              smma_sm90_scale_d(&p, kit, j));
        s90_wgmma_commit();
        s90_wgmma_wait<0>();
        s90_fence_regs(d);
        /* Every thread's wgmma has read the slot: reload it. */
        __syncthreads();
        if (t == 0 && kit + p.pipe.stages < p.pipe.kiters) {
            uint32_t full = sbase + smma_pipe_full(&p.pipe, slot);

            pipe_bar_arrive_tx(full, p.pipe.stage_tx);
            s90_load_kstep(p, maps, st, full, m0, n0, kit + p.pipe.stages, 0);
        }
    }

    /* 5. The epilogue from the registers. */
    s90_store_regs(p, x.d, d, 0, t, m0, n0);
#else
    (void) plan;
    (void) maps;
    (void) x;
    __trap(); /* smma_sm90_ready refuses to launch this */
#endif
}

/* The instance for a plan. */
template <int FP16, int TRANS_B>
static const void *
v1_pick_c(const smma_sm90_plan *p)
{
    return p->c_kind != SMMA_PIPE_NONE ? (const void *) s90_gemm_v1<FP16, TRANS_B, 1>
                                       : (const void *) s90_gemm_v1<FP16, TRANS_B, 0>;
}

static const void *
v1_kernel(const smma_sm90_plan *p)
{
    if (p->fp16)
        return p->b_nmajor ? v1_pick_c<1, 1>(p) : v1_pick_c<1, 0>(p);
    return p->b_nmajor ? v1_pick_c<0, 1>(p) : v1_pick_c<0, 0>(p);
}

int
s90_launch_v1(const smma_sm90_plan *p, const s90_maps *maps, const s90_bufs *b, cudaStream_t st,
              char *msg, size_t len)
{
    const void *k = v1_kernel(p);
    void *args[3] = { (void *) p, (void *) maps, (void *) b };
    cudaError_t e;

    if ((e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  (int) p->smem_bytes)) != cudaSuccess)
        return cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "cudaFuncSetAttribute", e);
    if ((e = cudaLaunchKernel(k, dim3(p->pipe.grid), dim3(128), args, p->smem_bytes, st))
        != cudaSuccess || (e = cudaGetLastError()) != cudaSuccess)
        return cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "sm90-v1 launch", e);
    return SMMA_GPU_STATUS_OK;
}

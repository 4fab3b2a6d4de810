/*
 * gpu/sm100/gemm_v1.cu - sm100-v1, the teaching kernel: a block-scaled GEMM
 * on the fifth-generation tensor core (tcgen05, sm_100a).
 *
 *     D = alpha * (C + sum_k (A[i][k] SA[i][k/V]) (B[k][j] SB[j][k/V]))
 *
 * mxfp8 / mxfp6 / fp8 x fp4 (.kind::mxf8f6f4, K = 32 per instruction),
 * mxfp4 (.kind::mxf4, K = 64) and nvfp4 (.kind::mxf4nvf4 .scale_vec::4X,
 * K = 64), bit for bit the model b200-fp8 of softmma/gemm.h (one fp32
 * accumulation chain per output in k order, in Tensor Memory).
 *
 * What one CTA (4 warps, 128 threads) does for its 128 x bn tile, every
 * step in the order of doc/tcgen05.md (sections named in the code):
 *   1. an mbarrier, and tcgen05.alloc of the plan's TMEM columns (warp 0);
 *   2. C, if any, into the accumulator with tcgen05.st.32x32b (each warp
 *      its own 32 lanes: the access restriction);
 *   3. per k-step of 128 bytes of every row: all threads copy A, B and the
 *      k-step's 128x4 scale blocks from global memory into shared memory at
 *      the plan's addresses (A and B K-major with the 128-byte swizzle, the
 *      layout the descriptors describe), 16 bytes at a time, 0 past the end
 *      of the matrix; in a ragged last k-step, the fix-up (-0 in A's K
 *      padding, scale 1.0 past the last scale column); fence.proxy.async;
 *   4. thread 0 issues tcgen05.cp.32x128b.warpx4 for each scale block (the
 *      placement the block-scaled kinds read), four tcgen05.mma (32 bytes of
 *      K each, scale-factor id per instruction) and tcgen05.commit to the
 *      mbarrier; everyone waits for it before the next k-step reuses the
 *      shared memory and the scale columns;
 *   5. the epilogue: tcgen05.ld.32x32b.x32 of D (warp w: rows 32w..32w+31),
 *      D = rn_fp32(alpha * acc), rounding to bf16/fp16, stores;
 *   6. tcgen05.dealloc.
 * Every address, descriptor and TMEM column comes from gpu/sm100/plan.h,
 * which tests/sim/sm100-dry-t executes on the simulator.
 *
 * Nothing overlaps: the loads of a k-step wait for the previous k-step's
 * MMAs.  sm100-v2 (gemm_v2.cu) adds TMA, a pipeline, warp specialization
 * and persistent CTAs.
 *
 * Build: part of gpu/libsoftmma_gpu.a, for every configured architecture;
 * the kernel body exists only in the sm_100a build.  Run: smma_gpu_gemm
 * (softmma/gpu.h) with kernel SMMA_GPU_SM100_V1, or smma_sm100_gemm
 * (sm100.h); tests/gpu/sm100-gemm-t runs it on a compute capability 10.0
 * device and skips elsewhere.  Not yet run on any GPU.
 */
#include <cuda_runtime.h>

#include "dev.cuh"
#include "kernels.h"

template <int KIND>
__global__ void __launch_bounds__(128)
s100_gemm_v1(const smma_sm100_plan p, const s100_bufs x)
{
#if defined(SMMA_SM100_TC05)
    extern __shared__ uint8_t dyn[];
    uint8_t *smem = pipe_smem_base(dyn);
    const uint8_t *bufs[4] = { x.a, x.b, x.sfa, x.sfb };
    uint32_t sbase = pipe_smem(smem);
    uint32_t bar = sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_FULL, 0);
    uint32_t slot = smma_sm100_bar(&p, SMMA_SM100_TMEM_SLOT, 0);
    uint32_t tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    uint32_t m0, n0, tbase, kit, j, chunk, r, row, col, regs[32];

    smma_sm100_tile(&p, blockIdx.x, &m0, &n0);

    /* 1. "Tensor Memory": tcgen05.alloc by one warp, the address through
     * shared memory, fenced around the thread synchronization. */
    if (tid == 0) {
        pipe_bar_init(bar, 1);
        pipe_bar_init_fence();
    }
    if (warp == 0)
        s100_tmem_alloc(sbase + slot, p.tmem_cols);
    s100_tc05_before_sync();
    __syncthreads();
    s100_tc05_after_sync();
    tbase = *(volatile uint32_t *) (smem + slot);

    /* 2. "D and A of tcgen05.mma in TMEM", Layout D (row m in lane m):
     * warp w stores rows 32w..32w+31 of C with tcgen05.st.32x32b. */
    if (p.c_kind != SMMA_SM100_NONE) {
        s100_load_c(p, x.c, tbase, warp, lane, m0, n0);
        s100_tc05_before_sync();
    }

    for (kit = 0; kit < p.pipe.kiters; kit++) {
        uint32_t nch = smma_sm100_nchunks(&p);

        /* 3. The k-step's bytes: plan.h's chunks ("The tcgen05.mma
         * executor": K-major operands through the descriptors' swizzled
         * layout; "tcgen05.cp": the 32x16-byte scale blocks). */
        for (j = tid; j < nch; j += blockDim.x) {
            unsigned buf;
            uint32_t off, valid, b;
            uint64_t goff;

            smma_sm100_chunk(&p, m0, n0, kit, j, &buf, &off, &goff, &valid);
            const uint8_t *src = bufs[buf] + goff;
            uint8_t *dst = smem + off;

            if (valid == 16 && ((uintptr_t) src & 15u) == 0) {
                *(uint4 *) dst = *(const uint4 *) src;
            } else {
                for (b = 0; b < 16; b++)
                    dst[b] = b < valid ? src[b] : 0;
            }
        }
        __syncthreads();
        s100_fixup(p, kit, smem, tid, blockDim.x);
        /* Generic-proxy writes, read next by tcgen05.cp and tcgen05.mma. */
        pipe_fence_async_smem();
        __syncthreads();

        /* 4. One thread issues; tcgen05.cp then tcgen05.mma from the same
         * thread are ordered ("Block-scale factors in TMEM": four copies,
         * scale (r, kb) in lane 32c + r%32, column r/32, byte kb). */
        if (tid == 0) {
            s100_tc05_after_sync();
            s100_issue_kstep<KIND>(p, 0, sbase, tbase, 0, kit);
            s100_tc05_commit(bar);
        }
        pipe_bar_wait(bar, kit & 1);
        s100_tc05_after_sync();
    }

    /* 5. The epilogue: tcgen05.ld.32x32b.x32, thread t of warp w holds row
     * 32w + t, 32 consecutive columns ("tcgen05.ld / tcgen05.st"). */
    for (chunk = 0; chunk < p.bn / 32; chunk++) {
        s100_tmem_ld32(tbase + smma_sm100_epi_taddr(warp, chunk), regs);
        for (r = 0; r < 32; r++) {
            smma_sm100_epi_cell(warp, chunk, lane, r, &row, &col);
            if (m0 + row < p.m && n0 + col < p.n)
                s100_store_d(p, x.d, m0 + row, n0 + col,
                             pipe_epilogue(p.has_alpha, p.alpha, p.d_kind, regs[r]));
        }
    }

    /* 6. tcgen05.dealloc by the warp that allocated, after every load. */
    s100_tc05_before_sync();
    __syncthreads();
    if (warp == 0) {
        s100_tc05_after_sync();
        s100_tmem_dealloc(tbase, p.tmem_cols);
    }
#else
    (void) p;
    (void) x;
    __trap(); /* s100_need refuses to launch this */
#endif
}

static const void *
kernel_of(uint32_t kind)
{
    return kind == 4 ? (const void *) s100_gemm_v1<4>
                     : kind == 5 ? (const void *) s100_gemm_v1<5>
                                 : (const void *) s100_gemm_v1<6>;
}

int
s100_launch_v1(const smma_sm100_plan *p, const s100_bufs *b, cudaStream_t st, char *msg,
               size_t len)
{
    const void *k = kernel_of(p->kind);
    cudaError_t e;
    int rc = s100_need(10, 10, k, "sm_100", msg, len);

    if (rc != SMMA_GPU_STATUS_OK || b == NULL)
        return rc;
    if ((e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  (int) p->smem_bytes)) != cudaSuccess)
        return cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "cudaFuncSetAttribute", e);
    if (p->kind == 4)
        s100_gemm_v1<4><<<p->pipe.grid, 128, p->smem_bytes, st>>>(*p, *b);
    else if (p->kind == 5)
        s100_gemm_v1<5><<<p->pipe.grid, 128, p->smem_bytes, st>>>(*p, *b);
    else
        s100_gemm_v1<6><<<p->pipe.grid, 128, p->smem_bytes, st>>>(*p, *b);
    if ((e = cudaGetLastError()) != cudaSuccess)
        return cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "sm100-v1 launch", e);
    return SMMA_GPU_STATUS_OK;
}

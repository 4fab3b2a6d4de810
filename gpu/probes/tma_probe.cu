/*
 * gpu/probes/tma_probe.cu - the TMA producer of sm100-v2 on a GPU that has
 * TMA but no tcgen05 (an H100), checked against the dry run's
 * shared-memory image.
 *
 * Computes: s100_tma_probe_kernel has the CTA layout of sm100-v2 without
 * the tensor core: warp 0 is the producer (s100_produce, the code v2 runs:
 * tensor maps, boxes, 128-byte swizzle, full/empty mbarriers over
 * p->pipe.stages stage slots, the persistent tile schedule), warp 1 the
 * consumer in place of v2's MMA warp: it waits for each stage, applies the
 * fix-up (s100_fixup, as v2's MMA warp does), fences the asynchronous proxy
 * as v2 does before tcgen05 reads the stage, copies the stage's bytes out
 * and releases the slot.  tests/gpu/tma-t compares every byte with
 * t100_stage_image (the plan's chunks), the image the dry run executes.
 *
 * Build: compiled into gpu/libsoftmma_gpu.a for every configured
 * architecture; the kernel exists in the sm_90a and sm_100a builds.  Run:
 * tests/gpu/tma-t on a compute capability 9.0 or 10.0 device.
 */
#include <cuda_runtime.h>

#include <string.h>

#include "../sm100/tma.cuh"
#include "tma_probe.h"

__global__ void __launch_bounds__(64)
s100_tma_probe_kernel(const smma_sm100_plan p, const __grid_constant__ s100_maps maps,
                      uint8_t *out)
{
#if defined(SMMA_PIPE_TMA)
    extern __shared__ uint8_t dyn[];
    uint8_t *smem = pipe_smem_base(dyn);
    uint32_t sbase = pipe_smem(smem), warp = threadIdx.x / 32, lane = threadIdx.x % 32;

    if (threadIdx.x == 0) {
        pipe_init_ring(p.pipe, sbase, 1);
        pipe_bar_init_fence();
    }
    __syncthreads();
    if (warp == 0) {
        if (lane == 0)
            s100_produce(p, &maps, sbase, blockIdx.x);
    } else {
        uint32_t iter = 0, i, kit, o;

        for (i = 0; i < smma_pipe_cta_nunits(&p.pipe, blockIdx.x); i++) {
            uint32_t t = smma_pipe_cta_unit(&p.pipe, blockIdx.x, i);

            for (kit = 0; kit < p.pipe.kiters; kit++, iter++) {
                uint32_t slot = smma_pipe_slot(&p.pipe, iter);
                uint8_t *stage = smem + slot * p.pipe.stage_bytes;
                uint8_t *dst = out + ((uint64_t) t * p.pipe.kiters + kit) * p.pipe.stage_tx;

                pipe_bar_wait(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_FULL, slot),
                              smma_pipe_phase(&p.pipe, iter));
                s100_fixup(p, kit, stage, lane, 32);
                pipe_fence_async_smem();
                __syncwarp();
                for (o = 16 * lane; o < p.pipe.stage_tx; o += 16 * 32)
                    *(uint4 *) (dst + o) = *(const uint4 *) (stage + o);
                __syncwarp();
                if (lane == 0)
                    pipe_bar_arrive(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_EMPTY, slot));
            }
        }
    }
    __syncthreads();
#else
    (void) p;
    (void) maps;
    (void) out;
    __trap(); /* s100_need refuses to launch this */
#endif
}

int
smma_gpu_tma_probe_check(char *msg, size_t len)
{
    return s100_need(9, 10, (const void *) s100_tma_probe_kernel, "sm_90 or sm_100", msg, len);
}

int
smma_gpu_tma_probe(const smma_sm100_plan *p, const void *a, size_t a_bytes, const void *b,
                   size_t b_bytes, const void *sa, size_t sa_bytes, const void *sb,
                   size_t sb_bytes, uint8_t *out, char *msg, size_t len)
{
    const void *host[4] = { a, b, sa, sb };
    size_t bytes[4] = { a_bytes, b_bytes, sa_bytes, sb_bytes };
    void *dev[4] = { NULL, NULL, NULL, NULL };
    size_t out_bytes;
    uint8_t *dout = NULL;
    s100_bufs bufs;
    s100_maps maps;
    cudaError_t e;
    int rc, i;

    memset(&bufs, 0, sizeof(bufs));
    if (p == NULL || out == NULL || a == NULL || b == NULL || sa == NULL || sb == NULL)
        return set_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "NULL plan, buffer or output");
    if (p->version != 2)
        return set_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "the probe runs a v2 plan");
    if ((rc = smma_gpu_tma_probe_check(msg, len)) != SMMA_GPU_STATUS_OK)
        return rc;
    out_bytes = (size_t) p->tiles * p->pipe.kiters * p->pipe.stage_tx;
    for (i = 0; i < 4; i++) {
        if ((e = cudaMalloc(&dev[i], bytes[i] == 0 ? 1 : bytes[i])) != cudaSuccess) {
            rc = cuda_fail(msg, len, SMMA_GPU_STATUS_ENOMEM, "cudaMalloc", e);
            goto done;
        }
        if ((e = cudaMemcpy(dev[i], host[i], bytes[i], cudaMemcpyHostToDevice)) != cudaSuccess) {
            rc = cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "cudaMemcpy (to device)", e);
            goto done;
        }
    }
    if ((e = cudaMalloc((void **) &dout, out_bytes)) != cudaSuccess) {
        rc = cuda_fail(msg, len, SMMA_GPU_STATUS_ENOMEM, "cudaMalloc", e);
        goto done;
    }
    if ((e = cudaMemset(dout, 0xcc, out_bytes)) != cudaSuccess) {
        rc = cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "cudaMemset", e);
        goto done;
    }
    if ((rc = s100_prepare(p, dev[0], dev[1], dev[2], dev[3], 0, &bufs, msg, len))
        != SMMA_GPU_STATUS_OK)
        goto done;
    if ((rc = s100_encode_maps(p, &bufs, &maps, msg, len)) != SMMA_GPU_STATUS_OK)
        goto done;
    if ((e = cudaFuncSetAttribute((const void *) s100_tma_probe_kernel,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  (int) p->smem_bytes)) != cudaSuccess) {
        rc = cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "cudaFuncSetAttribute", e);
        goto done;
    }
    s100_tma_probe_kernel<<<p->pipe.grid, 64, p->smem_bytes>>>(*p, maps, dout);
    if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaDeviceSynchronize()) != cudaSuccess) {
        rc = cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "s100_tma_probe_kernel", e);
        goto done;
    }
    if ((e = cudaMemcpy(out, dout, out_bytes, cudaMemcpyDeviceToHost)) != cudaSuccess)
        rc = cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "cudaMemcpy (to host)", e);
done:
    s100_release(&bufs, 0);
    cudaDeviceSynchronize();
    for (i = 0; i < 4; i++)
        cudaFree(dev[i]);
    cudaFree(dout);
    return rc;
}

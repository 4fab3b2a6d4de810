/*
 * gpu/sm100/tma.cuh - the producer of sm100-v2, shared with the TMA probe
 * (gpu/probes/tma_probe.cu) that runs it on an H100: the tensor maps
 * (host) and what the shared pipeline's producer (gpu/pipe.cuh,
 * pipe_produce) issues for one k-step of the sm_100 plan.  CUDA C++ only.
 *
 * The geometry, boxes and coordinates of the maps are plan.h's
 * (smma_sm100_tma_geom, smma_sm100_tma_coord).
 */
#ifndef SOFTMMA_GPU_SM100_TMA_CUH
#define SOFTMMA_GPU_SM100_TMA_CUH 1

#include <cuda_runtime.h>

#include "dev.cuh"
#include "kernels.h"

/* The four tensor maps (SMMA_SM100_BUF_* order), passed to a kernel as a
 * __grid_constant__ parameter. */
typedef struct s100_maps {
    CUtensorMap m[4];
} s100_maps;

/* Encodes the tensor maps of the buffers b->a, b->b, b->sfa, b->sfb: bytes
 * (CU_TENSOR_MAP_DATA_TYPE_UINT8), A and B with the 128-byte swizzle.
 * Statuses of pipe_encode_map. */
static int
s100_encode_maps(const smma_sm100_plan *p, const s100_bufs *b, s100_maps *out, char *msg,
                 size_t len)
{
    static const char *const names[4] = { "A", "B", "scales of A", "scales of B" };
    const void *ptr[4] = { b->a, b->b, b->sfa, b->sfb };
    unsigned w;
    int rc;

    for (w = 0; w < 4; w++) {
        uint32_t rank, box[4];
        uint64_t dims[4], strides[3];

        smma_sm100_tma_geom(p, w, &rank, dims, strides, box);
        rc = pipe_encode_map(&out->m[w], CU_TENSOR_MAP_DATA_TYPE_UINT8, rank, ptr[w], dims,
                             strides, box,
                             w < 2 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                             names[w], msg, len);
        if (rc != SMMA_GPU_STATUS_OK)
            return rc;
    }
    return SMMA_GPU_STATUS_OK;
}

/* A main kernel fed by TMA (v2, v3): its instantiations per kind (4
 * mxf8f6f4, 5 mxf4, 6 mxf4nvf4) take the plan, the tensor maps and the
 * buffers, and run 192 threads per CTA. */
typedef void (*s100_tma_kernel)(smma_sm100_plan, s100_maps, s100_bufs);

/* Launches the plan's kind of such a kernel on stream st: checks the
 * device first (s100_need; with b NULL only that), encodes the tensor
 * maps, sets the dynamic shared memory and launches p->pipe.grid CTAs
 * (the kernel's own cluster dimensions apply).  `what` names the launch in
 * a message. */
static int
s100_launch_tma(const smma_sm100_plan *p, const s100_bufs *b, cudaStream_t st,
                s100_tma_kernel k4, s100_tma_kernel k5, s100_tma_kernel k6, const char *what,
                char *msg, size_t len)
{
    s100_tma_kernel k = p->kind == 4 ? k4 : p->kind == 5 ? k5 : k6;
    s100_maps maps;
    cudaError_t e;
    int rc = s100_need(10, 10, (const void *) k, "sm_100", msg, len);

    if (rc != SMMA_GPU_STATUS_OK || b == NULL)
        return rc;
    if ((rc = s100_encode_maps(p, b, &maps, msg, len)) != SMMA_GPU_STATUS_OK)
        return rc;
    if ((e = cudaFuncSetAttribute((const void *) k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  (int) p->smem_bytes)) != cudaSuccess)
        return cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "cudaFuncSetAttribute", e);
    k<<<p->pipe.grid, 192, p->smem_bytes, st>>>(*p, maps, *b);
    if ((e = cudaGetLastError()) != cudaSuccess)
        return cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, what, e);
    return SMMA_GPU_STATUS_OK;
}

#if defined(SMMA_PIPE_TMA)

/*
 * The producer (one thread) of CTA `cta`: the shared pipeline's loop
 * (pipe_produce) over the CTA's tiles and k-steps, each k-step four TMA
 * boxes into its stage slot (sbase: the 1024-aligned shared address of
 * stage 0).
 */
static __device__ __forceinline__ void
s100_produce(const smma_sm100_plan &p, const s100_maps *maps, uint32_t sbase, uint32_t cta)
{
    uint32_t w;

    for (w = 0; w < 4; w++)
        pipe_tma_prefetch_map(&maps->m[w]);
    pipe_produce(p.pipe, sbase, cta,
                 [&](uint32_t st, uint32_t full, uint32_t tm, uint32_t tn, uint32_t kit) {
                     uint32_t m0 = tm * SMMA_SM100_BM, n0 = tn * p.bn, q;

                     for (q = 0; q < 4; q++) {
                         int32_t c[4];
                         uint32_t off = smma_sm100_tma_coord(&p, q, m0, n0, kit, c);

                         if (q < 2)
                             pipe_tma_2d(st + off, &maps->m[q], c[0], c[1], full);
                         else
                             pipe_tma_4d(st + off, &maps->m[q], c[0], c[1], c[2], c[3], full);
                     }
                 });
}

#endif /* SMMA_PIPE_TMA */

#endif /* SOFTMMA_GPU_SM100_TMA_CUH */

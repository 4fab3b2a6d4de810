/*
 * gpu/sm100/tma.cuh - the producer of sm100-v2, shared with the TMA probe
 * (gpu/probes/tma_probe.cu) that runs it on an H100: the tensor maps
 * (host) and the loop that fills the shared-memory stages with TMA through
 * the full/empty mbarrier pipeline (device).  CUDA C++ only.
 *
 * The tensor maps are encoded with cuTensorMapEncodeTiled, a driver API
 * function reached through cudaGetDriverEntryPointByVersion so that the
 * programs link static cudart only (no -lcuda).  Their geometry, boxes and
 * coordinates are plan.h's (smma_sm100_tma_geom, smma_sm100_tma_coord).
 */
#ifndef SOFTMMA_GPU_SM100_TMA_CUH
#define SOFTMMA_GPU_SM100_TMA_CUH 1

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include "dev.cuh"
#include "kernels.h"

/* The four tensor maps (SMMA_SM100_BUF_* order), passed to a kernel as a
 * __grid_constant__ parameter. */
typedef struct s100_maps {
    CUtensorMap m[4];
} s100_maps;

/* Encodes the tensor maps of the buffers b->a, b->b, b->sfa, b->sfb.
 * SMMA_GPU_STATUS_OK, or _ENODEV when the driver lacks the function, or
 * _ECUDA naming the map the driver refused. */
static int
s100_encode_maps(const smma_sm100_plan *p, const s100_bufs *b, s100_maps *out, char *msg,
                 size_t len)
{
    static const char *const names[4] = { "A", "B", "scales of A", "scales of B" };
    static PFN_cuTensorMapEncodeTiled_v12000 encode = NULL;
    const void *ptr[4] = { b->a, b->b, b->sfa, b->sfb };
    unsigned w;

    if (encode == NULL) {
        cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
        void *f = NULL;
        cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000,
                                                         cudaEnableDefault, &q);

        if (e != cudaSuccess)
            return cuda_fail(msg, len, SMMA_GPU_STATUS_ENODEV,
                             "cudaGetDriverEntryPointByVersion", e);
        if (q != cudaDriverEntryPointSuccess || f == NULL)
            return set_msg(msg, len, SMMA_GPU_STATUS_ENODEV,
                           "the driver has no cuTensorMapEncodeTiled (result %d)", (int) q);
        encode = (PFN_cuTensorMapEncodeTiled_v12000) f;
    }
    for (w = 0; w < 4; w++) {
        uint32_t rank, box[4];
        uint64_t dims[4], strides[3];
        cuuint64_t gdim[4], gstride[3];
        cuuint32_t gbox[4], estride[4] = { 1, 1, 1, 1 };
        unsigned i;
        CUresult r;

        smma_sm100_tma_geom(p, w, &rank, dims, strides, box);
        for (i = 0; i < rank; i++) {
            gdim[i] = dims[i];
            gbox[i] = box[i];
            if (i + 1 < rank)
                gstride[i] = strides[i];
        }
        r = encode(&out->m[w], CU_TENSOR_MAP_DATA_TYPE_UINT8, rank, (void *) ptr[w], gdim,
                   gstride, gbox, estride, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   w < 2 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                   CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
        if (r != CUDA_SUCCESS)
            return set_msg(msg, len, SMMA_GPU_STATUS_ECUDA,
                           "cuTensorMapEncodeTiled (%s, rank %u, box %u x %u): CUresult %d",
                           names[w], rank, box[0], box[1], (int) r);
    }
    return SMMA_GPU_STATUS_OK;
}

#if defined(SMMA_SM100_TMA)

/*
 * The producer (one thread): for every tile of CTA `cta` and every k-step,
 * in the order the consumer takes them, wait until stage slot s is empty,
 * announce stage_tx bytes on full[s], and issue the four TMA boxes into
 * the slot (sbase: the 1024-aligned shared address of stage 0).  A fresh
 * barrier's phase of parity 1 counts as completed, so the first round of
 * slots does not wait.
 */
static __device__ __forceinline__ void
s100_produce(const smma_sm100_plan &p, const s100_maps *maps, uint32_t sbase, uint32_t cta)
{
    uint32_t iter = 0, i, kit, w, m0, n0;

    for (w = 0; w < 4; w++)
        s100_tma_prefetch_map(&maps->m[w]);
    for (i = 0; i < smma_sm100_cta_ntiles(&p, cta); i++) {
        smma_sm100_tile(&p, smma_sm100_cta_tile(&p, cta, i), &m0, &n0);
        for (kit = 0; kit < p.kiters; kit++, iter++) {
            uint32_t slot = smma_sm100_slot(&p, iter), st = sbase + slot * p.stage_bytes;
            uint32_t full = sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_FULL, slot);

            s100_bar_wait(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_EMPTY, slot),
                          smma_sm100_phase(&p, iter) ^ 1u);
            s100_bar_arrive_tx(full, p.stage_tx);
            for (w = 0; w < 4; w++) {
                int32_t c[4];
                uint32_t off = smma_sm100_tma_coord(&p, w, m0, n0, kit, c);

                if (w < 2)
                    s100_tma_2d(st + off, &maps->m[w], c[0], c[1], full);
                else
                    s100_tma_4d(st + off, &maps->m[w], c[0], c[1], c[2], c[3], full);
            }
        }
    }
}

/* Thread 0 initializes the stage barriers: full[s] and empty[s] each
 * complete on one arrival (the producer's arrive.expect_tx plus the TMA
 * bytes; the consumer's one arrival). */
static __device__ __forceinline__ void
s100_init_stage_bars(const smma_sm100_plan &p, uint32_t sbase)
{
    uint32_t s;

    for (s = 0; s < p.stages; s++) {
        s100_bar_init(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_FULL, s), 1);
        s100_bar_init(sbase + smma_sm100_bar(&p, SMMA_SM100_BAR_EMPTY, s), 1);
    }
}

#endif /* SMMA_SM100_TMA */

#endif /* SOFTMMA_GPU_SM100_TMA_CUH */

/*
 * gpu/sm100/prep.cu - what the sm_100 kernels need before the GEMM, and the
 * launcher behind softmma/gpu.h (smma_sm100_gemm).
 *
 * The preparation kernels are plain CUDA (every architecture; the H100's
 * TMA probe runs them too):
 *   s100_unpack_fp4     an e2m1 operand of .kind::mxf8f6f4 (fp8 or fp6 x
 *                       fp4): the instruction reads one element per byte,
 *                       the e2m1 code in bits 5-2, so the packed rows are
 *                       unpacked into a scratch copy whose rows are k
 *                       rounded up to 16 bytes (TMA's row alignment);
 *   s100_scales_128x4   linear scales rearranged into the 128x4 layout that
 *                       tcgen05.cp copies to Tensor Memory.
 * Both compute every byte with plan.h's functions, as the dry run does.
 */
#include <cuda_runtime.h>

#include "../pipe.cuh"
#include "kernels.h"

int
s100_need(int major_min, int major_max, const void *func, const char *need, char *msg,
          size_t len)
{
    int major = 0, minor = 0, rc;
    cudaFuncAttributes fa;
    cudaError_t e;

    if ((rc = pipe_device_cc(&major, &minor, msg, len)) != SMMA_GPU_STATUS_OK)
        return rc;
    if (major < major_min || major > major_max || minor != 0)
        return set_msg(msg, len, SMMA_GPU_STATUS_EARCH, "needs %s (found sm_%d%d)", need,
                       major, minor);
    if ((e = cudaFuncGetAttributes(&fa, func)) != cudaSuccess)
        return cuda_fail(msg, len, SMMA_GPU_STATUS_EARCH, "cudaFuncGetAttributes", e);
    if (fa.binaryVersion != major * 10)
        return set_msg(msg, len, SMMA_GPU_STATUS_EARCH,
                       "this build has no sm_%d%da code for the device (the runtime picked "
                       "sm_%d code); configure --with-cuda-arch with sm_%d%da", major, minor,
                       fa.binaryVersion, major, minor);
    return SMMA_GPU_STATUS_OK;
}

/* One thread per byte of the scratch copy (rows x ld). */
__global__ void
s100_unpack_fp4(const smma_sm100_plan p, const uint8_t *src, uint64_t src_ld, uint8_t *dst,
                uint64_t ld, uint64_t total)
{
    uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x, row, kk;

    for (; i < total; i += (uint64_t) gridDim.x * blockDim.x) {
        row = i / ld;
        kk = i % ld;
        dst[i] = kk < p.k ? (uint8_t) smma_sm100_fp4_container(src[row * src_ld + kk / 2],
                                                              (uint32_t) kk)
                          : 0;
    }
}

/* One thread per byte of the 128x4 scratch (rows_pad x kb_pad). */
__global__ void
s100_scales_128x4(const smma_sm100_plan p, const uint8_t *src, uint32_t rows, uint8_t *dst,
                  uint64_t total)
{
    uint64_t i = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x, s;

    for (; i < total; i += (uint64_t) gridDim.x * blockDim.x)
        dst[i] = smma_sm100_sf_linear_src(&p, rows, i, &s) ? src[s] : (uint8_t) p.sf_one;
}

static unsigned
blocks_for(uint64_t total)
{
    uint64_t b = (total + 255) / 256;

    return b == 0 ? 1 : b > 4096 ? 4096 : (unsigned) b;
}

void
s100_release(s100_bufs *b, cudaStream_t st)
{
    int i;

    for (i = 0; i < 4; i++) {
        if (b->scratch[i] != NULL)
            cudaFreeAsync(b->scratch[i], st);
        b->scratch[i] = NULL;
    }
}

int
s100_prepare(const smma_sm100_plan *p, const void *a, const void *b, const void *sa,
             const void *sb, cudaStream_t st, s100_bufs *out, char *msg, size_t len)
{
    const void *src[4] = { a, b, sa, sb };
    const uint8_t **dst[4] = { &out->a, &out->b, &out->sfa, &out->sfb };
    uint32_t expand[2] = { p->a_expand, p->b_expand }, rows[2] = { p->m, p->n };
    uint32_t rpad[2] = { p->a_rows_pad, p->b_rows_pad };
    uint64_t ld[2] = { p->a_ld, p->b_ld }, sld[2] = { p->a_src_ld, p->b_src_ld };
    cudaError_t e;
    int w;

    for (w = 0; w < 4; w++) {
        out->scratch[w] = NULL;
        *dst[w] = (const uint8_t *) src[w];
    }
    for (w = 0; w < 2; w++) {
        if (expand[w]) {
            uint64_t total = (uint64_t) rows[w] * ld[w];

            if ((e = cudaMallocAsync(&out->scratch[w], total, st)) != cudaSuccess)
                goto nomem;
            s100_unpack_fp4<<<blocks_for(total), 256, 0, st>>>(
                *p, (const uint8_t *) src[w], sld[w], (uint8_t *) out->scratch[w], ld[w], total);
            *dst[w] = (const uint8_t *) out->scratch[w];
        }
        if (p->sf_linear) {
            uint64_t total = (uint64_t) rpad[w] * p->kb_pad;

            if ((e = cudaMallocAsync(&out->scratch[2 + w], total, st)) != cudaSuccess)
                goto nomem;
            s100_scales_128x4<<<blocks_for(total), 256, 0, st>>>(
                *p, (const uint8_t *) src[2 + w], rows[w], (uint8_t *) out->scratch[2 + w],
                total);
            *dst[2 + w] = (const uint8_t *) out->scratch[2 + w];
        }
    }
    if ((e = cudaGetLastError()) != cudaSuccess) {
        s100_release(out, st);
        return cuda_fail(msg, len, SMMA_GPU_STATUS_ECUDA, "sm100 preparation kernels", e);
    }
    return SMMA_GPU_STATUS_OK;
nomem:
    s100_release(out, st);
    return cuda_fail(msg, len, SMMA_GPU_STATUS_ENOMEM, "cudaMallocAsync", e);
}

/* The launcher of the plan's kernel version. */
static int
s100_launch(const smma_sm100_plan *p, const s100_bufs *b, cudaStream_t st, char *msg,
            size_t len)
{
    if (p->version == 1)
        return s100_launch_v1(p, b, st, msg, len);
    if (p->version == 2)
        return s100_launch_v2(p, b, st, msg, len);
    return s100_launch_v3(p, b, st, msg, len);
}

int
smma_sm100_gemm(const smma_gpu_gemm_args *a, smma_gpu_kernel k, char *msg, size_t len)
{
    cudaStream_t st = a == NULL ? NULL : (cudaStream_t) a->stream;
    smma_sm100_plan p;
    s100_bufs b;
    int sms = 0, rc;
    cudaError_t e;

    if (a == NULL)
        return set_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "sm100: no problem given");
    if (a->a == NULL || a->b == NULL || a->sa == NULL || a->sb == NULL || a->d == NULL
        || (a->shape.c_fmt != SMMA_NONE && a->c == NULL))
        return set_msg(msg, len, SMMA_GPU_STATUS_EINVAL,
                       "sm100: A, B, SA, SB, D (and C when c_fmt is set) must be given");
    if ((e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0)) != cudaSuccess)
        return cuda_fail(msg, len, SMMA_GPU_STATUS_ENODEV, "cudaDeviceGetAttribute", e);
    if ((rc = smma_sm100_plan_init(&p, a, k, (unsigned) sms, msg, len)) != SMMA_GPU_STATUS_OK)
        return rc;
    rc = s100_launch(&p, NULL, st, msg, len);
    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    if ((rc = s100_prepare(&p, a->a, a->b, a->sa, a->sb, st, &b, msg, len))
        != SMMA_GPU_STATUS_OK)
        return rc;
    b.c = a->c;
    b.d = a->d;
    rc = s100_launch(&p, &b, st, msg, len);
    s100_release(&b, st);
    return rc;
}

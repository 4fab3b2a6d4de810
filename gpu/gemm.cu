/*
 * gpu/gemm.cu - smma_gpu_gemm and smma_gpu_info (softmma/gpu.h): checks the
 * problem against the kernel table (gpu/kernels.h) with the real device's
 * compute capability and shared memory, then hands it to the chosen
 * kernel's launcher from the same table.
 */
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_internal.h"
#include "kernels.h"
#include "sm90/sm90.h"

namespace {

int
cuda_status(cudaError_t e, const char *what, char *msg, size_t len)
{
    int st = e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
                     e == cudaErrorInvalidDevice
                 ? SMMA_GPU_STATUS_ENODEV
                 : SMMA_GPU_STATUS_ECUDA;

    (void) cudaGetLastError();
    return smma_gpu_msg(msg, len, st, "%s: %s (%s)", what, cudaGetErrorString(e),
                        cudaGetErrorName(e));
}

/* The capabilities of up to 64 devices, looked up once each (a launch
 * should cost the host no more than the launch). */
struct caps {
    int known, major, minor;
    size_t smem;
};
caps cached[64];

/* The current device's compute capability and shared memory per block. */
int
device_caps(int *major, int *minor, size_t *smem, char *msg, size_t len)
{
    int dev = 0, ma = 0, mi = 0, sm = 0, n = 0;
    cudaError_t e;

    if (cudaGetDevice(&dev) == cudaSuccess && dev >= 0 && dev < 64 && cached[dev].known) {
        *major = cached[dev].major;
        *minor = cached[dev].minor;
        *smem = cached[dev].smem;
        return SMMA_GPU_STATUS_OK;
    }
    (void) cudaGetLastError();
    if ((e = cudaGetDeviceCount(&n)) != cudaSuccess)
        return cuda_status(e, "cudaGetDeviceCount", msg, len);
    if (n == 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, "no CUDA device");
    if ((e = cudaGetDevice(&dev)) != cudaSuccess ||
        (e = cudaDeviceGetAttribute(&ma, cudaDevAttrComputeCapabilityMajor, dev)) !=
            cudaSuccess ||
        (e = cudaDeviceGetAttribute(&mi, cudaDevAttrComputeCapabilityMinor, dev)) !=
            cudaSuccess ||
        (e = cudaDeviceGetAttribute(&sm, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)) !=
            cudaSuccess)
        return cuda_status(e, "cudaDeviceGetAttribute", msg, len);
    *major = ma;
    *minor = mi;
    *smem = (size_t) sm;
    if (dev >= 0 && dev < 64) {
        cached[dev].major = ma;
        cached[dev].minor = mi;
        cached[dev].smem = (size_t) sm;
        cached[dev].known = 1;
    }
    return SMMA_GPU_STATUS_OK;
}

bool
scaled(const smma_gemm_shape *s, bool a)
{
    smma_format f = a ? s->a_fmt : s->b_fmt;

    return s->scale_fmt != SMMA_NONE && f != SMMA_BF16 && f != SMMA_FP16;
}

} /* namespace */

int
smma_gpu_gemm_choose(const smma_gpu_gemm_args *x, smma_gpu_kernel *chosen, char *msg,
                     size_t len)
{
    int major, minor, rc;
    size_t smem;
    char why[256];

    if (x == NULL || chosen == NULL)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "no arguments given");
    if ((rc = device_caps(&major, &minor, &smem, msg, len)) != SMMA_GPU_STATUS_OK)
        return rc;
    if ((rc = smma_gpu_gemm_check_smem(x, major, minor, smem, chosen, msg, len)) !=
        SMMA_GPU_STATUS_OK)
        return rc;
    /* AUTO's rules assume the sm_90a code is there; where this build has
     * none for the device, the next kernel of the preference table runs,
     * and the message says so. */
    if (x->kernel == SMMA_GPU_AUTO && smma_gpu_kernel_row_of(*chosen) != NULL
        && strcmp(smma_gpu_kernel_row_of(*chosen)->code, "sm_90a") == 0
        && smma_sm90_ready(why, sizeof(why)) != SMMA_GPU_STATUS_OK)
        return smma_gpu_gemm_check_ex(x, major, minor, smem, false, chosen, msg, len);
    return SMMA_GPU_STATUS_OK;
}

int
smma_gpu_gemm(const smma_gpu_gemm_args *x, char *msg, size_t len)
{
    smma_gpu_kernel k;
    int rc;

    if (x == NULL)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "no arguments given");
    if (x->a == NULL || x->b == NULL || x->d == NULL ||
        (x->shape.c_fmt != SMMA_NONE && x->c == NULL) ||
        (scaled(&x->shape, true) && x->sa == NULL) || (scaled(&x->shape, false) && x->sb == NULL))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "a NULL device pointer (A, B, D, "
                            "C when c_fmt is fp32, the scales of a scaled operand)");
    if ((rc = smma_gpu_gemm_choose(x, &k, msg, len)) != SMMA_GPU_STATUS_OK)
        return rc;
    {
        /* The chosen kernel's launcher, from the kernel table. */
        const smma_gpu_kernel_row *r = smma_gpu_kernel_row_of(k);
        smma_gpu_gemm_args y = *x;

        if (r == NULL)
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%s is not built",
                                smma_gpu_kernel_name(k));
        y.kernel = k;
        return r->launch(&y, msg, len);
    }
}

int
smma_gpu_info(smma_gpu_device *dev, char *msg, size_t len)
{
    cudaDeviceProp prop;
    int id = 0, n = 0, clk = 0, mclk = 0, optin = 0;
    cudaError_t e;

    if (dev == NULL)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "no device structure given");
    if ((e = cudaGetDeviceCount(&n)) != cudaSuccess)
        return cuda_status(e, "cudaGetDeviceCount", msg, len);
    if (n == 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENODEV, "no CUDA device");
    if ((e = cudaGetDevice(&id)) != cudaSuccess)
        return cuda_status(e, "cudaGetDevice", msg, len);
    if ((e = cudaGetDeviceProperties(&prop, id)) != cudaSuccess)
        return cuda_status(e, "cudaGetDeviceProperties", msg, len);
    (void) cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, id);
    (void) cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, id);
    (void) cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, id);
    (void) cudaGetLastError();
    memset(dev, 0, sizeof(*dev));
    snprintf(dev->name, sizeof(dev->name), "%s", prop.name);
    dev->sm_major = prop.major;
    dev->sm_minor = prop.minor;
    dev->multiprocessors = prop.multiProcessorCount;
    dev->clock_khz = clk;
    dev->mem_clock_khz = mclk;
    dev->mem_bytes = prop.totalGlobalMem;
    dev->smem_optin_bytes = (size_t) optin;
    return SMMA_GPU_STATUS_OK;
}

namespace {

int
cmp_float(const void *a, const void *b)
{
    float x = *(const float *) a, y = *(const float *) b;

    return x < y ? -1 : x > y;
}

} /* namespace */

int
smma_gpu_time_gemm(const smma_gpu_gemm_args *x, unsigned warmup, unsigned reps,
                   double *median_ms, char *msg, size_t len)
{
    cudaStream_t st;
    cudaEvent_t *ev;
    float *t;
    unsigned i, made = 0;
    int rc = SMMA_GPU_STATUS_OK;
    cudaError_t e = cudaSuccess;

    if (x == NULL || median_ms == NULL || reps == 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "no arguments given, or no runs "
                            "to time");
    st = (cudaStream_t) x->stream;
    for (i = 0; i < warmup && rc == SMMA_GPU_STATUS_OK; i++)
        rc = smma_gpu_gemm(x, msg, len);
    if (rc != SMMA_GPU_STATUS_OK)
        return rc;
    ev = (cudaEvent_t *) calloc(reps + 1, sizeof(*ev));
    t = (float *) calloc(reps, sizeof(*t));
    if (ev == NULL || t == NULL) {
        free(ev);
        free(t);
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_ENOMEM, "out of host memory for %u "
                            "timings", reps);
    }
    for (made = 0; made <= reps; made++)
        if ((e = cudaEventCreate(&ev[made])) != cudaSuccess) {
            rc = cuda_status(e, "cudaEventCreate", msg, len);
            goto out;
        }
    /* Back to back: event i, run i, event i + 1, ... so that the device
     * does not wait for the host between the runs. */
    if ((e = cudaEventRecord(ev[0], st)) != cudaSuccess) {
        rc = cuda_status(e, "cudaEventRecord", msg, len);
        goto out;
    }
    for (i = 0; i < reps; i++) {
        if ((rc = smma_gpu_gemm(x, msg, len)) != SMMA_GPU_STATUS_OK)
            goto out;
        if ((e = cudaEventRecord(ev[i + 1], st)) != cudaSuccess) {
            rc = cuda_status(e, "cudaEventRecord", msg, len);
            goto out;
        }
    }
    if ((e = cudaEventSynchronize(ev[reps])) != cudaSuccess) {
        rc = cuda_status(e, "the timed runs", msg, len);
        goto out;
    }
    for (i = 0; i < reps; i++)
        if ((e = cudaEventElapsedTime(&t[i], ev[i], ev[i + 1])) != cudaSuccess) {
            rc = cuda_status(e, "cudaEventElapsedTime", msg, len);
            goto out;
        }
    qsort(t, reps, sizeof(*t), cmp_float);
    *median_ms = reps % 2 ? (double) t[reps / 2]
                          : ((double) t[reps / 2 - 1] + (double) t[reps / 2]) / 2;
out:
    if (rc != SMMA_GPU_STATUS_OK)
        (void) cudaDeviceSynchronize();
    for (i = 0; i < made; i++)
        (void) cudaEventDestroy(ev[i]);
    free(ev);
    free(t);
    return rc;
}

int
smma_gpu_malloc(void **ptr, size_t bytes, char *msg, size_t len)
{
    cudaError_t e;

    if (ptr == NULL)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "no pointer given");
    *ptr = NULL;
    if ((e = cudaMalloc(ptr, bytes > 0 ? bytes : 1)) != cudaSuccess) {
        int st = cuda_status(e, "cudaMalloc", msg, len);

        return e == cudaErrorMemoryAllocation ? SMMA_GPU_STATUS_ENOMEM : st;
    }
    return SMMA_GPU_STATUS_OK;
}

void
smma_gpu_free(void *ptr)
{
    if (ptr != NULL)
        (void) cudaFree(ptr);
}

int
smma_gpu_copy(void *dst, const void *src, size_t bytes, bool to_device, char *msg, size_t len)
{
    cudaError_t e = cudaMemcpy(dst, src, bytes,
                               to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);

    return e == cudaSuccess ? SMMA_GPU_STATUS_OK : cuda_status(e, "cudaMemcpy", msg, len);
}

namespace {

__global__ void
fill32_kernel(uint32_t *p, uint32_t v, size_t n)
{
    for (size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t) gridDim.x * blockDim.x)
        p[i] = v;
}

} /* namespace */

int
smma_gpu_fill32(void *dst, uint32_t pattern, size_t bytes, char *msg, size_t len)
{
    cudaError_t e;

    if (bytes % 4 != 0)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "%zu bytes are not whole 32-bit "
                            "words", bytes);
    fill32_kernel<<<1024, 256>>>((uint32_t *) dst, pattern, bytes / 4);
    if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaDeviceSynchronize()) != cudaSuccess)
        return cuda_status(e, "fill32", msg, len);
    return SMMA_GPU_STATUS_OK;
}

int
smma_gpu_sync(char *msg, size_t len)
{
    cudaError_t e = cudaDeviceSynchronize();

    return e == cudaSuccess ? SMMA_GPU_STATUS_OK
                            : cuda_status(e, "cudaDeviceSynchronize", msg, len);
}

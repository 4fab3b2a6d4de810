/*
 * gpu/probes/cvt_probe.cu - what the hardware's fp32 -> fp8 conversions
 * really return, for any range of fp32 bit patterns.
 *
 * Computes: for every fp32 bit pattern x in [first, first + count), the byte
 * that one of
 *     cvt.rn.satfinite.e4m3x2.f32  d, a, b;     (which = SMMA_GPU_CVT_E4M3)
 *     cvt.rn.satfinite.e5m2x2.f32  d, a, b;     (which = SMMA_GPU_CVT_E5M2)
 * produces for it.  tests/gpu/cvt-t.c compares these bytes with the
 * reference, smma_encode_f32bits() under the "cuda" profile, over all 2^32
 * inputs at TEST_LEVEL=2.
 *
 * Build and run: this file is compiled by nvcc into gpu/libsoftmma_gpu.a
 * when configure finds CUDA (see its summary), and runs through
 *     make check                                  (level 1: 2^24 + 2^16 inputs)
 *     make check TESTS=tests/gpu/cvt-t TEST_LEVEL=2   (every input)
 * or directly, once built, as TEST_LEVEL=2 ./tests/gpu/cvt-t.  The
 * instruction exists on sm_89 and later only; the default targets (sm_80,
 * sm_90a, sm_100a) give it to H100/H200 and B200, while an sm_89 or sm_120
 * device would run the sm_80 code and get SMMA_GPU_EARCH ("needs sm_89 or
 * later") unless configure is given --with-cuda-arch with such a target.
 *
 * Layout, with concrete numbers.  The x2 instruction converts two floats
 * into one 16-bit register: PTX puts the result of a in bits 15:8 and that
 * of b in bits 7:0 (cuda_fp8.hpp relies on the same order: it passes the
 * .x element as b so that it lands in the low byte).  Each thread takes 4
 * consecutive inputs, i = 4g .. 4g+3:
 *     lo = cvt(a = x[4g],   b = x[4g+1])   ->  out[4g] = lo >> 8, out[4g+1] = lo & 0xff
 *     hi = cvt(a = x[4g+2], b = x[4g+3])   ->  out[4g+2] = hi >> 8, out[4g+3] = hi & 0xff
 * and stores the 4 bytes as one 32-bit word (little-endian), so a warp
 * writes 128 contiguous bytes.  A group that runs past count stores byte by
 * byte, and an input with no partner gets +0.0 as b.
 *
 * Versions: 1 (this one) is the only one; the probe is bound by the copy of
 * the results to the host, not by the kernel (2^28 results, 256 MiB, take
 * well under a millisecond to produce on an H100).
 */
#include <cuda_runtime.h>

#include <stdarg.h>
#include <stdio.h>

#include "probes.h"
#include "probe_util.h"

/* Set by the kernel when it was compiled for a target without the
 * instruction: it holds the __CUDA_ARCH__ the code was built for, so the
 * launcher can say which code the driver chose.  0 means the kernel ran the
 * real instruction. */
__device__ unsigned int smma_cvt_probe_missing;

/* The device buffer kept between calls, and its size in bytes. */
static uint8_t *probe_buf;
static size_t probe_cap;

/* One x2 conversion: a lands in bits 15:8 of the result, b in bits 7:0. */
__device__ __forceinline__ unsigned short
cvt_f8x2(int which, float a, float b)
{
    unsigned short d = 0;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    if (which == SMMA_GPU_CVT_E4M3)
        asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(d) : "f"(a), "f"(b));
    else
        asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(d) : "f"(a), "f"(b));
#else
    (void) which;
    (void) a;
    (void) b;
#endif
    return d;
}

__global__ void
cvt_f32_to_f8x2_kernel(int which, uint32_t first, uint32_t count, uint8_t *out)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    uint64_t ngroups = ((uint64_t) count + 3) / 4;
    uint64_t stride = (uint64_t) gridDim.x * blockDim.x;

    for (uint64_t g = (uint64_t) blockIdx.x * blockDim.x + threadIdx.x; g < ngroups;
         g += stride) {
        uint64_t i = 4 * g;
        uint32_t x = first + (uint32_t) i; /* no wrap: first + count <= 2^32 */
        /* Inputs past the end (only in the last group) are +0.0. */
        float x0 = __uint_as_float(x);
        float x1 = i + 1 < count ? __uint_as_float(x + 1) : 0.0f;
        float x2 = i + 2 < count ? __uint_as_float(x + 2) : 0.0f;
        float x3 = i + 3 < count ? __uint_as_float(x + 3) : 0.0f;
        unsigned lo = cvt_f8x2(which, x0, x1);
        unsigned hi = cvt_f8x2(which, x2, x3);

        if (i + 4 <= count) {
            uint32_t word = (lo >> 8) | ((lo & 0xffu) << 8) | ((hi >> 8) << 16) |
                            ((hi & 0xffu) << 24);

            reinterpret_cast<uint32_t *>(out)[g] = word;
        } else {
            out[i] = (uint8_t) (lo >> 8);
            if (i + 1 < count)
                out[i + 1] = (uint8_t) lo;
            if (i + 2 < count)
                out[i + 2] = (uint8_t) (hi >> 8);
        }
    }
#else
    /* Built for a target without the instruction: leave the sentinel (the
     * target's number) and write nothing. */
    (void) which;
    (void) first;
    (void) out;
#if defined(__CUDA_ARCH__)
    if (count > 0 && blockIdx.x == 0 && threadIdx.x == 0)
        smma_cvt_probe_missing = __CUDA_ARCH__ / 10;
#else
    (void) count; /* the host pass of nvcc sees this body too */
#endif
#endif
}

/* The compute capability of device 0, or a failure as smma_gpu_device_info
 * reports it. */
static int
device0(int *major, int *minor, char *name, size_t name_len, char *msg, size_t msg_len)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);

    if (e != cudaSuccess)
        return cuda_fail(msg, msg_len, SMMA_GPU_ENODEV, "cudaGetDeviceCount", e);
    if (n < 1)
        return set_msg(msg, msg_len, SMMA_GPU_ENODEV, "cudaGetDeviceCount: no CUDA device");
    e = cudaDeviceGetAttribute(major, cudaDevAttrComputeCapabilityMajor, 0);
    if (e != cudaSuccess)
        return cuda_fail(msg, msg_len, SMMA_GPU_ENODEV, "cudaDeviceGetAttribute", e);
    e = cudaDeviceGetAttribute(minor, cudaDevAttrComputeCapabilityMinor, 0);
    if (e != cudaSuccess)
        return cuda_fail(msg, msg_len, SMMA_GPU_ENODEV, "cudaDeviceGetAttribute", e);
    if (name != NULL && name_len > 0) {
        cudaDeviceProp prop;

        e = cudaGetDeviceProperties(&prop, 0);
        if (e != cudaSuccess)
            return cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaGetDeviceProperties", e);
        snprintf(name, name_len, "%s", prop.name);
    }
    return SMMA_GPU_OK;
}

int
smma_gpu_device_info(int *sm_major, int *sm_minor, char *name, size_t name_len, char *msg,
                     size_t msg_len)
{
    int major = 0, minor = 0;
    int rc = device0(&major, &minor, name, name_len, msg, msg_len);

    if (rc != SMMA_GPU_OK)
        return rc;
    if (sm_major != NULL)
        *sm_major = major;
    if (sm_minor != NULL)
        *sm_minor = minor;
    return SMMA_GPU_OK;
}

/* Makes the device buffer hold at least need bytes. */
static int
grow_buffer(size_t need, char *msg, size_t msg_len)
{
    cudaError_t e;

    if (need <= probe_cap)
        return SMMA_GPU_OK;
    if (probe_buf != NULL) {
        e = cudaFree(probe_buf);
        probe_buf = NULL;
        probe_cap = 0;
        if (e != cudaSuccess)
            return cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaFree", e);
    }
    e = cudaMalloc((void **) &probe_buf, need);
    if (e != cudaSuccess) {
        probe_buf = NULL;
        return cuda_fail(msg, msg_len,
                         e == cudaErrorMemoryAllocation ? SMMA_GPU_ENOMEM : SMMA_GPU_ECUDA,
                         "cudaMalloc", e);
    }
    probe_cap = need;
    return SMMA_GPU_OK;
}

int
smma_gpu_cvt_f32_to_f8x2(int which, uint32_t first, uint32_t count, uint8_t *out, char *msg,
                         size_t msg_len)
{
    const char *insn = which == SMMA_GPU_CVT_E4M3 ? "cvt.rn.satfinite.e4m3x2.f32"
                                                 : "cvt.rn.satfinite.e5m2x2.f32";
    int major = 0, minor = 0, rc;
    unsigned int missing = 0;
    const unsigned threads = 256;
    uint64_t groups, blocks;

    if (which != SMMA_GPU_CVT_E4M3 && which != SMMA_GPU_CVT_E5M2)
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL, "unknown conversion %d (want %d or %d)",
                       which, SMMA_GPU_CVT_E4M3, SMMA_GPU_CVT_E5M2);
    if ((uint64_t) first + count > ((uint64_t) 1 << 32))
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL,
                       "range 0x%08x + %u runs past 0xffffffff", (unsigned) first,
                       (unsigned) count);
    if (count == 0)
        return SMMA_GPU_OK;
    if (out == NULL)
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL, "out is NULL with count %u",
                       (unsigned) count);

    rc = device0(&major, &minor, NULL, 0, msg, msg_len);
    if (rc != SMMA_GPU_OK)
        return rc;
    if (major * 10 + minor < 89)
        return set_msg(msg, msg_len, SMMA_GPU_EARCH, "%s needs sm_89 or later (found sm_%d%d)",
                       insn, major, minor);
    CUDA_TRY(cudaSetDevice(0));

    /* Whole 32-bit words: the kernel may store up to 3 bytes past count. */
    rc = grow_buffer(((size_t) count + 3) & ~(size_t) 3, msg, msg_len);
    if (rc != SMMA_GPU_OK)
        return rc;
    CUDA_TRY(cudaMemcpyToSymbol(smma_cvt_probe_missing, &missing, sizeof(missing)));

    groups = ((uint64_t) count + 3) / 4;
    blocks = (groups + threads - 1) / threads;
    if (blocks > 65536)
        blocks = 65536; /* the kernel strides over the rest */
    cvt_f32_to_f8x2_kernel<<<(unsigned) blocks, threads>>>(which, first, count, probe_buf);
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaDeviceSynchronize());

    CUDA_TRY(cudaMemcpyFromSymbol(&missing, smma_cvt_probe_missing, sizeof(missing)));
    if (missing != 0)
        return set_msg(msg, msg_len, SMMA_GPU_EARCH,
                       "%s needs sm_89 or later code: on this sm_%d%d device the driver "
                       "ran code built for sm_%u (add a target such as sm_%d%d with "
                       "--with-cuda-arch)",
                       insn, major, minor, missing, major, minor);
    CUDA_TRY(cudaMemcpy(out, probe_buf, count, cudaMemcpyDeviceToHost));
    return SMMA_GPU_OK;
}

void
smma_gpu_release(void)
{
    if (probe_buf != NULL) {
        (void) cudaFree(probe_buf);
        (void) cudaGetLastError();
    }
    probe_buf = NULL;
    probe_cap = 0;
}

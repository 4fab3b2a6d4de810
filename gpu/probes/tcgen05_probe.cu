/*
 * gpu/probes/tcgen05_probe.cu - what tcgen05.ld reads back from Tensor Memory
 * written with tcgen05.st, and what one tcgen05.mma writes to it.
 *
 * Computes:
 *   1. tc05_ldst_kernel (one warpgroup): tcgen05.alloc of 32 columns; every
 *      warp stores 32 x 32 words with tcgen05.st.32x32b.x32 into its own 32
 *      lanes; then every warp reads them back with .32x32b.x32,
 *      .32x32b.x16.pack::16b, .16x64b.x16, .16x128b.x8, .16x256b.x4 and
 *      .16x32bx2.x16 (split offset 16), the 16-lane shapes from both halves
 *      of its partition, and hands every register back.  The host compares
 *      them with the simulator's tcgen05.ld layouts (tests/gpu/tcgen05-t.c).
 *   2. tc05_mma_kernel (one warpgroup): copies the given bytes into shared
 *      memory, thread 0 issues one tcgen05.mma.cta_group::1.kind::f16 (M =
 *      128, N = 8, K = 16, D f32 in TMEM, enable-input-d false), commits to
 *      an mbarrier, and all four warps read D back with
 *      tcgen05.ld.32x32b.x8.  The host builds the shared memory and the
 *      descriptors with the simulator and compares D with its executor.
 * The kernels hold no layout: they move registers and bytes.
 *
 * Build and run: compiled into gpu/libsoftmma_gpu.a for every configured
 * architecture; the tcgen05 code exists only in the sm_100a build
 * (__CUDA_ARCH_FEAT_SM100_ALL), elsewhere the kernels set a flag and the
 * launchers report SMMA_GPU_EARCH.  Run by tests/gpu/tcgen05-t on a compute
 * capability 10.0 device; it skips elsewhere.  Not yet run on any GPU.
 *
 * Versions: 1 (this one): one warpgroup, one block, every step separated by
 * the tcgen05 waits and fences the PTX ISA's memory consistency section asks
 * for.
 */
#include <cuda_runtime.h>

#include <string.h>

#include "probes.h"
#include "probe_util.h"
#include "tcgen05_probe.h"

#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define SMMA_TC05_DEVICE 1
#else
#define SMMA_TC05_DEVICE 0
#endif

/* Set by a kernel that ran without the tcgen05 code (another arch's build). */
__device__ unsigned int smma_tc05_probe_missing;

#define TC05_LIST16 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}"
#define TC05_LIST32                                                                       \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, "   \
    "%18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define TC05_LIST32_FROM1                                                                 \
    "{%1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "  \
    "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32}"
#define TC05_OUT8(r)                                                                      \
    "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]),   \
        "=r"(r[7])
#define TC05_OUT16(r) TC05_OUT8(r), TC05_OUT8((r + 8))
#define TC05_OUT32(r) TC05_OUT16(r), TC05_OUT16((r + 16))
#define TC05_IN8(r)                                                                       \
    "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]), "r"(r[4]), "r"(r[5]), "r"(r[6]), "r"(r[7])
#define TC05_IN32(r) TC05_IN8(r), TC05_IN8((r + 8)), TC05_IN8((r + 16)), TC05_IN8((r + 24))

#if SMMA_TC05_DEVICE

static __device__ __forceinline__ uint32_t
smem_addr(const void *p)
{
    return (uint32_t) __cvta_generic_to_shared(p);
}

/* Warp 0 allocates 32 columns and gives up the permit; everyone learns the
 * address after the fence / barrier / fence the ISA requires. */
static __device__ __forceinline__ uint32_t
tmem_alloc32(uint32_t *slot)
{
    if (threadIdx.x / 32 == 0) {
        asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;"
                     :: "r"(smem_addr(slot)) : "memory");
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
    }
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncthreads();
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    return *(volatile uint32_t *) slot;
}

static __device__ __forceinline__ void
tmem_dealloc32(uint32_t base)
{
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncthreads();
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    if (threadIdx.x / 32 == 0)
        asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;" :: "r"(base)
                     : "memory");
}

/* One variant of tcgen05.ld into r[] (16 or 32 registers), then wait. */
static __device__ __forceinline__ void
ld_variant(int v, uint32_t addr, uint32_t *r)
{
    switch (v) {
    case SMMA_GPU_TC05_LD_32X32B_X32:
        asm volatile("tcgen05.ld.sync.aligned.32x32b.x32.b32 " TC05_LIST32 ", [%32];"
                     : TC05_OUT32(r) : "r"(addr) : "memory");
        break;
    case SMMA_GPU_TC05_LD_32X32B_X16_PACK:
        asm volatile("tcgen05.ld.sync.aligned.32x32b.x16.pack::16b.b32 " TC05_LIST16
                     ", [%16];" : TC05_OUT16(r) : "r"(addr) : "memory");
        break;
    case SMMA_GPU_TC05_LD_16X64B_X16:
        asm volatile("tcgen05.ld.sync.aligned.16x64b.x16.b32 " TC05_LIST16 ", [%16];"
                     : TC05_OUT16(r) : "r"(addr) : "memory");
        break;
    case SMMA_GPU_TC05_LD_16X128B_X8:
        asm volatile("tcgen05.ld.sync.aligned.16x128b.x8.b32 " TC05_LIST16 ", [%16];"
                     : TC05_OUT16(r) : "r"(addr) : "memory");
        break;
    case SMMA_GPU_TC05_LD_16X256B_X4:
        asm volatile("tcgen05.ld.sync.aligned.16x256b.x4.b32 " TC05_LIST16 ", [%16];"
                     : TC05_OUT16(r) : "r"(addr) : "memory");
        break;
    default:
        asm volatile("tcgen05.ld.sync.aligned.16x32bx2.x16.b32 " TC05_LIST16 ", [%16], 16;"
                     : TC05_OUT16(r) : "r"(addr) : "memory");
        break;
    }
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
}

#endif /* SMMA_TC05_DEVICE */

__global__ void __launch_bounds__(128)
tc05_ldst_kernel(const uint32_t *in, uint32_t *out)
{
#if SMMA_TC05_DEVICE
    __shared__ uint32_t slot;
    unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    uint32_t base = tmem_alloc32(&slot), row = base + ((32u * warp) << 16), r[32];
    int v, h, i;

    for (i = 0; i < 32; i++)
        r[i] = in[(32 * warp + lane) * 32 + i];
    asm volatile("tcgen05.st.sync.aligned.32x32b.x32.b32 [%0], " TC05_LIST32_FROM1 ";"
                 :: "r"(row), TC05_IN32(r) : "memory");
    asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
    for (v = 0; v < SMMA_GPU_TC05_LD_COUNT; v++)
        for (h = 0; h < 2; h++) {
            uint32_t *dst = out + ((((size_t) v * 2 + h) * 4 + warp) * 32 + lane) * 32;
            bool wide = v == SMMA_GPU_TC05_LD_32X32B_X32 || v == SMMA_GPU_TC05_LD_32X32B_X16_PACK;

            for (i = 0; i < 32; i++)
                r[i] = 0;
            if (!(wide && h == 1))
                ld_variant(v, row + ((16u * h) << 16), r);
            for (i = 0; i < 32; i++)
                dst[i] = r[i];
        }
    tmem_dealloc32(base);
#else
    (void) in;
    (void) out;
    if (threadIdx.x == 0)
        smma_tc05_probe_missing = 1;
#endif
}

__global__ void __launch_bounds__(128)
tc05_mma_kernel(const uint8_t *bytes, unsigned nbytes, uint64_t adesc, uint64_t bdesc,
                uint32_t idesc, uint32_t *d)
{
#if SMMA_TC05_DEVICE
    __shared__ __align__(1024) uint8_t buf[SMMA_GPU_TC05_SMEM];
    __shared__ uint32_t slot;
    __shared__ __align__(8) uint64_t mbar;
    unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32, i;
    uint32_t base, r[8], done = 0;

    for (i = threadIdx.x; i < nbytes; i += blockDim.x)
        buf[i] = bytes[i];
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(smem_addr(&mbar))
                     : "memory");
    /* Generic-proxy stores to shared memory, then read by the tensor core. */
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    base = tmem_alloc32(&slot);
    if (threadIdx.x == 0) {
        uint64_t start = smem_addr(buf) >> 4;

        adesc += start;
        bdesc += start;
        /* enable-input-d false: D = A * B. */
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                     "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}"
                     :: "r"(base), "l"(adesc), "l"(bdesc), "r"(idesc), "r"(0u) : "memory");
        asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 "
                     "[%0];" :: "r"(smem_addr(&mbar)) : "memory");
    }
    while (!done)
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(smem_addr(&mbar)) : "memory");
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0, %1, %2, %3, %4, %5, %6, %7}, "
                 "[%8];" : TC05_OUT8(r) : "r"(base + ((32u * warp) << 16)) : "memory");
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
    for (i = 0; i < 8; i++)
        d[(32 * warp + lane) * 8 + i] = r[i];
    tmem_dealloc32(base);
#else
    (void) bytes;
    (void) nbytes;
    (void) adesc;
    (void) bdesc;
    (void) idesc;
    (void) d;
    if (threadIdx.x == 0)
        smma_tc05_probe_missing = 1;
#endif
}

/* Device 0 must be compute capability 10.0: sm_100a code runs there only. */
static int
need_sm100(char *msg, size_t msg_len)
{
    int major = 0, minor = 0, rc;
    unsigned int missing = 0;
    cudaError_t e;

    rc = smma_gpu_device_info(&major, &minor, NULL, 0, msg, msg_len);
    if (rc != SMMA_GPU_OK)
        return rc;
    if (major != 10 || minor != 0)
        return set_msg(msg, msg_len, SMMA_GPU_EARCH,
                       "needs sm_100 (compute capability 10.0; found sm_%d%d)", major, minor);
    e = cudaMemcpyToSymbol(smma_tc05_probe_missing, &missing, sizeof(missing));
    if (e != cudaSuccess)
        return cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaMemcpyToSymbol", e);
    return SMMA_GPU_OK;
}

/* After a launch: synchronize, and report code that lacked tcgen05. */
static int
finish(const char *kernel, char *msg, size_t msg_len)
{
    unsigned int missing = 0;
    cudaError_t e;

    if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaDeviceSynchronize()) != cudaSuccess)
        return cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, kernel, e);
    e = cudaMemcpyFromSymbol(&missing, smma_tc05_probe_missing, sizeof(missing));
    if (e != cudaSuccess)
        return cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaMemcpyFromSymbol", e);
    if (missing)
        return set_msg(msg, msg_len, SMMA_GPU_EARCH,
                       "the code that ran lacks tcgen05 (build with sm_100a: configure "
                       "--with-cuda-arch)");
    return SMMA_GPU_OK;
}

int
smma_gpu_tcgen05_ldst(const uint32_t *tmem_in, uint32_t *out, char *msg, size_t msg_len)
{
    size_t in_bytes = 128 * SMMA_GPU_TC05_COLS * sizeof(uint32_t);
    size_t out_bytes = (size_t) SMMA_GPU_TC05_LDST_OUT * sizeof(uint32_t);
    uint32_t *din = NULL, *dout = NULL;
    cudaError_t e;
    int rc;

    if (tmem_in == NULL || out == NULL)
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL, "NULL input or output array");
    if ((rc = need_sm100(msg, msg_len)) != SMMA_GPU_OK)
        return rc;
    if ((e = cudaMalloc((void **) &din, in_bytes)) != cudaSuccess
        || (e = cudaMalloc((void **) &dout, out_bytes)) != cudaSuccess) {
        rc = cuda_fail(msg, msg_len, SMMA_GPU_ENOMEM, "cudaMalloc", e);
        goto done;
    }
    if ((e = cudaMemcpy(din, tmem_in, in_bytes, cudaMemcpyHostToDevice)) != cudaSuccess) {
        rc = cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaMemcpy (to device)", e);
        goto done;
    }
    tc05_ldst_kernel<<<1, 128>>>(din, dout);
    if ((rc = finish("tc05_ldst_kernel", msg, msg_len)) != SMMA_GPU_OK)
        goto done;
    if ((e = cudaMemcpy(out, dout, out_bytes, cudaMemcpyDeviceToHost)) != cudaSuccess)
        rc = cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaMemcpy (to host)", e);
done:
    cudaFree(din);
    cudaFree(dout);
    return rc;
}

int
smma_gpu_tcgen05_mma_f16(const uint8_t *smem, size_t smem_bytes, uint64_t a_desc,
                         uint64_t b_desc, uint32_t idesc, uint32_t *d, char *msg,
                         size_t msg_len)
{
    size_t d_bytes = 128 * 8 * sizeof(uint32_t);
    uint8_t *dsmem = NULL;
    uint32_t *dd = NULL;
    cudaError_t e;
    int rc;

    if (smem == NULL || d == NULL)
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL, "NULL shared-memory image or D");
    if (smem_bytes == 0 || smem_bytes > SMMA_GPU_TC05_SMEM)
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL,
                       "shared-memory image of %zu bytes (1 .. %u)", smem_bytes,
                       SMMA_GPU_TC05_SMEM);
    if ((rc = need_sm100(msg, msg_len)) != SMMA_GPU_OK)
        return rc;
    if ((e = cudaMalloc((void **) &dsmem, smem_bytes)) != cudaSuccess
        || (e = cudaMalloc((void **) &dd, d_bytes)) != cudaSuccess) {
        rc = cuda_fail(msg, msg_len, SMMA_GPU_ENOMEM, "cudaMalloc", e);
        goto done;
    }
    if ((e = cudaMemcpy(dsmem, smem, smem_bytes, cudaMemcpyHostToDevice)) != cudaSuccess) {
        rc = cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaMemcpy (to device)", e);
        goto done;
    }
    tc05_mma_kernel<<<1, 128>>>(dsmem, (unsigned) smem_bytes, a_desc, b_desc, idesc, dd);
    if ((rc = finish("tc05_mma_kernel", msg, msg_len)) != SMMA_GPU_OK)
        goto done;
    if ((e = cudaMemcpy(d, dd, d_bytes, cudaMemcpyDeviceToHost)) != cudaSuccess)
        rc = cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaMemcpy (to host)", e);
done:
    cudaFree(dsmem);
    cudaFree(dd);
    return rc;
}

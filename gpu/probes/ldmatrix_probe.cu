/*
 * gpu/probes/ldmatrix_probe.cu - what ldmatrix and stmatrix really move.
 *
 * Computes: for each case t one warp copies the case's 512-byte window into
 * its own part of shared memory, each lane forms the shared address of its
 * row offset, and the warp executes one of
 *     ldmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{,.trans}.shared.b16   (sm_75+)
 *     stmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{,.trans}.shared.b16   (sm_90+)
 * then stores the registers it loaded (ldmatrix) or the window as the store
 * left it (stmatrix).  The kernel knows no layout: tests/gpu/ldmatrix-t.c
 * compares everything with the simulator's smma_ldmatrix_exec and
 * smma_stmatrix_exec.
 *
 * Build and run: compiled into gpu/libsoftmma_gpu.a when configure finds
 * CUDA; run by `make check` (tests/gpu/ldmatrix-t) on a GPU, skipped
 * elsewhere with the reason.
 */
#include <cuda_runtime.h>

#include "probes.h"
#include "probe_util.h"

#define WARPS_PER_BLOCK 8
#define WORDS (SMMA_GPU_MATRIX_SMEM / 4)

__device__ unsigned int smma_matrix_probe_missing;

/* One variant as a number: kind * 6 + log2(num) * 2 + trans. */
#define LD(num, trans) (0 * 6 + (num) * 2 + (trans))
#define ST(num, trans) (1 * 6 + (num) * 2 + (trans))

__global__ void
matrix_probe_kernel(int variant, const uint32_t *smem_in, const uint32_t *addr,
                    const uint32_t *regs_in, uint32_t *regs_out, uint32_t *smem_out,
                    size_t ncases)
{
    __shared__ __align__(128) uint32_t window[WARPS_PER_BLOCK][WORDS];
    unsigned lane = threadIdx.x & 31u, w = threadIdx.x >> 5;
    size_t warp = ((size_t) blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    size_t nwarps = ((size_t) gridDim.x * blockDim.x) >> 5;
    uint32_t base = (uint32_t) __cvta_generic_to_shared(&window[w][0]);

    for (size_t t = warp; t < ncases; t += nwarps) {
        uint32_t r0 = 0, r1 = 0, r2 = 0, r3 = 0, a;
        unsigned i;

        for (i = lane; i < WORDS; i += 32)
            window[w][i] = smem_in[t * WORDS + i];
        a = base + addr[t * 32 + lane];
        if (variant >= ST(0, 0)) {
            const uint4 v = reinterpret_cast<const uint4 *>(regs_in)[t * 32 + lane];

            r0 = v.x;
            r1 = v.y;
            r2 = v.z;
            r3 = v.w;
        }
        __syncwarp();
        switch (variant) {
        case LD(0, 0):
            asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                         : "=r"(r0) : "r"(a) : "memory");
            break;
        case LD(0, 1):
            asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                         : "=r"(r0) : "r"(a) : "memory");
            break;
        case LD(1, 0):
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                         : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
            break;
        case LD(1, 1):
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                         : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
            break;
        case LD(2, 0):
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                         : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
            break;
        case LD(2, 1):
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                         : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a) : "memory");
            break;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        case ST(0, 0):
            asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};"
                         :: "r"(a), "r"(r0) : "memory");
            break;
        case ST(0, 1):
            asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};"
                         :: "r"(a), "r"(r0) : "memory");
            break;
        case ST(1, 0):
            asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};"
                         :: "r"(a), "r"(r0), "r"(r1) : "memory");
            break;
        case ST(1, 1):
            asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};"
                         :: "r"(a), "r"(r0), "r"(r1) : "memory");
            break;
        case ST(2, 0):
            asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                         :: "r"(a), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
            break;
        case ST(2, 1):
            asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};"
                         :: "r"(a), "r"(r0), "r"(r1), "r"(r2), "r"(r3) : "memory");
            break;
#endif
        default:
#if defined(__CUDA_ARCH__)
            if (lane == 0)
                smma_matrix_probe_missing = __CUDA_ARCH__;
#endif
            break;
        }
        __syncwarp();
        if (variant < ST(0, 0)) {
            reinterpret_cast<uint4 *>(regs_out)[t * 32 + lane] = make_uint4(r0, r1, r2, r3);
        } else {
            for (i = lane; i < WORDS; i += 32)
                smem_out[t * WORDS + i] = window[w][i];
        }
        __syncwarp();
    }
}

int
smma_gpu_matrix(int kind, unsigned num, int trans, const uint8_t *smem_in, const uint32_t *addr,
                const uint32_t *regs_in, uint32_t *regs_out, uint8_t *smem_out, size_t ncases,
                char *msg, size_t msg_len)
{
    int major = 0, minor = 0, rc, variant;
    size_t sbytes = ncases * SMMA_GPU_MATRIX_SMEM, abytes = ncases * 32 * 4,
           rbytes = ncases * 32 * 16, i;
    uint32_t *ds = NULL, *da = NULL, *dr = NULL, *dout = NULL;
    unsigned int missing = 0;
    cudaError_t e;

    if (kind != 0 && kind != 1)
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL, "unknown kind %d (0 ldmatrix, 1 stmatrix)",
                       kind);
    if (num != 1 && num != 2 && num != 4)
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL, ".x%u is not a valid .num (1, 2, 4)", num);
    if (ncases == 0)
        return SMMA_GPU_OK;
    if (smem_in == NULL || addr == NULL || (kind == 0 && regs_out == NULL) ||
        (kind == 1 && (regs_in == NULL || smem_out == NULL)))
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL, "NULL array");
    for (i = 0; i < ncases * 32; i++)
        if (addr[i] % 16 != 0 || addr[i] >= SMMA_GPU_MATRIX_SMEM)
            return set_msg(msg, msg_len, SMMA_GPU_EINVAL,
                           "case %zu lane %zu: address %u is not a multiple of 16 below %d",
                           i / 32, i % 32, addr[i], SMMA_GPU_MATRIX_SMEM);
    rc = smma_gpu_device_info(&major, &minor, NULL, 0, msg, msg_len);
    if (rc != SMMA_GPU_OK)
        return rc;
    if (major * 10 + minor < (kind == 0 ? 75 : 90))
        return set_msg(msg, msg_len, SMMA_GPU_EARCH, "needs sm_%d or later (found sm_%d%d)",
                       kind == 0 ? 75 : 90, major, minor);
    variant = kind * 6 + (num == 1 ? 0 : num == 2 ? 2 : 4) + (trans ? 1 : 0);
    e = cudaMemcpyToSymbol(smma_matrix_probe_missing, &missing, sizeof(missing));
    if (e != cudaSuccess)
        return cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaMemcpyToSymbol", e);
    if ((e = cudaMalloc((void **) &ds, sbytes)) != cudaSuccess ||
        (e = cudaMalloc((void **) &da, abytes)) != cudaSuccess ||
        (e = cudaMalloc((void **) &dr, rbytes)) != cudaSuccess ||
        (e = cudaMalloc((void **) &dout, kind == 0 ? rbytes : sbytes)) != cudaSuccess) {
        rc = cuda_fail(msg, msg_len, SMMA_GPU_ENOMEM, "cudaMalloc", e);
        goto done;
    }
    if ((e = cudaMemcpy(ds, smem_in, sbytes, cudaMemcpyHostToDevice)) != cudaSuccess ||
        (e = cudaMemcpy(da, addr, abytes, cudaMemcpyHostToDevice)) != cudaSuccess ||
        (kind == 1 &&
         (e = cudaMemcpy(dr, regs_in, rbytes, cudaMemcpyHostToDevice)) != cudaSuccess)) {
        rc = cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaMemcpy (to device)", e);
        goto done;
    }
    matrix_probe_kernel<<<512, 32 * WARPS_PER_BLOCK>>>(variant, ds, da, dr, dout, dout, ncases);
    rc = finish_launch("matrix_probe_kernel", smma_matrix_probe_missing, "sm_90+", msg, msg_len);
    if (rc != SMMA_GPU_OK)
        goto done;
    e = kind == 0 ? cudaMemcpy(regs_out, dout, rbytes, cudaMemcpyDeviceToHost)
                  : cudaMemcpy(smem_out, dout, sbytes, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        rc = cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaMemcpy (to host)", e);
        goto done;
    }
    rc = SMMA_GPU_OK;
done:
    cudaFree(ds);
    cudaFree(da);
    cudaFree(dr);
    cudaFree(dout);
    return rc;
}

/*
 * gpu/probes/mma_probe.cu - what one mma.sync really computes, register by
 * register.
 *
 * Computes: for each case t, one warp loads 4 A, 2 B and 4 C registers per
 * lane exactly as the host laid them out (the host packs tiles with the
 * simulator's smma_frag_pack), executes one of
 *     mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
 *     mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
 *     mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32     (sm_89+)
 *     mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32     (sm_89+)
 *     mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16       (2 C, 2 D registers)
 * and stores its 4 D registers.  The kernel holds no layout: tests/gpu/mma-t.c
 * unpacks D with the simulator and compares it bit for bit with the
 * simulator's execution of the same instruction under a numerics model, so
 * one probe checks the layouts and the numerics together.
 *
 * Build and run: compiled into gpu/libsoftmma_gpu.a when configure finds
 * CUDA; run by `make check` (tests/gpu/mma-t, 100,000 cases per instruction)
 * on a machine with an sm_80+ GPU (sm_89+ for the fp8 forms); it skips
 * elsewhere with the reason.
 *
 * Layout of the arrays, with numbers: case t, lane l, register r of A is
 * a[(t * 32 + l) * 4 + r], so one case is 512 bytes of A, 256 of B, 512 of C
 * and 512 of D; a warp reads its case as 32 lanes x 16 contiguous bytes.
 *
 * Versions: 1 (this one): one case per warp iteration, grid-stride loop.
 */
#include <cuda_runtime.h>

#include "probes.h"
#include "probe_util.h"

__device__ unsigned int smma_mma_probe_missing;

__global__ void
mma_probe_kernel(int instr, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                 uint32_t *d, size_t ncases)
{
    unsigned lane = threadIdx.x & 31u;
    size_t warp = ((size_t) blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    size_t nwarps = ((size_t) gridDim.x * blockDim.x) >> 5;

    for (size_t t = warp; t < ncases; t += nwarps) {
        const uint4 av = reinterpret_cast<const uint4 *>(a)[t * 32 + lane];
        const uint2 bv = reinterpret_cast<const uint2 *>(b)[t * 32 + lane];
        const uint4 cv = reinterpret_cast<const uint4 *>(c)[t * 32 + lane];
        float c0 = __uint_as_float(cv.x), c1 = __uint_as_float(cv.y);
        float c2 = __uint_as_float(cv.z), c3 = __uint_as_float(cv.w);
        float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
        uint32_t h0 = 0, h1 = 0;

        switch (instr) {
        case SMMA_GPU_MMA_M16N8K16_F16_F16:
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
                         "{%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                         : "=r"(h0), "=r"(h1)
                         : "r"(av.x), "r"(av.y), "r"(av.z), "r"(av.w), "r"(bv.x), "r"(bv.y),
                           "r"(cv.x), "r"(cv.y));
            break;
        case SMMA_GPU_MMA_M16N8K16_BF16:
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                         "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                         : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                         : "r"(av.x), "r"(av.y), "r"(av.z), "r"(av.w), "r"(bv.x), "r"(bv.y),
                           "f"(c0), "f"(c1), "f"(c2), "f"(c3));
            break;
        case SMMA_GPU_MMA_M16N8K16_F16:
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                         "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                         : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                         : "r"(av.x), "r"(av.y), "r"(av.z), "r"(av.w), "r"(bv.x), "r"(bv.y),
                           "f"(c0), "f"(c1), "f"(c2), "f"(c3));
            break;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
        case SMMA_GPU_MMA_M16N8K32_E4M3:
            asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 "
                         "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                         : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                         : "r"(av.x), "r"(av.y), "r"(av.z), "r"(av.w), "r"(bv.x), "r"(bv.y),
                           "f"(c0), "f"(c1), "f"(c2), "f"(c3));
            break;
        case SMMA_GPU_MMA_M16N8K32_E5M2:
            asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 "
                         "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                         : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                         : "r"(av.x), "r"(av.y), "r"(av.z), "r"(av.w), "r"(bv.x), "r"(bv.y),
                           "f"(c0), "f"(c1), "f"(c2), "f"(c3));
            break;
#endif
        default:
#if defined(__CUDA_ARCH__)
            if (lane == 0)
                smma_mma_probe_missing = __CUDA_ARCH__;
#endif
            break;
        }
        reinterpret_cast<uint4 *>(d)[t * 32 + lane] =
            instr == SMMA_GPU_MMA_M16N8K16_F16_F16
                ? make_uint4(h0, h1, 0, 0)
                : make_uint4(__float_as_uint(d0), __float_as_uint(d1), __float_as_uint(d2),
                             __float_as_uint(d3));
    }
}

int
smma_gpu_mma(int instr, const uint32_t *a_regs, const uint32_t *b_regs, const uint32_t *c_regs,
             uint32_t *d_regs, size_t ncases, char *msg, size_t msg_len)
{
    int major = 0, minor = 0, rc, fp8;
    size_t abytes = ncases * 32 * 16, bbytes = ncases * 32 * 8;
    uint32_t *da = NULL, *db = NULL, *dc = NULL, *dd = NULL;
    unsigned int missing = 0;
    cudaError_t e;

    if (instr < SMMA_GPU_MMA_M16N8K16_BF16 || instr > SMMA_GPU_MMA_M16N8K16_F16_F16)
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL, "unknown mma instruction %d", instr);
    if (ncases == 0)
        return SMMA_GPU_OK;
    if (a_regs == NULL || b_regs == NULL || c_regs == NULL || d_regs == NULL)
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL, "NULL register array");
    rc = smma_gpu_device_info(&major, &minor, NULL, 0, msg, msg_len);
    if (rc != SMMA_GPU_OK)
        return rc;
    fp8 = instr == SMMA_GPU_MMA_M16N8K32_E4M3 || instr == SMMA_GPU_MMA_M16N8K32_E5M2;
    if (major * 10 + minor < 80 || (fp8 && major * 10 + minor < 89))
        return set_msg(msg, msg_len, SMMA_GPU_EARCH, "needs sm_%s or later (found sm_%d%d)",
                       fp8 ? "89" : "80", major, minor);
    e = cudaMemcpyToSymbol(smma_mma_probe_missing, &missing, sizeof(missing));
    if (e != cudaSuccess)
        return cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaMemcpyToSymbol", e);
    if ((e = cudaMalloc((void **) &da, abytes)) != cudaSuccess ||
        (e = cudaMalloc((void **) &db, bbytes)) != cudaSuccess ||
        (e = cudaMalloc((void **) &dc, abytes)) != cudaSuccess ||
        (e = cudaMalloc((void **) &dd, abytes)) != cudaSuccess) {
        rc = cuda_fail(msg, msg_len, SMMA_GPU_ENOMEM, "cudaMalloc", e);
        goto done;
    }
    if ((e = cudaMemcpy(da, a_regs, abytes, cudaMemcpyHostToDevice)) != cudaSuccess ||
        (e = cudaMemcpy(db, b_regs, bbytes, cudaMemcpyHostToDevice)) != cudaSuccess ||
        (e = cudaMemcpy(dc, c_regs, abytes, cudaMemcpyHostToDevice)) != cudaSuccess) {
        rc = cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaMemcpy (to device)", e);
        goto done;
    }
    mma_probe_kernel<<<1024, 256>>>(instr, da, db, dc, dd, ncases);
    rc = finish_launch("mma_probe_kernel", smma_mma_probe_missing, "sm_89+", msg, msg_len);
    if (rc != SMMA_GPU_OK)
        goto done;
    if ((e = cudaMemcpy(d_regs, dd, abytes, cudaMemcpyDeviceToHost)) != cudaSuccess) {
        rc = cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaMemcpy (to host)", e);
        goto done;
    }
    rc = SMMA_GPU_OK;
done:
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    cudaFree(dd);
    return rc;
}

/*
 * gpu/probes/mma_bs_probe.cu - what one sm_120a mma.sync on FP8/FP6/FP4
 * operands, plain or block-scaled, really computes, register by register.
 *
 * Computes: for each case t, one warp loads 4 A, 2 B and 4 C registers and
 * one scale-a and one scale-b register per lane exactly as the host laid
 * them out (packed with the simulator, sim/softmma/mma_bs.h), executes one
 * of the 54 variants listed in mma_bs_probe.h with the selectors
 * {byte-id-a, thread-id-a}, {byte-id-b, thread-id-b} given by the host, and
 * stores its 4 D registers.  The kernel holds no layout: tests/gpu/mma-bs-t.c
 * unpacks D with the simulator and compares it bit for bit with the
 * simulator's execution of the same instruction.
 *
 * Build: compiled into gpu/libsoftmma_gpu.a for the configured targets.  The
 * instructions exist only for sm_120a and sm_121a (PTX ISA Target ISA Notes;
 * mxf4 and mxf4nvf4 nowhere else), so the device code is guarded by the
 * feature macros nvcc defines for those targets, __CUDA_ARCH_FEAT_SM120_ALL
 * and __CUDA_ARCH_FEAT_SM121_ALL; for every other target the kernel records
 * that it lacks them and the launcher returns SMMA_GPU_EARCH.  To run it,
 * configure with an sm_120a target.  tests/gpu/mma-bs-t.c compiles this file
 * with `nvcc -arch=sm_120a -cubin -DSMMA_MMA_BS_PROBE_CHECK`, which turns a
 * missing feature macro into an error, so the 54 (53) asm statements below
 * are proven to assemble for sm_120a on any machine with nvcc.
 *
 * Never run: no sm_120 GPU was available when this was written.
 *
 * Versions: 1 (this one): one case per warp iteration, grid-stride loop.
 */
#include <cuda_runtime.h>

#include "probes.h"
#include "probe_util.h"
#include "mma_bs_probe.h"

#if defined(__CUDA_ARCH_FEAT_SM120_ALL) || defined(__CUDA_ARCH_FEAT_SM121_ALL)
#define SMMA_MMA_BS_DEVICE 1
#endif

#if defined(SMMA_MMA_BS_PROBE_CHECK) && defined(__CUDA_ARCH__) && !defined(SMMA_MMA_BS_DEVICE)
#error "mma_bs_probe.cu: compiled for a device target without the sm_120a/sm_121a features"
#endif

/* .scale_vec::4X with .ue8m0 needs PTX ISA 9.1, which CUDA 13.0's nvcc
 * (PTX ISA 9.0) lacks; assumed present from CUDA 13.1, following the
 * pattern CUDA 12.8 = PTX 8.7, 12.9 = 8.8, 13.0 = 9.0. */
#if defined(__CUDACC_VER_MAJOR__) && (__CUDACC_VER_MAJOR__ * 10 + __CUDACC_VER_MINOR__ >= 131)
#define SMMA_MMA_BS_HAVE_4X_UE8M0 1
#endif

__device__ unsigned int smma_mma_bs_probe_missing;

/* Operand lists: %0-%3 D, %4-%7 A, %8-%9 B, %10-%13 C, then scale-a-data,
 * {byte-id-a, thread-id-a}, scale-b-data, {byte-id-b, thread-id-b}. */
#define OUTS "=f"(dv.x), "=f"(dv.y), "=f"(dv.z), "=f"(dv.w)
#define INS                                                                               \
    "r"(av.x), "r"(av.y), "r"(av.z), "r"(av.w), "r"(bv.x), "r"(bv.y), "f"(cv.x),          \
        "f"(cv.y), "f"(cv.z), "f"(cv.w)
#define SF_INS "r"(sfa), "h"(bida), "h"(tida), "r"(sfb), "h"(bidb), "h"(tidb)
#define REGS "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13}"
#define SF_REGS ", %14, {%15, %16}, %17, {%18, %19};"

#define F8(a, b)                                                                          \
    asm volatile("mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32." a "." b ".f32 "    \
                 REGS ";" : OUTS : INS)
#define MX8(a, b)                                                                         \
    asm volatile("mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale"           \
                 ".scale_vec::1X.f32." a "." b ".f32.ue8m0 " REGS SF_REGS                  \
                 : OUTS : INS, SF_INS)
#define MX4(kind, sv, st)                                                                 \
    asm volatile("mma.sync.aligned.m16n8k64.row.col.kind::" kind ".block_scale"           \
                 ".scale_vec::" sv ".f32.e2m1.e2m1.f32." st " " REGS SF_REGS              \
                 : OUTS : INS, SF_INS)

/* Five cases for atype a: numbers base + 5 * ia + 0..4. */
#define CASES5(base, M, a)                                                                \
    case (base) + 0: M(a, "e4m3"); break;                                                 \
    case (base) + 1: M(a, "e5m2"); break;                                                 \
    case (base) + 2: M(a, "e3m2"); break;                                                 \
    case (base) + 3: M(a, "e2m3"); break;                                                 \
    case (base) + 4: M(a, "e2m1"); break
#define CASES25(base, M)                                                                  \
    CASES5((base) + 0, M, "e4m3");                                                        \
    CASES5((base) + 5, M, "e5m2");                                                        \
    CASES5((base) + 10, M, "e3m2");                                                       \
    CASES5((base) + 15, M, "e2m3");                                                       \
    CASES5((base) + 20, M, "e2m1")

__global__ void
mma_bs_probe_kernel(int variant, unsigned short bida, unsigned short tida, unsigned short bidb,
                    unsigned short tidb, const uint32_t *a, const uint32_t *b,
                    const uint32_t *c, const uint32_t *sa, const uint32_t *sb, uint32_t *d,
                    size_t ncases)
{
    unsigned lane = threadIdx.x & 31u;
    size_t warp = ((size_t) blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    size_t nwarps = ((size_t) gridDim.x * blockDim.x) >> 5;

    for (size_t t = warp; t < ncases; t += nwarps) {
        /* Lane l of case t: 16 bytes of A, 8 of B, 16 of C (fp32), 4 + 4 of
         * scales; the scale arrays are NULL for the f8f6f4 variants. */
        size_t at = t * 32 + lane;
        const uint4 av = reinterpret_cast<const uint4 *>(a)[at];
        const uint2 bv = reinterpret_cast<const uint2 *>(b)[at];
        const float4 cv = reinterpret_cast<const float4 *>(c)[at];
        const uint32_t sfa = sa == NULL ? 0u : sa[at], sfb = sb == NULL ? 0u : sb[at];
        float4 dv = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

        /* Unused where the device code lacks the instructions. */
        (void) av, (void) bv, (void) cv, (void) sfa, (void) sfb;
        switch (variant) {
#if defined(SMMA_MMA_BS_DEVICE)
        CASES25(0, F8);
        CASES25(25, MX8);
        case 50: MX4("mxf4", "2X", "ue8m0"); break;
        case 51: MX4("mxf4nvf4", "2X", "ue8m0"); break;
        case 52: MX4("mxf4nvf4", "4X", "ue4m3"); break;
#if defined(SMMA_MMA_BS_HAVE_4X_UE8M0)
        case 53: MX4("mxf4nvf4", "4X", "ue8m0"); break;
#endif
#endif
        default:
#if defined(__CUDA_ARCH__)
            if (lane == 0)
                smma_mma_bs_probe_missing = __CUDA_ARCH__ + 1;
#endif
            break;
        }
        reinterpret_cast<float4 *>(d)[at] = dv;
    }
}

/* Table 37 of the PTX ISA, for the variant's scale_vec. */
static bool
selectors_legal(int variant, unsigned bida, unsigned tida, unsigned bidb, unsigned tidb)
{
    unsigned sv = variant < 25 ? 0 : variant < 50 ? 1 : variant <= 51 ? 2 : 4;

    if (sv == 0)
        return true;
    if (tida > 1 || tidb > 3)
        return false;
    if (sv == 1)
        return bida <= 3 && bidb <= 3;
    if (sv == 2)
        return (bida == 0 || bida == 2) && (bidb == 0 || bidb == 2);
    return bida == 0 && bidb == 0;
}

/* The device buffers of one call. */
enum { BUF_A, BUF_B, BUF_C, BUF_D, BUF_SA, BUF_SB, NBUF };

/* Copies the inputs, runs the kernel and copies D back (the buffers are
 * allocated and freed by the caller). */
static int
run(int variant, const unsigned short sel[4], const uint32_t *const host[NBUF],
    uint32_t *const dev[NBUF], const size_t bytes[NBUF], uint32_t *d_regs, size_t ncases,
    char *msg, size_t msg_len)
{
    unsigned int missing = 0;
    int i;

    CUDA_TRY(cudaMemcpyToSymbol(smma_mma_bs_probe_missing, &missing, sizeof(missing)));
    for (i = 0; i < NBUF; i++)
        if (host[i] != NULL && dev[i] != NULL)
            CUDA_TRY(cudaMemcpy(dev[i], host[i], bytes[i], cudaMemcpyHostToDevice));
    mma_bs_probe_kernel<<<1024, 256>>>(variant, sel[0], sel[1], sel[2], sel[3], dev[BUF_A],
                                       dev[BUF_B], dev[BUF_C], dev[BUF_SA], dev[BUF_SB],
                                       dev[BUF_D], ncases);
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaDeviceSynchronize());
    CUDA_TRY(cudaMemcpyFromSymbol(&missing, smma_mma_bs_probe_missing, sizeof(missing)));
    if (missing != 0)
        return set_msg(msg, msg_len, SMMA_GPU_EARCH,
                       "the code that ran (built for sm_%u) lacks variant %d; configure "
                       "--with-cuda-arch with sm_120a (variant 53 also needs PTX ISA 9.1)",
                       (missing - 1) / 10, variant);
    CUDA_TRY(cudaMemcpy(d_regs, dev[BUF_D], bytes[BUF_D], cudaMemcpyDeviceToHost));
    return SMMA_GPU_OK;
}

int
smma_gpu_mma_bs(int variant, unsigned byte_id_a, unsigned thread_id_a, unsigned byte_id_b,
                unsigned thread_id_b, const uint32_t *a_regs, const uint32_t *b_regs,
                const uint32_t *c_regs, const uint32_t *sfa_regs, const uint32_t *sfb_regs,
                uint32_t *d_regs, size_t ncases, char *msg, size_t msg_len)
{
    bool scaled = variant >= 25;
    const unsigned short sel[4] = { (unsigned short) byte_id_a, (unsigned short) thread_id_a,
                                    (unsigned short) byte_id_b, (unsigned short) thread_id_b };
    const uint32_t *const host[NBUF] = { a_regs, b_regs, c_regs, NULL, sfa_regs, sfb_regs };
    const size_t bytes[NBUF] = { ncases * 32 * 16, ncases * 32 * 8, ncases * 32 * 16,
                                 ncases * 32 * 16, ncases * 32 * 4, ncases * 32 * 4 };
    uint32_t *dev[NBUF] = { NULL, NULL, NULL, NULL, NULL, NULL };
    int major = 0, minor = 0, rc, i;
    cudaError_t e;

    if (variant < 0 || variant >= SMMA_GPU_MMA_BS_COUNT)
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL, "unknown mma variant %d (0..%d)", variant,
                       SMMA_GPU_MMA_BS_COUNT - 1);
    if (!selectors_legal(variant, byte_id_a, thread_id_a, byte_id_b, thread_id_b))
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL,
                       "variant %d: selectors {%u, %u}, {%u, %u} are not legal (PTX ISA "
                       "Table 37)", variant, byte_id_a, thread_id_a, byte_id_b, thread_id_b);
    if (ncases == 0)
        return SMMA_GPU_OK;
    if (a_regs == NULL || b_regs == NULL || c_regs == NULL || d_regs == NULL ||
        (scaled && (sfa_regs == NULL || sfb_regs == NULL)))
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL, "NULL register array");
    rc = smma_gpu_device_info(&major, &minor, NULL, 0, msg, msg_len);
    if (rc != SMMA_GPU_OK)
        return rc;
    if (major != 12)
        return set_msg(msg, msg_len, SMMA_GPU_EARCH, "needs sm_120a or sm_121a (found sm_%d%d)",
                       major, minor);
    rc = SMMA_GPU_OK;
    for (i = 0; i < (scaled ? NBUF : BUF_SA) && rc == SMMA_GPU_OK; i++)
        if ((e = cudaMalloc((void **) &dev[i], bytes[i])) != cudaSuccess)
            rc = cuda_fail(msg, msg_len, SMMA_GPU_ENOMEM, "cudaMalloc", e);
    if (rc == SMMA_GPU_OK)
        rc = run(variant, sel, host, dev, bytes, d_regs, ncases, msg, msg_len);
    for (i = 0; i < NBUF; i++)
        cudaFree(dev[i]);
    return rc;
}

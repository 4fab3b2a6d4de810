/*
 * gpu/probes/wgmma_probe.cu - what one wgmma.mma_async (sm_90a) really
 * computes, register by register.
 *
 * Computes: for each case t, one warpgroup (a block of 128 threads) loads 4
 * A registers and N/2 D registers per thread exactly as the host laid them
 * out, copies the host's B image (bytes laid out by the simulator for a
 * descriptor) into shared memory, executes one of
 *     wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16
 *     wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16
 *     wgmma.mma_async.sync.aligned.m64n8k32.f32.{e4m3,e5m2}.{e4m3,e5m2}
 *     wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
 *     wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3
 * with A from registers, B through the descriptor, and stores every D
 * register.  tests/gpu/wgmma-t.c packs the inputs with softmma/wgmma.h and
 * compares D bit for bit with the simulator's executor, so one probe checks
 * the register layouts, the descriptor and swizzle model and the numerics.
 *
 * Build and run: compiled into gpu/libsoftmma_gpu.a when configure finds
 * CUDA, for every target of the build; only the sm_90a code holds the
 * instruction (guarded by __CUDA_ARCH_FEAT_SM90_ALL), the other targets
 * report SMMA_GPU_EARCH.  Run by `make check` (tests/gpu/wgmma-t) on an
 * sm_90 device; it skips elsewhere with the reason.
 *
 * One case, with numbers (N = 8): A is 128 threads x 4 registers = 2 KiB,
 * C and D 128 x 4 registers = 2 KiB each, B at most SMMA_GPU_WGMMA_SMEM_MAX
 * bytes (an 8 x 16 bf16 B is 256 bytes without swizzling, 1 KiB as rows of
 * 128 bytes).  The order inside a case is the one the PTX ISA asks for:
 *   1. every thread copies 16-byte pieces of B to shared memory;
 *   2. fence.proxy.async.shared::cta (wgmma reads through the async proxy:
 *      "an async proxy fence must be used to establish an ordering between
 *      prior writes to shared memory matrices and subsequent reads"), then
 *      __syncthreads();
 *   3. one asm block: wgmma.fence (registers written before), the wgmma,
 *      wgmma.commit_group, wgmma.wait_group 0, so that no accumulator
 *      register is touched while the operation is in flight;
 *   4. D stored; __syncthreads() before the next case overwrites B.
 * The shared buffer starts at a multiple of 1024 (the longest swizzle
 * repeat), so a descriptor written relative to the image with start 0 and
 * base offset 0 describes the same bytes on the GPU as in the simulator.
 *
 * Versions: 1 (this one): one case per block iteration, grid-stride loop.
 */
#include <cuda_runtime.h>

#include "probes.h"
#include "probe_util.h"
#include "wgmma_probe.h"

/* Set by the kernel when the code that ran lacks wgmma: the __CUDA_ARCH__
 * it was built for.  0 means the real instruction ran. */
__device__ unsigned int smma_wgmma_probe_missing;

/* N of each instruction, and whether its inputs are 16-bit. */
__host__ __device__ constexpr unsigned
wg_n(int i)
{
    return i == SMMA_GPU_WGMMA_M64N64K16_BF16 || i == SMMA_GPU_WGMMA_M64N64K32_E4M3_E4M3 ? 64
           : i == SMMA_GPU_WGMMA_M64N16K16_BF16 ? 16 : i == SMMA_GPU_WGMMA_M64N32K16_BF16 ? 32
           : i == SMMA_GPU_WGMMA_M64N128K16_BF16 ? 128
           : i == SMMA_GPU_WGMMA_M64N256K16_BF16 ? 256 : 8;
}

__host__ __device__ constexpr bool
wg_half(int i)
{
    return i == SMMA_GPU_WGMMA_M64N8K16_BF16 || i == SMMA_GPU_WGMMA_M64N8K16_F16 ||
           i == SMMA_GPU_WGMMA_M64N64K16_BF16 || i >= SMMA_GPU_WGMMA_M64N16K16_BF16;
}

static const char *const wg_names[SMMA_GPU_WGMMA_COUNT] = {
    "wgmma.m64n8k16.bf16",       "wgmma.m64n8k16.f16",        "wgmma.m64n8k32.e4m3.e4m3",
    "wgmma.m64n8k32.e4m3.e5m2",  "wgmma.m64n8k32.e5m2.e4m3",  "wgmma.m64n8k32.e5m2.e5m2",
    "wgmma.m64n64k16.bf16",      "wgmma.m64n64k32.e4m3.e4m3", "wgmma.m64n16k16.bf16",
    "wgmma.m64n32k16.bf16",      "wgmma.m64n128k16.bf16",     "wgmma.m64n256k16.bf16",
};

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)

/* The body of one asm block: scale-d from a register into a predicate, then
 * fence, the instruction, commit, wait.  SHAPE_TYPES is e.g.
 * "m64n8k16.f32.bf16.bf16", OPERANDS the operand list after the mnemonic. */
#define WG_ASM(SHAPE_TYPES, OPERANDS, SD)                                                 \
    "{\n"                                                                                 \
    ".reg .pred p;\n"                                                                     \
    "setp.ne.b32 p, " SD ", 0;\n"                                                         \
    "wgmma.fence.sync.aligned;\n"                                                         \
    "wgmma.mma_async.sync.aligned." SHAPE_TYPES " " OPERANDS ";\n"                        \
    "wgmma.commit_group.sync.aligned;\n"                                                  \
    "wgmma.wait_group.sync.aligned 0;\n"                                                  \
    "}\n"

/* N = 8: d %0-%3, a %4-%7, desc %8, scale-d %9, imm-scale-a %10, -b %11,
 * imm-trans-b %12 (16-bit only). */
#define WG_N8_OUT "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
#define WG_N8_IN                                                                          \
    "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(scale_d), "n"(SA), "n"(SB)
#define WG_N8_HALF(T)                                                                     \
    asm volatile(WG_ASM("m64n8k16.f32." T,                                                \
                        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, p, %10, %11, %12", "%9") \
                 : WG_N8_OUT : WG_N8_IN, "n"(TB) : "memory")
#define WG_N8_FP8(T)                                                                      \
    asm volatile(WG_ASM("m64n8k32.f32." T,                                                \
                        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, p, %10, %11", "%9")      \
                 : WG_N8_OUT : WG_N8_IN : "memory")

/* N = 64: d %0-%31, a %32-%35, desc %36, scale-d %37, imm-scale-a %38, -b
 * %39, imm-trans-b %40 (16-bit only). */
#define WG_N64_D                                                                          \
    "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, "   \
    "%18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define WG_N64_OUT                                                                        \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),   \
    "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]),            \
    "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]),         \
    "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),         \
    "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),         \
    "+f"(d[31])
#define WG_N64_IN                                                                         \
    "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(scale_d), "n"(SA), "n"(SB)
#define WG_N64_HALF(T)                                                                    \
    asm volatile(WG_ASM("m64n64k16.f32." T,                                               \
                        WG_N64_D ", {%32, %33, %34, %35}, %36, p, %38, %39, %40", "%37")  \
                 : WG_N64_OUT : WG_N64_IN, "n"(TB) : "memory")
#define WG_N64_FP8(T)                                                                     \
    asm volatile(WG_ASM("m64n64k32.f32." T,                                               \
                        WG_N64_D ", {%32, %33, %34, %35}, %36, p, %38, %39", "%37")       \
                 : WG_N64_OUT : WG_N64_IN : "memory")

/* The bf16 wgmma of the other N that sm90-mixed issues with A from
 * registers (its X rows). */
/* N = 16: d %0-%7, a %8-%11, desc %12, scale-d %13, imm-scale-a %14, -b
 * %15, imm-trans-b %16. */
#define WG_N16_D "{" \
    "%0, %1, %2, %3, %4, %5, %6, %7" \
    "}"
#define WG_N16_OUT \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), \
    "+f"(d[6]), "+f"(d[7])
#define WG_N16_HALF(T) \
    asm volatile(WG_ASM("m64n16k16.f32." T, \
                        WG_N16_D ", {%8, %9, %10, %11}, %12, p, %14, %15, %16", "%13") \
                 : WG_N16_OUT : WG_N8_IN, "n"(TB) : "memory")

/* N = 32: d %0-%15, a %16-%19, desc %20, scale-d %21, imm-scale-a %22, -b
 * %23, imm-trans-b %24. */
#define WG_N32_D "{" \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15" \
    "}"
#define WG_N32_OUT \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), \
    "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), \
    "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
#define WG_N32_HALF(T) \
    asm volatile(WG_ASM("m64n32k16.f32." T, \
                        WG_N32_D ", {%16, %17, %18, %19}, %20, p, %22, %23, %24", "%21") \
                 : WG_N32_OUT : WG_N8_IN, "n"(TB) : "memory")

/* N = 128: d %0-%63, a %64-%67, desc %68, scale-d %69, imm-scale-a %70, -b
 * %71, imm-trans-b %72. */
#define WG_N128_D "{" \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, " \
    "%30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, " \
    "%44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, " \
    "%58, %59, %60, %61, %62, %63" \
    "}"
#define WG_N128_OUT \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), \
    "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), \
    "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), \
    "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
    "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), \
    "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), \
    "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), \
    "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
    "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), \
    "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), \
    "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
#define WG_N128_HALF(T) \
    asm volatile(WG_ASM("m64n128k16.f32." T, \
                        WG_N128_D ", {%64, %65, %66, %67}, %68, p, %70, %71, %72", "%69") \
                 : WG_N128_OUT : WG_N8_IN, "n"(TB) : "memory")

/* N = 256: d %0-%127, a %128-%131, desc %132, scale-d %133, imm-scale-a %134, -b
 * %135, imm-trans-b %136. */
#define WG_N256_D "{" \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, " \
    "%30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, " \
    "%44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, " \
    "%58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, " \
    "%72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, " \
    "%86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, " \
    "%100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
    "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, " \
    "%124, %125, %126, %127" \
    "}"
#define WG_N256_OUT \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), \
    "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), \
    "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), \
    "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
    "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), \
    "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), \
    "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), \
    "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
    "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), \
    "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), \
    "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), \
    "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), \
    "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), \
    "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), \
    "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), \
    "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), \
    "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), \
    "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), \
    "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), \
    "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), \
    "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), \
    "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), \
    "+f"(d[126]), "+f"(d[127])
#define WG_N256_HALF(T) \
    asm volatile(WG_ASM("m64n256k16.f32." T, \
                        WG_N256_D ", {%128, %129, %130, %131}, %132, p, %134, %135, %136", "%133") \
                 : WG_N256_OUT : WG_N8_IN, "n"(TB) : "memory")

/* One wgmma of instruction I with imm-scale-a SA, imm-scale-b SB and
 * imm-trans-b TB on d (N/2 accumulators), a (4 registers) and the B
 * descriptor; scale_d is the predicate's value. */
template <int I, int SA, int SB, int TB>
__device__ __forceinline__ void
wg_mma(float *d, const uint32_t *a, uint64_t desc, int scale_d)
{
    if constexpr (I == SMMA_GPU_WGMMA_M64N8K16_BF16)
        WG_N8_HALF("bf16.bf16");
    else if constexpr (I == SMMA_GPU_WGMMA_M64N8K16_F16)
        WG_N8_HALF("f16.f16");
    else if constexpr (I == SMMA_GPU_WGMMA_M64N8K32_E4M3_E4M3)
        WG_N8_FP8("e4m3.e4m3");
    else if constexpr (I == SMMA_GPU_WGMMA_M64N8K32_E4M3_E5M2)
        WG_N8_FP8("e4m3.e5m2");
    else if constexpr (I == SMMA_GPU_WGMMA_M64N8K32_E5M2_E4M3)
        WG_N8_FP8("e5m2.e4m3");
    else if constexpr (I == SMMA_GPU_WGMMA_M64N8K32_E5M2_E5M2)
        WG_N8_FP8("e5m2.e5m2");
    else if constexpr (I == SMMA_GPU_WGMMA_M64N64K16_BF16)
        WG_N64_HALF("bf16.bf16");
    else if constexpr (I == SMMA_GPU_WGMMA_M64N64K32_E4M3_E4M3)
        WG_N64_FP8("e4m3.e4m3");
    else if constexpr (I == SMMA_GPU_WGMMA_M64N16K16_BF16)
        WG_N16_HALF("bf16.bf16");
    else if constexpr (I == SMMA_GPU_WGMMA_M64N32K16_BF16)
        WG_N32_HALF("bf16.bf16");
    else if constexpr (I == SMMA_GPU_WGMMA_M64N128K16_BF16)
        WG_N128_HALF("bf16.bf16");
    else if constexpr (I == SMMA_GPU_WGMMA_M64N256K16_BF16)
        WG_N256_HALF("bf16.bf16");
}

#endif /* __CUDA_ARCH_FEAT_SM90_ALL */

/* F holds the compile-time flags: TRANS_B, NEG_A, NEG_B (NO_ACC is the
 * run-time scale_d). */
template <int I, int F>
__global__ void __launch_bounds__(128)
wgmma_probe_kernel(const uint32_t *a, const uint8_t *b, size_t b_bytes, const uint64_t *bdesc,
                   const uint32_t *c, uint32_t *d, size_t ncases, int scale_d)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    constexpr unsigned NR = wg_n(I) / 2;
    constexpr int SA = (F & SMMA_GPU_WGMMA_NEG_A) ? -1 : 1;
    constexpr int SB = (F & SMMA_GPU_WGMMA_NEG_B) ? -1 : 1;
    constexpr int TB = (F & SMMA_GPU_WGMMA_TRANS_B) ? 1 : 0;
    /* 1024 spare bytes let the buffer start at a multiple of 1024 whatever
     * the toolchain does with the alignment request. */
    __shared__ __align__(1024) uint8_t sbuf[SMMA_GPU_WGMMA_SMEM_MAX + 1024];
    const unsigned h = threadIdx.x;
    const uint32_t raw = (uint32_t) __cvta_generic_to_shared(sbuf);
    const uint32_t pad = (1024u - (raw & 1023u)) & 1023u;
    uint4 *sb = reinterpret_cast<uint4 *>(sbuf + pad);
    const uint64_t start = (uint64_t) ((raw + pad) >> 4);

    for (size_t t = blockIdx.x; t < ncases; t += gridDim.x) {
        const uint4 *src = reinterpret_cast<const uint4 *>(b + t * b_bytes);
        const uint4 av = reinterpret_cast<const uint4 *>(a)[t * 128 + h];
        const uint4 *cv = reinterpret_cast<const uint4 *>(c + (t * 128 + h) * NR);
        uint4 *dv = reinterpret_cast<uint4 *>(d + (t * 128 + h) * NR);
        uint32_t ar[4] = { av.x, av.y, av.z, av.w };
        float acc[NR];

        for (size_t i = h; i < b_bytes / 16; i += 128)
            sb[i] = src[i];
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads();
#pragma unroll
        for (unsigned r = 0; r < NR / 4; r++) {
            uint4 x = cv[r];

            acc[4 * r] = __uint_as_float(x.x);
            acc[4 * r + 1] = __uint_as_float(x.y);
            acc[4 * r + 2] = __uint_as_float(x.z);
            acc[4 * r + 3] = __uint_as_float(x.w);
        }
        wg_mma<I, SA, SB, TB>(acc, ar, bdesc[t] + start, scale_d);
#pragma unroll
        for (unsigned r = 0; r < NR / 4; r++)
            dv[r] = make_uint4(__float_as_uint(acc[4 * r]), __float_as_uint(acc[4 * r + 1]),
                               __float_as_uint(acc[4 * r + 2]),
                               __float_as_uint(acc[4 * r + 3]));
        __syncthreads();
    }
#elif defined(__CUDA_ARCH__)
    (void) a, (void) b, (void) b_bytes, (void) bdesc, (void) c, (void) d, (void) ncases;
    (void) scale_d;
    if (blockIdx.x == 0 && threadIdx.x == 0)
        smma_wgmma_probe_missing = __CUDA_ARCH__;
#endif
}

typedef void (*wg_kernel)(const uint32_t *, const uint8_t *, size_t, const uint64_t *,
                          const uint32_t *, uint32_t *, size_t, int);

template <int I>
static wg_kernel
pick_flags(unsigned f)
{
    switch (f & 7u) {
    case 0: return wgmma_probe_kernel<I, 0>;
    case 1: return wgmma_probe_kernel<I, 1>;
    case 2: return wgmma_probe_kernel<I, 2>;
    case 3: return wgmma_probe_kernel<I, 3>;
    case 4: return wgmma_probe_kernel<I, 4>;
    case 5: return wgmma_probe_kernel<I, 5>;
    case 6: return wgmma_probe_kernel<I, 6>;
    default: return wgmma_probe_kernel<I, 7>;
    }
}

static wg_kernel
pick(int instr, unsigned flags)
{
    switch (instr) {
    case SMMA_GPU_WGMMA_M64N8K16_BF16: return pick_flags<SMMA_GPU_WGMMA_M64N8K16_BF16>(flags);
    case SMMA_GPU_WGMMA_M64N8K16_F16: return pick_flags<SMMA_GPU_WGMMA_M64N8K16_F16>(flags);
    case SMMA_GPU_WGMMA_M64N8K32_E4M3_E4M3:
        return pick_flags<SMMA_GPU_WGMMA_M64N8K32_E4M3_E4M3>(flags);
    case SMMA_GPU_WGMMA_M64N8K32_E4M3_E5M2:
        return pick_flags<SMMA_GPU_WGMMA_M64N8K32_E4M3_E5M2>(flags);
    case SMMA_GPU_WGMMA_M64N8K32_E5M2_E4M3:
        return pick_flags<SMMA_GPU_WGMMA_M64N8K32_E5M2_E4M3>(flags);
    case SMMA_GPU_WGMMA_M64N8K32_E5M2_E5M2:
        return pick_flags<SMMA_GPU_WGMMA_M64N8K32_E5M2_E5M2>(flags);
    case SMMA_GPU_WGMMA_M64N64K16_BF16:
        return pick_flags<SMMA_GPU_WGMMA_M64N64K16_BF16>(flags);
    case SMMA_GPU_WGMMA_M64N16K16_BF16:
        return pick_flags<SMMA_GPU_WGMMA_M64N16K16_BF16>(flags);
    case SMMA_GPU_WGMMA_M64N32K16_BF16:
        return pick_flags<SMMA_GPU_WGMMA_M64N32K16_BF16>(flags);
    case SMMA_GPU_WGMMA_M64N128K16_BF16:
        return pick_flags<SMMA_GPU_WGMMA_M64N128K16_BF16>(flags);
    case SMMA_GPU_WGMMA_M64N256K16_BF16:
        return pick_flags<SMMA_GPU_WGMMA_M64N256K16_BF16>(flags);
    default:
        return pick_flags<SMMA_GPU_WGMMA_M64N64K32_E4M3_E4M3>(flags);
    }
}

unsigned
smma_gpu_wgmma_n(int instr)
{
    return instr >= 0 && instr < SMMA_GPU_WGMMA_COUNT ? wg_n(instr) : 0;
}

const char *
smma_gpu_wgmma_name(int instr)
{
    return instr >= 0 && instr < SMMA_GPU_WGMMA_COUNT ? wg_names[instr] : "?";
}

/* The checks of the header's contract that need no device. */
static int
check_args(int instr, unsigned flags, const uint32_t *a_regs, const uint8_t *b_smem,
           size_t b_bytes, const uint64_t *b_desc, const uint32_t *c_regs, uint32_t *d_regs,
           size_t ncases, char *msg, size_t msg_len)
{
    /* Bits outside the ISA's fields (14-15, 30-31, 46-48, 52-61) and the
     * base offset (49-51). */
    const uint64_t must_be_zero = (uint64_t) 0x3 << 14 | (uint64_t) 0x3 << 30 |
                                  (uint64_t) 0x7 << 46 | (uint64_t) 0x7 << 49 |
                                  (uint64_t) 0x3FF << 52;
    size_t per_case, t;

    if (instr < 0 || instr >= SMMA_GPU_WGMMA_COUNT)
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL, "unknown wgmma instruction %d", instr);
    if (flags > 15u || ((flags & SMMA_GPU_WGMMA_TRANS_B) && !wg_half(instr)))
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL,
                       "flags 0x%x are not legal for %s (TRANS_B only for bf16/f16)", flags,
                       wg_names[instr]);
    if (b_bytes % 16 != 0 || b_bytes < 16 || b_bytes > SMMA_GPU_WGMMA_SMEM_MAX)
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL,
                       "b_bytes %zu is not a multiple of 16 in [16, %d]", b_bytes,
                       SMMA_GPU_WGMMA_SMEM_MAX);
    if (ncases == 0)
        return SMMA_GPU_OK;
    if (a_regs == NULL || b_smem == NULL || b_desc == NULL || c_regs == NULL || d_regs == NULL)
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL, "NULL input or output array");
    per_case = b_bytes + 8 + 128 * 4 * (4 + 2 * (size_t) wg_n(instr) / 2);
    if (ncases > ((size_t) 1 << 40) / per_case)
        return set_msg(msg, msg_len, SMMA_GPU_EINVAL, "%zu cases are too many", ncases);
    for (t = 0; t < ncases; t++) {
        uint64_t v = b_desc[t];

        if (v & must_be_zero)
            return set_msg(msg, msg_len, SMMA_GPU_EINVAL,
                           "case %zu: descriptor 0x%016llx has bits 0x%016llx set (base "
                           "offset or bits outside the ISA's fields)", t,
                           (unsigned long long) v, (unsigned long long) (v & must_be_zero));
        if ((size_t) (v & 0x3FFF) * 16 >= b_bytes)
            return set_msg(msg, msg_len, SMMA_GPU_EINVAL,
                           "case %zu: descriptor start 0x%llx lies outside the %zu-byte image",
                           t, (unsigned long long) ((v & 0x3FFF) * 16), b_bytes);
    }
    return SMMA_GPU_OK;
}

/* The device arrays of one call: A, B images, descriptors, C in, D out. */
enum { BUF_A, BUF_B, BUF_DESC, BUF_C, BUF_D, NBUF };

/* Launches the kernel on the device arrays and checks that it ran the real
 * instruction. */
static int
launch(int instr, unsigned flags, void *const *dev, size_t b_bytes, size_t ncases, char *msg,
       size_t msg_len)
{
    unsigned int missing = 1, grid = ncases < 4096 ? (unsigned) ncases : 4096u;
    cudaError_t e;

    pick(instr, flags)<<<grid, 128>>>(
        (const uint32_t *) dev[BUF_A], (const uint8_t *) dev[BUF_B], b_bytes,
        (const uint64_t *) dev[BUF_DESC], (const uint32_t *) dev[BUF_C], (uint32_t *) dev[BUF_D],
        ncases, (flags & SMMA_GPU_WGMMA_NO_ACC) ? 0 : 1);
    e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
        return cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "wgmma_probe_kernel", e);
    CUDA_TRY(cudaMemcpyFromSymbol(&missing, smma_wgmma_probe_missing, sizeof(missing)));
    if (missing != 0)
        return set_msg(msg, msg_len, SMMA_GPU_EARCH,
                       "the code that ran (built for sm_%u) lacks wgmma: configure "
                       "--with-cuda-arch with sm_90a", missing / 10);
    return SMMA_GPU_OK;
}

int
smma_gpu_wgmma(int instr, unsigned flags, const uint32_t *a_regs, const uint8_t *b_smem,
               size_t b_bytes, const uint64_t *b_desc, const uint32_t *c_regs, uint32_t *d_regs,
               size_t ncases, char *msg, size_t msg_len)
{
    const size_t cbytes = ncases * 128 * (wg_n(instr) / 2) * sizeof(uint32_t);
    const size_t bytes[NBUF] = { ncases * 128 * 4 * sizeof(uint32_t), ncases * b_bytes,
                                 ncases * sizeof(uint64_t), cbytes, cbytes };
    const void *const host[NBUF] = { a_regs, b_smem, b_desc, c_regs, NULL };
    void *dev[NBUF] = { NULL, NULL, NULL, NULL, NULL };
    int major = 0, minor = 0, rc, i;
    unsigned int zero = 0;
    cudaError_t e;

    rc = check_args(instr, flags, a_regs, b_smem, b_bytes, b_desc, c_regs, d_regs, ncases, msg,
                    msg_len);
    if (rc != SMMA_GPU_OK || ncases == 0)
        return rc;
    rc = smma_gpu_device_info(&major, &minor, NULL, 0, msg, msg_len);
    if (rc != SMMA_GPU_OK)
        return rc;
    if (major != 9 || minor != 0)
        return set_msg(msg, msg_len, SMMA_GPU_EARCH,
                       "%s needs an sm_90 device (wgmma is sm_90a only; found sm_%d%d)",
                       wg_names[instr], major, minor);
    CUDA_TRY(cudaSetDevice(0));
    CUDA_TRY(cudaMemcpyToSymbol(smma_wgmma_probe_missing, &zero, sizeof(zero)));
    for (i = 0; i < NBUF && rc == SMMA_GPU_OK; i++) {
        if ((e = cudaMalloc(&dev[i], bytes[i])) != cudaSuccess)
            rc = cuda_fail(msg, msg_len,
                           e == cudaErrorMemoryAllocation ? SMMA_GPU_ENOMEM : SMMA_GPU_ECUDA,
                           "cudaMalloc", e);
        else if (host[i] != NULL &&
                 (e = cudaMemcpy(dev[i], host[i], bytes[i], cudaMemcpyHostToDevice)) !=
                     cudaSuccess)
            rc = cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaMemcpy (to device)", e);
    }
    if (rc == SMMA_GPU_OK)
        rc = launch(instr, flags, dev, b_bytes, ncases, msg, msg_len);
    if (rc == SMMA_GPU_OK &&
        (e = cudaMemcpy(d_regs, dev[BUF_D], cbytes, cudaMemcpyDeviceToHost)) != cudaSuccess)
        rc = cuda_fail(msg, msg_len, SMMA_GPU_ECUDA, "cudaMemcpy (to host)", e);
    for (i = 0; i < NBUF; i++)
        cudaFree(dev[i]);
    return rc;
}

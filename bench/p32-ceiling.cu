/*
 * bench/p32-ceiling.cu - how fast sm90-promote32's consumer loop can run
 * with nothing else in the kernel: no TMA, no converters, no barriers, no
 * epilogue.  Each CTA (one an SM, 384 threads as the kernel: warpgroup 0
 * idle, 1 and 2 consume) runs the consumers' work of a 128 x 128 tile
 * over `blocks` 32-k blocks, from operands that sit in shared memory, in
 * one of these forms (the real kernel's k-step functions are
 * gpu/sm90/gemm_p32.cu's p32_kstep_s):
 *
 *   fp8-only    the fp8 wgmma alone, four a group accumulating, wait per
 *               group: the tensor work without any promotion (the bound
 *               of an fp8 GEMM in this tiling)
 *   bf16-only   the same with two bf16 wgmma.m64n128k16 a 32-k block: the
 *               bound of a bf16 GEMM in this tiling
 *   sprod       per block the fp8 wgmma into tmp and the scale tiles' bf16
 *               wgmma into s in one group, wait 0, acc = fma(tmp, s, acc):
 *               the kernel's default form (one set each)
 *   sprod-h     the same in halves of 64 columns, two sets alternating with
 *               wgmma.wait_group 1 (tried 2026-11-28, not kept)
 *   sprod-ra    sprod with the products' A (the scales of A, bf16 at k 0) in
 *               registers, not read from shared memory: the B tile alone
 *   fp32        every block promoted by the CUDA cores, as gemm_p32.cu's
 *               p32_kstep: two sets of temporaries (wait_group 1), the
 *               scales as fp32 from shared memory, fma(tmp, sa * sb, acc):
 *               two fp32 operations an accumulator and block (ptxas spills
 *               20 bytes a thread here)
 *   mixed       blocks 0 and 2 as sprod, 1 and 3 as fp32 (one set each,
 *               wait 0): the tensor core and the CUDA cores share the
 *               promotion, 1.5 fp8 wgmma and 1.5 fp32 operations a block
 *   mixed-ra    mixed with sprod-ra's products
 *   fp8-zw      sprod without the products' wgmma: the fp8 wgmma from zero,
 *               wait 0, 64 fma (acc = fma(tmp, tmp, acc))
 *   sprod-p8    sprod with the products on an fp8 wgmma.m64n128k32 (the
 *               same tile bytes read as e5m2)
 *
 * It prints the TFLOP/s each form would give an M x N x K GEMM whose k-steps
 * all ran at this speed (2 x 128 x 128 x 32 per block and CTA), so that
 * the kernel's figure can be set against its loop's own limit.  The
 * numbers computed are not checked (the operands are arbitrary bytes): this
 * times the issue and the tensor pipe, nothing else.  Every form reads the
 * registers its wgmma write (ptxas drops a wgmma whose results are dead).
 *
 * Build (sm_90a; nvcc only):
 *   nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -Iref -Isim -Igpu \
 *        -I_build -o p32-ceiling bench/p32-ceiling.cu
 * where _build holds config.h (any configured tree).  Run: ./p32-ceiling [blocks]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "sm90/dev.cuh"
#include <softmma/wgmma_addr.h>

enum { F_FP8, F_BF16, F_SPROD, F_SPROD_H, F_SPROD_RA, F_FP32, F_MIXED, F_MIXED_RA, F_FP8_ZW,
       F_SPROD_P8, F_COUNT };
static const char *const fnames[F_COUNT] = { "fp8-only", "bf16-only", "sprod", "sprod-h",
                                             "sprod-ra", "fp32", "mixed", "mixed-ra",
                                             "fp8-zw", "sprod-p8" };

/* Shared memory: A (128 rows x 128 bytes, 128-byte swizzle), B (128 rows),
 * the scale tiles (4 KB), zeros (2 KB), fp32 scales (2 KB). */
#define OFF_A 0u
#define OFF_B 16384u
#define OFF_S 32768u
#define OFF_Z 36864u
#define OFF_F 38912u
#define SMEM (OFF_F + 2048u)

#if defined(SMMA_SM90_WG)

static __device__ __forceinline__ void
fp8_acc(uint32_t (&d)[64], uint64_t da, uint64_t db)
{
    asm volatile(S90_WGMMA("m64n128k32.f32.e4m3.e4m3", S90_N128_D, S90_N128_REST_FP8,
                           S90_N128_SD)
                 : S90_N128_OUT : "l"(da), "l"(db), "r"(1u));
}

static __device__ __forceinline__ void
ffma64(uint32_t (&acc)[64], const uint32_t (&a)[64], const uint32_t (&b)[64])
{
#pragma unroll
    for (int r = 0; r < 64; r++)
        acc[r] = __float_as_uint(__fmaf_rn(__uint_as_float(a[r]), __uint_as_float(b[r]),
                                           __uint_as_float(acc[r])));
}

/* Registers 32 H .. 32 H + 31 of d as an m64n64 accumulator. */
#define N64_D "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
    "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
#define N64_OUT(H) S90_D8(d, 32 * (H)), S90_D8(d, 32 * (H) + 8), S90_D8(d, 32 * (H) + 16), \
    S90_D8(d, 32 * (H) + 24)

template <int H>
static __device__ __forceinline__ void
fp8_zero_h(uint32_t (&d)[64], uint64_t da, uint64_t db)
{
    asm volatile(S90_WGMMA("m64n64k32.f32.e4m3.e4m3", N64_D, "%32, %33, p, 1, 1", "%34")
                 : N64_OUT(H) : "l"(da), "l"(db), "r"(0u));
}

template <int H>
static __device__ __forceinline__ void
bf16_zero_h(uint32_t (&d)[64], uint64_t da, uint64_t db)
{
    asm volatile(S90_WGMMA("m64n64k16.f32.bf16.bf16", N64_D, "%32, %33, p, 1, 1, 0, 0", "%34")
                 : N64_OUT(H) : "l"(da), "l"(db), "r"(0u));
}

/* One unit of the halves' form into the set d: the fp8 wgmma of B's
 * columns at db into d[0 .. 31], the products' of the same columns into
 * d[32 .. 63], one group. */
static __device__ __forceinline__ void
unit_h(uint32_t (&d)[64], uint64_t da, uint64_t db, uint64_t dsa, uint64_t dsb)
{
    s90_wgmma_fence();
    fp8_zero_h<0>(d, da, db);
    bf16_zero_h<1>(d, dsa, dsb);
    s90_wgmma_commit();
}

template <int H>
static __device__ __forceinline__ void
ffma32(uint32_t (&acc)[64], const uint32_t (&d)[64])
{
#pragma unroll
    for (int r = 0; r < 32; r++)
        acc[32 * H + r] = __float_as_uint(__fmaf_rn(__uint_as_float(d[r]),
                                                    __uint_as_float(d[32 + r]),
                                                    __uint_as_float(acc[32 * H + r])));
}

/* The products' wgmma with A from registers a (m64k16 bf16 fragment). */
static __device__ __forceinline__ void
bf16_zero_ra(uint32_t (&d)[64], const uint32_t (&a)[4], uint64_t db)
{
    asm volatile(S90_WGMMA("m64n128k16.f32.bf16.bf16", S90_N128_D,
                           "{%64, %65, %66, %67}, %68, p, 1, 1, 0", "%69")
                 : S90_N128_OUT : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db),
                   "r"(0u));
}

/* One block of the products on the tensor core: tmp and s in one group,
 * wait 0, acc = fma(tmp, s, acc). */
enum { BS_PLAIN, BS_RA, BS_P8, BS_NOPROD };

template <int V>
static __device__ __forceinline__ void
block_s(uint32_t (&acc)[64], uint32_t (&x)[64], uint32_t (&y)[64], uint64_t da, uint64_t db,
        uint64_t dsa, uint64_t dsb, const uint32_t (&ra)[4])
{
    s90_wgmma_fence();
    s90_wgmma_fp8_zero<0, 0>(x, da, db);
    if (V == BS_RA)
        bf16_zero_ra(y, ra, dsb);
    else if (V == BS_P8)
        s90_wgmma_fp8_zero<1, 1>(y, dsa, dsb);
    else if (V != BS_NOPROD)
        s90_wgmma<128, 0, 0>(y, dsa, dsb, 0u);
    s90_wgmma_commit();
    s90_wgmma_wait<0>();
    s90_fence_regs(x);
    if (V == BS_NOPROD) {
        ffma64(acc, x, x);
        return;
    }
    s90_fence_regs(y);
    ffma64(acc, x, y);
}

/* tmp promoted with fp32 scales from shared memory (gemm_p32.cu's
 * p32_promote: a float2 of A's two rows, eight float4 of B's columns; the
 * model's promotion, plan.h's smma_sm90_promote). */
static __device__ __forceinline__ void
promote_f(uint32_t (&acc)[64], const uint32_t (&x)[64], const uint8_t *fs, uint32_t t)
{
    const float2 sa = *(const float2 *) (fs + 8 * ((t / 4) % 64));
    const float4 *sbp = (const float4 *) (fs + 512 + 144 * (t % 4));

#pragma unroll
    for (int i = 0; i < 8; i++) {
        float4 b = sbp[i];
        float sb[4] = { b.x, b.y, b.z, b.w };

#pragma unroll
        for (int h = 0; h < 2; h++)
#pragma unroll
            for (int r = 0; r < 4; r++) {
                int reg = 8 * i + 4 * h + r;

                acc[reg] = __float_as_uint(smma_sm90_promote(__uint_as_float(x[reg]),
                                                             r / 2 ? sa.y : sa.x,
                                                             sb[2 * h + r % 2],
                                                             __uint_as_float(acc[reg])));
            }
    }
}

static __device__ __forceinline__ void
issue_fp8(uint32_t (&x)[64], uint64_t da, uint64_t db)
{
    s90_wgmma_fence();
    s90_wgmma_fp8_zero<0, 0>(x, da, db);
    s90_wgmma_commit();
}

#endif

template <int F>
__global__ void __launch_bounds__(384, 1)
ceiling_kernel(uint32_t blocks, float *out)
{
#if defined(SMMA_SM90_WG)
    extern __shared__ __align__(1024) uint8_t smem[];
    uint32_t wg = threadIdx.x / 128, base;

    /* Arbitrary bytes: the e4m3 codes and the bf16 tiles hold small
     * numbers (no Inf or NaN, which could take other paths). */
    for (uint32_t o = threadIdx.x; o < SMEM / 4; o += 384)
        ((uint32_t *) smem)[o] = (o * 2654435761u >> 8) & 0x3c3c3c3cu;
    __syncthreads();
    if (wg == 0) {
        s90_setmaxnreg_dec<56>();
        return;
    }
    s90_setmaxnreg_inc<224>();
    base = (uint32_t) __cvta_generic_to_shared(smem);

    uint32_t c = wg - 1, j, t = threadIdx.x % 128;
    uint32_t acc[64], x[64], y[64];
    /* The products' A fragment: bf16 sa at k 0 of rows t / 4 and + 8
     * (threads t % 4 == 0), zeros elsewhere. */
    const uint32_t ra[4] = { t % 4 == 0 ? 0x3f80u : 0u, t % 4 == 0 ? 0x3f80u : 0u, 0u, 0u };
    const uint8_t *fs = smem + OFF_F;

#pragma unroll
    for (int r = 0; r < 64; r++)
        acc[r] = x[r] = y[r] = 0;
    for (uint32_t b = 0; b < blocks; b += 4) {
        /* A k-step: four blocks, descriptors as the kernel's (plan.h). */
        uint64_t da[4], db[4], dsa[4], dsb[4][2], dbh[4][2];

#pragma unroll
        for (j = 0; j < 4; j++) {
            da[j] = smma_wgmma_desc_word(base + OFF_A + c * 64 * 128 + 32 * j, 16, 1024, 0,
                                         SMMA_WGMMA_SW_128B);
            db[j] = smma_wgmma_desc_word(base + OFF_B + 32 * j, 16, 1024, 0,
                                         SMMA_WGMMA_SW_128B);
            dbh[j][0] = db[j];
            dbh[j][1] = smma_wgmma_desc_word(base + OFF_B + 64 * 128 + 32 * j, 16, 1024, 0,
                                             SMMA_WGMMA_SW_128B);
            dsa[j] = smma_wgmma_desc_word(base + OFF_S + 2048 + 1024 * c,
                                          OFF_Z - (OFF_S + 2048 + 1024 * c), 128, 0,
                                          SMMA_WGMMA_SW_NONE);
            dsb[j][0] = smma_wgmma_desc_word(base + OFF_S, OFF_Z - OFF_S, 128, 0,
                                             SMMA_WGMMA_SW_NONE);
            dsb[j][1] = smma_wgmma_desc_word(base + OFF_S + 1024, OFF_Z - OFF_S - 1024, 128, 0,
                                             SMMA_WGMMA_SW_NONE);
        }
        if constexpr (F == F_FP8) {
            s90_wgmma_fence();
#pragma unroll
            for (j = 0; j < 4; j++)
                fp8_acc(x, da[j], db[j]);
            s90_wgmma_commit();
            s90_wgmma_wait<0>();
            s90_fence_regs(x);
        } else if constexpr (F == F_BF16) {
            s90_wgmma_fence();
#pragma unroll
            for (j = 0; j < 8; j++)
                s90_wgmma<128, 0, 0>(x, dsa[j / 2], dsb[j / 2][0], 1);
            s90_wgmma_commit();
            s90_wgmma_wait<0>();
            s90_fence_regs(x);
        } else if constexpr (F == F_SPROD) {
#pragma unroll
            for (j = 0; j < 4; j++) {
                s90_wgmma_fence();
                s90_wgmma_fp8_zero<0, 0>(x, da[j], db[j]);
                s90_wgmma<128, 0, 0>(y, dsa[j], dsb[j][0], 0u);
                s90_wgmma_commit();
                s90_wgmma_wait<0>();
                s90_fence_regs(x);
                s90_fence_regs(y);
                ffma64(acc, x, y);
            }
        } else if constexpr (F == F_SPROD_RA) {
#pragma unroll
            for (j = 0; j < 4; j++)
                block_s<BS_RA>(acc, x, y, da[j], db[j], dsa[j], dsb[j][0], ra);
        } else if constexpr (F == F_FP8_ZW || F == F_SPROD_P8) {
            constexpr int V = F == F_FP8_ZW ? BS_NOPROD : BS_P8;

#pragma unroll
            for (j = 0; j < 4; j++)
                block_s<V>(acc, x, y, da[j], db[j], dsa[j], dsb[j][0], ra);
        } else if constexpr (F == F_MIXED || F == F_MIXED_RA) {
#pragma unroll
            for (j = 0; j < 4; j += 2) {
                block_s<F == F_MIXED_RA ? BS_RA : BS_PLAIN>(acc, x, y, da[j], db[j], dsa[j],
                                                            dsb[j][0], ra);
                issue_fp8(x, da[j + 1], db[j + 1]);
                s90_wgmma_wait<0>();
                s90_fence_regs(x);
                promote_f(acc, x, fs, t);
            }
        } else if constexpr (F == F_FP32) {
            issue_fp8(x, da[0], db[0]);
            issue_fp8(y, da[1], db[1]);
            s90_wgmma_wait<1>();
            s90_fence_regs(x);
            promote_f(acc, x, fs, t);
            issue_fp8(x, da[2], db[2]);
            s90_wgmma_wait<1>();
            s90_fence_regs(y);
            promote_f(acc, y, fs, t);
            issue_fp8(y, da[3], db[3]);
            s90_wgmma_wait<1>();
            s90_fence_regs(x);
            promote_f(acc, x, fs, t);
            s90_wgmma_wait<0>();
            s90_fence_regs(y);
            promote_f(acc, y, fs, t);
        } else if constexpr (F == F_SPROD_H) {
            unit_h(x, da[0], dbh[0][0], dsa[0], dsb[0][0]);
            unit_h(y, da[0], dbh[0][1], dsa[0], dsb[0][1]);
#pragma unroll
            for (j = 0; j < 4; j++) {
                s90_wgmma_wait<1>();
                s90_fence_regs(x);
                ffma32<0>(acc, x);
                if (j < 3) {
                    unit_h(x, da[j + 1], dbh[j + 1][0], dsa[j + 1], dsb[j + 1][0]);
                    s90_wgmma_wait<1>();
                } else {
                    s90_wgmma_wait<0>();
                }
                s90_fence_regs(y);
                ffma32<1>(acc, y);
                if (j < 3)
                    unit_h(y, da[j + 1], dbh[j + 1][1], dsa[j + 1], dsb[j + 1][1]);
            }
        }
    }
    /* Keep the results alive. */
    float sum = 0;
#pragma unroll
    for (int r = 0; r < 64; r++)
        sum += __uint_as_float(acc[r]) + __uint_as_float(x[r]);
    if (sum == 1.2345f)
        out[blockIdx.x] = sum;
#else
    (void) blocks;
    (void) out;
#endif
}

template <int F>
static float
time_form(uint32_t blocks, int sms, float *out)
{
    cudaEvent_t e0, e1;
    float ms[11];

    cudaFuncSetAttribute(ceiling_kernel<F>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM);
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int i = 0; i < 3; i++)
        ceiling_kernel<F><<<sms, 384, SMEM>>>(blocks, out);
    for (int i = 0; i < 11; i++) {
        cudaEventRecord(e0);
        ceiling_kernel<F><<<sms, 384, SMEM>>>(blocks, out);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        cudaEventElapsedTime(&ms[i], e0, e1);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    for (int i = 0; i < 11; i++)
        for (int k = i + 1; k < 11; k++)
            if (ms[k] < ms[i]) {
                float m = ms[i];

                ms[i] = ms[k];
                ms[k] = m;
            }
    return ms[5];
}

int
main(int argc, char **argv)
{
    char *end = NULL;
    long blocks = argc > 1 ? strtol(argv[1], &end, 10) : 7936;
    cudaDeviceProp prop;
    float *out, ms[F_COUNT];
    int clk = 0;

    if (argc > 2 || (argc > 1 && (end == argv[1] || *end != '\0')) || blocks < 4
        || blocks > (1L << 24) || blocks % 4 != 0) {
        fprintf(stderr, "p32-ceiling: usage: p32-ceiling [BLOCKS]; BLOCKS '%s' must be a "
                "multiple of 4, 4 .. 2^24\n", argc > 1 ? argv[1] : "");
        return 2;
    }
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess || prop.major != 9) {
        printf("p32-ceiling: needs compute capability 9.0\n");
        return 77;
    }
    cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
    cudaMalloc(&out, 4096);
    ms[F_FP8] = time_form<F_FP8>((uint32_t) blocks, prop.multiProcessorCount, out);
    ms[F_BF16] = time_form<F_BF16>((uint32_t) blocks, prop.multiProcessorCount, out);
    ms[F_SPROD] = time_form<F_SPROD>((uint32_t) blocks, prop.multiProcessorCount, out);
    ms[F_SPROD_H] = time_form<F_SPROD_H>((uint32_t) blocks, prop.multiProcessorCount, out);
    ms[F_SPROD_RA] = time_form<F_SPROD_RA>((uint32_t) blocks, prop.multiProcessorCount, out);
    ms[F_FP32] = time_form<F_FP32>((uint32_t) blocks, prop.multiProcessorCount, out);
    ms[F_MIXED] = time_form<F_MIXED>((uint32_t) blocks, prop.multiProcessorCount, out);
    ms[F_MIXED_RA] = time_form<F_MIXED_RA>((uint32_t) blocks, prop.multiProcessorCount, out);
    ms[F_FP8_ZW] = time_form<F_FP8_ZW>((uint32_t) blocks, prop.multiProcessorCount, out);
    ms[F_SPROD_P8] = time_form<F_SPROD_P8>((uint32_t) blocks, prop.multiProcessorCount, out);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("p32-ceiling: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    printf("%s, %d SMs, max SM clock %d MHz; %ld 32-k blocks a CTA, one CTA an SM, "
           "median of 11\n", prop.name, prop.multiProcessorCount, clk / 1000, blocks);
    for (int f = 0; f < F_COUNT; f++) {
        double flop = 2.0 * 128 * 128 * 32 * (double) blocks * prop.multiProcessorCount;

        printf("%-10s %9.4f ms %8.1f TFLOP/s\n", fnames[f], ms[f], flop / (ms[f] * 1e9));
    }
    return 0;
}

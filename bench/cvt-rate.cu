/*
 * bench/cvt-rate.cu - how many of each conversion instruction an SM of
 * the device retires a clock: the instructions an upcast to bf16 can be
 * built from (cvt e4m3x2 -> f16x2, f16 -> f32, the fp32 pair -> bf16x2
 * pack, bf16x2 and fp32 multiplies, prmt, lop3).  One block of
 * 1024 threads an SM, eight independent chains a thread; each block times
 * itself with clock64, and the rate is (lanes x operations) / cycles.
 * (A chain of shifts or of adds of a constant is no probe: ptxas folds
 * it.)
 *
 *   nvcc -gencode=arch=compute_90a,code=sm_90a -o cvt-rate bench/cvt-rate.cu
 *   ./cvt-rate
 */
#include <stdint.h>
#include <stdio.h>

#include <cuda_runtime.h>

#define CHAINS 8
#define ITERS 4096

enum { OP_E4M3X2, OP_F16_F32, OP_PACK_BF16, OP_HFMA2_BF16, OP_FMUL, OP_PRMT, OP_LOP3, OP_N };
static const char *op_name[OP_N] = {
    "cvt.rn.f16x2.e4m3x2 (F2FP.F16.E4M3.UNPACK_B)", "cvt.f32.f16 (HADD2.F32)",
    "cvt.rn.bf16x2.f32 (F2FP.BF16.F32.PACK_AB)", "fma.rn.bf16x2 (HFMA2.BF16)", "mul.rn.f32 (FMUL)",
    "prmt.b32 (PRMT)", "lop3.b32 (LOP3)",
};

template <int OP>
__device__ __forceinline__ uint32_t
step(uint32_t x)
{
    uint32_t r;

    if (OP == OP_E4M3X2) {
        asm volatile("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(r) : "h"((uint16_t) x));
    } else if (OP == OP_F16_F32) {
        float f;

        asm volatile("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"((uint16_t) x));
        r = __float_as_uint(f);
    } else if (OP == OP_PACK_BF16) {
        asm volatile("cvt.rn.bf16x2.f32 %0, %1, %1;" : "=r"(r) : "f"(__uint_as_float(x)));
    } else if (OP == OP_HFMA2_BF16) {
        asm volatile("fma.rn.bf16x2 %0, %1, %1, %1;" : "=r"(r) : "r"(x));
    } else if (OP == OP_FMUL) {
        asm volatile("mul.rn.f32 %0, %1, %1;" : "=f"(*(float *) &r) : "f"(__uint_as_float(x)));
    } else if (OP == OP_PRMT) {
        asm volatile("prmt.b32 %0, %1, 0, 0x1302;" : "=r"(r) : "r"(x));
    } else {
        asm volatile("lop3.b32 %0, %1, 0x80008000, 0x07f007f0, 0xea;" : "=r"(r) : "r"(x));
    }
    return r;
}

template <int OP>
__global__ void
rate(uint32_t *out, long long *cycles, uint32_t seed)
{
    uint32_t a[CHAINS], acc = 0;
    long long t0, t1;

    for (int j = 0; j < CHAINS; j++)
        a[j] = seed * (threadIdx.x + 1) + 0x3c003c00u * j;
    __syncthreads();
    t0 = clock64();
    for (int i = 0; i < ITERS; i++) {
#pragma unroll
        for (int j = 0; j < CHAINS; j++)
            a[j] = step<OP>(a[j]);
    }
    __syncthreads();
    t1 = clock64();
    for (int j = 0; j < CHAINS; j++)
        acc ^= a[j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
    if (threadIdx.x == 0)
        cycles[blockIdx.x] = t1 - t0;
}

template <int OP>
static void
run(int sms, uint32_t *out, long long *cyc, long long *hcyc)
{
    double worst = 0;

    rate<OP><<<sms, 1024>>>(out, cyc, 1); /* warm-up */
    rate<OP><<<sms, 1024>>>(out, cyc, 2);
    cudaMemcpy(hcyc, cyc, sms * sizeof(long long), cudaMemcpyDeviceToHost);
    for (int b = 0; b < sms; b++)
        worst = hcyc[b] > worst ? (double) hcyc[b] : worst;
    printf("%-48s %7.1f lanes a clock an SM (%lld cycles)\n", op_name[OP],
           1024.0 * CHAINS * ITERS / worst, (long long) worst);
}

int
main(void)
{
    cudaDeviceProp prop;
    uint32_t *out;
    long long *cyc, hcyc[1024];
    int sms;

    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        printf("no CUDA device\n");
        return 1;
    }
    sms = prop.multiProcessorCount;
    printf("device %s (%d.%d), %d SMs\n", prop.name, prop.major, prop.minor, sms);
    cudaMalloc(&out, (size_t) sms * 1024 * sizeof(uint32_t));
    cudaMalloc(&cyc, sms * sizeof(long long));
    run<OP_E4M3X2>(sms, out, cyc, hcyc);
    run<OP_F16_F32>(sms, out, cyc, hcyc);
    run<OP_PACK_BF16>(sms, out, cyc, hcyc);
    run<OP_HFMA2_BF16>(sms, out, cyc, hcyc);
    run<OP_FMUL>(sms, out, cyc, hcyc);
    run<OP_PRMT>(sms, out, cyc, hcyc);
    run<OP_LOP3>(sms, out, cyc, hcyc);
    return cudaDeviceSynchronize() != cudaSuccess;
}

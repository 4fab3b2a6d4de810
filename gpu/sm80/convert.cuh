/*
 * gpu/sm80/convert.cuh - the conversion of block-scaled operands to the
 * bf16 values the mma.sync kernels multiply: element code times scale,
 * rounded to nearest bf16, exactly as the model bf16-upcast-<gpu> says
 * (ref/dot.c, as_bf16): a NaN scale (e8m0 0xff, ue4m3 0x7f) or a NaN code
 * gives NaN, Inf codes (e5m2) give Inf, products outside bf16's range
 * overflow to Inf or round into bf16's subnormals.
 *
 * How, for every format: the code becomes its exact value in fp32 (every
 * value of every element format is an fp32 number), is multiplied by the
 * scale in fp32 (exact: at most 8 significant bits times a power of two
 * that leaves no fp32 number below 2^-149; an fp32 overflow is a bf16
 * overflow too), and each pair is rounded to bf16 by cvt.rn.bf16x2.f32 --
 * one rounding, to nearest even, subnormals kept (nothing here flushes to
 * zero).  The decodings:
 *   e4m3     cvt.rn.f16x2.e4m3x2 (sm_89 and later; exact, NaN kept), then
 *            f16 -> f32; before sm_89 by bits
 *   e5m2     the code is the high byte of the same f16 (Inf and NaN too)
 *   e2m1     its eight magnitudes' bf16 bytes looked up with prmt, the
 *            sign from bit 3; bf16 -> f32 is a 16-bit shift
 *   e2m3, e3m2  by bits: sign, exponent and mantissa moved into an fp32
 *            with the format's exponent bias, then multiplied by 2^(127 -
 *            bias) (exact; subnormals included)
 * CUDA C++ only.
 */
#ifndef SOFTMMA_GPU_SM80_CONVERT_CUH
#define SOFTMMA_GPU_SM80_CONVERT_CUH 1

#include <stdint.h>

#include <cuda_runtime.h>

/* Element formats as the kernels number them (the smma_format numbers). */
enum { CV_E2M1 = 0, CV_E2M3 = 1, CV_E3M2 = 2, CV_E4M3 = 3, CV_E5M2 = 4, CV_BF16 = 7 };
/* Scale formats. */
enum { CV_E8M0 = 5, CV_UE4M3 = 6 };

/* The value of scale byte b as an fp32: e8m0 2^(b - 127), 0x00 is 2^-127
 * (subnormal), 0xff NaN; ue4m3 the unsigned e4m3 value, 0x7f NaN (bit 7 is
 * not part of the code and is ignored). */
__device__ __forceinline__ float
cv_scale(int sfmt, uint32_t b)
{
    if (sfmt == CV_E8M0) {
        if (b == 0xffu)
            return __uint_as_float(0x7fc00000u);
        return b == 0 ? __uint_as_float(0x00400000u) : __uint_as_float(b << 23);
    }
    b &= 0x7fu;
    if (b == 0x7fu)
        return __uint_as_float(0x7fc00000u);
    /* Exponent field 0..15 into fp32's (bias 127 for 7): a subnormal e4m3
     * becomes an fp32 subnormal of the same digits, and 2^120 fixes the
     * bias, exactly. */
    return __uint_as_float(b << 20) * 0x1p120f;
}

/* fp32 of two e4m3 codes in the low 16 bits of x (element 0 in bits 7:0). */
__device__ __forceinline__ void
cv_e4m3x2(uint32_t x, float &f0, float &f1)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    uint32_t h;

    asm("cvt.rn.f16x2.e4m3x2 %0, %1;\n" : "=r"(h) : "h"((uint16_t) x));
    asm("cvt.f32.f16 %0, %1;\n" : "=f"(f0) : "h"((uint16_t) h));
    asm("cvt.f32.f16 %0, %1;\n" : "=f"(f1) : "h"((uint16_t) (h >> 16)));
#else
    uint32_t b0 = x & 0xffu, b1 = (x >> 8) & 0xffu;

    f0 = (b0 & 0x7fu) == 0x7fu ? __uint_as_float(0x7fc00000u)
                                : __uint_as_float(((b0 & 0x80u) << 24) | ((b0 & 0x7fu) << 20)) *
                                      0x1p120f;
    f1 = (b1 & 0x7fu) == 0x7fu ? __uint_as_float(0x7fc00000u)
                                : __uint_as_float(((b1 & 0x80u) << 24) | ((b1 & 0x7fu) << 20)) *
                                      0x1p120f;
#endif
}

/* fp32 of two e5m2 codes: each is the high byte of an f16. */
__device__ __forceinline__ void
cv_e5m2x2(uint32_t x, float &f0, float &f1)
{
    uint16_t h0 = (uint16_t) ((x & 0xffu) << 8), h1 = (uint16_t) (x & 0xff00u);

    asm("cvt.f32.f16 %0, %1;\n" : "=f"(f0) : "h"(h0));
    asm("cvt.f32.f16 %0, %1;\n" : "=f"(f1) : "h"(h1));
}

/* fp32 of a 6-bit code with 2 (e2m3) or 3 (e3m2) exponent bits. */
template <int EBITS>
__device__ __forceinline__ float
cv_fp6(uint32_t c)
{
    const int mbits = 5 - EBITS; /* the exponent bias is 1 (e2m3) or 3 (e3m2) */
    uint32_t bits = ((c & 0x20u) << 26) | ((c & 0x1fu) << (23 - mbits));

    /* The exponent field lands in fp32's unbiased: scale by 2^(127 - bias). */
    return __uint_as_float(bits) * (EBITS == 2 ? 0x1p126f : 0x1p124f);
}

/* fp32 of the e2m1 code in the low 4 bits of c. */
__device__ __forceinline__ float
cv_e2m1(uint32_t c)
{
    /* bf16 of 0, 0.5, 1, 1.5, 2, 3, 4, 6: high bytes 00 3f 3f 3f 40 40 40
     * 40, low bytes 00 00 80 c0 00 40 80 c0. */
    uint32_t m = c & 7u, hi, lo;

    asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(hi) : "r"(0x3f3f3f00u), "r"(0x40404040u), "r"(m));
    asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(lo) : "r"(0xc0800000u), "r"(0xc0804000u), "r"(m));
    return __uint_as_float(((c & 8u) << 28) | ((hi & 0xffu) << 24) | ((lo & 0xffu) << 16));
}

/* Two products code x scale rounded to bf16, packed (element 0 low). */
__device__ __forceinline__ uint32_t
cv_pack(float f0, float f1, float s)
{
    uint32_t r;

    asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(__fmul_rn(f1, s)), "f"(__fmul_rn(f0, s)));
    return r;
}

/* Sixteen elements of format F starting at the bytes at p (16 bytes for
 * the 8-bit formats, 8 for e2m1) times scale s, as eight bf16 pairs. */
template <int F>
__device__ __forceinline__ void
cv_convert16(const uint32_t *w, float s, uint32_t out[8])
{
    if (F == CV_E2M1) {
#pragma unroll
        for (int i = 0; i < 8; i++) {
            uint32_t byte = (w[i / 4] >> (8 * (i % 4))) & 0xffu;

            out[i] = cv_pack(cv_e2m1(byte), cv_e2m1(byte >> 4), s);
        }
    } else {
#pragma unroll
        for (int i = 0; i < 8; i++) {
            uint32_t pair = (w[i / 2] >> (16 * (i % 2))) & 0xffffu;
            float f0, f1;

            if (F == CV_E4M3)
                cv_e4m3x2(pair, f0, f1);
            else if (F == CV_E5M2)
                cv_e5m2x2(pair, f0, f1);
            else {
                f0 = cv_fp6<F == CV_E2M3 ? 2 : 3>(pair & 0xffu);
                f1 = cv_fp6<F == CV_E2M3 ? 2 : 3>(pair >> 8);
            }
            out[i] = cv_pack(f0, f1, s);
        }
    }
}

#endif /* SOFTMMA_GPU_SM80_CONVERT_CUH */

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
 * cv_convert16 takes a shorter way for e2m1, whose values and scales are
 * all bf16 numbers: the pairs of bf16 are built from the same table and
 * multiplied by the scale with fma.rn.bf16x2 (and -0), which rounds the
 * exact product once, as the fp32 multiply and cvt.rn.bf16x2.f32 do.
 * CUDA C++ only.
 */
#ifndef SOFTMMA_GPU_SM80_CONVERT_CUH
#define SOFTMMA_GPU_SM80_CONVERT_CUH 1

#include <stdint.h>

#include <type_traits>

#include <cuda_runtime.h>

#include "common.cuh"

/* Element formats as the kernels number them (the smma_format numbers). */
enum { CV_E2M1 = 0, CV_E2M3 = 1, CV_E3M2 = 2, CV_E4M3 = 3, CV_E5M2 = 4, CV_BF16 = 7 };
/* Scale formats. */
enum { CV_E8M0 = 5, CV_UE4M3 = 6 };

/* The scale byte of 1.0 (e8m0 0x7f, ue4m3 0x38): the scale of blocks past
 * the matrix. */
__device__ __forceinline__ uint32_t
cv_scale_one(int sfmt)
{
    return sfmt == CV_E8M0 ? 0x7fu : 0x38u;
}

/* The value of scale byte b as an fp32: e8m0 2^(b - 127), 0x00 is 2^-127
 * (subnormal), 0xff NaN; ue4m3 the unsigned e4m3 value, 0x7f NaN (bit 7 is
 * not part of the code and is ignored): the e4m3 exponent field 0..15 goes
 * into fp32's (bias 127 for 7), so that a subnormal e4m3 becomes an fp32
 * subnormal of the same digits, and 2^120 fixes the bias, exactly.  Both
 * readings are computed and one selected, without a branch, so that a loop
 * over blocks stays one straight line. */
__device__ __forceinline__ float
cv_scale(int sfmt, uint32_t b)
{
    uint32_t e8 = b << 23, u = b & 0x7fu, ue;

    e8 = b == 0 ? 0x00400000u : e8;
    e8 = b == 0xffu ? 0x7fc00000u : e8;
    ue = __float_as_uint(__uint_as_float(u << 20) * 0x1p120f);
    ue = u == 0x7fu ? 0x7fc00000u : ue;
    return __uint_as_float(sfmt == CV_E8M0 ? e8 : ue);
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

/* The bf16 of the four e2m1 codes in the low 16 bits of x, looked up four
 * at a time: byte i of hi and of lo is the high and the low byte of code
 * i's bf16.  The bf16 of 0, 0.5, 1, 1.5, 2, 3, 4, 6 has high bytes 00 3f
 * 3f 3f 40 40 40 40 and low bytes 00 00 80 c0 00 40 80 c0; prmt picks a byte
 * of each table by a nibble's magnitude, and with the nibble's bit 3 set
 * replicates the top bit of the byte it picks, which gives the sign from a
 * table of 0x80. */
__device__ __forceinline__ void
cv_e2m1x4_bytes(uint32_t x, uint32_t &hi, uint32_t &lo)
{
    uint32_t sel = x & 0x7777u, sg;

    asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(hi) : "r"(0x3f3f3f00u), "r"(0x40404040u), "r"(sel));
    asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(lo) : "r"(0xc0800000u), "r"(0xc0804000u), "r"(sel));
    asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(sg) : "r"(0x80808080u), "r"(0x80808080u), "r"(x));
    hi |= (sg << 1) & 0x80808080u;
}

/* bf16 values (as fp32) of the four e2m1 codes in the low 16 bits of x. */
__device__ __forceinline__ void
cv_e2m1x4(uint32_t x, float f[4])
{
    uint32_t hi, lo;

    cv_e2m1x4_bytes(x, hi, lo);
#pragma unroll
    for (int i = 0; i < 4; i++) {
        uint32_t v;

        /* [lo_i, hi_i]: the bf16, then in the high half of an fp32 */
        asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(v) : "r"(lo), "r"(hi), "r"(i | ((4 + i) << 4)));
        f[i] = __uint_as_float(v << 16);
    }
}

/* f16 pairs of the four e2m1 codes in the low 16 bits of x: every e2m1
 * value is an f16 with a zero low byte (high bytes 00 38 3c 3e 40 42 44
 * 46), the sign as in cv_e2m1x4.  out[0] holds codes 0 and 1, out[1] codes 2
 * and 3. */
__device__ __forceinline__ void
cv_e2m1x4_f16(uint32_t x, uint32_t out[2])
{
    uint32_t sel = x & 0x7777u, hi, sg;

    asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(hi) : "r"(0x3e3c3800u), "r"(0x46444240u), "r"(sel));
    asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(sg) : "r"(0x80808080u), "r"(0x80808080u), "r"(x));
    hi |= (sg << 1) & 0x80808080u;
    asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(out[0]) : "r"(hi), "r"(0u), "r"(0x1404u));
    asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(out[1]) : "r"(hi), "r"(0u), "r"(0x3424u));
}

/* bf16 pairs of the four e2m1 codes in the low 16 bits of x
 * (cv_e2m1x4_bytes, interleaved): out[0] holds codes 0 and 1, out[1] codes
 * 2 and 3. */
__device__ __forceinline__ void
cv_e2m1x4_bf16(uint32_t x, uint32_t out[2])
{
    uint32_t hi, lo;

    cv_e2m1x4_bytes(x, hi, lo);
    asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(out[0]) : "r"(lo), "r"(hi), "r"(0x5140u));
    asm("prmt.b32 %0, %1, %2, %3;\n" : "=r"(out[1]) : "r"(lo), "r"(hi), "r"(0x7362u));
}

/* The scale byte b as a pair of bf16: every e8m0 and ue4m3 value is a bf16
 * number (e8m0 0x00, 2^-127, a subnormal one), NaN for the NaN codes. */
__device__ __forceinline__ uint32_t
cv_scale_bf16x2(int sfmt, uint32_t b)
{
    return (__float_as_uint(cv_scale(sfmt, b)) >> 16) * 0x10001u;
}

/* Two products of bf16 pairs, each rounded once to bf16 (to nearest even,
 * into the subnormals and to Inf as the model rounds); the fma adds -0, so
 * that a zero product keeps its sign. */
__device__ __forceinline__ uint32_t
cv_bmul2(uint32_t x, uint32_t s)
{
    uint32_t r;

    asm("fma.rn.bf16x2 %0, %1, %2, %3;\n" : "=r"(r) : "r"(x), "r"(s), "r"(0x80008000u));
    return r;
}

/* The scale byte b as a pair of f16 (the f16 path; e8m0 b in 113 .. 142 or
 * 0xff, any ue4m3): 2^(b - 127), NaN for 0xff; ue4m3 exactly. */
__device__ __forceinline__ uint32_t
cv_scale_f16x2(int sfmt, uint32_t b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    if (sfmt == CV_UE4M3) {
        uint32_t h;

        b &= 0x7fu;
        asm("cvt.rn.f16x2.e4m3x2 %0, %1;\n" : "=r"(h) : "h"((uint16_t) (b | (b << 8))));
        return h;
    }
#endif
    if (b == 0xffu)
        return 0x7e007e00u;
    return ((b - 112u) << 10) * 0x10001u;
}

/* Two f16 products of two codes and a scale pair, multiplied exactly (the
 * f16 path guarantees every product is an f16 normal number or zero). */
__device__ __forceinline__ uint32_t
cv_hmul2(uint32_t x, uint32_t s)
{
    uint32_t r;

    asm("mul.rn.f16x2 %0, %1, %2;\n" : "=r"(r) : "r"(x), "r"(s));
    return r;
}

/* The fp32 values of four codes of format F (not bf16) in w: its four
 * bytes, element 0 lowest (the 8-bit formats; e2m3 and e3m2 one code a
 * byte), or the four nibbles of its low 16 bits (e2m1). */
template <int F>
__device__ __forceinline__ void
cv_codes4(uint32_t w, float f[4])
{
    if (F == CV_E2M1) {
        cv_e2m1x4(w, f);
    } else if (F == CV_E4M3) {
        cv_e4m3x2(w, f[0], f[1]);
        cv_e4m3x2(w >> 16, f[2], f[3]);
    } else if (F == CV_E5M2) {
        cv_e5m2x2(w, f[0], f[1]);
        cv_e5m2x2(w >> 16, f[2], f[3]);
    } else {
#pragma unroll
        for (int e = 0; e < 4; e++)
            f[e] = cv_fp6<F == CV_E2M3 ? 2 : 3>((w >> (8 * e)) & 0x3fu);
    }
}

/* Two products code x scale rounded to bf16, packed (element 0 low). */
__device__ __forceinline__ uint32_t
cv_pack(float f0, float f1, float s)
{
    uint32_t r;

    asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(__fmul_rn(f1, s)), "f"(__fmul_rn(f0, s)));
    return r;
}

/* Sixteen elements of format F (the words w: 16 bytes for the 8-bit
 * formats, 8 for e2m1) times scale byte sb, as eight bf16 pairs (F16
 * false) or eight f16 pairs (F16 true: e4m3 and e2m1 only, and only when
 * every product is an f16 normal number or zero, which the caller knows
 * from the scales). */
template <int F, bool F16>
__device__ __forceinline__ void
cv_convert16(const uint32_t *w, int sfmt, uint32_t sb, uint32_t out[8])
{
    if (F16) {
        uint32_t s2 = cv_scale_f16x2(sfmt, sb);

        if (F == CV_E2M1) {
#pragma unroll
            for (int i = 0; i < 4; i++) {
                uint32_t h[2];

                cv_e2m1x4_f16(w[i / 2] >> (16 * (i % 2)), h);
                out[2 * i] = cv_hmul2(h[0], s2);
                out[2 * i + 1] = cv_hmul2(h[1], s2);
            }
        } else {
#pragma unroll
            for (int i = 0; i < 8; i++) {
                uint32_t h = 0;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
                asm("cvt.rn.f16x2.e4m3x2 %0, %1;\n"
                    : "=r"(h) : "h"((uint16_t) (w[i / 2] >> (16 * (i % 2)))));
#endif
                out[i] = cv_hmul2(h, s2);
            }
        }
        return;
    }
    if (F == CV_E2M1) {
        /* every e2m1 value and every scale is a bf16 number: one bf16
         * multiply a pair rounds their product as cv_pack would */
        const uint32_t s2 = cv_scale_bf16x2(sfmt, sb);

#pragma unroll
        for (int i = 0; i < 4; i++) {
            uint32_t h[2];

            cv_e2m1x4_bf16(w[i / 2] >> (16 * (i % 2)), h);
            out[2 * i] = cv_bmul2(h[0], s2);
            out[2 * i + 1] = cv_bmul2(h[1], s2);
        }
    } else {
        const float s = cv_scale(sfmt, sb);

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

/* Whether the f16 path can take format F with e8m0 scale byte b: every
 * product x 2^(b - 127) of a non-zero F value is an f16 normal number
 * (e4m3 values 2^-9 .. 448, e2m1 0.5 .. 6), or b is NaN.  ue4m3 scales (of
 * e2m1 only) always can. */
template <int F>
__host__ __device__ constexpr bool
cv_f16_format(void)
{
    return F == CV_E4M3 || F == CV_E2M1;
}

__device__ __forceinline__ bool
cv_f16_scale(int f, uint32_t b)
{
    uint32_t lo = f == CV_E4M3 ? 122u : 114u, hi = f == CV_E4M3 ? 134u : 140u;

    return (b >= lo && b <= hi) || b == 0xffu;
}

/* Runs run(AF, BF), std::integral_constant<int, CV_...> each, for the pair
 * A x B, one of those smma_gpu_bs_pair_fast names (the pairs sm80-bs-large
 * and sm80-bs-small are built for); another pair is refused with a message
 * that names kernel kn.  So that the launchers share one table. */
template <class F>
__host__ int
cv_fast_pair(smma_format a, smma_format b, const char *kn, F &&run, char *msg, size_t msg_len)
{
#define CV_PAIR(A, B)                                                                       \
    case SMMA_##A * 16 + SMMA_##B:                                                          \
        return run(std::integral_constant<int, CV_##A>(), std::integral_constant<int, CV_##B>())

    switch (a * 16 + b) {
        CV_PAIR(E4M3, E4M3);
        CV_PAIR(E4M3, E5M2);
        CV_PAIR(E5M2, E4M3);
        CV_PAIR(E5M2, E5M2);
        CV_PAIR(E2M3, E2M3);
        CV_PAIR(E3M2, E3M2);
        CV_PAIR(E2M1, E2M1);
        CV_PAIR(E4M3, E2M1);
        CV_PAIR(BF16, E2M1);
        CV_PAIR(BF16, E4M3);
    default:
        return smma_gpu_msg(msg, msg_len, SMMA_GPU_STATUS_EINVAL, "%s: %s x %s is not built", kn,
                            smma_format_name(a), smma_format_name(b));
    }
#undef CV_PAIR
}

#endif /* SOFTMMA_GPU_SM80_CONVERT_CUH */

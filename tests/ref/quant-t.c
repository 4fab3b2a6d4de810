/*
 * tests/ref/quant-t.c - block quantization, profile by profile, edge by edge.
 *
 * Every expected byte below was worked out by hand from the rules in
 * doc/profiles.md (the arithmetic is in the comments), not computed by the
 * library.  Shorthand: R = fp32(1/448) = 0x3b124925 = 1.1428572 * 2^-9,
 * R6 = fp32(1/6) = 0x3e2aaaab = 0.16666667163; "ulp" is one fp32 ulp;
 * e4m3 values: 0x30 0.5, 0x38 1, 0x40 2, 0x70 128, 0x76 224, 0x77 240,
 * 0x78 256, 0x7e 448, 0x7f NaN; e2m1 codes 0..7 = 0 0.5 1 1.5 2 3 4 6;
 * e8m0 0x7f = 2^0, 0x00 = 2^-127, 0xff NaN.  A block's elements not listed
 * are `fill` (+0 unless said), and all give the code `rest`.
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include <softmma/quant.h>

#include "tap/basic.h"

#define F8 SMMA_MXFP8_E4M3
#define F4 SMMA_MXFP4
#define NV SMMA_NVFP4

/* fp32 bits used below. */
#define ONE 0x3f800000u     /* 1 */
#define P448 0x43e00000u    /* 448 */
#define P448U 0x43e00001u   /* 448 + ulp = 448.000030517578125 */
#define P448D 0x43dfffffu   /* 448 - ulp = 447.999969482421875 */
#define P512 0x44000000u    /* 512 */
#define P512D 0x43ffffffu   /* 511.999969482421875 */
#define P496 0x43f80000u    /* 496 = 1.9375 * 2^8, bf16-representable */
#define P496D 0x43f7ffffu   /* 496 - ulp: not bf16; rounds to bf16 496 */
#define P465 0x43e88000u    /* 465 */
#define N448 0xc3e00000u    /* -448 */
#define MINN 0x00800000u    /* 2^-126, the smallest fp32 normal */
#define S127 0x00400000u    /* 2^-127, subnormal */
#define FMAX 0x7f7fffffu    /* FLT_MAX = 2^128 (1 - 2^-24) */
#define PINF 0x7f800000u
#define QNAN 0x7fc00000u
#define NNAN 0xffc00000u
#define NZERO 0x80000000u

struct qcase {
    const char *profile;
    smma_block_format f;
    unsigned n;             /* listed elements */
    uint32_t x[2];
    uint32_t fill;          /* every other element of the block */
    uint8_t scale;
    uint8_t code[2];
    uint8_t rest;           /* the code of every other element */
    const char *why;
};

static const struct qcase cases[] = {
    /* ---- all-zero block: amax 0.  Every profile but ml_dtypes gives the
     * zero-block scale 0x00; ml_dtypes casts fp32(0/448) = 0 to e8m0 -> NaN,
     * and 0/NaN is NaN (0x7f).  TE multiplies by exp2f_rcp(0) = 1, Triton by
     * 0: zeros either way. */
    { "cuda", F8, 0, { 0 }, 0, 0x00, { 0 }, 0x00, "zero block -> 0x00, zeros" },
    { "ocp", F8, 0, { 0 }, 0, 0x00, { 0 }, 0x00, "zero block -> 0x00, zeros" },
    { "ml_dtypes", F8, 0, { 0 }, 0, 0xff, { 0 }, 0x7f, "zero block: e8m0(0) = NaN, 0/NaN" },
    { "cutlass-host", F8, 0, { 0 }, 0, 0x00, { 0 }, 0x00, "zero block -> 0x00" },
    { "te", F8, 0, { 0 }, 0, 0x00, { 0 }, 0x00, "zero block -> 0x00, x * 1" },
    { "torchao-floor", F8, 0, { 0 }, 0, 0x00, { 0 }, 0x00, "zero block: exp field 0 clamps" },
    { "torchao-rceil", F8, 0, { 0 }, 0, 0x00, { 0 }, 0x00, "zero block: rceil(0) = 0" },
    { "torchao-ceil", F8, 0, { 0 }, 0, 0x00, { 0 }, 0x00, "zero block -> 0x00" },
    { "torchao-even", F8, 0, { 0 }, 0, 0x00, { 0 }, 0x00, "zero block -> 0x00" },
    { "triton", F8, 0, { 0 }, 0, 0x00, { 0 }, 0x00, "zero block: bits 0 -> 0, x * 0" },
    { "microxcaling", F8, 0, { 0 }, 0, 0x00, { 0 }, 0x00, "zero block as amax 2^-126" },
    /* ---- a block of -0: the same scales; -0 times a number stays -0 (0x80);
     * ml_dtypes: -0 / NaN is the NaN operand, positive. */
    { "cuda", F8, 0, { 0 }, NZERO, 0x00, { 0 }, 0x80, "-0 block keeps its signs" },
    { "ocp", F8, 0, { 0 }, NZERO, 0x00, { 0 }, 0x80, "-0 block keeps its signs" },
    { "ml_dtypes", F8, 0, { 0 }, NZERO, 0xff, { 0 }, 0x7f, "-0 block: -0 / NaN = NaN" },
    { "te", F8, 0, { 0 }, NZERO, 0x00, { 0 }, 0x80, "-0 * 1 = -0" },
    { "triton", F8, 0, { 0 }, NZERO, 0x00, { 0 }, 0x80, "-0 * 0 = -0" },
    { "torchao-floor", F8, 0, { 0 }, NZERO, 0x00, { 0 }, 0x80, "-0 * 2^127 = -0" },
    { "microxcaling", F8, 0, { 0 }, NZERO, 0x00, { 0 }, 0x80, "-0 / 2^-127 = -0" },
    /* ---- a block of fp32 smallest normals 2^-126: FLOOR: exponent -126 - 8
     * clamps to -127 (0x00), element 2^-126 / 2^-127 = 2 (0x40).  RCEIL:
     * 2^-126 * R = 1.14 * 2^-135 <= 2^-127 rounds up to 0x00, elements 2;
     * TE multiplies by exp2f_rcp(0) = 1: 2^-126 -> e4m3 0.  Triton: the ratio
     * is a subnormal, + 0x7fffff carries into exponent 1: 0x01, elements
     * 2^-126 * 2^126 = 1 (0x38).  ml_dtypes: e8m0 of a value below 2^-127 is
     * 0x00. */
    { "cuda", F8, 0, { 0 }, MINN, 0x00, { 0 }, 0x40, "smallest normals: 0x00, 2" },
    { "ocp", F8, 0, { 0 }, MINN, 0x00, { 0 }, 0x40, "smallest normals: FLOOR clamps" },
    { "ml_dtypes", F8, 0, { 0 }, MINN, 0x00, { 0 }, 0x40, "smallest normals: 0x00, 2" },
    { "cutlass-host", F8, 0, { 0 }, MINN, 0x00, { 0 }, 0x40, "smallest normals: 0x00, 2" },
    { "te", F8, 0, { 0 }, MINN, 0x00, { 0 }, 0x00, "smallest normals: x * 1 -> 0" },
    { "torchao-floor", F8, 0, { 0 }, MINN, 0x00, { 0 }, 0x40, "smallest normals: 0x00, 2" },
    { "torchao-rceil", F8, 0, { 0 }, MINN, 0x00, { 0 }, 0x40, "smallest normals: 0x00, 2" },
    { "torchao-ceil", F8, 0, { 0 }, MINN, 0x00, { 0 }, 0x40, "smallest normals: 0x00, 2" },
    { "torchao-even", F8, 0, { 0 }, MINN, 0x00, { 0 }, 0x40, "smallest normals: 0x00, 2" },
    { "triton", F8, 0, { 0 }, MINN, 0x01, { 0 }, 0x38, "smallest normals: subnormal ratio 0x01" },
    { "microxcaling", F8, 0, { 0 }, MINN, 0x00, { 0 }, 0x40, "smallest normals: 0x00, 2" },
    /* ---- subnormal amax 2^-127: the scale is 0x00 (Triton: 0x01) and the
     * element 2^-127 / 2^-127 = 1 (0x38); TE: 2^-127 * 1 -> 0; Triton:
     * 2^-127 * 2^126 = 0.5 (0x30). */
    { "cuda", F8, 1, { S127 }, 0, 0x00, { 0x38 }, 0x00, "subnormal amax 2^-127" },
    { "ocp", F8, 1, { S127 }, 0, 0x00, { 0x38 }, 0x00, "subnormal amax 2^-127" },
    { "ml_dtypes", F8, 1, { S127 }, 0, 0x00, { 0x38 }, 0x00, "subnormal amax 2^-127" },
    { "cutlass-host", F8, 1, { S127 }, 0, 0x00, { 0x38 }, 0x00, "subnormal amax 2^-127" },
    { "te", F8, 1, { S127 }, 0, 0x00, { 0x00 }, 0x00, "subnormal amax: x * 1 -> 0" },
    { "torchao-floor", F8, 1, { S127 }, 0, 0x00, { 0x38 }, 0x00, "subnormal amax 2^-127" },
    { "torchao-rceil", F8, 1, { S127 }, 0, 0x00, { 0x38 }, 0x00, "subnormal amax 2^-127" },
    { "triton", F8, 1, { S127 }, 0, 0x01, { 0x30 }, 0x00, "subnormal amax: 0x01, 0.5" },
    { "microxcaling", F8, 1, { S127 }, 0, 0x00, { 0x38 }, 0x00, "subnormal amax 2^-127" },
    /* ---- the smallest subnormal 2^-149 alone: 2^-149 * R rounds to fp32 0;
     * cvt.rp(0) = 0x00; ml_dtypes: fp32(2^-149 / 448) = 0 -> e8m0 NaN, so
     * 2^-149 / NaN and 0 / NaN are NaN. */
    { "cuda", F8, 1, { 0x00000001u }, 0, 0x00, { 0x00 }, 0x00, "amax 2^-149: ratio 0" },
    { "ml_dtypes", F8, 1, { 0x00000001u }, 0, 0xff, { 0x7f }, 0x7f, "amax 2^-149: e8m0(0)" },
    { "triton", F8, 1, { 0x00000001u }, 0, 0x00, { 0x00 }, 0x00, "amax 2^-149: ratio 0" },
    /* ---- amax at the RCEIL boundary 448 = max_elem: 448 * R = 1.0000000447
     * rounds to 1: 0x7f, element 448 (0x7e).  FLOOR: exponent 8 - 8 = 0.
     * CEIL: 448 = 1.75 * 2^8 has mantissa bits: 9 - 8 = 1 (0x80), element 224.
     * EVEN: 0x43e00000 + 0x80000 keeps exponent 8: 0x7f.  RN: 448/448 = 1. */
    { "cuda", F8, 1, { P448 }, 0, 0x7f, { 0x7e }, 0x00, "amax 448: ratio 1" },
    { "ocp", F8, 1, { P448 }, 0, 0x7f, { 0x7e }, 0x00, "amax 448: FLOOR 8 - 8" },
    { "ml_dtypes", F8, 1, { P448 }, 0, 0x7f, { 0x7e }, 0x00, "amax 448: ratio 1" },
    { "cutlass-host", F8, 1, { P448 }, 0, 0x7f, { 0x7e }, 0x00, "amax 448: ratio 1" },
    { "te", F8, 1, { P448 }, 0, 0x7f, { 0x7e }, 0x00, "amax 448: ratio 1" },
    { "torchao-floor", F8, 1, { P448 }, 0, 0x7f, { 0x7e }, 0x00, "amax 448: exponent 8" },
    { "torchao-rceil", F8, 1, { P448 }, 0, 0x7f, { 0x7e }, 0x00, "amax 448: ratio 1" },
    { "torchao-ceil", F8, 1, { P448 }, 0, 0x80, { 0x76 }, 0x00, "amax 448: CEIL 9 - 8" },
    { "torchao-even", F8, 1, { P448 }, 0, 0x7f, { 0x7e }, 0x00, "amax 448: EVEN stays" },
    { "triton", F8, 1, { P448 }, 0, 0x7f, { 0x7e }, 0x00, "amax 448: 448/448 = 1" },
    { "microxcaling", F8, 1, { P448 }, 0, 0x7f, { 0x7e }, 0x00, "amax 448: FLOOR" },
    /* ---- one ulp above: 448.000031 * R = 1.0000001128 rounds to 1 + 2^-23,
     * up to 2 (0x80), element 224.000015 -> 224 (0x76).  448.000031 / 448 =
     * 1 + 0.57 * 2^-23 rounds to 1 + 2^-23 too.  FLOOR, EVEN: still 0x7f, and
     * 448.000031 rounds to 448.  RN: 1.0000001 ties away only at 1.5: 0x7f.
     * This fp32 amax rounds to the bf16 448 that gives 0x7f under RCEIL. */
    { "cuda", F8, 1, { P448U }, 0, 0x80, { 0x76 }, 0x00, "amax 448 + ulp: up to 2^1" },
    { "ocp", F8, 1, { P448U }, 0, 0x7f, { 0x7e }, 0x00, "amax 448 + ulp: FLOOR 0x7f" },
    { "ml_dtypes", F8, 1, { P448U }, 0, 0x7f, { 0x7e }, 0x00, "amax 448 + ulp: RN 1" },
    { "cutlass-host", F8, 1, { P448U }, 0, 0x80, { 0x76 }, 0x00, "amax 448 + ulp" },
    { "te", F8, 1, { P448U }, 0, 0x80, { 0x76 }, 0x00, "amax 448 + ulp: up to 2^1" },
    { "torchao-floor", F8, 1, { P448U }, 0, 0x7f, { 0x7e }, 0x00, "amax 448 + ulp" },
    { "torchao-rceil", F8, 1, { P448U }, 0, 0x80, { 0x76 }, 0x00, "amax 448 + ulp" },
    { "torchao-ceil", F8, 1, { P448U }, 0, 0x80, { 0x76 }, 0x00, "amax 448 + ulp" },
    { "torchao-even", F8, 1, { P448U }, 0, 0x7f, { 0x7e }, 0x00, "amax 448 + ulp" },
    { "triton", F8, 1, { P448U }, 0, 0x80, { 0x76 }, 0x00, "amax 448 + ulp: div" },
    { "microxcaling", F8, 1, { P448U }, 0, 0x7f, { 0x7e }, 0x00, "amax 448 + ulp" },
    /* ---- one ulp below: 447.99997 * R = 0.99999998 rounds to 1 (0.9999999404
     * is farther): 0x7f; 447.99997 -> 448.  CEIL: exponent 8, mantissa bits:
     * 0x80, element 223.99998 -> 224. */
    { "cuda", F8, 1, { P448D }, 0, 0x7f, { 0x7e }, 0x00, "amax 448 - ulp: ratio 1" },
    { "ocp", F8, 1, { P448D }, 0, 0x7f, { 0x7e }, 0x00, "amax 448 - ulp" },
    { "te", F8, 1, { P448D }, 0, 0x7f, { 0x7e }, 0x00, "amax 448 - ulp" },
    { "torchao-rceil", F8, 1, { P448D }, 0, 0x7f, { 0x7e }, 0x00, "amax 448 - ulp" },
    { "torchao-ceil", F8, 1, { P448D }, 0, 0x80, { 0x76 }, 0x00, "amax 448 - ulp: CEIL" },
    { "triton", F8, 1, { P448D }, 0, 0x7f, { 0x7e }, 0x00, "amax 448 - ulp" },
    /* ---- the FLOOR boundary 512 = 2^9: FLOOR 9 - 8 = 1 (0x80), element 256
     * (0x78); one ulp below, exponent 8: 0x7f, and 511.99997 rounds to 512,
     * past 448: saturates to 0x7e (ml_dtypes does not saturate: NaN).  RCEIL:
     * 512 * R = 1.1428572 and 511.99997 * R both round up to 2: 0x80, 256.
     * RN: ratio 1.14 rounds to 1 (ties go up only at 1.5). */
    { "ocp", F8, 1, { P512 }, 0, 0x80, { 0x78 }, 0x00, "amax 512: FLOOR 9 - 8" },
    { "ocp", F8, 1, { P512D }, 0, 0x7f, { 0x7e }, 0x00, "amax 512 - ulp: saturates" },
    { "microxcaling", F8, 1, { P512D }, 0, 0x7f, { 0x7e }, 0x00, "512 - ulp: RA, clamp" },
    { "torchao-floor", F8, 1, { P512D }, 0, 0x7f, { 0x7e }, 0x00, "512 - ulp: clamp" },
    { "ml_dtypes", F8, 1, { P512D }, 0, 0x7f, { 0x7f }, 0x00, "512 - ulp: 512 -> NaN" },
    { "cuda", F8, 1, { P512 }, 0, 0x80, { 0x78 }, 0x00, "amax 512: RCEIL 2" },
    { "cuda", F8, 1, { P512D }, 0, 0x80, { 0x78 }, 0x00, "amax 512 - ulp: RCEIL 2" },
    { "torchao-ceil", F8, 1, { P512 }, 0, 0x80, { 0x78 }, 0x00, "amax 512: CEIL 9 - 8" },
    { "torchao-even", F8, 1, { P512D }, 0, 0x80, { 0x78 }, 0x00, "512 - ulp: EVEN rounds up" },
    /* ---- the EVEN boundary 496 = 1.9375 * 2^8 (bf16): + 0x80000 carries into
     * exponent 9: 0x80, element 248, a tie of 240 and 256 -> 256 (0x78).  The
     * fp32 496 - ulp (bf16 496 when rounded) does not carry: 0x7f, 495.99997
     * -> 480, past 448: 0x7e.  FLOOR: 0x7f for both, 496 ties to 512 -> 0x7e.
     * RCEIL: 496 * R = 1.107 -> 2: 0x80; 248 -> 256, 247.99998 -> 240 (0x77). */
    { "torchao-even", F8, 1, { P496 }, 0, 0x80, { 0x78 }, 0x00, "amax 496 (bf16): EVEN up" },
    { "torchao-even", F8, 1, { P496D }, 0, 0x7f, { 0x7e }, 0x00, "amax 496 - ulp: EVEN stays" },
    { "ocp", F8, 1, { P496 }, 0, 0x7f, { 0x7e }, 0x00, "amax 496: FLOOR, 512 saturates" },
    { "cuda", F8, 1, { P496 }, 0, 0x80, { 0x78 }, 0x00, "amax 496: 248 ties to 256" },
    { "cuda", F8, 1, { P496D }, 0, 0x80, { 0x77 }, 0x00, "amax 496 - ulp: 247.99998 -> 240" },
    { "microxcaling", F8, 1, { P496 }, 0, 0x7f, { 0x7e }, 0x00, "496: RA 512, clamp" },
    { "ml_dtypes", F8, 1, { P496D }, 0, 0x7f, { 0x7f }, 0x00, "496 - ulp: 480 -> NaN" },
    /* ---- +-max element: 448 and -448 under scale 2^0; CEIL picks 2^1. */
    { "cuda", F8, 2, { P448, N448 }, 0, 0x7f, { 0x7e, 0xfe }, 0x00, "+-448" },
    { "ocp", F8, 2, { P448, N448 }, 0, 0x7f, { 0x7e, 0xfe }, 0x00, "+-448" },
    { "ml_dtypes", F8, 2, { P448, N448 }, 0, 0x7f, { 0x7e, 0xfe }, 0x00, "+-448" },
    { "te", F8, 2, { P448, N448 }, 0, 0x7f, { 0x7e, 0xfe }, 0x00, "+-448" },
    { "torchao-floor", F8, 2, { P448, N448 }, 0, 0x7f, { 0x7e, 0xfe }, 0x00, "+-448" },
    { "torchao-ceil", F8, 2, { P448, N448 }, 0, 0x80, { 0x76, 0xf6 }, 0x00, "+-448 -> +-224" },
    { "triton", F8, 2, { P448, N448 }, 0, 0x7f, { 0x7e, 0xfe }, 0x00, "+-448" },
    { "microxcaling", F8, 2, { P448, N448 }, 0, 0x7f, { 0x7e, 0xfe }, 0x00, "+-448" },
    /* ---- just past the element max: 465.  FLOOR: 0x7f, 465 -> 480, past
     * 448, saturates (ml_dtypes: RN ratio 1.04 -> 1, 480 -> NaN).  RCEIL and
     * CEIL: 0x80, 232.5 -> 240 (0x77).  EVEN: 0x43e88000 + 0x80000 stays. */
    { "ocp", F8, 1, { P465 }, 0, 0x7f, { 0x7e }, 0x00, "465 saturates to 448" },
    { "ml_dtypes", F8, 1, { P465 }, 0, 0x7f, { 0x7f }, 0x00, "465 -> 480: NaN" },
    { "microxcaling", F8, 1, { P465 }, 0, 0x7f, { 0x7e }, 0x00, "465 clamps" },
    { "torchao-floor", F8, 1, { P465 }, 0, 0x7f, { 0x7e }, 0x00, "465 clamps" },
    { "torchao-even", F8, 1, { P465 }, 0, 0x7f, { 0x7e }, 0x00, "465 clamps" },
    { "cuda", F8, 1, { P465 }, 0, 0x80, { 0x77 }, 0x00, "465 / 2 = 232.5 -> 240" },
    { "te", F8, 1, { P465 }, 0, 0x80, { 0x77 }, 0x00, "465 / 2 = 232.5 -> 240" },
    { "torchao-ceil", F8, 1, { P465 }, 0, 0x80, { 0x77 }, 0x00, "465 / 2 -> 240" },
    { "triton", F8, 1, { P465 }, 0, 0x80, { 0x77 }, 0x00, "465 / 2 -> 240" },
    /* ---- Inf in a block [Inf, 1].  cuda: Inf * R = Inf, cvt.rp.satfinite
     * gives 0xfe; Inf * 2^-127 = Inf saturates to 448, 1 * 2^-127 -> 0.
     * te: 0xfe and exp2f_rcp(0xfe) = 0: Inf * 0 = NaN (0x7f), 1 * 0 = 0.
     * triton: Inf/448 = Inf, bits give 0xff, quant_scale 1/Inf = 0: the same
     * elements as te.  The FLOOR/CEIL/EVEN profiles, the RP conversion and
     * the casts of ml_dtypes and cutlass-host give 0xff, and every element
     * times NaN is NaN. */
    { "cuda", F8, 2, { PINF, ONE }, 0, 0xfe, { 0x7e, 0x00 }, 0x00, "[Inf, 1]: 0xfe" },
    { "ocp", F8, 2, { PINF, ONE }, 0, 0xff, { 0x7f, 0x7f }, 0x7f, "[Inf, 1]: NaN block" },
    { "ml_dtypes", F8, 2, { PINF, ONE }, 0, 0xff, { 0x7f, 0x7f }, 0x7f, "[Inf, 1]: NaN" },
    { "cutlass-host", F8, 2, { PINF, ONE }, 0, 0xff, { 0x7f, 0x7f }, 0x7f, "[Inf, 1]: NaN" },
    { "te", F8, 2, { PINF, ONE }, 0, 0xfe, { 0x7f, 0x00 }, 0x00, "[Inf, 1]: x * 0" },
    { "torchao-floor", F8, 2, { PINF, ONE }, 0, 0xff, { 0x7f, 0x7f }, 0x7f, "[Inf, 1]: NaN" },
    { "torchao-rceil", F8, 2, { PINF, ONE }, 0, 0xff, { 0x7f, 0x7f }, 0x7f, "[Inf, 1]: NaN" },
    { "torchao-ceil", F8, 2, { PINF, ONE }, 0, 0xff, { 0x7f, 0x7f }, 0x7f, "[Inf, 1]: NaN" },
    { "torchao-even", F8, 2, { PINF, ONE }, 0, 0xff, { 0x7f, 0x7f }, 0x7f, "[Inf, 1]: NaN" },
    { "triton", F8, 2, { PINF, ONE }, 0, 0xff, { 0x7f, 0x00 }, 0x00, "[Inf, 1]: x * 0" },
    { "microxcaling", F8, 2, { PINF, ONE }, 0, 0xff, { 0x7f, 0x7f }, 0x7f, "[Inf, 1]: NaN" },
    /* ---- NaN in a block [NaN, 1].  Profiles whose amax propagates NaN give
     * 0xff and NaN elements.  te and triton skip NaN: amax 1, 1 * R = 1.14 *
     * 2^-9 rounds up to 2^-8 (0x77); NaN * 2^8 = NaN, 1 * 2^8 = 256 (0x78). */
    { "cuda", F8, 2, { QNAN, ONE }, 0, 0xff, { 0x7f, 0x7f }, 0x7f, "[NaN, 1]: NaN" },
    { "ocp", F8, 2, { QNAN, ONE }, 0, 0xff, { 0x7f, 0x7f }, 0x7f, "[NaN, 1]: NaN" },
    { "ocp", F8, 2, { NNAN, ONE }, 0, 0xff, { 0xff, 0x7f }, 0x7f, "[-NaN, 1]: sign kept" },
    { "ml_dtypes", F8, 2, { NNAN, ONE }, 0, 0xff, { 0xff, 0x7f }, 0x7f, "[-NaN, 1]" },
    { "cutlass-host", F8, 2, { NNAN, ONE }, 0, 0xff, { 0x7f, 0x7f }, 0x7f, "[-NaN, 1]" },
    { "te", F8, 2, { QNAN, ONE }, 0, 0x77, { 0x7f, 0x78 }, 0x00, "[NaN, 1]: NaN skipped" },
    { "te", F8, 2, { NNAN, ONE }, 0, 0x77, { 0x7f, 0x78 }, 0x00, "[-NaN, 1]: 0x7f" },
    /* torch's multiply by the NaN reciprocal returns a positive NaN even for a
     * -NaN element (measured, torch 2.11 on x86-64). */
    { "torchao-floor", F8, 2, { NNAN, ONE }, 0, 0xff, { 0x7f, 0x7f }, 0x7f, "[-NaN, 1]: +NaN" },
    { "torchao-rceil", F8, 2, { QNAN, ONE }, 0, 0xff, { 0x7f, 0x7f }, 0x7f, "[NaN, 1]" },
    { "triton", F8, 2, { QNAN, ONE }, 0, 0x77, { 0x7f, 0x78 }, 0x00, "[NaN, 1]: skipped" },
    { "microxcaling", F8, 2, { QNAN, ONE }, 0, 0xff, { 0x7f, 0x7f }, 0x7f, "[NaN, 1]" },
    /* ---- scale overflow near 2^127: FLT_MAX.  FLOOR: 127 - 8 = 119 (0xf6),
     * FLT_MAX / 2^119 = 511.99997 -> 512, saturates to 448.  RCEIL: FLT_MAX *
     * R = 1.14 * 2^119 -> 2^120 (0xf7), FLT_MAX * 2^-120 = 255.99998 -> 256.
     * CEIL: 127 + 1 - 8 = 120.  EVEN: 0x7f7fffff + 0x80000 carries into the
     * Inf exponent: the scale overflows to NaN.  ml_dtypes: the ratio 1.14 *
     * 2^119 rounds to 2^119, and 512 overflows e4m3 to NaN. */
    { "ocp", F8, 1, { FMAX }, 0, 0xf6, { 0x7e }, 0x00, "FLT_MAX: FLOOR 119" },
    { "microxcaling", F8, 1, { FMAX }, 0, 0xf6, { 0x7e }, 0x00, "FLT_MAX: FLOOR 119" },
    { "torchao-floor", F8, 1, { FMAX }, 0, 0xf6, { 0x7e }, 0x00, "FLT_MAX: FLOOR 119" },
    { "cuda", F8, 1, { FMAX }, 0, 0xf7, { 0x78 }, 0x00, "FLT_MAX: RCEIL 120" },
    { "te", F8, 1, { FMAX }, 0, 0xf7, { 0x78 }, 0x00, "FLT_MAX: RCEIL 120" },
    { "triton", F8, 1, { FMAX }, 0, 0xf7, { 0x78 }, 0x00, "FLT_MAX: RCEIL 120" },
    { "torchao-rceil", F8, 1, { FMAX }, 0, 0xf7, { 0x78 }, 0x00, "FLT_MAX: RCEIL 120" },
    { "torchao-ceil", F8, 1, { FMAX }, 0, 0xf7, { 0x78 }, 0x00, "FLT_MAX: CEIL 120" },
    { "torchao-even", F8, 1, { FMAX }, 0, 0xff, { 0x7f }, 0x7f, "FLT_MAX: EVEN overflows" },
    { "ml_dtypes", F8, 1, { FMAX }, 0, 0xf6, { 0x7f }, 0x00, "FLT_MAX: 512 -> NaN" },
    /* ---- mxfp4 [7, 5]: FLOOR 2 - 2 = 0 (0x7f): 7 saturates to 6 (0x7),
     * 5 ties 4 and 6 -> 4 (0x6) under RN, 6 (0x7) under microxcaling's
     * "nearest" (ties away).  RCEIL: 7 * R6 = 1.1666667 -> 2 (0x80): 3.5 ties
     * 3 and 4 -> 4 (0x6), 2.5 ties 2 and 3 -> 2 (0x4).  CEIL: 7 = 1.75 * 2^2
     * -> 3 - 2 = 1.  EVEN (1 mantissa bit: + 0x200000): 0x40e00000 carries
     * into exponent 3.  ml_dtypes: 7/6 = 1.17 -> 1, 7 saturates (e2m1 has no
     * Inf). */
    { "ocp", F4, 2, { 0x40e00000u, 0x40a00000u }, 0, 0x7f, { 0x7, 0x6 }, 0, "[7, 5] FLOOR" },
    { "microxcaling", F4, 2, { 0x40e00000u, 0x40a00000u }, 0, 0x7f, { 0x7, 0x7 }, 0,
      "[7, 5]: 5 ties away to 6" },
    { "torchao-floor", F4, 2, { 0x40e00000u, 0x40a00000u }, 0, 0x7f, { 0x7, 0x6 }, 0,
      "[7, 5] FLOOR" },
    { "ml_dtypes", F4, 2, { 0x40e00000u, 0x40a00000u }, 0, 0x7f, { 0x7, 0x6 }, 0,
      "[7, 5] RN 1" },
    { "cuda", F4, 2, { 0x40e00000u, 0x40a00000u }, 0, 0x80, { 0x6, 0x4 }, 0, "[7, 5] RCEIL" },
    { "te", F4, 2, { 0x40e00000u, 0x40a00000u }, 0, 0x80, { 0x6, 0x4 }, 0, "[7, 5] RCEIL" },
    { "triton", F4, 2, { 0x40e00000u, 0x40a00000u }, 0, 0x80, { 0x6, 0x4 }, 0, "[7, 5]" },
    { "torchao-rceil", F4, 2, { 0x40e00000u, 0x40a00000u }, 0, 0x80, { 0x6, 0x4 }, 0,
      "[7, 5] RCEIL" },
    { "torchao-ceil", F4, 2, { 0x40e00000u, 0x40a00000u }, 0, 0x80, { 0x6, 0x4 }, 0,
      "[7, 5] CEIL" },
    { "torchao-even", F4, 2, { 0x40e00000u, 0x40a00000u }, 0, 0x80, { 0x6, 0x4 }, 0,
      "[7, 5] EVEN" },
    /* ---- NaN into e2m1: [-NaN, 1] in NaN blocks.  torchao's converter gives
     * 1.5 with the NaN's sign, and its multiply made every NaN positive (0x3);
     * ml_dtypes: -0 for +NaN (0x8), +0 for -NaN; cutlass-host: max with the
     * sign; ocp: +max. */
    { "torchao-floor", F4, 2, { NNAN, ONE }, 0, 0xff, { 0x3, 0x3 }, 0x3, "NaN -> +1.5" },
    { "ml_dtypes", F4, 2, { NNAN, ONE }, 0, 0xff, { 0x0, 0x8 }, 0x8, "NaN -> -+0" },
    { "cutlass-host", F4, 2, { NNAN, ONE }, 0, 0xff, { 0xf, 0x7 }, 0x7, "NaN -> +-6" },
    { "ocp", F4, 2, { NNAN, ONE }, 0, 0xff, { 0x7, 0x7 }, 0x7, "NaN -> +6" },
    /* ---- Triton's e2m1 converter: [6, 0.25 * (1 + 2^-23)]: scale 6/6 = 1
     * (0x7f); 0x3e800001 is above the midpoint 0.25 and rounds to 0.5 (0x1)
     * everywhere but in Triton, whose sticky bit misses the two lowest
     * mantissa bits: 0. */
    { "triton", F4, 2, { 0x40c00000u, 0x3e800001u }, 0, 0x7f, { 0x7, 0x0 }, 0,
      "0.25 + 2^-25 -> 0 (Triton's converter)" },
    { "cuda", F4, 2, { 0x40c00000u, 0x3e800001u }, 0, 0x7f, { 0x7, 0x1 }, 0,
      "0.25 + 2^-25 -> 0.5" },
    /* ---- NVFP4, single level.  [6]: scale 6/6 = 1 (ue4m3 0x38), element 6
     * (0x7).  te: 6 * R6 = 1.0000000298 rounds to 1; 1 / (1 * 1) = 1. */
    { "ocp", NV, 1, { 0x40c00000u }, 0, 0x38, { 0x7 }, 0, "nvfp4 [6]" },
    { "cuda", NV, 1, { 0x40c00000u }, 0, 0x38, { 0x7 }, 0, "nvfp4 [6]" },
    { "te", NV, 1, { 0x40c00000u }, 0, 0x38, { 0x7 }, 0, "nvfp4 [6]" },
    { "torchao-floor", NV, 1, { 0x40c00000u }, 0, 0x38, { 0x7 }, 0, "nvfp4 [6]" },
    { "ml_dtypes", NV, 1, { 0x40c00000u }, 0, 0x38, { 0x7 }, 0, "nvfp4 [6]" },
    /* Zero block: exact and te give 0x00 (te's multiplier min(1/0, FLT_MAX)
     * times 0 is 0); torchao clamps the scale to 2^-6 (0x08); ml_dtypes
     * divides 0 by 0: the x86-64 default NaN is negative, and ml_dtypes turns
     * -NaN into +0 (0x0; measured with ml_dtypes 0.6.0). */
    { "ocp", NV, 0, { 0 }, 0, 0x00, { 0 }, 0x0, "nvfp4 zero block" },
    { "te", NV, 0, { 0 }, 0, 0x00, { 0 }, 0x0, "nvfp4 zero block" },
    { "torchao-floor", NV, 0, { 0 }, 0, 0x08, { 0 }, 0x0, "nvfp4 zero block: 2^-6" },
    { "ml_dtypes", NV, 0, { 0 }, 0, 0x00, { 0 }, 0x0, "nvfp4 zero block: 0/0" },
    /* [2^-20]: 2^-20 / 6 is below half of ue4m3's 2^-9: scale 0.  te then
     * multiplies by FLT_MAX: 2^-20 * FLT_MAX saturates to 6 (0x7).  exact:
     * zero elements.  torchao: the scale clamps to 2^-6, 2^-20 / 2^-6 -> 0.
     * ml_dtypes: 2^-20 / 0 = Inf -> 6, and 0 / 0 = -NaN -> +0. */
    { "ocp", NV, 1, { 0x35800000u }, 0, 0x00, { 0x0 }, 0x0, "nvfp4 [2^-20]: zero scale" },
    { "te", NV, 1, { 0x35800000u }, 0, 0x00, { 0x7 }, 0x0, "nvfp4 [2^-20]: x * FLT_MAX" },
    { "torchao-floor", NV, 1, { 0x35800000u }, 0, 0x08, { 0x0 }, 0x0, "nvfp4 [2^-20]" },
    { "ml_dtypes", NV, 1, { 0x35800000u }, 0, 0x00, { 0x7 }, 0x0, "nvfp4 [2^-20]: x / 0" },
    /* [2800]: 2800 / 6 = 466.67 -> 480, past 448: satfinite 448 (0x7e),
     * element 2800 / 448 = 6.25 -> 6; ml_dtypes' cast overflows to NaN
     * (0x7f), and x / NaN -> -0 (0x8). */
    { "ocp", NV, 1, { 0x452f0000u }, 0, 0x7e, { 0x7 }, 0x0, "nvfp4 [2800]: 448" },
    { "te", NV, 1, { 0x452f0000u }, 0, 0x7e, { 0x7 }, 0x0, "nvfp4 [2800]: satfinite" },
    { "torchao-floor", NV, 1, { 0x452f0000u }, 0, 0x7e, { 0x7 }, 0x0, "nvfp4 [2800]: clamp" },
    { "ml_dtypes", NV, 1, { 0x452f0000u }, 0, 0x7f, { 0x8 }, 0x8, "nvfp4 [2800]: NaN" },
    /* [NaN, 1]: exact: NaN scale 0x7f, NaN -> +6 (ocp); te skips NaN: amax 1,
     * 1 * R6 -> e4m3 0.1666667 -> 0.171875 (0x23 = 1.375 * 2^-3); the NaN
     * element -> +6; 1 * fp32(1/0.171875) = 5.818 -> 6 (0x7). */
    { "ocp", NV, 2, { QNAN, ONE }, 0, 0x7f, { 0x7, 0x7 }, 0x7, "nvfp4 [NaN, 1]" },
    { "te", NV, 2, { QNAN, ONE }, 0, 0x23, { 0x7, 0x7 }, 0x0, "nvfp4 [NaN, 1]: skipped" },
    { "torchao-floor", NV, 2, { QNAN, ONE }, 0, 0x7f, { 0x3, 0x3 }, 0x3, "nvfp4 [NaN, 1]" },
    /* ---- pytorch (to_mxfp): e = ceil(fp32 log2(amax * R)) clamped to +-127,
     * NaN -> 0xff; elements x * (e byte 0 ? 1 : 2^(127 - byte)) clamped;
     * e2m1 through bf16.  [NaN, 1]: 0xff, x * 2^-128: NaN 0x7f (0x4, +2, in
     * e2m1: the canonical NaN through bf16 0x7fff and torchao's converter),
     * 1 -> 0.  [Inf, 1]: log2 Inf clamps to 127: 0xfe, x * 2^-127: Inf -> 448,
     * 1 -> 0.  [2^-120]: log2(2^-120 R) = -128.8, ceil -128, clamped to -127:
     * byte 0, x * 1 -> 0.  [2.5 + 2^-19, 6]: 6 R6 = 1, 0x7f; bf16 2.5, a tie
     * -> 2 (0x4). */
    { "pytorch", F8, 0, { 0 }, 0, 0x00, { 0 }, 0x00, "zero block -> 0x00, x * 1" },
    { "pytorch", F8, 2, { QNAN, ONE }, 0, 0xff, { 0x7f, 0x00 }, 0x00, "[NaN, 1]: x * 2^-128" },
    { "pytorch", F4, 2, { QNAN, ONE }, 0, 0xff, { 0x4, 0x0 }, 0x0, "[NaN, 1] e2m1: NaN -> 2" },
    { "pytorch", F8, 2, { PINF, ONE }, 0, 0xfe, { 0x7e, 0x00 }, 0x00, "[Inf, 1]: 0xfe" },
    { "pytorch", F8, 1, { P448 }, 0, 0x7f, { 0x7e }, 0x00, "[448]: 448 R = 1, 2^0" },
    { "pytorch", F8, 1, { 0x03800000u }, 0, 0x00, { 0x00 }, 0x00, "[2^-120]: byte 0, x * 1" },
    { "pytorch", F4, 2, { 0x40200008u, 0x40c00000u }, 0, 0x7f, { 0x4, 0x7 }, 0x0,
      "[2.5 + 2^-19, 6]: bf16 2.5, tie to 2" },
    /* torch.exp2(-127) on the GPU is 0x003fffff (measured through to_mxfp on
     * an H100): [Inf, -1.6875 * 2^121]: 0xfe; -1.6875 * 2^-6 = -13.5 * 2^-9
     * would tie to -14 * 2^-9 (0x8e), but one ulp less goes to -13 (0x8d). */
    { "pytorch", F8, 2, { PINF, 0xfc580000u }, 0, 0xfe, { 0x7e, 0x8d }, 0x00,
      "[Inf, -1.6875 * 2^121]: x * 0x003fffff, -13 * 2^-9" },
    /* ---- jax: round-up bits of fp32 amax / 448, 8-bit sum; x / 2^e (0x00:
     * 2^-127, 0xff: +Inf) clipped.  [NaN, 1]: 0xff + 1 -> 0x00, 1 / 2^-127
     * -> 448.  [Inf, 1]: 0xff, 1 / Inf = 0, Inf / Inf NaN.  [448 + ulp]:
     * ratio 1 + 6.8e-8 rounds to 1 + 2^-23, up: 0x80, 224.00002 -> 224. */
    { "jax", F8, 0, { 0 }, 0, 0x00, { 0 }, 0x00, "zero block -> 0x00" },
    { "jax", F8, 2, { QNAN, ONE }, 0, 0x00, { 0x7f, 0x7e }, 0x00, "[NaN, 1]: 0x00, 1 -> 448" },
    { "jax", F8, 2, { PINF, ONE }, 0, 0xff, { 0x7f, 0x00 }, 0x00, "[Inf, 1]: 0xff, x / Inf" },
    { "jax", F8, 1, { P448 }, 0, 0x7f, { 0x7e }, 0x00, "[448]: ratio 1" },
    { "jax", F8, 1, { P448U }, 0, 0x80, { 0x76 }, 0x00, "[448 + ulp]: rounds up" },
    /* Measured on an H100 (bench/logs/h100-quantizer-truth.log): XLA converts
     * every NaN to e2m1 0x8 (-0) and to e2m3 / e3m2 0x00, whatever its sign;
     * nvfp4 elements are x * fp32(1 / scale): [1.40625, 1.171875] has the
     * scale 1.40625 / 6 = 0.234375 (0x27), and 1.171875 * fp32(1 / 0.234375)
     * = 5.0000002 goes to 6 (0x7), where the exact 5 would tie to 4 (0x6).
     * A zero nvfp4 block: scale 0, 0 * (1 / 0) = NaN -> 0x8. */
    { "jax", F4, 2, { QNAN, ONE }, 0, 0x00, { 0x8, 0x7 }, 0x0, "[NaN, 1] e2m1: NaN -> 0x8" },
    { "jax", SMMA_MXFP6_E2M3, 2, { NNAN, ONE }, 0, 0x00, { 0x00, 0x1f }, 0x00,
      "[-NaN, 1] e2m3: NaN -> 0x00" },
    { "jax", SMMA_MXFP6_E3M2, 2, { QNAN, ONE }, 0, 0x00, { 0x00, 0x1f }, 0x00,
      "[NaN, 1] e3m2: NaN -> 0x00" },
    { "jax", F4, 2, { PINF, ONE }, 0, 0xff, { 0x8, 0x0 }, 0x0, "[Inf, 1] e2m1: Inf / Inf -> 0x8" },
    { "jax", NV, 2, { 0x3fb40000u, 0x3f960000u }, 0, 0x27, { 0x7, 0x7 }, 0x0,
      "nvfp4 [1.40625, 1.171875]: x * fp32(1 / s) = 5.0000002 -> 6" },
    { "jax", NV, 0, { 0 }, 0, 0x00, { 0 }, 0x8, "nvfp4 zero block: 0 * Inf -> 0x8" },
    { "jax-jit", F4, 2, { QNAN, ONE }, 0, 0x00, { 0x8, 0x7 }, 0x0, "[NaN, 1] e2m1: NaN -> 0x8" },
    { "jax-jit", NV, 2, { 0x3fb40000u, 0x3f960000u }, 0, 0x27, { 0x7, 0x7 }, 0x0,
      "nvfp4 [1.40625, 1.171875]: x * fp32(1 / s)" },
    { "ocp", NV, 2, { 0x3fb40000u, 0x3f960000u }, 0, 0x27, { 0x7, 0x6 }, 0x0,
      "nvfp4 [1.40625, 1.171875]: exact 5 ties to 4" },
    /* ---- triton-mxfp: floor(log2(amax R6)) + 127, 0 / Inf / NaN -> 0xff;
     * x / 2^e; e2m1 by nearest candidate, even ones 1e-6 nearer; NaN -> +6.
     * Zero block: 0xff and 0 / NaN -> +6.  [7, 1]: 7 R6 = 1.17, floor 0;
     * 7 -> 6.  [0.25 + 2^-25, 6]: 0.25000003 is nearer 0.5 but 0 wins. */
    { "triton-mxfp", F4, 0, { 0 }, 0, 0xff, { 0 }, 0x7, "zero block: NaN scale, +6" },
    { "triton-mxfp", F4, 2, { QNAN, ONE }, 0, 0xff, { 0x7, 0x7 }, 0x7, "[NaN, 1]: all +6" },
    { "triton-mxfp", F4, 2, { 0xff800000u, ONE }, 0, 0xff, { 0x7, 0x7 }, 0x7,
      "[-Inf, 1]: all NaN, +6" },
    { "triton-mxfp", F4, 2, { 0x40e00000u, ONE }, 0, 0x7f, { 0x7, 0x2 }, 0x0, "[7, 1]: floor" },
    { "triton-mxfp", F4, 2, { 0x3e800001u, 0x40c00000u }, 0, 0x7f, { 0x0, 0x7 }, 0x0,
      "[0.25 + 2^-25, 6]: the 1e-6 bias" },
};

/* Runs one case and reports one test point. */
static void
run_case(const struct qcase *c)
{
    const smma_block_format_desc *bd = smma_block_format_info(c->f);
    const smma_profile *p;
    smma_quant_opts o;
    smma_error err;
    uint32_t x[32];
    uint8_t scale = 0, codes[32];
    unsigned i, bad = 0;

    if (smma_profile_from_name(c->profile, &p, &err) != SMMA_OK)
        bail("%s", err.msg);
    for (i = 0; i < bd->block; i++)
        x[i] = i < c->n ? c->x[i] : c->fill;
    o = smma_quant_opts_default(p);
    if (smma_quantize(c->f, x, bd->block, &o, &scale, codes, &err) != SMMA_OK) {
        ok(false, "%s %s: %s (%s)", c->profile, bd->name, c->why, err.msg);
        return;
    }
    if (scale != c->scale)
        bad++;
    for (i = 0; i < bd->block; i++)
        if (codes[i] != (i < c->n ? c->code[i] : c->rest))
            bad++;
    ok(bad == 0, "%s %s: %s", c->profile, bd->name, c->why);
    if (bad != 0) {
        diag("  want scale 0x%02x codes 0x%02x 0x%02x rest 0x%02x", c->scale, c->code[0],
             c->code[1], c->rest);
        diag("  got  scale 0x%02x codes 0x%02x 0x%02x 0x%02x ... 0x%02x", scale, codes[0],
             codes[1], codes[2], codes[bd->block - 1]);
    }
}

/* Block format names, sizes and the partial last block. */
static void
check_formats(void)
{
    static const char *const names[] = { "mxfp4", "mxfp6e2m3", "mxfp6e3m2", "mxfp8e4m3",
                                          "mxfp8e5m2", "nvfp4" };
    smma_block_format f;
    smma_error err;
    unsigned i, bad = 0;
    uint32_t x[33];
    uint8_t s[2], q[33];
    smma_quant_opts o = smma_quant_opts_default(NULL);

    for (i = 0; i < 6; i++)
        if (smma_block_format_from_name(names[i], &f, &err) != SMMA_OK || (unsigned) f != i ||
            strcmp(smma_block_format_name(f), names[i]) != 0)
            bad++;
    ok(bad == 0, "the six block formats by name");
    ok(smma_block_format_from_name("MXFP8E4M3", &f, NULL) == SMMA_OK && f == F8,
       "block format names are case-insensitive");
    err.msg[0] = '\0';
    ok(smma_block_format_from_name("mxfp7", &f, &err) == SMMA_EINVAL &&
           strstr(err.msg, "'mxfp7'") != NULL && strstr(err.msg, "nvfp4") != NULL,
       "unknown block format: the message names it and lists the known (%s)", err.msg);
    is_int(2, (long long) smma_block_count(F8, 33), "33 values are 2 MX blocks");
    is_int(1, (long long) smma_block_count(NV, 16), "16 values are 1 NVFP4 block");
    is_int(3, (long long) smma_block_count(NV, 33), "33 values are 3 NVFP4 blocks");
    is_int(4, smma_block_format_info(SMMA_MXFP6_E3M2)->emax_elem, "e3m2's emax_elem is 4");
    /* Each descriptor against its element format and the OCP and NVFP4
     * rules: 32 elements per e8m0 scale, 16 per ue4m3, emax_elem the
     * exponent of the largest power of two, the element's mantissa bits and
     * largest value. */
    for (bad = 0, i = 0; i < SMMA_BLOCK_FORMAT_COUNT; i++) {
        const smma_block_format_desc *bd = smma_block_format_info((smma_block_format) i);
        const smma_format_desc *ed = smma_format_info(bd->elem);
        double mx = smma_decode(bd->elem, ed->max_code);

        if (bd->id != (smma_block_format) i || strcmp(bd->name, names[i]) != 0 ||
            bd->block != (bd->scale == SMMA_E8M0 ? 32u : 16u) ||
            bd->scale != (i == NV ? SMMA_UE4M3 : SMMA_E8M0) ||
            bd->elem_man_bits != ed->man_bits || bd->max_elem != mx ||
            ldexp(1.0, bd->emax_elem) > mx || ldexp(1.0, bd->emax_elem + 1) <= mx) {
            diag("block format %s: block %u, emax_elem %d, %u mantissa bits, max %g",
                 bd->name, bd->block, bd->emax_elem, bd->elem_man_bits, bd->max_elem);
            bad++;
        }
    }
    ok(bad == 0, "each block format's block, scale, emax_elem, mantissa bits and largest "
       "element agree with its element format");
    /* K = 33: the second block is [3] padded with zeros: 3 * R = 1.34 * 2^-8
     * rounds up to 2^-7 (0x78); 3 * 2^7 = 384 (0x7c). */
    for (i = 0; i < 33; i++)
        x[i] = ONE;
    x[32] = 0x40400000u;
    ok(smma_quantize(F8, x, 33, &o, s, q, NULL) == SMMA_OK && s[0] == 0x77 && s[1] == 0x78 &&
           q[0] == 0x78 && q[31] == 0x78 && q[32] == 0x7c,
       "K = 33: a full block [1 x 32] (2^-8, 256) and a padded [3] (2^-7, 384)");
}

/* Errors of smma_quantize and of the per-tensor value. */
static void
check_errors(void)
{
    smma_quant_opts o = smma_quant_opts_default(NULL);
    uint32_t x[16] = { ONE };
    uint8_t s[1] = { 0xaa }, q[16];
    smma_error err;

    ok(smma_quantize(F8, x, 0, &o, s, q, &err) == SMMA_EINVAL && s[0] == 0xaa,
       "0 values: EINVAL, nothing written (%s)", err.msg);
    o.global = SMMA_GLOBAL_AMAX;
    o.global_bits = ONE;
    ok(smma_quantize(F8, x, 16, &o, s, q, &err) == SMMA_EINVAL &&
           strstr(err.msg, "mxfp8e4m3") != NULL,
       "a per-tensor value for an MX format: EINVAL (%s)", err.msg);
    o.global_bits = 0xbf800000u;
    ok(smma_quantize(NV, x, 16, &o, s, q, &err) == SMMA_EINVAL,
       "a negative global amax: EINVAL (%s)", err.msg);
    o.global_bits = PINF;
    ok(smma_quantize(NV, x, 16, &o, s, q, &err) == SMMA_EINVAL,
       "an infinite global amax: EINVAL (%s)", err.msg);
    o.global = SMMA_GLOBAL_SCALE;
    o.global_bits = 0;
    ok(smma_quantize(NV, x, 16, &o, s, q, &err) == SMMA_EINVAL,
       "a zero global decode scale: EINVAL (%s)", err.msg);
    ok(smma_quantize((smma_block_format) 99, x, 16, NULL, s, q, &err) == SMMA_EINVAL,
       "an unknown block format number: EINVAL");
}

/* Two-level NVFP4 with the tensor amax 16 and the block [16, 1].
 *   exact and torchao: G = fp32(16 / 2688) = 0x3bc30c31; scale 16 / (6 G)
 *     = 447.99999 -> 448 (0x7e); elements 16 / (448 G) = 5.9999999 -> 6 and
 *     1 / (448 G) = 0.375 -> 0.5.
 *   te: S_enc = fp32(2688 / 16) = 168; 168 * R6 = 28.0000008 -> 28; 16 * 28 =
 *     448 (0x7e); S_dec = fp32(1 / 168) = 0x3bc30c31; multiplier
 *     fp32(1 / fp32(448 * S_dec)) = 0.375: 16 -> 6, 1 -> 0.375 -> 0.5. */
static void
check_two_level(void)
{
    static const char *const profs[] = { "ocp", "te", "torchao-floor" };
    uint32_t x[16] = { 0x41800000u, ONE };
    unsigned i;

    for (i = 0; i < 3; i++) {
        const smma_profile *p;
        smma_quant_opts o;
        uint8_t s = 0, q[16];

        smma_profile_from_name(profs[i], &p, NULL);
        o = smma_quant_opts_default(p);
        o.global = SMMA_GLOBAL_AMAX;
        o.global_bits = 0x41800000u;
        ok(smma_quantize(NV, x, 16, &o, &s, q, NULL) == SMMA_OK && s == 0x7e && q[0] == 0x7 &&
               q[1] == 0x1 && q[2] == 0,
           "%s nvfp4 two-level, amax 16: scale 0x7e, codes 6 and 0.5", profs[i]);
        is_hex(0x3bc30c31u, smma_quant_global_decode(NV, &o),
               "%s nvfp4 two-level: G = fp32(1/168)", profs[i]);
        o.global = SMMA_GLOBAL_SCALE;
        o.global_bits = 0x3bc30c31u;
        ok(smma_quantize(NV, x, 16, &o, &s, q, NULL) == SMMA_OK && s == 0x7e && q[0] == 0x7,
           "%s nvfp4 with the decode scale given: the same bytes", profs[i]);
    }
    {
        smma_quant_opts o = smma_quant_opts_default(NULL);

        is_hex(0x3f800000u, smma_quant_global_decode(F8, &o), "MX: G is 1");
    }
}

/* Dequantization: exact values, NaN scales, Triton's 0x00, strictness. */
static void
check_dequant(void)
{
    const smma_profile *cuda = smma_profile_cuda(), *triton, *lenient;
    uint8_t s[2] = { 0x7f, 0x00 }, q[33];
    double out[33];
    smma_error err;
    unsigned i;

    smma_profile_from_name("triton", &triton, NULL);
    smma_profile_from_name("cutlass-host", &lenient, NULL);
    memset(q, 0, sizeof(q));
    q[0] = 0x7e;       /* 448 */
    q[1] = 0xfe;       /* -448 */
    q[32] = 0x01;      /* 2^-9 times 2^-127 = 2^-136 */
    ok(smma_dequantize(F8, s, q, 33, 0x3f800000u, cuda, out, &err) == SMMA_OK &&
           out[0] == 448.0 && out[1] == -448.0 && out[2] == 0.0 && out[32] == 0x1p-136,
       "mxfp8: 448 * 2^0, -448, 0, and 2^-9 * 2^-127 = 2^-136 exactly");
    ok(smma_dequantize(F8, s, q, 33, 0x3f800000u, triton, out, &err) == SMMA_OK &&
           out[0] == 448.0 && out[32] == 0.0,
       "triton reads e8m0 0x00 as 0: 2^-9 * 0 = 0");
    s[0] = 0xff;
    ok(smma_dequantize(F8, s, q, 33, 0x3f800000u, cuda, out, &err) == SMMA_OK &&
           isnan(out[0]) && isnan(out[31]) && out[32] == 0x1p-136,
       "a NaN scale makes its block NaN");
    memset(q, 0, sizeof(q));
    q[5] = 0x10;
    ok(smma_dequantize(F4, s, q, 33, 0x3f800000u, cuda, out, &err) == SMMA_EINVAL &&
           strstr(err.msg, "block 0 element 5: code 0x10") != NULL,
       "an e2m1 code above 0xf is rejected (%s)", err.msg);
    /* NVFP4: ue4m3 0x38 = 1, G = 0.5: 6 * 1 * 0.5 = 3; bit 7 set. */
    s[0] = 0x38;
    s[1] = 0xb8;
    memset(q, 0, sizeof(q));
    q[0] = 0x7;
    q[16] = 0xf;
    ok(smma_dequantize(NV, s, q, 32, 0x3f000000u, cuda, out, &err) == SMMA_EINVAL &&
           strstr(err.msg, "0xb8") != NULL,
       "a ue4m3 scale with bit 7 set is rejected by a strict profile (%s)", err.msg);
    ok(smma_dequantize(NV, s, q, 32, 0x3f000000u, lenient, out, &err) == SMMA_OK &&
           out[0] == 3.0 && out[16] == -3.0,
       "cutlass-host clears it: 6 * 1 * 0.5 = 3 and -6 * 1 * 0.5 = -3");
    /* Partial: 5 values of nvfp4 need 1 scale. */
    for (i = 0; i < 5; i++)
        q[i] = (uint8_t) i;
    ok(smma_dequantize(NV, s, q, 5, 0x3f800000u, cuda, out, &err) == SMMA_OK &&
           out[4] == 2.0,
       "nvfp4 with 5 values: code 4 (2) * 1 = 2");
}

/* Stochastic rounding with per-element random bits: [6, 0.75] under cuda
 * (scale 6/6 -> 0x7f): 0.75 lies halfway between 0.5 and 1, so it rounds up
 * exactly when its random word is at least 2^31. */
static void
check_rs(void)
{
    smma_quant_opts o = smma_quant_opts_default(NULL);
    uint32_t x[2] = { 0x40c00000u, 0x3f400000u }, rb[2] = { 0, 0x7fffffffu };
    uint8_t s, q[2];

    o.override_round = true;
    o.round = SMMA_RS;
    o.rbits = rb;
    ok(smma_quantize(F4, x, 2, &o, &s, q, NULL) == SMMA_OK && s == 0x7f && q[0] == 0x7 &&
           q[1] == 0x1,
       "rs: 0.75 with random bits 0x7fffffff rounds down to 0.5");
    rb[1] = 0x80000000u;
    ok(smma_quantize(F4, x, 2, &o, &s, q, NULL) == SMMA_OK && q[1] == 0x2,
       "rs: 0.75 with random bits 0x80000000 rounds up to 1");
    o.rbits = NULL;
    ok(smma_quantize(F4, x, 2, &o, &s, q, NULL) == SMMA_OK && q[1] == 0x1,
       "rs without random bits: all 0, rounds down");
}

/* Packing: the even element in the low nibble. */
static void
check_pack(void)
{
    uint8_t codes[3] = { 0x1, 0x2, 0xf }, packed[2], back[3];

    smma_pack_fp4(codes, 3, packed);
    ok(packed[0] == 0x21 && packed[1] == 0x0f, "pack [1, 2, f] -> 0x21 0x0f");
    smma_unpack_fp4(packed, 3, back);
    ok(memcmp(codes, back, 3) == 0, "unpack gives the codes back");
    codes[0] = 0x9, codes[1] = 0xa; /* -0.5 and -1: the sign bit in both nibbles */
    smma_pack_fp4(codes, 2, packed);
    is_hex(0xa9, packed[0], "pack [9, a] -> 0xa9 (the high nibble keeps its sign bit)");
}

/* The amax's edges: only the first V values count, a NaN of any payload is a
 * NaN; options without a profile are cuda's. */
static void
check_amax_edges(void)
{
    const smma_profile *p = smma_profile_cuda();
    uint32_t x[33] = { 0 };
    smma_quant_opts o, onull;
    uint8_t sc[2], sn[2], cc[33], cn[33];
    size_t i;

    x[0] = ONE;
    x[32] = 0x42000000u; /* 32.0, the 33rd value */
    is_hex(ONE, smma_block_amax(F8, x, 33, p), "amax of 33 values: the 33rd is not counted");
    x[1] = 0x7f800001u; /* the NaN of the smallest payload */
    is_hex(0x7fc00000u, smma_block_amax(F8, x, 2, p), "amax of a block with NaN 0x7f800001 "
           "is the quiet NaN (cuda propagates it)");
    /* profile NULL is cuda: the same bytes */
    for (i = 0; i < 33; i++)
        x[i] = 0x3f000000u + 0x00123457u * (uint32_t) i;
    o = smma_quant_opts_default(p);
    onull = o;
    onull.profile = NULL;
    ok(smma_quantize(F8, x, 33, &o, sc, cc, NULL) == SMMA_OK &&
           smma_quantize(F8, x, 33, &onull, sn, cn, NULL) == SMMA_OK &&
           memcmp(sc, sn, 2) == 0 && memcmp(cc, cn, 33) == 0,
       "options with no profile quantize as cuda");
}

/* The exact round trip: for the profiles that divide or multiply by the exact
 * power of two (and NVFP4's exact rule), quantizing the dequantized values
 * again gives the same values.  It fails where a library's arithmetic is not
 * exact: te (exp2f_rcp at the ends), triton (0x00 read as 0), ml_dtypes
 * (non-saturating casts), so those are not checked. */
static void
check_round_trip(void)
{
    static const char *const profs[] = { "cuda", "ocp", "torchao-floor", "torchao-rceil",
                                         "torchao-ceil", "torchao-even", "microxcaling" };
    tap_rng rng;
    unsigned pi, fi, t, bad;

    tap_rng_seed(&rng, 42);
    for (pi = 0; pi < sizeof(profs) / sizeof(profs[0]); pi++) {
        const smma_profile *p;
        smma_quant_opts o;

        smma_profile_from_name(profs[pi], &p, NULL);
        o = smma_quant_opts_default(p);
        bad = 0;
        for (fi = 0; fi < SMMA_NVFP4; fi++) {
            unsigned n = test_level() == 0 ? 20 : 300;

            for (t = 0; t < n; t++) {
                uint32_t x[32], y32[32];
                uint8_t s1, q1[32], s2, q2[32];
                double y[32], z[32];
                unsigned i;
                int center = (int) (tap_rng_next(&rng) % 200) - 100;

                for (i = 0; i < 32; i++) {
                    uint64_t r = tap_rng_next(&rng);

                    x[i] = ((uint32_t) (r >> 63) << 31) |
                           ((uint32_t) (center + 127 - (int) (r % 12)) << 23) |
                           ((uint32_t) (r >> 20) & 0x7fffffu);
                }
                smma_quantize((smma_block_format) fi, x, 32, &o, &s1, q1, NULL);
                smma_dequantize((smma_block_format) fi, &s1, q1, 32, 0x3f800000u, p, y, NULL);
                for (i = 0; i < 32; i++)
                    y32[i] = smma_f32_bits((float) y[i]);
                smma_quantize((smma_block_format) fi, y32, 32, &o, &s2, q2, NULL);
                smma_dequantize((smma_block_format) fi, &s2, q2, 32, 0x3f800000u, p, z, NULL);
                for (i = 0; i < 32; i++)
                    if (!(y[i] == z[i]) && bad++ < 3)
                        diag("%s %s: %a -> %a -> %a", profs[pi],
                             smma_block_format_name((smma_block_format) fi),
                             (double) smma_f32_from_bits(x[i]), y[i], z[i]);
            }
        }
        ok(bad == 0, "%s: quantizing the dequantized values gives them back (MX formats)",
           profs[pi]);
    }
}

/* The ml_dtypes profile's RN scale is ml_dtypes' cast of fp32(amax / max)
 * to e8m0, which is what the codec does under the profile: the two must
 * agree on every ratio, the subnormal ones most of all. */
static void
check_ml_dtypes_cast(void)
{
    const smma_profile *p = NULL;
    smma_quant_opts o;
    smma_cvt cvt;
    uint64_t i;
    unsigned long bad = 0, n = 0;

    if (smma_profile_from_name("ml_dtypes", &p, NULL) != SMMA_OK)
        bail("no ml_dtypes profile");
    o = smma_quant_opts_default(p);
    cvt = smma_profile_cvt_for(p, SMMA_E8M0);
    for (i = 0; i < 0x7f800000u; i += i < 0x01000000u ? 61 : 4093) {
        uint32_t amax = (uint32_t) i;
        float r = (float) ((double) smma_f32_from_bits(amax) / 448.0);
        uint32_t want = smma_encode(SMMA_E8M0, (double) r, &cvt);
        uint32_t got = smma_block_scale_from_amax(F8, amax, &o);

        n++;
        if (got != want && bad++ < 5)
            diag("amax 0x%08x: quant 0x%02x, codec 0x%02x", (unsigned) amax, (unsigned) got,
                 (unsigned) want);
    }
    ok(bad == 0, "ml_dtypes: the mxfp8e4m3 scale is the codec's e8m0 rn of fp32(amax/448) "
       "(%lu amax values, %lu differ)", n, bad);
}

/* The defaults, the per-tensor value's message, bf16 inputs, smma_quant_compare
 * and a dequantization without a profile. */
static void
check_compare(void)
{
    smma_quant_opts o;
    smma_quant_cmp cmp;
    smma_error err = { "" };
    uint32_t x[64];
    uint8_t sc[2], codes[64], bad[64];
    double out[33];
    unsigned i;
    int rc;

    memset(&o, 0xff, sizeof(o));
    o = smma_quant_opts_default(NULL);
    ok(o.profile == smma_profile_cuda() && o.global == SMMA_GLOBAL_NONE && o.global_bits == 0 &&
           !o.override_round && o.round == smma_profile_cuda()->round && o.rbits == NULL &&
           !o.input_bf16,
       "smma_quant_opts_default(NULL): cuda, single level, its rounding, nothing else set");
    for (i = 0; i < 64; i++)
        x[i] = i % 7 == 0 ? N448 : 0x3f800000u + (i << 16);
    o.global = SMMA_GLOBAL_AMAX;
    o.global_bits = 0xbf800000u;
    ok(smma_quantize(NV, x, 16, &o, sc, codes, &err) == SMMA_EINVAL &&
           strcmp(err.msg, "the per-tensor amax (fp32 0xbf800000) must be finite and not "
                  "negative") == 0,
       "a negative per-tensor amax is refused, named amax (%s)", err.msg);
    o.global_bits = 0x7f7fffffu;
    ok(smma_quantize(NV, x, 16, &o, sc, codes, &err) == SMMA_OK,
       "a per-tensor amax of FLT_MAX is taken (%s)", err.msg);
    o = smma_quant_opts_default(NULL);
    o.input_bf16 = true;
    x[3] = 0x3f800001u;
    ok(smma_quantize(F8, x, 64, &o, sc, codes, &err) == SMMA_EINVAL &&
           strstr(err.msg, "x[3] = 0x3f800001 is not a bf16 number") == err.msg,
       "bf16 inputs: a value with only bit 0 of its low half set is refused (%s)", err.msg);
    x[3] = 0x3f800000u + (3u << 16);
    x[0] = 0x3f808000u;
    ok(smma_quantize(F8, x, 64, &o, sc, codes, &err) == SMMA_EINVAL &&
           strstr(err.msg, "x[0] = 0x3f808000 is not a bf16 number") == err.msg,
       "... x[0] too (%s)", err.msg);
    x[0] = N448;
    o.input_bf16 = false;

    /* smma_quant_compare: MXFP8, 64 values, 2 blocks. */
    if (smma_quantize(F8, x, 64, &o, sc, codes, &err) != SMMA_OK)
        bail("quantize: %s", err.msg);
    memset(&cmp, 0xff, sizeof(cmp));
    rc = smma_quant_compare(F8, x, 64, &o, sc, codes, &cmp, &err);
    ok(rc == SMMA_OK && cmp.blocks == 2 && cmp.differ == 0 && cmp.first_block == 0,
       "compare: the profile's own quantization: 2 blocks, none differs");
    sc[1] ^= 1;
    rc = smma_quant_compare(F8, x, 64, &o, sc, codes, &cmp, &err);
    ok(rc == SMMA_OK && cmp.differ == 1 && cmp.first_block == 1 && cmp.first_elem == -1 &&
           cmp.given == sc[1] && cmp.expected == (sc[1] ^ 1),
       "compare: a scale one off in block 1 is found as the scale (element -1)");
    sc[1] ^= 1;
    memcpy(bad, codes, sizeof(bad));
    bad[33] ^= 1;
    rc = smma_quant_compare(F8, x, 64, &o, sc, bad, &cmp, &err);
    ok(rc == SMMA_OK && cmp.differ == 1 && cmp.first_block == 1 && cmp.first_elem == 1 &&
           cmp.given == bad[33] && cmp.expected == codes[33],
       "compare: a code one off is found as block 1 element 1");
    memset(bad, 0, sizeof(bad));
    bad[34] = 0x10;
    ok(smma_quant_compare(F4, x, 64, &o, sc, bad, &cmp, &err) == SMMA_EINVAL &&
           strstr(err.msg, "block 1 element 2: code 0x10 does not fit 4-bit") == err.msg,
       "compare: an e2m1 code above 0xf is refused, naming block 1 element 2 (%s)", err.msg);

    /* A profile whose zero blocks get scale 0x01 (SMMA_ZB_ONE: no table
     * profile has it; a profile of the caller's may). */
    {
        smma_profile one = *smma_profile_cuda();
        smma_quant_opts oz = smma_quant_opts_default(&one);
        uint32_t zero[32];

        one.zero_block = SMMA_ZB_ONE;
        memset(zero, 0, sizeof(zero));
        rc = smma_quantize(F8, zero, 32, &oz, sc, codes, &err);
        ok(rc == SMMA_OK && sc[0] == 0x01 && codes[0] == 0,
           "zero_block SMMA_ZB_ONE: a block of zeros gets scale 0x01 (0x%02x)", sc[0]);
    }
    ok(smma_block_scale_from_amax((smma_block_format) 99, 0x3f800000u, NULL) == 0,
       "smma_block_scale_from_amax of no block format is 0");
    {
        /* Triton's e2m1 quirk: a value 1 to 3 fp32 ulps above 0.25 (the
         * midpoint of 0 and 0.5) becomes 0; 4 ulps above rounds to 0.5. */
        const smma_profile *tr;
        smma_quant_opts ot;
        uint32_t v[32];

        smma_profile_from_name("triton", &tr, NULL);
        ot = smma_quant_opts_default(tr);
        memset(v, 0, sizeof(v));
        v[0] = 0x40c00000u; /* 6: scale 2^0 */
        v[1] = 0x3e800003u;
        v[2] = 0x3e800004u;
        v[3] = 0x3e800001u;
        rc = smma_quantize(F4, v, 32, &ot, sc, codes, &err);
        ok(rc == SMMA_OK && sc[0] == 127 && codes[1] == 0 && codes[2] == 1 && codes[3] == 0,
           "triton: 0.25 + 3 ulps and + 1 ulp give 0, + 4 ulps 0.5 (%u %u %u)", codes[1],
           codes[2], codes[3]);
    }
    {
        static const uint8_t packed[4] = { 0x31, 0xf2, 0x54, 0x76 };
        uint8_t u[8];

        smma_unpack_fp4(packed, 8, u);
        ok(u[0] == 0x1 && u[1] == 0x3 && u[2] == 0x2 && u[3] == 0xf && u[4] == 0x4 &&
               u[5] == 0x5 && u[6] == 0x6 && u[7] == 0x7,
           "smma_unpack_fp4: low nibble first, each code 4 bits, byte i / 2");
    }

    /* No profile: cuda's (e8m0 0x00 is 2^-127, a ue4m3 scale with bit 7 set
     * is refused). */
    sc[0] = 0x00;
    memset(codes, 0, sizeof(codes));
    codes[0] = 0x7e;
    ok(smma_dequantize(F8, sc, codes, 32, 0x3f800000u, NULL, out, &err) == SMMA_OK &&
           out[0] == 0x1.cp-119 && out[1] == 0.0,
       "dequantize without a profile: cuda's (448 * 2^-127 for e8m0 0x00)");
    sc[0] = 0xb8;
    codes[0] = 0x1;
    ok(smma_dequantize(NV, sc, codes, 16, 0x3f800000u, NULL, out, &err) == SMMA_EINVAL &&
           strstr(err.msg, "(profile cuda is strict)") != NULL,
       "... and cuda's strict ue4m3 scales (%s)", err.msg);
}

int
main(void)
{
    size_t i;

    plan_lazy();
    check_ml_dtypes_cast();
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        run_case(&cases[i]);
    check_formats();
    check_errors();
    check_two_level();
    check_dequant();
    check_rs();
    check_pack();
    check_amax_edges();
    check_round_trip();
    check_compare();
    return exit_status();
}

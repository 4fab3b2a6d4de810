/*
 * tests/ref/model-variants-t.c - the block-FMA variants added for three
 * questions about real tensor cores: b200-fp8-trunc (psum_apart), the sm_90
 * mma.sync fp8 model h100-fp8-mma-sync (korder, upcast_f16) and the fp16
 * accumulator of h100-f16acc (f16_acc).
 *
 * Expected codes are derived by hand in the comments, or, for the B200 tie
 * table, computed with exact rational arithmetic by an independent script
 * (Python fractions: decode the fp8 codes, sum the products exactly, round
 * with explicit integer arithmetic); none is computed by softmma.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/gemm.h>

#include "tap/basic.h"

static smma_gemm_shape
shape(smma_format ab, smma_format c, smma_format d, size_t k)
{
    smma_gemm_shape s;

    memset(&s, 0, sizeof(s));
    s.a_fmt = s.b_fmt = ab;
    s.scale_fmt = SMMA_NONE;
    s.vec = 32;
    s.c_fmt = c;
    s.d_fmt = d;
    s.m = s.n = 1;
    s.k = k;
    return s;
}

static void
expect(const smma_model *m, const smma_gemm_shape *s, const uint32_t *a, const uint32_t *b,
       uint32_t c, uint32_t want, const char *why)
{
    /* The model's arithmetic, also outside the inputs it defines (an fp32
     * D under h100-f16acc). */
    smma_model any = smma_model_any_inputs(m);
    smma_error err;
    uint32_t got;

    if (smma_model_check(&any, s, &err) != SMMA_OK) {
        ok(false, "%s: %s: model check failed: %s", m->name, why, err.msg);
        return;
    }
    got = smma_dot(&any, s, a, b, NULL, NULL, c);
    if (!is_hex(want, got, "%s: %s", m->name, why))
        diag("want %a, got %a", smma_decode(s->d_fmt, want), smma_decode(s->d_fmt, got));
}

/* Reads n hex codes from text. */
static void
codes(const char *text, uint32_t *out, size_t n)
{
    size_t i;
    char *end;

    for (i = 0; i < n; i++) {
        out[i] = (uint32_t) strtoul(text, &end, 16);
        if (end == text)
            bail("bad code list: %s", text);
        text = end;
    }
}

/*
 * B200 fp8.  The one published measurement that b200-fp8 misses (Khattak
 * and Mikaitis, "Accurate models of NVIDIA tensor cores", arXiv 2512.07004,
 * their B200 e5m2 measurement set, K = 32, fp32 C).  The products sum
 * exactly to S = -9.37256..., in [8, 16) where the fp32 ulp is 2^-20; C =
 * 0x3f01684f = 0.50549787..., a multiple of 2^-24.  S + C lies 0.8125 ulp
 * from 0xc10ddf7c toward 0xc10ddf7d: one rounding to nearest gives ...7d.
 * S truncated toward zero is 0.75 ulp smaller in magnitude; that plus C lies
 * 0.0625 ulp from ...7c, which is what the B200 returned.
 */
static void
check_b200_published(void)
{
    uint32_t a[32], b[32];
    smma_gemm_shape s = shape(SMMA_E5M2, SMMA_FP32, SMMA_FP32, 32);

    codes("c0 b8 b9 b5 a7 2c 3b b6 3d 2c 40 ba a9 38 39 bd b6 38 bc 3c 33 38 be 3d b2 39 39 27 "
          "bd bf bc b9", a, 32);
    codes("37 bb b6 35 04 b8 30 b7 3b bc bc bc be 3c ba 38 b4 c0 35 b7 3c c0 32 b7 34 af bb 3b "
          "3d 3b 39 3e", b, 32);
    expect(tap_model("b200-fp8-trunc"), &s, a, b, 0x3f01684fu, 0xc10ddf7cu,
           "the published B200 e5m2 case the exact model misses (arXiv 2512.07004)");
    expect(tap_model("b200-fp8"), &s, a, b, 0x3f01684fu, 0xc10ddf7du,
           "the published case: one rounding of the exact sum");
    expect(tap_model("exact-rn"), &s, a, b, 0x3f01684fu, 0xc10ddf7du,
           "the published case: exact-rn agrees with b200-fp8");
}

/*
 * The probe for a B200: K = 32 dot products with fp32 C on which the three
 * readings of the B200 fp8 block differ: "exact" (b200-fp8: S + C rounded
 * once to nearest), "trunc" (b200-fp8-trunc: fp32(S) toward zero, + C to
 * nearest) and "rnpsum" (fp32(S) to nearest even, + C to nearest).  The
 * class names which agree (E=R: exact equals rnpsum, and so on; all3: all
 * differ); "tie-" marks cases where trunc(S) + C is exactly a midpoint of
 * the fp32 grid, so ties-to-even decides.  Run on a B200, the hardware's D
 * names the reading (doc/models.md, "Deciding the B200 fp8 model").
 */
static const struct tie_case {
    smma_format fmt;
    const char *cls;
    uint32_t c, exact, trunc, rnpsum;
    const char *a, *b;
} tie_cases[] = {
    { SMMA_E4M3, "E=R", 0x4204be83u, 0x453c2270u, 0x453c226fu, 0x453c2270u,
      "c3 70 dc 16 e6 16 9b 43 8a c9 dd 77 59 03 45 58 "
      "e2 5c a8 b4 aa 66 91 79 11 ec f8 a5 af f6 40 ae",
      "fa 1e 99 27 9d 65 ad 15 ee f9 b1 91 cd b2 77 90 "
      "bd 05 da 5d d8 29 ac bf 89 89 c0 91 03 9e 59 80" },
    { SMMA_E4M3, "E=T", 0xc46cf95cu, 0x476892beu, 0x476892beu, 0x476892bfu,
      "00 38 9f e4 1e 46 47 1c b1 bb 13 b4 39 d9 d1 8e "
      "d8 21 79 5c 3b b6 19 fe 39 64 3b e4 b7 4f da 88",
      "f7 f8 19 95 e0 5c e2 d2 12 a6 dc da 3b 15 71 59 "
      "c9 9c 78 1d 04 a8 ba 5b a4 dc 43 1e 33 d0 60 b9" },
    { SMMA_E4M3, "T=R", 0xc56810b7u, 0x46cffffcu, 0x46cffffbu, 0x46cffffbu,
      "8d 82 c7 59 aa a8 ae 59 f5 0c 2d b9 c2 d5 08 c6 "
      "cb 35 1b 3e 9e 3d 14 12 c5 93 32 cf 65 00 4c 3b",
      "b6 ce bc cd 81 c0 59 fd f4 08 96 9b 8a 6c cd 1a "
      "24 b4 f0 f1 9c 3d 32 9f 22 4f 96 d5 95 a7 ec 90" },
    { SMMA_E4M3, "all3", 0xc2c53191u, 0x44ffc47eu, 0x44ffc47du, 0x44ffc47fu,
      "63 9d 15 85 ce 4b fc 11 80 12 d9 34 57 65 80 a6 "
      "41 ea ac a8 c3 b6 6c 43 a3 b5 36 d5 0a db b5 81",
      "28 52 76 71 7b ad e2 1a 37 52 13 f9 e5 f2 fb 2c "
      "37 58 a9 f4 70 29 09 6b dd 15 49 46 ae 46 12 24" },
    { SMMA_E4M3, "tie-E=R", 0x470f9efeu, 0x4800911bu, 0x4800911au, 0x4800911bu,
      "52 3a 56 9c fd 9e b2 9a 0b e3 3a 4a 0b 88 7d bd "
      "8c 79 14 38 11 1c bc 7e 9c 2e 85 af a1 86 e9 81",
      "78 20 f4 25 f6 a4 d9 0d b1 e3 06 50 eb ef 02 75 "
      "db 08 9d 53 92 0b 27 8d fd 88 d1 0d 0f 21 bf e0" },
    { SMMA_E4M3, "tie-E=T", 0xc42d2264u, 0x45ef8636u, 0x45ef8636u, 0x45ef8638u,
      "bf 44 54 5c 9e eb 1c 2f 20 b0 bd 6d 4d 00 22 b2 "
      "55 99 dd ad 5c 00 55 9d c0 f0 a6 8d 62 aa ae 5d",
      "b4 e3 1e cc 2a dd 5b 28 7b 21 6c 62 5e 2b 20 bd "
      "f7 da d0 b9 ad 2d 75 53 bc cf d3 c5 59 f3 fe 57" },
    { SMMA_E4M3, "tie-T=R", 0x470ed377u, 0xc7ab9fc1u, 0xc7ab9fc0u, 0xc7ab9fc0u,
      "65 85 e9 28 c7 be 41 6a 17 d3 45 86 6a 08 98 fe "
      "86 41 85 62 40 49 1d f1 d7 da 5a 6e c3 05 0b a9",
      "b4 19 e8 0f 86 41 2e fc 4f 6a 6d 94 46 c3 67 73 "
      "ce c2 2e fe 51 f7 e3 31 87 b3 21 bb d7 e3 3a cc" },
    { SMMA_E4M3, "tie-all3", 0x45c74d44u, 0xc73e0e65u, 0xc73e0e64u, 0xc73e0e66u,
      "01 16 46 ee fa 53 e0 d9 7e 26 00 1d 48 e7 95 0d "
      "b4 80 25 26 82 53 e6 a5 74 84 87 89 ba 47 ab 0f",
      "9a 16 4d 0d 91 ef cd f5 ce da 6b a2 62 5c 3f 66 "
      "fb cb 62 27 d5 55 dc c7 f9 37 ec 10 f7 d3 31 11" },
    { SMMA_E5M2, "E=R", 0xca8d5f06u, 0x4daf73f1u, 0x4daf73f0u, 0x4daf73f1u,
      "91 eb 97 bd 71 e8 a3 dd b6 7a 3a d9 4e 40 16 2e "
      "25 e1 2e 2f e0 2b c6 72 ce d7 49 61 fb e6 cd 66",
      "88 b5 05 25 48 da b1 70 85 70 ed aa f9 03 54 ca "
      "24 bd 22 ae 2f cc b8 b4 b5 11 91 99 5e 61 cc e9" },
    { SMMA_E5M2, "E=T", 0x47cde9c6u, 0x4b6db07fu, 0x4b6db07fu, 0x4b6db080u,
      "08 b1 5c 8d 12 90 f4 92 f8 65 bb 90 50 40 4c 56 "
      "72 d1 a4 45 3d a1 9e 2d c5 c1 ad 5b 38 c5 1c eb",
      "ef ec 36 97 1f 32 e3 12 99 4d 3b 54 1a e6 29 6f "
      "0c 5d 9c 76 95 ac 64 76 e0 33 a9 4e 70 e5 0c 4b" },
    { SMMA_E5M2, "T=R", 0xcbce074au, 0xce8e353au, 0xce8e3539u, 0xce8e3539u,
      "74 86 e7 e5 9a 88 b1 0a 9b aa 76 68 82 8b 34 d4 "
      "a5 1d 72 8f a6 26 e5 1a 5e f0 69 70 50 40 81 d6",
      "68 54 31 ee 4c 09 80 05 4b ab fa d2 ce 55 4d 69 "
      "8c 98 8f 3f 77 01 6d f8 9c 35 6a cc b9 76 2a 6b" },
    { SMMA_E5M2, "all3", 0x4cc8f9aeu, 0xcd33ed74u, 0xcd33ed73u, 0xcd33ed75u,
      "97 5f a1 05 01 9e c1 ab 97 79 2a 69 be 08 e4 a5 "
      "88 59 bc eb 66 6c c6 ee 19 46 19 f4 8e be ac 48",
      "9f 2e df 95 3e 73 54 b6 03 ef b4 5a 3b 4a 4e d4 "
      "bf b4 b1 d4 e2 3d 8e 47 88 73 2b 0c 28 a4 e4 1f" },
    { SMMA_E5M2, "tie-E=R", 0xc9e0cb7cu, 0x4b734840u, 0x4b73483eu, 0x4b734840u,
      "46 09 5a fa 96 21 eb be 66 d4 40 08 20 b1 8b 34 "
      "48 df 82 bd 27 97 7a 43 54 c7 6f c9 11 12 ec aa",
      "86 57 97 ad 4e 33 59 91 99 d7 3d b9 ee 3e a3 a7 "
      "37 38 9d 13 0d b8 a2 00 19 31 69 25 ca 21 0c 78" },
    { SMMA_E5M2, "tie-T=R", 0x4d04d457u, 0x4d8930a1u, 0x4d8930a0u, 0x4d8930a0u,
      "dd 1c b8 56 51 74 75 38 73 37 e8 70 44 12 2b 4a "
      "db cc 94 1a e6 76 31 45 4f 76 72 73 a6 45 ab ae",
      "32 d2 be a2 00 be ae 1f a3 d1 88 5b df 6a 17 ad "
      "1e ed 3f 0e f3 ee ea 9d 9a d0 76 e7 35 2f de a4" },
    { SMMA_E5M2, "tie-all3", 0xcb3d89e0u, 0xce2b2d4bu, 0xce2b2d4au, 0xce2b2d4cu,
      "65 bd eb 33 fb 23 68 e8 e1 6f b8 b4 0a 68 97 a4 "
      "1c 27 2d ab 22 62 1e 68 6b 8b e4 a6 f4 14 a0 cf",
      "0c e9 d1 0c 72 25 d0 ae 62 23 b0 a3 b1 c5 f4 61 "
      "92 72 57 af 2f d0 8e 57 8a a9 d5 3b 51 76 6c 6c" },
};

static void
check_b200_ties(void)
{
    const smma_model *exact = tap_model("b200-fp8"), *trunc = tap_model("b200-fp8-trunc");
    smma_model rnpsum = *trunc;
    size_t i;

    rnpsum.name = "b200-fp8 (fp32(S) to nearest)";
    rnpsum.psum_round = SMMA_RN;
    for (i = 0; i < sizeof(tie_cases) / sizeof(tie_cases[0]); i++) {
        const struct tie_case *t = &tie_cases[i];
        smma_gemm_shape s = shape(t->fmt, SMMA_FP32, SMMA_FP32, 32);
        uint32_t a[32], b[32];
        char why[64];

        codes(t->a, a, 32);
        codes(t->b, b, 32);
        snprintf(why, sizeof(why), "B200 tie probe %zu (%s, %s)", i, smma_format_name(t->fmt),
                 t->cls);
        expect(exact, &s, a, b, t->c, t->exact, why);
        expect(trunc, &s, a, b, t->c, t->trunc, why);
        expect(&rnpsum, &s, a, b, t->c, t->rnpsum, why);
    }
}

/* Signed zeros and NaN in the apart block (IEEE 754: a sum of zeros is -0
 * only when every one is -0; -0 + +0 is +0 to nearest). */
static void
check_b200_specials(void)
{
    const smma_model *m = tap_model("b200-fp8-trunc");
    smma_gemm_shape s = shape(SMMA_E4M3, SMMA_FP32, SMMA_FP32, 2);
    const uint32_t nz[2] = { 0x80, 0x80 }, one[2] = { 0x38, 0x38 }, nan[2] = { 0x7f, 0x38 };
    const uint32_t pm[2] = { 0x38, 0xb8 };

    expect(m, &s, nz, one, 0x80000000u, 0x80000000u, "-0 products and -0 C give -0");
    expect(m, &s, nz, one, 0x00000000u, 0x00000000u, "-0 products and +0 C give +0");
    expect(m, &s, pm, one, 0x80000000u, 0x00000000u, "1 - 1 is +0, and +0 + -0 is +0");
    expect(m, &s, nan, one, 0x3f800000u, 0x7fffffffu, "a NaN element gives the canonical NaN");
}

/* An fp8 code as the fp16 code of the same value, by hand: e5m2 is the top
 * byte of fp16; e4m3 (bias 7, 3 mantissa bits) moves its exponent to bias
 * 15, and a subnormal m * 2^-9 is normalized. */
static uint32_t
fp8_to_fp16(smma_format f, uint32_t c)
{
    uint32_t sign = (c & 0x80) << 8, e = (c >> 3) & 15, m = c & 7;

    if (f == SMMA_E5M2)
        return c << 8;
    if (e == 0 && m == 0)
        return sign;
    if (e == 0) {
        e = 1;
        while ((m & 8) == 0) {
            m <<= 1;
            e--;
        }
        m &= 7;
    }
    return sign | ((e + 8) << 10) | (m << 7);
}

/*
 * h100-fp8-mma-sync against its definition taken apart: the fp8 elements
 * converted to fp16 codes by hand, the k permuted into the model's order,
 * and h100-bf16 (block 16) run on those fp16 codes must give the same bits,
 * for random e4m3 and e5m2 dot products of K = 32 and 64 with fp32 C.  The
 * same inputs in plain k order must differ somewhere (the order is seen).
 */
static void
check_mma_sync_fp8(void)
{
    static const unsigned char order[32] = { 0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25,
                                             28, 29, 2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22,
                                             23, 26, 27, 30, 31 };
    const smma_model *m = tap_model("h100-fp8-mma-sync"), *h = tap_model("h100-bf16");
    smma_format fmts[2] = { SMMA_E4M3, SMMA_E5M2 };
    unsigned fi;

    for (fi = 0; fi < 2; fi++) {
        tap_rng r;
        size_t t, bad = 0, seen = 0, n = 20000;

        tap_rng_seed(&r, 0x6d6d73u + fi);
        for (t = 0; t < n; t++) {
            size_t k = t % 2 ? 64 : 32, j;
            smma_gemm_shape s8 = shape(fmts[fi], SMMA_FP32, SMMA_FP32, k);
            smma_gemm_shape s16 = shape(SMMA_FP16, SMMA_FP32, SMMA_FP32, k);
            uint32_t a[64], b[64], a16[64], b16[64], a16k[64], b16k[64], c, want, got;

            for (j = 0; j < k; j++) {
                do {
                    a[j] = (uint32_t) tap_rng_next(&r) & 0xff;
                } while (smma_code_is_nan(fmts[fi], a[j]) || smma_code_is_inf(fmts[fi], a[j]));
                do {
                    b[j] = (uint32_t) tap_rng_next(&r) & 0xff;
                } while (smma_code_is_nan(fmts[fi], b[j]) || smma_code_is_inf(fmts[fi], b[j]));
            }
            c = (uint32_t) tap_rng_next(&r);
            if ((c & 0x7f800000u) == 0x7f800000u)
                c = 0;
            for (j = 0; j < k; j++) {
                a16[j] = fp8_to_fp16(fmts[fi], a[j - j % 32 + order[j % 32]]);
                b16[j] = fp8_to_fp16(fmts[fi], b[j - j % 32 + order[j % 32]]);
                a16k[j] = fp8_to_fp16(fmts[fi], a[j]);
                b16k[j] = fp8_to_fp16(fmts[fi], b[j]);
            }
            got = smma_dot(m, &s8, a, b, NULL, NULL, c);
            /* The two blocks from +0, then C added by one fp32 addition. */
            want = smma_f32_bits(smma_f32_from_bits(smma_dot(h, &s16, a16, b16, NULL, NULL, 0)) +
                                 smma_f32_from_bits(c));
            if ((want & 0x7fffffffu) > 0x7f800000u)
                want = 0x7fffffffu;
            if (got != want && bad++ < 3)
                diag("%s case %zu: model 0x%08x, by hand 0x%08x", smma_format_name(fmts[fi]), t,
                     got, want);
            seen += smma_f32_bits(smma_f32_from_bits(smma_dot(h, &s16, a16k, b16k, NULL, NULL,
                                                              0)) +
                                  smma_f32_from_bits(c)) != want;
        }
        ok(bad == 0, "h100-fp8-mma-sync %s: fp8 -> fp16 by hand, k in the model's order, "
           "h100-bf16 from +0, then + C in fp32: the same bits on %zu random dot products", smma_format_name(fmts[fi]), n);
        ok(seen > 0, "h100-fp8-mma-sync %s: the k order shows (%zu of %zu differ in plain k "
           "order)", smma_format_name(fmts[fi]), seen, n);
    }
}

/*
 * The fp16 split of an e4m3 subnormal, seen where C enters the block (the
 * model with c_last off).  a = [0x01] = 2^-9 (e4m3 subnormal: 0.125 *
 * 2^-6), b = [0x38] = 1, the other 31 products 0; C = 0x3a800002 = 2^-10
 * (1 + 2^-22), whose last bit weighs 2^-32.
 *   As fp16, 2^-9 is a normal number: emax = -9, the block keeps bits down
 *   to 2^(-9-25) = 2^-34, C is exact: 1.5 * 2^-9 + 2^-32, which fp32 holds
 *   (ulp 2^-32 in [2^-9, 2^-8)): 0x3b400001.
 *   Split as an e4m3 subnormal its exponent is -6: emax = -6 keeps bits
 *   down to 2^-31 and C loses its last bit: 1.5 * 2^-9 = 0x3b400000.
 * The H100 adds C after the two blocks (h100-fp8-mma-sync's c_last, from
 * the SASS: HMMA from RZ, HMMA, FADD), where no e4m3 product reaches below
 * 2^-31 and the split cannot show: the model gives the exact 0x3b400001.
 */
static void
check_upcast_subnormal(void)
{
    const smma_model *m = tap_model("h100-fp8-mma-sync");
    smma_model in_block = *m, plain;
    smma_gemm_shape s = shape(SMMA_E4M3, SMMA_FP32, SMMA_FP32, 32);
    uint32_t a[32] = { 0x01 }, b[32] = { 0x38 };

    in_block.name = "h100-fp8-mma-sync with C in the first block";
    in_block.c_last = false;
    plain = in_block;
    plain.name = "h100-fp8-mma-sync with C in the block, without the fp16 split";
    plain.upcast_f16 = false;
    expect(&in_block, &s, a, b, 0x3a800002u, 0x3b400001u, "an e4m3 subnormal split as fp16");
    expect(&plain, &s, a, b, 0x3a800002u, 0x3b400000u, "split as e4m3, C loses a bit");
    expect(m, &s, a, b, 0x3a800002u, 0x3b400001u, "C added after the blocks: exact");
}

/*
 * The fp16 accumulator.  fp16 a = [1, 2^-11, 2^-12] (0x3c00 0x1000 0x0c00),
 * b = [1, 1, 2^-13] (0x3c00 0x3c00 0x0800), C = +0 (fp16), D fp16.  emax 0;
 * with neab 2 the block keeps bits down to 2^-25; the products 1, 2^-11 and
 * 2^-25 are all kept: sum 1 + 2^-11 + 2^-25.  The fp16 ulp at 1 is 2^-10,
 * so 1 + 2^-11 is the midpoint between 0x3c00 and 0x3c01.
 *   h100-bf16: fp32 truncation keeps 24 bits (down to 2^-23), leaving the
 *     midpoint 1 + 2^-11, which rounds to the even 0x3c00.
 *   h100-f16acc (RN of the aligned sum): above the midpoint: 0x3c01.
 *   RZ: 0x3c00.  exact-rn: 0x3c01.
 * With b[2] = 2^-14 (0x0400) the third product is 2^-26, dropped by the
 * alignment: the aligned sum is the midpoint itself.  RN: 0x3c00 (even);
 * with the dropped bit as a sticky bit: 0x3c01; exact-rn 0x3c01.
 * Chained: K = 32, the second block holds one more product 2^-11 (a[16] =
 * 0x1000, b[16] = 0x3c00).  With the fp16 accumulator the first block gives
 * 0x3c01 = 1 + 2^-10, the second 1 + 2^-10 + 2^-11, a midpoint: 0x3c02
 * (even).  Through fp32 (h100-bf16): 1 + 2^-11, then 1 + 2^-10 exactly,
 * 0x3c01 at the end.
 */
/*
 * A sticky fp16 accumulator behind a narrow window (neab -10: 13 fraction
 * bits below each product's exponent, as the fp8 models keep).  fp16 a =
 * [1 + 2^-10, 2^-11] (0x3c01 0x1000), b = [1 + 2^-10, 1] (0x3c01 0x3c00):
 * products 1 + 2^-9 + 2^-20 and 2^-11.  The window drops 2^-20 from the
 * first (its own bits, before any alignment; emax 0, so alignment drops
 * nothing): the kept sum 1 + 2^-9 + 2^-11 is the midpoint between 0x3c02
 * and 0x3c03.  RN: 0x3c02 (even); sticky: the dropped bit puts it above,
 * 0x3c03; exact-rn 0x3c03.
 */
static void
check_f16_acc_narrow(const smma_model *acc)
{
    smma_model rn = *acc, sticky = *acc;
    smma_gemm_shape s = shape(SMMA_FP16, SMMA_NONE, SMMA_FP16, 2);
    static const uint32_t a[2] = { 0x3c01, 0x1000 }, b[2] = { 0x3c01, 0x3c00 };

    rn.name = "h100-f16acc (neab -10)";
    rn.neab = -10;
    sticky.name = "h100-f16acc (neab -10, sticky)";
    sticky.neab = -10;
    sticky.f16_acc = SMMA_F16ACC_RN_STICKY;
    expect(&rn, &s, a, b, 0, 0x3c02, "the window leaves a midpoint: even");
    expect(&sticky, &s, a, b, 0, 0x3c03, "the bit the window dropped is sticky: up");
    expect(tap_model("exact-rn"), &s, a, b, 0, 0x3c03, "exact-rn");
}

/*
 * A block rounded to nearest (a variant of h100-bf16 with round RN) is
 * rounded once.  bf16 a = [1, 1, 2^-22, 2^-24, 2^-25] (0x3f80 0x3f80 0x3480
 * 0x3380 0x3300), b = 1: emax 0, neab 2 keeps bits down to 2^-25, all of
 * them: sum 2 + 2^-22 + 2^-24 + 2^-25, 27 significant bits.  fp32's ulp at 2
 * is 2^-22; the rest, 0.375 ulp, rounds down: 2 + 2^-22 (0x40000001).  (Two
 * roundings, first to 25 bits, would give 2 + 2^-22 + 2^-23, a tie, then
 * the even 2 + 2^-21.)  h100-bf16 (RZ) and exact-rn give 0x40000001 too.
 */
static void
check_block_rn(void)
{
    smma_model rn = *tap_model("h100-bf16");
    smma_gemm_shape s = shape(SMMA_BF16, SMMA_NONE, SMMA_FP32, 5);
    static const uint32_t a[5] = { 0x3f80, 0x3f80, 0x3480, 0x3380, 0x3300 },
                          b[5] = { 0x3f80, 0x3f80, 0x3f80, 0x3f80, 0x3f80 };

    rn.name = "h100-bf16 (rn)";
    rn.round = SMMA_RN;
    expect(&rn, &s, a, b, 0, 0x40000001u, "27 bits rounded once to nearest");
    {
        /* 2 + 2^-22 + 2^-23 + 2^-24: 0.75 ulp, up to 2 + 2^-21 (0x40000002);
         * 2 + 2^-22 + 2^-23: a tie with an odd last bit, up as well. */
        static const uint32_t up[5] = { 0x3f80, 0x3f80, 0x3480, 0x3400, 0x3380 },
                              tie[5] = { 0x3f80, 0x3f80, 0x3480, 0x3400, 0x0000 };

        expect(&rn, &s, up, b, 0, 0x40000002u, "0.75 ulp rounds up");
        expect(&rn, &s, tie, b, 0, 0x40000002u, "a tie rounds to the even last bit, up");
        expect(tap_model("h100-bf16"), &s, up, b, 0, 0x40000001u, "0.75 ulp truncated");
    }
    expect(tap_model("h100-bf16"), &s, a, b, 0, 0x40000001u, "27 bits truncated");
    expect(tap_model("exact-rn"), &s, a, b, 0, 0x40000001u, "exact-rn");
}

static void
check_f16_acc(void)
{
    const smma_model *acc = tap_model("h100-f16acc"), *via = tap_model("h100-bf16");
    smma_model sticky = *acc, rz = *acc;
    smma_gemm_shape s = shape(SMMA_FP16, SMMA_FP16, SMMA_FP16, 3);
    smma_gemm_shape s32 = shape(SMMA_FP16, SMMA_FP16, SMMA_FP32, 3);
    smma_gemm_shape sk = shape(SMMA_FP16, SMMA_FP16, SMMA_FP16, 32);
    uint32_t a[32] = { 0x3c00, 0x1000, 0x0c00 }, b[32] = { 0x3c00, 0x3c00, 0x0800 };
    uint32_t na[3] = { 0xbc00, 0x9000, 0x8c00 }, b2[3] = { 0x3c00, 0x3c00, 0x0400 };

    sticky.name = "h100-f16acc (sticky)";
    sticky.f16_acc = SMMA_F16ACC_RN_STICKY;
    rz.name = "h100-f16acc (rz)";
    rz.f16_acc = SMMA_F16ACC_RZ;
    expect(via, &s, a, b, 0, 0x3c00, "fp32 truncation leaves a midpoint: even");
    expect(acc, &s, a, b, 0, 0x3c01, "the aligned sum to nearest fp16: above the midpoint");
    expect(acc, &s, na, b, 0, 0xbc01, "negated");
    expect(&sticky, &s, a, b, 0, 0x3c01, "sticky: above the midpoint");
    expect(&rz, &s, a, b, 0, 0x3c00, "toward zero");
    expect(tap_model("exact-rn"), &s, a, b, 0, 0x3c01, "exact-rn");
    expect(acc, &s32, a, b, 0, 0x3f801000u, "with an fp32 D the field is not read");
    {
        /* A non-zero sum that rounds to zero is +0 (an H100: a tiny negative
         * C + sum gave +0 in 16 of 100,000 random cases); so is a block of
         * zeros, -0 ones included (zero_plus: an H200, tests/gpu/zero-sign-t). */
        smma_gemm_shape s1 = shape(SMMA_FP16, SMMA_FP16, SMMA_FP16, 1);
        uint32_t tiny[1] = { 0x0001 }, mhalf[1] = { 0xb800 }, half[1] = { 0x3800 };
        uint32_t nz[1] = { 0x8000 }, one[1] = { 0x3c00 };

        expect(acc, &s1, tiny, mhalf, 0, 0x0000, "-2^-25 (a tie) rounds to +0, not -0");
        expect(acc, &s1, tiny, half, 0x8001, 0x0000, "2^-25 - 2^-24 rounds to +0");
        expect(acc, &s1, nz, one, 0x8000, 0x0000, "-0 * 1 + -0 is +0 (zero_plus)");
    }
    expect(acc, &s, a, b2, 0, 0x3c00, "a bit dropped by alignment: the midpoint, even");
    expect(&sticky, &s, a, b2, 0, 0x3c01, "a bit dropped by alignment, sticky: up");
    expect(tap_model("exact-rn"), &s, a, b2, 0, 0x3c01, "exact-rn with the dropped bit");
    a[16] = 0x1000;
    b[16] = 0x3c00;
    expect(acc, &sk, a, b, 0, 0x3c02, "chained blocks, each rounded to fp16");
    expect(via, &sk, a, b, 0, 0x3c01, "chained blocks through fp32");
    check_f16_acc_narrow(acc);
}

static void
check_refusals(void)
{
    smma_gemm_shape s = shape(SMMA_E4M3, SMMA_FP32, SMMA_FP32, 16);
    smma_model any = smma_model_any_inputs(tap_model("h100-fp8-mma-sync"));
    smma_error err;

    ok(smma_model_check(tap_model("h100-fp8-mma-sync"), &s, &err) == SMMA_EINVAL &&
       strstr(err.msg, "chunks of 32") != NULL, "K = 16 is refused by h100-fp8-mma-sync (%s)",
       err.msg);
    s = shape(SMMA_BF16, SMMA_FP32, SMMA_FP32, 32);
    ok(smma_model_check(&any, &s, &err) == SMMA_EINVAL &&
       strstr(err.msg, "fp16") != NULL, "bf16 elements are refused by the fp16 split (%s)",
       err.msg);
}

int
main(void)
{
    plan_lazy();
    check_b200_published();
    check_b200_ties();
    check_b200_specials();
    check_mma_sync_fp8();
    check_upcast_subnormal();
    check_f16_acc();
    check_block_rn();
    check_refusals();
    return exit_status();
}

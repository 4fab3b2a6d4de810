/*
 * tests/ref/format-t.c - the format table and the decoder: every code of
 * every format against the test suite's own decoder (slow.c), the table's
 * derived fields against values written out from the format definitions,
 * names, and the checked decoder's errors.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <softmma/format.h>

#include "ref/slow.h"
#include "tap/basic.h"

/* Largest finite, smallest subnormal (or smallest value) and smallest
 * normal of each format, written out by hand. */
static const struct {
    smma_format f;
    double maxv, minsub, minnorm;
    unsigned nan_codes, inf_codes;
} expect[] = {
    { SMMA_E2M1, 6.0, 0.5, 1.0, 0, 0 },
    { SMMA_E2M3, 7.5, 0.125, 1.0, 0, 0 },
    { SMMA_E3M2, 28.0, 0x1p-4, 0.25, 0, 0 },
    { SMMA_E4M3, 448.0, 0x1p-9, 0x1p-6, 2, 0 },
    { SMMA_E5M2, 57344.0, 0x1p-16, 0x1p-14, 6, 2 },
    { SMMA_E8M0, 0x1p127, 0x1p-127, 0x1p-127, 1, 0 },
    { SMMA_UE4M3, 448.0, 0x1p-9, 0x1p-6, 2, 0 },
    { SMMA_BF16, 0x1.fep127, 0x1p-133, 0x1p-126, 254, 2 },
    { SMMA_FP16, 65504.0, 0x1p-24, 0x1p-14, 2046, 2 },
    { SMMA_FP32, 0x1.fffffep127, 0x1p-149, 0x1p-126, 0, 2 },
};

/* Decodes codes [lo, hi) (with a stride) of format f with both decoders. */
static void
check_codes(smma_format f, uint64_t lo, uint64_t hi, uint64_t stride, const char *what)
{
    uint64_t c, n = 0, bad = 0;

    for (c = lo; c < hi; c += stride) {
        double want = slow_decode(f, (uint32_t) c);
        double got = smma_decode(f, (uint32_t) c);

        n++;
        if (!slow_same(want, got) && ++bad <= 10)
            diag("%s code 0x%llx: want %a got %a", smma_format_name(f),
                 (unsigned long long) c, want, got);
    }
    ok(bad == 0, "%s: %s (%llu codes) decode as the slow decoder says", smma_format_name(f),
       what, (unsigned long long) n);
}

static void
check_table(void)
{
    size_t i;

    for (i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
        const smma_format_desc *d = smma_format_info(expect[i].f);
        uint32_t c, ncodes;
        unsigned nans = 0, infs = 0;

        ok(d != NULL && d->id == expect[i].f, "%s: descriptor found",
           smma_format_name(expect[i].f));
        ok(smma_decode(d->id, d->max_code) == expect[i].maxv, "%s: max_code is %a", d->name,
           expect[i].maxv);
        ok(smma_decode(d->id, d->min_sub_code) == expect[i].minsub, "%s: min_sub_code is %a",
           d->name, expect[i].minsub);
        ok(smma_decode(d->id, d->min_norm_code) == expect[i].minnorm, "%s: min_norm_code is %a",
           d->name, expect[i].minnorm);
        ok(ldexp(1.0, d->emax) <= expect[i].maxv && ldexp(1.0, d->emax + 1) > expect[i].maxv,
           "%s: emax %d", d->name, d->emax);
        ok(ldexp(1.0, d->emin) == expect[i].minnorm, "%s: emin %d", d->name, d->emin);
        if (d->storage_bits > 16) {
            ok(smma_code_is_nan(d->id, 0x7fc00000u) && smma_code_is_nan(d->id, 0xffffffffu) &&
                   smma_code_is_nan(d->id, 0x7f800001u) && !smma_code_is_nan(d->id, 0x7f800000u) &&
                   smma_code_is_inf(d->id, 0xff800000u) && !smma_code_is_inf(d->id, 0x7f7fffffu),
               "%s: NaN and Inf codes at the edges", d->name);
            continue;
        }
        ncodes = 1u << d->bits;
        for (c = 0; c < ncodes; c++) {
            nans += smma_code_is_nan(d->id, c);
            infs += smma_code_is_inf(d->id, c);
        }
        ok(nans == expect[i].nan_codes / (d->storage_bits > d->bits ? 2 : 1) &&
               infs == expect[i].inf_codes,
           "%s: %u NaN codes and %u infinities", d->name, nans, infs);
    }
}

static void
check_names(void)
{
    static const struct {
        const char *name;
        smma_format f;
    } names[] = {
        { "e2m1", SMMA_E2M1 }, { "FP4", SMMA_E2M1 }, { "float4_e2m1fn", SMMA_E2M1 },
        { "e2m3", SMMA_E2M3 }, { "e3m2", SMMA_E3M2 }, { "E4M3", SMMA_E4M3 },
        { "e4m3fn", SMMA_E4M3 }, { "float8_e4m3fn", SMMA_E4M3 }, { "e5m2", SMMA_E5M2 },
        { "e8m0", SMMA_E8M0 }, { "ue8m0", SMMA_E8M0 }, { "float8_e8m0fnu", SMMA_E8M0 },
        { "ue4m3", SMMA_UE4M3 }, { "bf16", SMMA_BF16 }, { "bfloat16", SMMA_BF16 },
        { "fp16", SMMA_FP16 }, { "half", SMMA_FP16 }, { "fp32", SMMA_FP32 },
        { "float", SMMA_FP32 },
    };
    static const char *const bad[] = { "e9m9", "", "e4m3 ", "fp", "e4m", "e4m3x", "x4m3" };
    size_t i;
    smma_error err;
    smma_round r;

    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        smma_format f = SMMA_FORMAT_COUNT;

        ok(smma_format_from_name(names[i].name, &f, NULL) == SMMA_OK && f == names[i].f,
           "format name '%s'", names[i].name);
    }
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        smma_format f;
        char quoted[64];

        err.msg[0] = '\0';
        snprintf(quoted, sizeof(quoted), "'%s'", bad[i]);
        ok(smma_format_from_name(bad[i], &f, &err) == SMMA_EINVAL &&
               strstr(err.msg, quoted) != NULL,
           "unknown format '%s' is an error naming it (%s)", bad[i], err.msg);
    }
    for (i = 0; i < SMMA_ROUND_COUNT; i++)
        ok(smma_round_from_name(smma_round_name((smma_round) i), &r, NULL) == SMMA_OK &&
               r == (smma_round) i,
           "rounding mode '%s' round-trips", smma_round_name((smma_round) i));
    ok(smma_round_from_name("rne", &r, &err) == SMMA_EINVAL && strstr(err.msg, "'rne'") != NULL,
       "unknown rounding mode is an error naming it");
    is_string("?", smma_format_name(SMMA_FORMAT_COUNT), "name of a non-format");
    ok(smma_format_info(SMMA_FORMAT_COUNT) == NULL, "no descriptor for a non-format");
}

static void
check_checked_decode(void)
{
    smma_error err;
    double v = -1.0;

    err.msg[0] = '\0';
    ok(smma_decode_checked(SMMA_UE4M3, 0x80, true, &v, &err) == SMMA_EINVAL &&
           strstr(err.msg, "0x80") != NULL && v == -1.0,
       "ue4m3 0x80 is rejected in strict mode (%s)", err.msg);
    ok(smma_decode_checked(SMMA_UE4M3, 0xb8, false, &v, &err) == SMMA_OK && v == 1.0,
       "ue4m3 0xb8 decodes as 0x38 (1.0) in lenient mode");
    ok(smma_decode_checked(SMMA_UE4M3, 0x7e, true, &v, &err) == SMMA_OK && v == 448.0,
       "ue4m3 0x7e is 448 in strict mode");
    ok(smma_decode_checked(SMMA_E4M3, 0x100, true, &v, &err) == SMMA_ERANGE &&
           strstr(err.msg, "0x100") != NULL,
       "a code wider than its format is rejected");
    ok(smma_decode_checked(SMMA_E2M1, 0x10, false, &v, &err) == SMMA_ERANGE,
       "e2m1 0x10 is rejected even in lenient mode");
    ok(smma_decode_checked(SMMA_FP32, 0xffffffffu, true, &v, &err) == SMMA_OK && isnan(v),
       "fp32 0xffffffff is a NaN");
    ok(smma_decode_checked(SMMA_FORMAT_COUNT, 0, true, &v, &err) == SMMA_EINVAL,
       "a non-format is rejected");
    ok(isnan(smma_decode(SMMA_E8M0, 0xff)) && smma_decode(SMMA_E8M0, 0x00) == 0x1p-127,
       "e8m0: 0xff is NaN and 0x00 is 2^-127, not zero");
    ok(signbit(smma_decode(SMMA_E4M3, 0xff)) && isnan(smma_decode(SMMA_E4M3, 0xff)),
       "e4m3 0xff is a negative NaN");
}

/* Stochastic rounding of a value far below the smallest subnormal: e2m1's
 * is 0.5, and 2^-13 is 2^-12 of it, so with 32 random bits r it rounds up
 * to 0.5 exactly when 2^-12 * 2^32 + r >= 2^32, r >= 0xfff00000. */
static void
check_rs_tiny(void)
{
    smma_cvt cvt = smma_cvt_default();

    cvt.round = SMMA_RS;
    cvt.rbits = 0xfff00000u;
    is_hex(0x1, smma_encode(SMMA_E2M1, ldexp(1.0, -13), &cvt),
           "e2m1 RS: 2^-13 with random bits 0xfff00000 rounds up to 0.5");
    is_hex(0x9, smma_encode(SMMA_E2M1, -ldexp(1.0, -13), &cvt), "... and -2^-13 to -0.5");
    cvt.rbits = 0xffefffffu;
    is_hex(0x0, smma_encode(SMMA_E2M1, ldexp(1.0, -13), &cvt),
           "... with 0xffefffff down to 0");
    /* The smallest normal double and the smallest subnormal one, toward
     * +Inf: e4m3's smallest subnormal (0x01). */
    cvt.round = SMMA_RP;
    is_hex(0x01, smma_encode(SMMA_E4M3, ldexp(1.0, -1022), &cvt),
           "e4m3 RP: 2^-1022 rounds up to the smallest subnormal");
    is_hex(0x01, smma_encode(SMMA_E4M3, ldexp(1.0, -1074), &cvt), "... and 2^-1074 too");
    cvt.round = SMMA_RN;
    is_hex(0x80, smma_encode(SMMA_E4M3, -ldexp(1.0, -1022), &cvt), "e4m3 RN: -2^-1022 is -0");
}

int
main(void)
{
    int level = test_level();
    unsigned f;
    tap_rng rng;
    uint64_t i, n, bad = 0;

    plan_lazy();
    for (f = 0; f < SMMA_FORMAT_COUNT; f++) {
        const smma_format_desc *d = smma_format_info((smma_format) f);

        if (d->storage_bits <= 16)
            check_codes(d->id, 0, (uint64_t) 1 << d->storage_bits, 1, "every code");
        else if (level >= 2)
            check_codes(d->id, 0, (uint64_t) 1 << 32, 1, "every code");
        else
            check_codes(d->id, 0, (uint64_t) 1 << 32, level == 0 ? 65537 * 7 : 65537,
                        "every 65537th code");
    }
    /* fp32: random codes, and every exponent with edge mantissas. */
    tap_rng_seed(&rng, 20261121);
    n = level == 0 ? 10000 : 1000000;
    for (i = 0; i < n; i++) {
        uint32_t c = (uint32_t) tap_rng_next(&rng);

        if (!slow_same(slow_decode(SMMA_FP32, c), smma_decode(SMMA_FP32, c)) && ++bad <= 10)
            diag("fp32 code 0x%08x", c);
    }
    ok(bad == 0, "fp32: %llu random codes decode as the slow decoder says",
       (unsigned long long) n);
    check_table();
    check_names();
    check_checked_decode();
    check_rs_tiny();
    {
        /* Bits above the storage width are ignored (softmma/format.h). */
        unsigned long bad_high = 0;

        for (f = 0; f < SMMA_FORMAT_COUNT; f++) {
            const smma_format_desc *d = smma_format_info((smma_format) f);
            uint32_t c;

            if (d->storage_bits > 16)
                continue;
            for (c = 0; c < (1u << d->storage_bits); c++)
                bad_high += !slow_same(smma_decode(d->id, c | (1u << d->storage_bits)),
                                       smma_decode(d->id, c));
        }
        ok(bad_high == 0, "decode ignores the bit above the storage width (%lu differ)",
           bad_high);
    }
    slow_free();
    return exit_status();
}

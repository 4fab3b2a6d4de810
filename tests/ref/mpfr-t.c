/*
 * tests/ref/mpfr-t.c - the exact accumulator and the exact models against
 * GNU MPFR.
 *
 * Random dot products over every element format, e8m0 scales over their
 * whole range (2^-127 .. 2^127) and ue4m3 scales (zero included), fp32 C
 * over all finite values (subnormals included), K from 1 to 16: MPFR sums
 * the terms exactly (every operation is checked to be exact) and rounds the
 * sum to fp32, bf16 and fp16 by the standard MPFR recipe (precision, exponent
 * range, subnormalize), to nearest and toward zero; softmma's exact-rn and
 * exact-rz must give the same bits.  Level 1 runs 10^6 dot products, level 0
 * (valgrind) 2,000, level 2 10^7.  Skips without MPFR.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <softmma/gemm.h>

#include "acc.h"
#include "tap/basic.h"

#ifndef HAVE_MPFR

int
main(void)
{
    skip_all("GNU MPFR not found by configure (install libmpfr-dev)");
}

#else

#include <mpfr.h>

#define PREC 1600 /* more than the span of any sum below: exact */

static const smma_format elems[] = { SMMA_E2M1, SMMA_E2M3, SMMA_E3M2, SMMA_E4M3, SMMA_E5M2,
                                     SMMA_BF16, SMMA_FP16, SMMA_FP32 };

static unsigned long inexact_ops;

/* x = value of code in format f (exact). */
static void
set_code(mpfr_t x, smma_format f, uint32_t code)
{
    if (mpfr_set_d(x, smma_decode(f, code), MPFR_RNDN) != 0)
        inexact_ops++;
}

/* A random finite code of f (any finite code, the extremes included). */
static uint32_t
finite_code(tap_rng *r, smma_format f)
{
    const smma_format_desc *d = smma_format_info(f);
    uint32_t mask = d->storage_bits == 32 ? 0xffffffffu : (1u << d->bits) - 1;

    for (;;) {
        uint32_t c = (uint32_t) tap_rng_next(r) & mask;

        if (isfinite(smma_decode(f, c)))
            return c;
    }
}

/* Rounds the exact sum to a format with p significant bits whose smallest
 * subnormal is 2^sub and largest binade 2^emax, as IEEE 754 does. */
static double
mpfr_round_fmt(const mpfr_t sum, int p, int sub, int emax, mpfr_rnd_t rnd)
{
    mpfr_exp_t old_emin = mpfr_get_emin(), old_emax = mpfr_get_emax();
    mpfr_t y;
    int t;
    double v;

    mpfr_init2(y, p);
    /* MPFR exponents: x = m * 2^e with m in [1/2, 1). */
    mpfr_set_emin(sub + 1);
    mpfr_set_emax(emax + 1);
    t = mpfr_set(y, sum, rnd);
    t = mpfr_check_range(y, t, rnd);
    mpfr_subnormalize(y, t, rnd);
    mpfr_set_emin(old_emin);
    mpfr_set_emax(old_emax);
    v = mpfr_get_d(y, MPFR_RNDN); /* exact: y has at most 24 bits */
    mpfr_clear(y);
    return v;
}

int
main(void)
{
    int level = test_level();
    unsigned long n = level == 0 ? 2000 : level == 1 ? 1005000 : 10000000, t;
    unsigned long bad[3][2] = { { 0 } }, zeros = 0, extremes = 0;
    static const smma_format outs[3] = { SMMA_FP32, SMMA_BF16, SMMA_FP16 };
    static const int prec[3] = { 24, 8, 11 }, subexp[3] = { -149, -133, -24 },
                     maxexp[3] = { 127, 127, 15 };
    tap_rng rng;
    mpfr_t sum, x, y;
    int o, r;

    plan(9);
    mpfr_init2(sum, PREC);
    mpfr_init2(x, 64);
    mpfr_init2(y, 64);
    tap_rng_seed(&rng, 20261121);
    for (t = 0; t < n; t++) {
        smma_gemm_shape s;
        uint32_t a[16], b[16], sa[1], sb[1], c;
        size_t k;

        memset(&s, 0, sizeof(s));
        s.a_fmt = elems[tap_rng_next(&rng) % 8];
        s.b_fmt = elems[tap_rng_next(&rng) % 8];
        switch (tap_rng_next(&rng) % 3) {
        case 0: s.scale_fmt = SMMA_NONE; break;
        case 1: s.scale_fmt = SMMA_E8M0; break;
        default: s.scale_fmt = SMMA_UE4M3; break;
        }
        s.vec = 16;
        s.c_fmt = tap_rng_next(&rng) % 4 == 0 ? SMMA_NONE : SMMA_FP32;
        s.m = s.n = 1;
        s.k = 1 + (size_t) (tap_rng_next(&rng) % 16);
        for (k = 0; k < s.k; k++) {
            a[k] = finite_code(&rng, s.a_fmt);
            b[k] = finite_code(&rng, s.b_fmt);
        }
        if (s.scale_fmt == SMMA_E8M0) {
            /* The whole range, and often the extremes. */
            sa[0] = (uint32_t) (tap_rng_next(&rng) % 255);
            sb[0] = (uint32_t) (tap_rng_next(&rng) % 255);
            if (tap_rng_next(&rng) % 4 == 0) {
                sa[0] = tap_rng_next(&rng) & 1 ? 0xfe : 0x00;
                sb[0] = tap_rng_next(&rng) & 1 ? 0xfe : 0x00;
                extremes++;
            }
        } else if (s.scale_fmt == SMMA_UE4M3) {
            sa[0] = finite_code(&rng, SMMA_UE4M3);
            sb[0] = finite_code(&rng, SMMA_UE4M3);
        }
        c = s.c_fmt == SMMA_NONE ? 0 : finite_code(&rng, SMMA_FP32);

        /* MPFR: the exact sum. */
        mpfr_set_zero(sum, 1);
        if (s.c_fmt != SMMA_NONE) {
            set_code(x, SMMA_FP32, c);
            if (mpfr_add(sum, sum, x, MPFR_RNDN) != 0)
                inexact_ops++;
        }
        for (k = 0; k < s.k; k++) {
            set_code(x, s.a_fmt, a[k]);
            set_code(y, s.b_fmt, b[k]);
            if (mpfr_mul(x, x, y, MPFR_RNDN) != 0)
                inexact_ops++;
            if (s.scale_fmt != SMMA_NONE) {
                set_code(y, s.scale_fmt, sa[0]);
                if (mpfr_mul(x, x, y, MPFR_RNDN) != 0)
                    inexact_ops++;
                set_code(y, s.scale_fmt, sb[0]);
                if (mpfr_mul(x, x, y, MPFR_RNDN) != 0)
                    inexact_ops++;
            }
            if (mpfr_add(sum, sum, x, MPFR_RNDN) != 0)
                inexact_ops++;
        }
        if (mpfr_zero_p(sum)) {
            zeros++; /* the sign of an exact zero is model-test territory */
            continue;
        }
        for (o = 0; o < 3; o++) {
            s.d_fmt = outs[o];
            for (r = 0; r < 2; r++) {
                const smma_model *m;
                double want;
                uint32_t wcode, got;
                smma_cvt cvt = smma_cvt_default();

                smma_model_from_name(r == 0 ? "exact-rn" : "exact-rz", &m, NULL);
                want = mpfr_round_fmt(sum, prec[o], subexp[o], maxexp[o],
                                      r == 0 ? MPFR_RNDN : MPFR_RNDZ);
                cvt.sat = false;
                wcode = smma_encode(outs[o], want, &cvt); /* exact: want is representable */
                got = smma_dot(m, &s, a, b, sa, sb, c);
                if (wcode != got && ++bad[o][r] <= 5)
                    diag("%s %s: %s x %s scale %s k %zu: mpfr 0x%x (%a) softmma 0x%x (%a)",
                         m->name, smma_format_name(outs[o]), smma_format_name(s.a_fmt),
                         smma_format_name(s.b_fmt),
                         s.scale_fmt == SMMA_NONE ? "none" : smma_format_name(s.scale_fmt),
                         s.k, wcode, smma_decode(outs[o], wcode), got,
                         smma_decode(outs[o], got));
            }
        }
    }
    ok(inexact_ops == 0, "every MPFR operation was exact (%lu inexact)", inexact_ops);
    for (o = 0; o < 3; o++)
        for (r = 0; r < 2; r++)
            ok(bad[o][r] == 0, "exact-%s to %s equals MPFR on %lu random dot products "
               "(%lu with extreme e8m0 scales; %lu exact zeros set aside): %lu mismatches",
               r == 0 ? "rn" : "rz", smma_format_name(outs[o]), n - zeros, extremes, zeros,
               bad[o][r]);

    /* The accumulator itself: long random sums with carries across limbs,
     * compared through MPFR exactly (round-to-odd double vs MPFR's value). */
    {
        unsigned long i, badacc = 0, nacc = level == 0 ? 200 : 20000;

        for (i = 0; i < nacc; i++) {
            smma_acc acc;
            int terms = 1 + (int) (tap_rng_next(&rng) % 200), j;
            double got, want;

            smma_acc_zero(&acc);
            mpfr_set_zero(sum, 1);
            for (j = 0; j < terms; j++) {
                uint64_t mm = tap_rng_next(&rng) >> (1 + tap_rng_next(&rng) % 63);
                int e = -640 + (int) (tap_rng_next(&rng) % 1150);
                bool neg = tap_rng_next(&rng) & 1;

                smma_acc_add(&acc, mm, e, neg);
                if (mpfr_set_uj_2exp(x, mm, e, MPFR_RNDN) != 0)
                    inexact_ops++;
                if (neg)
                    inexact_ops += mpfr_sub(sum, sum, x, MPFR_RNDN) != 0;
                else
                    inexact_ops += mpfr_add(sum, sum, x, MPFR_RNDN) != 0;
            }
            got = smma_acc_to_double_odd(&acc);
            if (mpfr_zero_p(sum))
                want = 0.0;
            else {
                /* Round to odd with 53 bits: truncate, then set the last bit
                 * if inexact. */
                mpfr_t z;
                int tr;

                mpfr_init2(z, 53);
                tr = mpfr_set(z, sum, MPFR_RNDZ);
                want = mpfr_get_d(z, MPFR_RNDN);
                if (tr != 0) {
                    uint64_t wb = smma_f64_bits(want) | 1;

                    want = smma_f64_from_bits(wb);
                }
                mpfr_clear(z);
            }
            if (smma_f64_bits(got) != smma_f64_bits(want) && ++badacc <= 5)
                diag("accumulator: want %a got %a", want, got);
            if (smma_acc_is_negative(&acc) != (mpfr_sgn(sum) < 0) && ++badacc <= 5)
                diag("accumulator sign differs");
        }
        ok(badacc == 0 && inexact_ops == 0,
           "accumulator: %lu random sums of up to 200 terms (2^-640 .. 2^574) round to odd "
           "as MPFR says", nacc);
    }
    ok(smma_acc_msb(&(smma_acc){ { 0 } }) < -100000, "msb of zero is a sentinel");
    mpfr_clear(sum);
    mpfr_clear(x);
    mpfr_clear(y);
    mpfr_free_cache();
    return exit_status();
}

#endif /* HAVE_MPFR */

/*
 * tests/ref/encode-t.c - the encoder against the test suite's own slow
 * encoder (slow.c), for every format of a group x rounding mode x
 * saturation x profile, over:
 *   - every fp32 that bf16 represents exactly (65,536 patterns);
 *   - edges: every midpoint between adjacent codes and one fp32 ulp (one
 *     double ulp for fp32 targets) either side, the overflow thresholds,
 *     the subnormal boundaries, +-0, +-Inf and NaNs with several payloads;
 *   - 10^6 seeded random inputs per format x mode x saturation (the profile
 *     cycles with the input), half uniform fp32 bit patterns, half drawn
 *     near the format's range.
 * Level 0 (valgrind) thins the first and last sets.  ENCODE_GROUP selects
 * the formats: 1 = FP4/FP6 and scales, 2 = FP8, 3 = bf16/fp16/fp32.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/format.h>
#include <softmma/profile.h>

#include "ref/slow.h"
#include "tap/basic.h"

#ifndef ENCODE_GROUP
#define ENCODE_GROUP 1
#endif

static const smma_format groups[3][5] = {
    { SMMA_E2M1, SMMA_E2M3, SMMA_E3M2, SMMA_E8M0, SMMA_UE4M3 },
    { SMMA_E4M3, SMMA_E5M2, SMMA_FORMAT_COUNT, SMMA_FORMAT_COUNT, SMMA_FORMAT_COUNT },
    { SMMA_BF16, SMMA_FP16, SMMA_FP32, SMMA_FORMAT_COUNT, SMMA_FORMAT_COUNT },
};

/* A growable list of inputs. */
struct inputs {
    size_t n, cap;
    double *x;
};

static void
push(struct inputs *in, double x)
{
    if (in->n == in->cap) {
        in->cap = in->cap ? 2 * in->cap : 1024;
        in->x = realloc(in->x, in->cap * sizeof(*in->x));
        if (in->x == NULL)
            sysbail("cannot grow the input list");
    }
    in->x[in->n++] = x;
}

/* x and its negation. */
static void
push2(struct inputs *in, double x)
{
    push(in, x);
    push(in, -x);
}

/* The random bits for stochastic rounding of input i: every other input
 * takes one of the values that sit exactly on the rounding boundary of a
 * midpoint (frac = 1/2) or a quarter point, or the extremes. */
static uint32_t
rbits_for(uint64_t i)
{
    static const uint32_t boundary[] = { 0x80000000u, 0x7fffffffu, 0xc0000000u, 0xbfffffffu,
                                         0x40000000u, 0x3fffffffu, 0u, 0xffffffffu };
    uint64_t z = (i + 1) * 0x9e3779b97f4a7c15ull;

    if (i % 2 == 1)
        return boundary[(i / 2) % 8];
    z ^= z >> 29;
    z *= 0xbf58476d1ce4e5b9ull;
    return (uint32_t) (z >> 32);
}

static void
bf16_grid(struct inputs *in, int level)
{
    uint32_t b, step = level == 0 ? 251 : 1;

    for (b = 0; b < 65536; b += step)
        push(in, (double) smma_f32_from_bits(b << 16));
}

static void
edges(struct inputs *in, smma_format f)
{
    const smma_format_desc *d = smma_format_info(f);
    static const uint32_t nans[] = { 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u,
                                     0x7fffffffu, 0xffa00000u, 0x7fe00000u };
    size_t i;
    double prev = 0.0;

    push2(in, 0.0);
    push2(in, INFINITY);
    for (i = 0; i < sizeof(nans) / sizeof(nans[0]); i++)
        push(in, smma_f64_from_bits(((uint64_t) (nans[i] >> 31) << 63) |
                                    0x7ff0000000000000ull |
                                    ((uint64_t) (nans[i] & 0x7fffff) << 29)));
    push2(in, 0x1p-149);
    push2(in, 0x1p-1074);
    push2(in, 0x1.fffffep127);
    push2(in, 0x1p300);
    if (d->storage_bits <= 16) {
        /* Every midpoint between adjacent non-negative codes, +-1 fp32 ulp. */
        uint32_t c, ncodes = 1u << d->bits;
        int first = 1;

        for (c = 0; c < ncodes; c++) {
            double v = smma_decode(f, c);

            if (!isfinite(v) || (d->has_sign && c >= ncodes / 2))
                continue;
            push2(in, v);
            if (!first) {
                double mid = (prev + v) / 2;
                float fm = (float) mid;

                push2(in, mid);
                push2(in, (double) nextafterf(fm, 0.0f));
                push2(in, (double) nextafterf(fm, INFINITY));
            }
            first = 0;
            prev = v;
        }
    } else {
        /* fp32: midpoints of sampled adjacent pairs, +-1 double ulp. */
        uint32_t e;

        for (e = 0; e < 255; e++) {
            uint32_t m;

            for (m = 0; m < 8; m++) {
                uint32_t b = (e << 23) | (m * 0x100001u & 0x7fffff);
                double lo = smma_f32_from_bits(b), hi = smma_f32_from_bits(b + 1);
                double mid = (lo + hi) / 2;

                push2(in, mid);
                push2(in, nextafter(mid, 0.0));
                push2(in, nextafter(mid, INFINITY));
            }
        }
    }
    /* Overflow thresholds: max, the midpoint to the next value past max, and
     * around it; twice max. */
    {
        double maxv = smma_decode(f, d->max_code);
        double below = smma_decode(f, d->max_code - 1);
        double step = d->man_bits == 0 ? maxv : maxv - below;
        double thr = maxv + step / 2;

        if (f == SMMA_E4M3 || f == SMMA_UE4M3)
            thr = 464.0;
        push2(in, thr);
        push2(in, nextafter(thr, 0.0));
        push2(in, nextafter(thr, INFINITY));
        push2(in, (double) nextafterf((float) thr, 0.0f));
        push2(in, (double) nextafterf((float) thr, INFINITY));
        push2(in, maxv + step);
        push2(in, 2 * maxv);
        /* Subnormal boundaries: half the smallest value, and around it. */
        {
            double ms = smma_decode(f, d->min_sub_code);

            push2(in, ms / 2);
            push2(in, nextafter(ms / 2, 0.0));
            push2(in, nextafter(ms / 2, INFINITY));
            push2(in, ms / 4);
            push2(in, ms * 0.75);
        }
    }
}

static void
random_inputs(struct inputs *in, smma_format f, size_t n)
{
    const smma_format_desc *d = smma_format_info(f);
    tap_rng rng;
    size_t i;

    tap_rng_seed(&rng, 0x5eed0000u + (unsigned) f);
    for (i = 0; i < n; i++) {
        uint64_t r = tap_rng_next(&rng);

        if (i % 2 == 0) {
            push(in, (double) smma_f32_from_bits((uint32_t) r));
        } else if (f == SMMA_FP32) {
            /* A random double in fp32's range (not representable in fp32). */
            int e = (int) ((r >> 53) % 290) - 160;

            push(in, ldexp((double) (r & 0x1fffffffffffffull) / 0x1p53 + 1.0, e) *
                         ((r >> 52) & 1 ? -1 : 1));
        } else {
            /* An fp32 near the format's range: exponent in [emin-3, emax+2]. */
            int lo = d->emin - (int) d->man_bits - 3, hi = d->emax + 2;
            int e = lo + (int) ((r >> 40) % (uint64_t) (hi - lo + 1));
            uint32_t b = ((uint32_t) (e + 127) << 23) | ((uint32_t) r & 0x7fffff) |
                         ((uint32_t) (r >> 63) << 31);

            if (e + 127 <= 0 || e + 127 >= 255)
                b = (uint32_t) r;
            push(in, (double) smma_f32_from_bits(b));
        }
    }
}

/* Runs one set of inputs; profile NULL cycles through every profile. */
static void
run(smma_format f, smma_round mode, bool sat, const smma_profile *p, const struct inputs *in,
    const char *what)
{
    size_t i, bad = 0, np = smma_profile_count();

    for (i = 0; i < in->n; i++) {
        smma_cvt c;
        uint32_t want, got;

        c.round = mode;
        c.sat = sat;
        c.rbits = rbits_for(i);
        c.profile = p != NULL ? p : smma_profile_at(i % np);
        want = slow_encode(f, in->x[i], &c);
        got = smma_encode(f, in->x[i], &c);
        if (want != got && ++bad <= 10)
            diag("%s %s %s %s: x=%a (%.17g) rbits=0x%08x want 0x%x (%a) got 0x%x (%a)",
                 smma_format_name(f), smma_round_name(mode), sat ? "sat" : "nosat",
                 c.profile->name, in->x[i], in->x[i], c.rbits, want, smma_decode(f, want), got,
                 smma_decode(f, got));
    }
    ok(bad == 0, "%s %s %s %s: %s (%zu inputs)%s", smma_format_name(f), smma_round_name(mode),
       sat ? "satfinite" : "nosat", p != NULL ? p->name : "all profiles", what, in->n,
       bad ? " MISMATCH" : "");
}

int
main(void)
{
    int level = test_level();
    unsigned g, m;
    size_t pi;

    plan_lazy();
    for (g = 0; g < 5; g++) {
        smma_format f = groups[ENCODE_GROUP - 1][g];
        struct inputs grid = { 0, 0, NULL }, edge = { 0, 0, NULL }, rnd = { 0, 0, NULL };

        if (f == SMMA_FORMAT_COUNT)
            continue;
        bf16_grid(&grid, level);
        edges(&edge, f);
        random_inputs(&rnd, f, level == 0 ? 2000 : 1000000);
        for (m = 0; m < SMMA_ROUND_COUNT; m++) {
            int s;

            for (s = 0; s < 2; s++) {
                for (pi = 0; pi < smma_profile_count(); pi++) {
                    const smma_profile *p = smma_profile_at(pi);

                    run(f, (smma_round) m, s != 0, p, &grid, "bf16-exact fp32 values");
                    run(f, (smma_round) m, s != 0, p, &edge, "midpoints and edges");
                }
                run(f, (smma_round) m, s != 0, NULL, &rnd, "random inputs");
            }
        }
        free(grid.x);
        free(edge.x);
        free(rnd.x);
    }
    slow_free();
    return exit_status();
}

/*
 * gen/codec.c - the decode and encode suites: every code of a format with
 * its value, and the codec's edge inputs converted under a rounding and a
 * profile (doc/vectors.md, "decode." and "encode.").
 */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A growable list of 64-bit values. */
struct list {
    uint64_t *v;
    size_t n, cap;
    bool oom;
};

static void
list_push(struct list *l, uint64_t x)
{
    if (l->oom)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 1024;
        uint64_t *nv = realloc(l->v, cap * sizeof(*nv));

        if (nv == NULL) {
            l->oom = true;
            return;
        }
        l->v = nv;
        l->cap = cap;
    }
    l->v[l->n++] = x;
}

struct pair {
    uint64_t v;
    size_t i;
};

static int
cmp_pair(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;

    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* Removes repeated values, keeping the first of each in its place. */
static void
list_unique(struct list *l)
{
    struct pair *p;
    bool *keep;
    size_t i, j;

    if (l->oom || l->n < 2)
        return;
    p = malloc(l->n * sizeof(*p));
    keep = calloc(l->n, sizeof(*keep));
    if (p == NULL || keep == NULL) {
        free(p);
        free(keep);
        l->oom = true;
        return;
    }
    for (i = 0; i < l->n; i++) {
        p[i].v = l->v[i];
        p[i].i = i;
    }
    qsort(p, l->n, sizeof(*p), cmp_pair);
    for (i = 0; i < l->n; i++)
        if (i == 0 || p[i].v != p[i - 1].v)
            keep[p[i].i] = true;
    for (i = j = 0; i < l->n; i++)
        if (keep[i])
            l->v[j++] = l->v[i];
    l->n = j;
    free(p);
    free(keep);
}

/* ------------------------------------------------------------------ decode */

/* The value of a code as fp32 bits: exact for every format (every value of
 * every format is an fp32 number); a NaN code gives the quiet NaN with its
 * sign, as smma_decode does. */
static uint32_t
decoded_f32(smma_format f, uint32_t code)
{
    double v = smma_decode(f, code);

    if (isnan(v))
        return signbit(v) ? 0xffc00000u : 0x7fc00000u;
    return smma_f32_bits((float) v);
}

int
smma_gen_decode(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
           smma_error *err)
{
    static const uint32_t man32[] = { 0x000000u, 0x000001u, 0x000002u, 0x200000u, 0x400000u,
                                      0x400001u, 0x555555u, 0x7ffffeu, 0x7fffffu };
    static const char *const comments[] = {
        "value: the code's exact value as fp32 bits; a NaN code gives the quiet NaN",
        "7fc00000 or ffc00000 with the code's sign (softmma/format.h, smma_decode)", NULL
    };
    const smma_format_desc *d = smma_format_info(s->fmt);
    smma_vec_header h;
    smma_vec_writer *w = NULL;
    uint64_t row[2], st = seed;
    uint32_t c, n;
    int rc;

    smma_gen_header(s, level, seed, &h);
    rc = smma_gen_add_field(&h, "code", (smma_vec_type) s->fmt, false, 1, err);
    if (rc == SMMA_OK)
        rc = smma_gen_add_field(&h, "value", SMMA_VT_FP32, true, 1, err);
    if (rc == SMMA_OK)
        rc = smma_gen_open(&h, comments, &w, err);
    if (rc == SMMA_OK && s->fmt == SMMA_UE4M3)
        rc = smma_vec_put_comment(w, "ue4m3: the 128 codes 00-7f; a byte with bit 7 set is no "
                                     "ue4m3 code (strict profiles reject it)", err);
    if (s->fmt != SMMA_FP32) {
        n = s->fmt == SMMA_UE4M3 ? 0x80u : 1u << d->bits;
        for (c = 0; rc == SMMA_OK && c < n; c++) {
            row[0] = c;
            row[1] = decoded_f32(s->fmt, c);
            rc = smma_vec_put_row(w, row, err);
        }
        return smma_gen_finish(rc, w, out);
    }
    if (rc == SMMA_OK)
        rc = smma_vec_put_comment(w, "fp32: both signs x every exponent field x the mantissas "
                                     "0 1 2 200000 400000 400001 555555 7ffffe 7fffff", err);
    for (c = 0; rc == SMMA_OK && c < 2 * 256 * 9; c++) {
        row[0] = (c / (256 * 9)) << 31 | (c / 9 % 256) << 23 | man32[c % 9];
        row[1] = decoded_f32(SMMA_FP32, (uint32_t) row[0]);
        rc = smma_vec_put_row(w, row, err);
    }
    if (rc == SMMA_OK && level >= 2)
        rc = smma_vec_put_comment(w, "level 2: 65536 random fp32 codes", err);
    for (c = 0; rc == SMMA_OK && level >= 2 && c < 65536; c++) {
        row[0] = (uint32_t) smma_gen_rand(&st);
        row[1] = decoded_f32(SMMA_FP32, (uint32_t) row[0]);
        rc = smma_vec_put_row(w, row, err);
    }
    return smma_gen_finish(rc, w, out);
}

/* ------------------------------------------------------------------ encode */

/* The inputs of an encode suite: fp32 bits, or fp64 bits for the fp32
 * target (whose inputs are doubles). */
struct inputs {
    struct list l;
    bool f64;
    bool negatives;     /* in_push2 adds -x too */
};

static void
in_push(struct inputs *in, double x)
{
    uint32_t b;

    if (in->f64)
        list_push(&in->l, smma_f64_bits(x));
    else if (smma_gen_f32_exact(x, &b))
        list_push(&in->l, b);
}

/* x, and -x unless negatives are off. */
static void
in_push2(struct inputs *in, double x)
{
    in_push(in, x);
    if (in->negatives)
        in_push(in, -x);
}

/* x and -x, with their neighbours toward 0 and infinity: fp32 neighbours
 * for fp32 inputs, double ones for double inputs. */
static void
in_push_around(struct inputs *in, double x)
{
    uint32_t b;

    in_push2(in, x);
    if (in->f64) {
        in_push2(in, nextafter(x, 0.0));
        in_push2(in, nextafter(x, INFINITY));
    } else if (smma_gen_f32_exact(x, &b) && x > 0 && !isinf(x)) {
        in_push2(in, (double) nextafterf((float) x, 0.0f));
        in_push2(in, (double) nextafterf((float) x, INFINITY));
    }
}

/* The code's value, and the midpoint to the next code with its neighbours
 * when the next code is finite. */
static void
in_code_and_mid(struct inputs *in, smma_format f, uint32_t c)
{
    double v = smma_decode(f, c), next = smma_decode(f, c + 1);

    in_push2(in, v);
    if (isfinite(next) && next > v)
        in_push_around(in, (v + next) / 2);
}

/* True for the exponent fields that the sampled 16- and 32-bit sets use:
 * the ends, the three around the bias and every step-th. */
static bool
sampled_exponent(const smma_format_desc *d, uint32_t e)
{
    uint32_t top = (1u << d->exp_bits) - 2, bias = (uint32_t) d->bias;
    uint32_t step = d->exp_bits >= 8 ? 32 : 8;

    return e <= 2 || e + 2 >= top || (e + 1 >= bias && e <= bias + 1) || e % step == 0;
}

/* The random bits of input i of a stochastic-rounding suite: odd inputs
 * take the values at the rounding boundaries of a midpoint and a quarter
 * point and the extremes; even ones a seeded hash. */
static uint32_t
rbits_for(size_t i, uint64_t seed)
{
    static const uint32_t boundary[] = { 0x80000000u, 0x7fffffffu, 0xc0000000u, 0xbfffffffu,
                                         0x40000000u, 0x3fffffffu, 0u, 0xffffffffu };
    uint64_t st = seed ^ ((uint64_t) i * 0xd1b54a32d192ed03ull);

    if (i % 2 == 1)
        return boundary[(i / 2) % 8];
    return (uint32_t) (smma_gen_rand(&st) >> 32);
}

/* The structured inputs of the codec tests (tests/ref/encode-t.c, edges()),
 * and at level 2 every bf16-exact fp32 and random inputs. */
static void
encode_inputs(smma_format f, unsigned level, uint64_t seed, struct inputs *in)
{
    static const uint32_t nans[] = { 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u,
                                     0x7fffffffu, 0xffa00000u, 0x7fe00000u };
    const smma_format_desc *d = smma_format_info(f);
    uint64_t st = seed;
    uint32_t c, i;

    in->negatives = true;
    in_push2(in, 0.0);
    in_push2(in, INFINITY);
    for (i = 0; i < sizeof(nans) / sizeof(nans[0]); i++)
        list_push(&in->l, in->f64 ? ((uint64_t) (nans[i] >> 31) << 63) |
                                        0x7ff0000000000000ull |
                                        ((uint64_t) (nans[i] & 0x7fffff) << 29)
                                  : nans[i]);
    in_push2(in, 0x1p-149);
    in_push2(in, FLT_MAX);
    if (in->f64) {
        in_push2(in, 0x1p-1074);
        in_push2(in, 0x1p300);
    }
    /* Unsigned formats (e8m0, ue4m3) turn every negative into the same thing
     * (the profile's neg_unsigned): at level 1 a few negatives stand for all. */
    if (!d->has_sign) {
        in_push(in, -smma_decode(f, d->min_sub_code));
        in_push(in, -1.0);
        in_push(in, -1.5);
        in_push(in, -smma_decode(f, d->max_code));
        in->negatives = level >= 2;
    }
    if (d->storage_bits <= 8 || (level >= 2 && d->storage_bits <= 16)) {
        /* Every non-negative finite code, and the midpoint to the next. */
        for (c = 0; c <= d->max_code; c++)
            in_code_and_mid(in, f, c);
    } else {
        uint32_t e, top = (1u << d->exp_bits) - 1, mmax = (1u << d->man_bits) - 1;
        const uint32_t mans[6] = { 0, 1, 2, 1u << (d->man_bits - 1), mmax - 1, mmax };

        for (e = 0; e < top; e++) {
            if (level < 2 && !sampled_exponent(d, e))
                continue;
            for (i = 0; i < 6; i++)
                in_code_and_mid(in, f, e << d->man_bits | mans[i]);
        }
    }
    /* The overflow threshold (half a step past the largest value; 464 for
     * e4m3 and ue4m3, whose next step would be NaN) and around it, one step
     * past the largest value and twice it; the subnormal boundaries. */
    {
        double maxv = smma_decode(f, d->max_code);
        double below = smma_decode(f, d->max_code - 1);
        double step = d->man_bits == 0 ? maxv : maxv - below;
        double thr = maxv + step / 2, ms = smma_decode(f, d->min_sub_code);

        if (f == SMMA_E4M3 || f == SMMA_UE4M3)
            thr = 464.0;
        in_push_around(in, thr);
        in_push2(in, maxv + step);
        in_push2(in, 2 * maxv);
        in_push_around(in, ms / 2);
        if (f == SMMA_E8M0) /* 2^-127 and its fp32 neighbours: the ml_dtypes boundary */
            in_push_around(in, ms);
        in_push2(in, ms / 4);
        in_push2(in, ms * 0.75);
    }
    if (level >= 2) {
        for (i = 0; i < 65536; i++)
            in_push(in, (double) smma_f32_from_bits(i << 16));
        for (i = 0; i < 65536; i++) {
            uint64_t r = smma_gen_rand(&st);

            if (!in->f64) {
                list_push(&in->l, (uint32_t) r);
            } else {
                /* A double in fp32's range, mostly not an fp32 number. */
                int e = (int) ((r >> 53) % 290) - 160;

                in_push(in, ldexp((double) (r & 0x1fffffffffffffull) / 0x1p53 + 1.0, e) *
                                ((r >> 52) & 1 ? -1 : 1));
            }
        }
    }
    list_unique(&in->l);
}

int
smma_gen_encode(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
           smma_error *err)
{
    const smma_profile *p = s->profile;
    struct inputs in;
    smma_vec_header h;
    smma_vec_writer *w = NULL;
    smma_cvt cvt = smma_profile_cvt(p);
    char line[160];
    const char *comments[] = { line, NULL };
    bool rs = s->round == SMMA_RS;
    size_t i;
    int rc;

    memset(&in, 0, sizeof(in));
    in.f64 = s->fmt == SMMA_FP32;
    cvt.round = s->round;
    smma_gen_header(s, level, seed, &h);
    rc = smma_gen_add_field(&h, "x", in.f64 ? SMMA_VT_FP64 : SMMA_VT_FP32, false, 1, err);
    if (rc == SMMA_OK && rs)
        rc = smma_gen_add_field(&h, "rbits", SMMA_VT_U32, false, 1, err);
    if (rc == SMMA_OK)
        rc = smma_gen_add_field(&h, "code", (smma_vec_type) s->fmt, true, 1, err);
    snprintf(line, sizeof(line), "code: x converted to %s, rounding %s, %s (the profile's), "
             "profile %s", smma_format_name(s->fmt), smma_round_name(s->round),
             cvt.sat ? "satfinite" : "not saturating", p->name);
    if (rc == SMMA_OK)
        rc = smma_gen_open(&h, comments, &w, err);
    if (rc == SMMA_OK && rs)
        rc = smma_vec_put_comment(w, "rbits: the random bits of stochastic rounding, as "
                                     "smma_encode defines them", err);
    if (rc == SMMA_OK) {
        encode_inputs(s->fmt, level, seed, &in);
        if (in.l.oom)
            rc = smma_error_set(err, SMMA_ENOMEM, "out of memory");
    }
    for (i = 0; rc == SMMA_OK && i < in.l.n; i++) {
        uint64_t row[3];

        cvt.rbits = rs ? rbits_for(i, seed) : 0;
        row[0] = in.l.v[i];
        row[1] = cvt.rbits;
        row[rs ? 2 : 1] = in.f64 ? smma_encode(s->fmt, smma_f64_from_bits(in.l.v[i]), &cvt)
                                 : smma_encode_f32bits(s->fmt, (uint32_t) in.l.v[i], &cvt);
        rc = smma_vec_put_row(w, row, err);
    }
    free(in.l.v);
    return smma_gen_finish(rc, w, out);
}


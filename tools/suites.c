/*
 * tools/suites.c - the golden vector suites (suites.h): names, the
 * committed set, and one generator per family.
 *
 * Every generator is a pure function of (suite, level, seed): it walks
 * fixed tables and loops in a fixed order, draws random numbers only from
 * splitmix64 seeded with the seed, and formats nothing through the C
 * library's locale or floating-point printing, so the bytes are the same on
 * every machine, compiler and optimization level.  doc/vectors.md describes
 * the cases of each family and level.
 */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"

#define NROUND ((size_t) SMMA_ROUND_COUNT)
#define NFMT ((size_t) SMMA_FORMAT_COUNT)
#define NBF ((size_t) SMMA_BLOCK_FORMAT_COUNT)
#define NSL ((size_t) SMMA_SL_COUNT)

/* ------------------------------------------------------------------ names */

size_t
suite_count(void)
{
    size_t np = smma_profile_count();

    return NFMT + NFMT * NROUND * np + NBF * np + NSL;
}

bool
suite_at(size_t i, struct suite *s)
{
    size_t np = smma_profile_count();

    memset(s, 0, sizeof(*s));
    if (i < NFMT) {
        s->family = SUITE_DECODE;
        s->fmt = (smma_format) i;
        snprintf(s->name, sizeof(s->name), "decode.%s", smma_format_name(s->fmt));
        return true;
    }
    i -= NFMT;
    if (i < NFMT * NROUND * np) {
        s->family = SUITE_ENCODE;
        s->fmt = (smma_format) (i / (NROUND * np));
        s->round = (smma_round) (i / np % NROUND);
        s->profile = smma_profile_at(i % np);
        snprintf(s->name, sizeof(s->name), "encode.%s.%s.%s", smma_format_name(s->fmt),
                 smma_round_name(s->round), s->profile->name);
        return true;
    }
    i -= NFMT * NROUND * np;
    if (i < NBF * np) {
        s->family = SUITE_QUANT;
        s->bf = (smma_block_format) (i / np);
        s->profile = smma_profile_at(i % np);
        snprintf(s->name, sizeof(s->name), "quant.%s.%s", smma_block_format_name(s->bf),
                 s->profile->name);
        return true;
    }
    i -= NBF * np;
    if (i < NSL) {
        s->family = SUITE_SCALE_LAYOUT;
        s->layout = (smma_scale_layout) i;
        snprintf(s->name, sizeof(s->name), "scale-layout.%s", smma_scale_layout_name(s->layout));
        return true;
    }
    return false;
}

bool
suite_find(const char *name, struct suite *s)
{
    size_t i, n = suite_count();

    for (i = 0; i < n; i++)
        if (suite_at(i, s) && strcmp(s->name, name) == 0)
            return true;
    return false;
}

/* Committed: every decode, quant and scale-layout suite; the encode suites
 * of every rounding under cuda (what PTX cvt and the CUDA headers do), and
 * of each other profile's own rounding (rn; ra for microxcaling). */
bool
suite_committed(const struct suite *s)
{
    if (s->family != SUITE_ENCODE)
        return true;
    return s->profile == smma_profile_cuda() || s->round == s->profile->round;
}

/* ------------------------------------------------------------------ helpers */

/* splitmix64: the suites' only source of random numbers. */
static uint64_t
next_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

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

/* True when x is an fp32 number (or an infinity); its bits in *bits. */
static bool
f32_exact(double x, uint32_t *bits)
{
    float f;

    if (isnan(x))
        return false;
    if (isinf(x)) {
        *bits = x < 0 ? 0xff800000u : 0x7f800000u;
        return true;
    }
    if (fabs(x) > (double) FLT_MAX)
        return false;
    f = (float) x;
    if ((double) f != x)
        return false;
    *bits = smma_f32_bits(f);
    return true;
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

/* Fills h for suite s: names, the generator command, fields added later. */
static void
start_header(const struct suite *s, unsigned level, uint64_t seed, smma_vec_header *h)
{
    smma_vec_header_init(h);
    snprintf(h->suite, sizeof(h->suite), "%s", s->name);
    snprintf(h->generator, sizeof(h->generator), "softmma gen %s --level %u --seed %llu",
             s->name, level, (unsigned long long) seed);
    h->seed = seed;
    h->level = level;
    if (s->profile != NULL)
        snprintf(h->profile, sizeof(h->profile), "%s", s->profile->name);
}

/* Adds a scalar field. */
static int
add_field(smma_vec_header *h, const char *name, smma_vec_type t, bool out, unsigned count,
          smma_error *err)
{
    return smma_vec_header_add(h, name, t, out, false, count, err);
}

/* Creates the writer and its comment lines (NULL-terminated). */
static int
open_writer(smma_vec_header *h, const char *const *comments, smma_vec_writer **w,
            smma_error *err)
{
    int rc = smma_vec_writer_new(h, w, err);

    for (; rc == SMMA_OK && *comments != NULL; comments++)
        rc = smma_vec_put_comment(*w, *comments, err);
    return rc;
}

static int
finish(int rc, smma_vec_writer *w, smma_vec_writer **out)
{
    if (rc == SMMA_OK)
        *out = w;
    else
        smma_vec_writer_free(w);
    return rc;
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

static int
gen_decode(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
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

    start_header(s, level, seed, &h);
    rc = add_field(&h, "code", (smma_vec_type) s->fmt, false, 1, err);
    if (rc == SMMA_OK)
        rc = add_field(&h, "value", SMMA_VT_FP32, true, 1, err);
    if (rc == SMMA_OK)
        rc = open_writer(&h, comments, &w, err);
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
        return finish(rc, w, out);
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
        row[0] = (uint32_t) next_rand(&st);
        row[1] = decoded_f32(SMMA_FP32, (uint32_t) row[0]);
        rc = smma_vec_put_row(w, row, err);
    }
    return finish(rc, w, out);
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
    else if (f32_exact(x, &b))
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
    } else if (f32_exact(x, &b) && x > 0 && !isinf(x)) {
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
    return (uint32_t) (next_rand(&st) >> 32);
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
        in_push2(in, ms / 4);
        in_push2(in, ms * 0.75);
    }
    if (level >= 2) {
        for (i = 0; i < 65536; i++)
            in_push(in, (double) smma_f32_from_bits(i << 16));
        for (i = 0; i < 65536; i++) {
            uint64_t r = next_rand(&st);

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

static int
gen_encode(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
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
    start_header(s, level, seed, &h);
    rc = add_field(&h, "x", in.f64 ? SMMA_VT_FP64 : SMMA_VT_FP32, false, 1, err);
    if (rc == SMMA_OK && rs)
        rc = add_field(&h, "rbits", SMMA_VT_U32, false, 1, err);
    if (rc == SMMA_OK)
        rc = add_field(&h, "code", (smma_vec_type) s->fmt, true, 1, err);
    snprintf(line, sizeof(line), "code: x converted to %s, rounding %s, %s (the profile's), "
             "profile %s", smma_format_name(s->fmt), smma_round_name(s->round),
             cvt.sat ? "satfinite" : "not saturating", p->name);
    if (rc == SMMA_OK)
        rc = open_writer(&h, comments, &w, err);
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
    return finish(rc, w, out);
}

/* ------------------------------------------------------------------ quant */

#define QMAX 32

/* One block of a quant suite, in group g (the comment before it). */
struct qblock {
    uint32_t x[QMAX];
    uint8_t global;         /* smma_global_kind */
    uint32_t gbits;
    unsigned group;
};

struct qlist {
    struct qblock *b;
    size_t n, cap;
    unsigned group;
    bool oom;
};

static struct qblock *
q_new(struct qlist *q)
{
    struct qblock *b;

    if (q->oom)
        return NULL;
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 256;
        struct qblock *nb = realloc(q->b, cap * sizeof(*nb));

        if (nb == NULL) {
            q->oom = true;
            return NULL;
        }
        q->b = nb;
        q->cap = cap;
    }
    b = &q->b[q->n++];
    memset(b, 0, sizeof(*b));
    b->group = q->group;
    return b;
}

/* A block of zeros with a and b as its first two elements. */
static void
q_pair(struct qlist *q, uint32_t a, uint32_t b)
{
    struct qblock *k = q_new(q);

    if (k != NULL) {
        k->x[0] = a;
        k->x[1] = b;
    }
}

/* A block whose n elements are all x. */
static void
q_fill(struct qlist *q, unsigned n, uint32_t x)
{
    struct qblock *k = q_new(q);
    unsigned i;

    for (i = 0; k != NULL && i < n; i++)
        k->x[i] = x;
}

static const char *const q_groups[] = {
    "uniform blocks: all +0, all -0, all 2^-126, all 2^-127, all 2^-149, all 1, "
    "+-max_elem alternating, the ramp 0 1 2 ...",
    "special values: NaN, Inf, FLT_MAX and subnormals beside zeros and 1",
    "one non-zero element at the scale rules' boundaries: 2^k, max_elem*2^k, (max_elem + half "
    "a step)*2^k, the EVEN point*2^k, 1.5*max_elem*2^k, and fp32 neighbours",
    "nvfp4: one element at 6 times a ue4m3 scale and at the midpoints between them",
    "an amax and a second element at an element-rounding midpoint, and fp32 neighbours",
    "nvfp4 two-level: per-tensor amax (global 1) or decode scale (global 2)",
    "random blocks (seeded)",
};

void
suite_amax_points(const smma_block_format_desc *bd, int k, double pts[5])
{
    double M = bd->max_elem;
    /* The element value halfway between max_elem and the next step up. */
    double sat = M + ldexp(1.0, (int) floor(log2(M)) - (int) bd->elem_man_bits - 1);
    double even = 2.0 - ldexp(1.0, -(int) bd->elem_man_bits - 1);

    pts[0] = ldexp(1.0, k);
    pts[1] = ldexp(M, k);
    pts[2] = ldexp(sat, k);
    pts[3] = ldexp(even, k);
    pts[4] = ldexp(1.5 * M, k);
}

/* One non-zero element at each scale-rule boundary of exponent k, with its
 * fp32 neighbours d in [-dmax, dmax] (softmma diff's single family). */
static void
q_single(struct qlist *q, const smma_block_format_desc *bd, int k, int dmax)
{
    double pts[5];
    unsigned j;
    int d;

    suite_amax_points(bd, k, pts);
    for (j = 0; j < 5; j++) {
        uint32_t b;

        if (!f32_exact(pts[j], &b) || b == 0 || isinf(pts[j]))
            continue;
        for (d = -dmax; d <= dmax; d++)
            if ((int64_t) b + d > 0 && (int64_t) b + d < 0x7f800000)
                q_pair(q, b + (uint32_t) d, 0);
    }
}

/* NVFP4: amax at 6 times ue4m3 code u and at the midpoint above it. */
static void
q_ue4m3(struct qlist *q, uint32_t u)
{
    double lo = smma_decode(SMMA_UE4M3, u), hi = smma_decode(SMMA_UE4M3, u + 1);
    double pts[2] = { 6.0 * lo, 3.0 * (lo + hi) };
    unsigned j;
    int d;

    for (j = 0; j < 2; j++) {
        uint32_t b;

        if ((u == 0x7e && j == 1) || !f32_exact(pts[j], &b))
            continue;
        for (d = -1; d <= 1; d++)
            q_pair(q, b + (uint32_t) d, 0);
    }
}

/* An amax a = 1.0625 max_elem 2^k and a second element at the midpoint of
 * element codes c and c + 1 under the scales 2^(k+sh). */
static void
q_midpoint(struct qlist *q, const smma_block_format_desc *bd, int k, int sh, uint32_t c)
{
    double mid = (smma_decode(bd->elem, c) + smma_decode(bd->elem, c + 1)) / 2;
    uint32_t a, b;
    int d;

    if (!f32_exact(ldexp(bd->max_elem, k) * 1.0625, &a) ||
        !f32_exact(ldexp(mid, k + sh), &b) || b == 0)
        return;
    for (d = -1; d <= 1; d++)
        q_pair(q, a, b + (uint32_t) d);
}

void
suite_random_block(uint64_t *state, unsigned n, uint32_t *x)
{
    unsigned j, nz = 1 + (unsigned) (next_rand(state) % n);
    int center = (int) (next_rand(state) % 254) - 126;
    bool bf16 = next_rand(state) % 4 == 0;

    for (j = 0; j < nz; j++) {
        uint64_t r = next_rand(state);
        unsigned pos = (unsigned) (r % n);
        int e = center - (int) ((r >> 8) % 16);
        uint32_t man = (uint32_t) (r >> 24) & 0x7fffffu;

        if (e < -126)
            e = -126;
        if (bf16)
            man &= 0x7f0000u;
        x[pos] = (uint32_t) ((r >> 16) & 1) << 31 | (uint32_t) (e + 127) << 23 | man;
        if ((r >> 56) == 0)
            x[pos] = (r >> 55) & 1 ? 0x7fc00000u : 0x7f800000u;
    }
}

static void
q_random(struct qlist *q, unsigned n, unsigned count, uint64_t seed)
{
    uint64_t st = seed;
    unsigned i;

    for (i = 0; i < count; i++) {
        struct qblock *k = q_new(q);

        if (k != NULL)
            suite_random_block(&st, n, k->x);
    }
}

static void
quant_blocks(smma_block_format f, unsigned level, uint64_t seed, struct qlist *q)
{
    static const uint32_t specials[][2] = {
        { 0x7fc00000u, 0 }, { 0xffc00000u, 0 }, { 0x7f800000u, 0 }, { 0xff800000u, 0 },
        { 0x7fc00000u, 0x3f800000u }, { 0x7f800000u, 0x3f800000u },
        { 0xff800000u, 0x3f800000u }, { 0x7fc00000u, 0x7f800000u }, { 0x7f7fffffu, 0 },
        { 0x7f7fffffu, 0x3f800000u }, { 0x00000001u, 0 }, { 0x00400000u, 0 },
        { 0x007fffffu, 0x00000001u }, { 0x3f800000u, 0x00000001u },
    };
    static const uint32_t uniform[] = { 0, 0x80000000u, 0x00800000u, 0x00400000u,
                                        0x00000001u, 0x3f800000u };
    const smma_block_format_desc *bd = smma_block_format_info(f);
    const smma_format_desc *ed = smma_format_info(bd->elem);
    unsigned n = bd->block, i;
    uint32_t c, maxb = 0;
    struct qblock *k;
    int kk;

    q->group = 0;
    for (i = 0; i < sizeof(uniform) / sizeof(uniform[0]); i++)
        q_fill(q, n, uniform[i]);
    f32_exact(bd->max_elem, &maxb);
    k = q_new(q);
    for (i = 0; k != NULL && i < n; i++)
        k->x[i] = maxb | (i % 2 ? 0x80000000u : 0);
    k = q_new(q);
    for (i = 0; k != NULL && i < n; i++)
        k->x[i] = smma_f32_bits((float) i);
    q->group = 1;
    for (i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
        q_pair(q, specials[i][0], specials[i][1]);
    q->group = 2;
    if (level >= 2) {
        for (kk = -149; kk <= 127; kk++)
            q_single(q, bd, kk, 2);
    } else {
        /* Where the scale underflows, the middle, the fp32 subnormal edge
         * and the top of fp32. */
        q_single(q, bd, bd->emax_elem - 127, 1);
        q_single(q, bd, -126, 0);
        q_single(q, bd, 0, 1);
        q_single(q, bd, 127 - bd->emax_elem, 0);
    }
    if (f == SMMA_NVFP4) {
        static const uint32_t u1[] = { 0x01, 0x08, 0x37, 0x38, 0x7d, 0x7e };

        q->group = 3;
        if (level >= 2)
            for (c = 1; c < 0x7f; c++)
                q_ue4m3(q, c);
        else
            for (i = 0; i < sizeof(u1) / sizeof(u1[0]); i++)
                q_ue4m3(q, u1[i]);
    }
    q->group = 4;
    if (level >= 2) {
        static const int ks[] = { -20, 0, 9 };
        int sh;

        for (i = 0; i < 3; i++)
            for (sh = -1; sh <= 1; sh++)
                for (c = 0; c < ed->max_code; c++)
                    q_midpoint(q, bd, ks[i], sh, c);
    } else {
        q_midpoint(q, bd, 0, 0, 0);
        q_midpoint(q, bd, 0, 0, ed->max_code / 2);
        q_midpoint(q, bd, 0, 0, ed->max_code - 1);
    }
    if (f == SMMA_NVFP4) {
        /* Blocks [16, 1], [2688] and [1, 0.5] under a tensor amax of 16,
         * 2688 (G = 1), 1e6 and 0 and under the decode scales 1/168 and 1. */
        static const uint32_t blk[][2] = { { 0x41800000u, 0x3f800000u },
                                           { 0x45280000u, 0 },
                                           { 0x3f800000u, 0x3f000000u } };
        static const uint32_t gl[][2] = { { 1, 0x41800000u }, { 1, 0x45280000u },
                                          { 1, 0x49742400u }, { 1, 0 },
                                          { 2, 0x3bc30c31u }, { 2, 0x3f800000u } };
        unsigned j;

        q->group = 5;
        for (i = 0; i < 3; i++)
            for (j = 0; j < 6; j++) {
                k = q_new(q);
                if (k == NULL)
                    break;
                k->x[0] = blk[i][0];
                k->x[1] = blk[i][1];
                k->global = (uint8_t) gl[j][0];
                k->gbits = gl[j][1];
            }
    }
    q->group = 6;
    q_random(q, n, level >= 2 ? 4096 : 4, seed);
}

static int
gen_quant(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
          smma_error *err)
{
    const smma_block_format_desc *bd = smma_block_format_info(s->bf);
    bool nv = bd->scale == SMMA_UE4M3;
    unsigned n = bd->block, group = ~0u;
    struct qlist q;
    smma_vec_header h;
    smma_vec_writer *w = NULL;
    char line[200];
    const char *comments[] = { line, NULL };
    size_t i;
    int rc;

    memset(&q, 0, sizeof(q));
    start_header(s, level, seed, &h);
    rc = nv ? add_field(&h, "global", SMMA_VT_U8, false, 1, err) : SMMA_OK;
    if (rc == SMMA_OK && nv)
        rc = add_field(&h, "gbits", SMMA_VT_FP32, false, 1, err);
    if (rc == SMMA_OK)
        rc = add_field(&h, "x", SMMA_VT_FP32, false, n, err);
    if (rc == SMMA_OK && nv)
        rc = add_field(&h, "gdecode", SMMA_VT_FP32, true, 1, err);
    if (rc == SMMA_OK)
        rc = add_field(&h, "scale", (smma_vec_type) bd->scale, true, 1, err);
    if (rc == SMMA_OK)
        rc = add_field(&h, "codes", (smma_vec_type) bd->elem, true, n, err);
    snprintf(line, sizeof(line), "one block of %u fp32 values quantized to %s under profile %s "
             "(smma_quantize): its scale and %u codes", n, bd->name, s->profile->name, n);
    if (rc == SMMA_OK)
        rc = open_writer(&h, comments, &w, err);
    if (rc == SMMA_OK && nv)
        rc = smma_vec_put_comment(w, "global: 0 single-level, 1 gbits is the tensor amax, 2 "
                                     "gbits is the decode scale; gdecode: the decode scale G "
                                     "(smma_quant_global_decode)", err);
    if (rc == SMMA_OK) {
        quant_blocks(s->bf, level, seed, &q);
        if (q.oom)
            rc = smma_error_set(err, SMMA_ENOMEM, "out of memory");
    }
    for (i = 0; rc == SMMA_OK && i < q.n; i++) {
        const struct qblock *b = &q.b[i];
        smma_quant_opts o = smma_quant_opts_default(s->profile);
        uint64_t row[2 + QMAX + 2 + QMAX];
        uint8_t scale, codes[QMAX];
        size_t j, at = 0;

        if (b->group != group) {
            group = b->group;
            rc = smma_vec_put_comment(w, q_groups[group], err);
            if (rc != SMMA_OK)
                break;
        }
        o.global = (smma_global_kind) b->global;
        o.global_bits = b->gbits;
        rc = smma_quantize(s->bf, b->x, n, &o, &scale, codes, err);
        if (rc != SMMA_OK)
            break;
        if (nv) {
            row[at++] = b->global;
            row[at++] = b->gbits;
        }
        for (j = 0; j < n; j++)
            row[at++] = b->x[j];
        if (nv)
            row[at++] = smma_quant_global_decode(s->bf, &o);
        row[at++] = scale;
        for (j = 0; j < n; j++)
            row[at++] = codes[j];
        rc = smma_vec_put_row(w, row, err);
    }
    free(q.b);
    return finish(rc, w, out);
}

/* ------------------------------------------------------------------ scale-layout */

/* Shapes (rows, K, vec): single scales, ragged K (a short last block),
 * rows and scale columns just below, at and above the tiles (32, 128 rows;
 * 4, 8 scale columns). */
static const unsigned shapes1[][3] = {
    { 1, 1, 32 },     { 1, 32, 32 },    { 3, 33, 32 },    { 31, 100, 32 },  { 32, 128, 32 },
    { 33, 160, 32 },  { 127, 96, 32 },  { 128, 128, 32 }, { 129, 160, 32 }, { 257, 64, 32 },
    { 1, 16, 16 },    { 5, 50, 16 },    { 128, 64, 16 },  { 130, 80, 16 },
};

static const unsigned shapes2[][3] = {
    { 64, 288, 32 },    { 200, 300, 32 },  { 255, 80, 16 },   { 1024, 2048, 32 },
    { 513, 4000, 32 },  { 1000, 1000, 16 }, { 384, 4096, 16 },
};

static int
gen_scale_layout(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
                 smma_error *err)
{
    static const char *const comments[] = {
        "rows x ceil(k / vec) scale matrix stored in the layout: bytes is the stored size",
        "(padding included); offset[m][kb] the byte offset of scale (m, kb)",
        "(smma_scale_offset); shapes the layout refuses (vec 16 in CDNA4) are left out", NULL
    };
    smma_vec_header h;
    smma_vec_writer *w = NULL;
    smma_vec_case c;
    size_t i, nshapes = sizeof(shapes1) / sizeof(shapes1[0]), m, kb, fi;
    uint64_t scalars[4];
    int rc;

    start_header(s, level, seed, &h);
    rc = add_field(&h, "rows", SMMA_VT_U32, false, 1, err);
    if (rc == SMMA_OK)
        rc = add_field(&h, "k", SMMA_VT_U32, false, 1, err);
    if (rc == SMMA_OK)
        rc = add_field(&h, "vec", SMMA_VT_U8, false, 1, err);
    if (rc == SMMA_OK)
        rc = add_field(&h, "bytes", SMMA_VT_U32, true, 1, err);
    if (rc == SMMA_OK)
        rc = smma_vec_header_add(&h, "offset", SMMA_VT_U32, true, true, 0, err);
    if (rc == SMMA_OK)
        rc = open_writer(&h, comments, &w, err);
    fi = (size_t) smma_vec_field_index(&h, "offset");
    memset(&c, 0, sizeof(c));
    c.scalars = scalars;
    if (level >= 2)
        nshapes += sizeof(shapes2) / sizeof(shapes2[0]);
    for (i = 0; rc == SMMA_OK && i < nshapes; i++) {
        const unsigned *sh = i < sizeof(shapes1) / sizeof(shapes1[0])
                                 ? shapes1[i]
                                 : shapes2[i - sizeof(shapes1) / sizeof(shapes1[0])];
        smma_scale_shape shape;
        smma_vec_block *b = &c.blocks[fi];

        if (smma_scale_layout_shape(s->layout, sh[0], sh[1], sh[2], &shape, NULL) != SMMA_OK)
            continue;
        scalars[0] = sh[0];
        scalars[1] = sh[1];
        scalars[2] = sh[2];
        scalars[3] = shape.bytes;
        b->rows = shape.rows;
        b->cols = shape.kb;
        b->v = malloc(b->rows * b->cols * sizeof(uint64_t));
        if (b->v == NULL) {
            rc = smma_error_set(err, SMMA_ENOMEM, "out of memory");
            break;
        }
        for (m = 0; rc == SMMA_OK && m < shape.rows; m++)
            for (kb = 0; rc == SMMA_OK && kb < shape.kb; kb++) {
                size_t off;

                rc = smma_scale_offset(s->layout, sh[0], sh[1], sh[2], m, kb, &off, err);
                b->v[m * shape.kb + kb] = off;
            }
        if (rc == SMMA_OK)
            rc = smma_vec_put_case(w, &c, err);
        free(b->v);
        b->v = NULL;
    }
    return finish(rc, w, out);
}

/* ------------------------------------------------------------------ dispatch */

int
suite_generate(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
               smma_error *err)
{
    *out = NULL;
    if (level < 1 || level > 2)
        return smma_error_set(err, SMMA_EINVAL, "level %u is not 1 or 2", level);
    switch (s->family) {
    case SUITE_DECODE:
        return gen_decode(s, level, seed, out, err);
    case SUITE_ENCODE:
        return gen_encode(s, level, seed, out, err);
    case SUITE_QUANT:
        return gen_quant(s, level, seed, out, err);
    case SUITE_SCALE_LAYOUT:
        return gen_scale_layout(s, level, seed, out, err);
    }
    return smma_error_set(err, SMMA_EINVAL, "unknown suite family");
}

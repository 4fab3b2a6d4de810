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
 *
 * The fragment, mma and gemm suites take their layouts and executors from
 * the simulator (softmma/fragment.h, mma_bs.h, ldmatrix.h, wgmma.h,
 * tmem.h) and their products from softmma/gemm.h; which of them exist is a
 * table built once (sim_table_build) from the simulator's own lists of
 * variants and the models each instruction has.
 */
#include <config.h>

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/fragment.h>
#include <softmma/ldmatrix.h>
#include <softmma/mma_bs.h>
#include <softmma/tmem.h>
#include <softmma/wgmma.h>

#include "suites.h"

#define NROUND ((size_t) SMMA_ROUND_COUNT)
#define NFMT ((size_t) SMMA_FORMAT_COUNT)
#define NBF ((size_t) SMMA_BLOCK_FORMAT_COUNT)
#define NSL ((size_t) SMMA_SL_COUNT)

/* ------------------------------------------------------------------ names */

/* The suites of the fragment, mma and gemm families, in list order, built
 * once (sim_table_build, at the end of this file) and read-only after. */
#define SIM_MAX 4096u

static struct sim_table {
    struct suite s[SIM_MAX];
    size_t n;
} sim_table;
static pthread_once_t sim_once = PTHREAD_ONCE_INIT;
static void sim_table_build(void);

static const struct sim_table *
sim_suites(void)
{
    pthread_once(&sim_once, sim_table_build);
    return &sim_table;
}

static size_t
arith_count(void)
{
    size_t np = smma_profile_count();

    return NFMT + NFMT * NROUND * np + NBF * np + NSL;
}

size_t
suite_count(void)
{
    return arith_count() + sim_suites()->n;
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
    i -= NSL;
    if (i < sim_suites()->n) {
        *s = sim_suites()->s[i];
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
static bool sim_committed(const struct suite *s);

bool
suite_committed(const struct suite *s)
{
    if (s->family >= SUITE_FRAGMENT)
        return sim_committed(s);
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

/* ------------------------------------------------------------------ fragment */

/* Adds the fields of spec, "name:type name:type ...", as inputs or outputs,
 * scalar or block. */
static int
add_spec(smma_vec_header *h, const char *spec, bool out, bool block, smma_error *err)
{
    int rc = SMMA_OK;

    while (rc == SMMA_OK && *spec != '\0') {
        char name[SMMA_VEC_NAME_MAX], type[16];
        size_t n = strcspn(spec, ":"), t;
        smma_vec_type vt;

        t = strcspn(spec + n + 1, " ");
        if (spec[n] != ':' || n >= sizeof(name) || t >= sizeof(type))
            return smma_error_set(err, SMMA_EINVAL, "bad field spec '%s'", spec);
        memcpy(name, spec, n);
        name[n] = '\0';
        memcpy(type, spec + n + 1, t);
        type[t] = '\0';
        spec += n + 1 + t;
        while (*spec == ' ')
            spec++;
        rc = smma_vec_type_from_name(type, &vt, err);
        if (rc == SMMA_OK)
            rc = smma_vec_header_add(h, name, vt, out, block, block ? 0 : 1, err);
    }
    return rc;
}

/* Starts a suite of one line per case: the header with the scalar fields
 * of in and out, and the comment lines (NULL-terminated). */
static int
start_rows(const struct suite *s, unsigned level, uint64_t seed, const char *in,
           const char *out, const char *const *comments, smma_vec_writer **w, smma_error *err)
{
    smma_vec_header h;
    int rc;

    start_header(s, level, seed, &h);
    rc = add_spec(&h, in, false, false, err);
    if (rc == SMMA_OK)
        rc = add_spec(&h, out, true, false, err);
    if (rc == SMMA_OK)
        rc = open_writer(&h, comments, w, err);
    return rc;
}

static const char *const op_names[] = { "a", "b", "c", "d", "sfa", "sfb" };
#define OP_SFA 4u
#define OP_SFB 5u

/* The lowest set bit of x (x != 0). */
static unsigned
low_bit(uint32_t x)
{
    unsigned b = 0;

    while (b < 31 && !(x >> b & 1))
        b++;
    return b;
}

/* The register fragments of mma.sync (bs NULL) and of the sm_120a forms:
 * every (lane, reg, elem) with its (row, col) and the lowest bit of the
 * element in the register.  For the sm_120a forms that bit comes from
 * packing a tile with the one element set (smma_mma_bs_pack), so the 8-bit
 * containers of 4- and 6-bit codes show. */
static int
frag_mma_regs(const smma_frag_layout *l, const smma_mma_bs *bs, smma_operand op,
              smma_vec_writer *w, smma_error *err)
{
    uint32_t tile[16 * 64], regs[32 * 4];
    uint32_t mask = l->fmt == SMMA_FP32 || l->fmt == SMMA_FORMAT_COUNT
                        ? 0xffffffffu
                        : (uint32_t) ((1ull << smma_format_info(l->fmt)->bits) - 1);
    unsigned lane, reg, elem, row, col;
    int rc = SMMA_OK;

    for (lane = 0; rc == SMMA_OK && lane < 32; lane++)
        for (reg = 0; rc == SMMA_OK && reg < l->regs; reg++)
            for (elem = 0; rc == SMMA_OK && elem < l->elems; elem++) {
                uint64_t r[6] = { lane, reg, elem, 0, 0, elem * l->elem_bits };

                smma_frag_coord(l, lane, reg, elem, &row, &col);
                r[3] = row;
                r[4] = col;
                if (bs != NULL) {
                    memset(tile, 0, sizeof(tile));
                    tile[row * l->cols + col] = mask;
                    rc = smma_mma_bs_pack(bs, op, tile, regs, err);
                    r[5] = low_bit(regs[lane * l->regs + reg]);
                }
                if (rc == SMMA_OK)
                    rc = smma_vec_put_row(w, r, err);
            }
    return rc;
}

static int
frag_mma(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
         smma_error *err)
{
    static const char *const comments[] = {
        "lane, reg, elem: element elem of 32-bit register reg of lane lane (elem 0 in the",
        "low bits); row, col: its place in the operand tile (A 16 x K: row m, col k;",
        "B K x 8: row k, col n; C, D 16 x 8: row m, col n); lsb: the element's lowest bit",
        "in the register.  PTX ISA 9.7.14.5.8 and 9.7.14.5.10 (softmma/fragment.h)", NULL
    };
    const smma_frag_layout *l = smma_frag_layout_get((smma_mma_instr) s->var,
                                                     (smma_operand) s->op);
    smma_vec_writer *w = NULL;
    int rc = start_rows(s, level, seed, "lane:u8 reg:u8 elem:u8", "row:u8 col:u8 lsb:u8",
                        comments, &w, err);

    if (rc == SMMA_OK)
        rc = frag_mma_regs(l, NULL, (smma_operand) s->op, w, err);
    return finish(rc, w, out);
}

/* The scale-factor registers of a block-scaled sm_120a form: for every
 * legal {byte-id, thread-id} of the operand, every (lane, byte) that the
 * instruction reads, with the scale it holds. */
static int
frag_mma_sf(const smma_mma_bs *v, unsigned op, smma_vec_writer *w, smma_error *err)
{
    smma_operand o = op == OP_SFA ? SMMA_OP_A : SMMA_OP_B;
    unsigned bid, tid, lane, byte, mn, kblk;
    int rc = SMMA_OK;

    for (bid = 0; rc == SMMA_OK && bid < 4; bid++)
        for (tid = 0; rc == SMMA_OK && tid < 4; tid++) {
            smma_mma_bs_sel sel = smma_mma_bs_sel_of(o, bid, tid);

            if (smma_mma_bs_sel_check(v, &sel, NULL) != SMMA_OK)
                continue;
            for (lane = 0; rc == SMMA_OK && lane < 32; lane++)
                for (byte = 0; rc == SMMA_OK && byte < 4; byte++) {
                    uint64_t r[6] = { bid, tid, lane, byte, 0, 0 };

                    rc = smma_mma_bs_sf_coord(v, o, &sel, lane, byte, &mn, &kblk, err);
                    if (rc != SMMA_OK || kblk >= v->scale_vec)
                        continue;
                    r[4] = mn;
                    r[5] = kblk;
                    rc = smma_vec_put_row(w, r, err);
                }
        }
    return rc;
}

static int
frag_mma_bs(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
            smma_error *err)
{
    static const char *const regs_comments[] = {
        "lane, reg, elem: element elem of 32-bit register reg of lane lane; row, col: its",
        "place in the tile (A 16 x K: row m, col k; B K x 8: row k, col n; C, D 16 x 8);",
        "lsb: its lowest bit in the register: 4- and 6-bit codes of the m16n8k32 kinds sit",
        "in 8-bit containers (e2m1 bits 5:2, e2m3 and e3m2 bits 5:0), the m16n8k64 kinds",
        "pack eight e2m1 per register.  PTX ISA 9.7.14.5.10, 9.7.14.5.11, 9.7.14.5.14",
        "(softmma/mma_bs.h); sm_120a: not yet checked on a GPU", NULL
    };
    static const char *const sf_comments[] = {
        "byte_id, thread_id: the selectors of this operand (every legal pair); lane, byte:",
        "a byte of the 32-bit scale register that the instruction reads; m (scale_A) or n",
        "(scale_B), kblk: the scale it holds, for row m of A or column n of B and the k",
        "block kblk (k in [kblk K/S, (kblk+1) K/S)).  Bytes not listed are not read.",
        "PTX ISA 9.7.14.3 Tables 36-37 and Figures 43-45, with CUTLASS's SFALayout /",
        "SFBLayout for what only the figures show (softmma/mma_bs.h); sm_120a: not yet",
        "checked on a GPU", NULL
    };
    smma_mma_bs v;
    smma_frag_layout l;
    smma_vec_writer *w = NULL;
    int rc = smma_mma_bs_at(s->var, &v, err);

    if (rc == SMMA_OK && s->op >= OP_SFA) {
        rc = start_rows(s, level, seed, "byte_id:u8 thread_id:u8 lane:u8 byte:u8",
                        s->op == OP_SFA ? "m:u8 kblk:u8" : "n:u8 kblk:u8", sf_comments, &w,
                        err);
        if (rc == SMMA_OK)
            rc = frag_mma_sf(&v, s->op, w, err);
        return finish(rc, w, out);
    }
    if (rc == SMMA_OK)
        rc = smma_mma_bs_layout(&v, (smma_operand) s->op, &l, err);
    if (rc == SMMA_OK)
        rc = start_rows(s, level, seed, "lane:u8 reg:u8 elem:u8", "row:u8 col:u8 lsb:u8",
                        regs_comments, &w, err);
    if (rc == SMMA_OK)
        rc = frag_mma_regs(&l, &v, (smma_operand) s->op, w, err);
    return finish(rc, w, out);
}

/* ldmatrix / stmatrix: var = 6 kind + 2 log2(num) + trans. */
static smma_matrix_op
ldmatrix_op(unsigned var)
{
    smma_matrix_op op;

    op.kind = (smma_matrix_kind) (var / 6);
    op.num = 1u << (var / 2 % 3);
    op.trans = var & 1;
    return op;
}

static int
frag_ldmatrix(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
              smma_error *err)
{
    static const char *const comments[] = {
        "lane, reg, elem: 16-bit element elem (0: bits 15:0) of register reg of lane lane;",
        "matrix, row, col: the element of the 8x8 matrices as they lie in shared memory:",
        "row r of matrix i at the address given by lane 8i + r, col c at byte 2c of it.",
        "PTX ISA 9.7.14.5.15-16 (softmma/ldmatrix.h)", NULL
    };
    smma_matrix_op op = ldmatrix_op(s->var);
    smma_vec_writer *w = NULL;
    unsigned lane, reg, elem, matrix, row, col;
    int rc = start_rows(s, level, seed, "lane:u8 reg:u8 elem:u8",
                        "matrix:u8 row:u8 col:u8 lsb:u8", comments, &w, err);

    for (lane = 0; rc == SMMA_OK && lane < 32; lane++)
        for (reg = 0; rc == SMMA_OK && reg < op.num; reg++)
            for (elem = 0; rc == SMMA_OK && elem < 2; elem++) {
                uint64_t r[7] = { lane, reg, elem, 0, 0, 0, 16 * elem };

                smma_matrix_coord(&op, lane, reg, elem, &matrix, &row, &col);
                r[3] = matrix;
                r[4] = row;
                r[5] = col;
                rc = smma_vec_put_row(w, r, err);
            }
    return finish(rc, w, out);
}

/* The format pairs of wgmma, in list order. */
static const smma_format wgmma_fmts[6][2] = {
    { SMMA_BF16, SMMA_BF16 }, { SMMA_FP16, SMMA_FP16 }, { SMMA_E4M3, SMMA_E4M3 },
    { SMMA_E4M3, SMMA_E5M2 }, { SMMA_E5M2, SMMA_E4M3 }, { SMMA_E5M2, SMMA_E5M2 },
};

static int
frag_wgmma(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
           smma_error *err)
{
    static const char *const comments[] = {
        "thread, reg, elem: element elem (from the low bits) of 32-bit register reg of",
        "thread thread (0..127) of the warpgroup; row, col: its place in A (64 x K: row m,",
        "col k) or D (64 x N: row m, col n); lsb: its lowest bit in the register.  B has",
        "no register fragment (shared memory, see the mma suites).  PTX ISA 9.7.15.5.1.1",
        "(softmma/wgmma.h)", NULL
    };
    smma_wgmma_variant v = smma_wgmma_variant_make(wgmma_fmts[s->var][0],
                                                   wgmma_fmts[s->var][1], s->n);
    smma_wgmma_frag f;
    smma_vec_writer *w = NULL;
    unsigned t, reg, elem, row, col;
    int rc = smma_wgmma_frag_get(&v, s->op ? SMMA_WGMMA_OP_D : SMMA_WGMMA_OP_A, &f, err);

    if (rc == SMMA_OK)
        rc = start_rows(s, level, seed, "thread:u8 reg:u8 elem:u8", "row:u8 col:u8 lsb:u8",
                        comments, &w, err);
    for (t = 0; rc == SMMA_OK && t < SMMA_WGMMA_THREADS; t++)
        for (reg = 0; rc == SMMA_OK && reg < f.regs; reg++)
            for (elem = 0; rc == SMMA_OK && elem < f.elems; elem++) {
                uint64_t r[6] = { t, reg, elem, 0, 0, elem * f.elem_bits };

                smma_wgmma_coord(&f, t, reg, elem, &row, &col);
                r[3] = row;
                r[4] = col;
                rc = smma_vec_put_row(w, r, err);
            }
    return finish(rc, w, out);
}

/* tcgen05.ld / st: var = st << 4 | pack << 3 | shape, s->n = .num; the
 * second half of .16x32bx2 starts right after the first (immHalfSplitoff =
 * the width of one half, the least legal value). */
static smma_tmem_ldst
tmem_ldst_op(unsigned var, unsigned num)
{
    smma_tmem_ldst op;

    op.shape = (smma_tmem_shape) (var & 7);
    op.num = num;
    op.pack = var >> 3 & 1;
    op.half_off = op.shape == SMMA_TMEM_16X32BX2 ? num * (op.pack ? 2 : 1) : 0;
    return op;
}

static int
frag_tmem_ldst(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
               smma_error *err)
{
    static const char *const comments[] = {
        "lane, reg, elem: element elem of 32-bit register reg of thread lane of the warp",
        "(elem 1 only with .pack::16b / .unpack::16b: bits 31:16); dlane, dcol: the TMEM",
        "cell it is loaded from or stored to, as lane and column offsets from taddr; lsb:",
        "its lowest bit in the register (16-bit elements use bits 15:0 of their cell).",
        ".16x32bx2: immHalfSplitoff = the column width of one half.  PTX ISA 9.7.16.2.3",
        "and Figures 183-187, 193 (softmma/tmem.h); sm_100a: not yet checked on a GPU", NULL
    };
    smma_tmem_ldst op = tmem_ldst_op(s->var, s->n);
    unsigned regs = smma_tmem_ldst_regs(&op), elems = smma_tmem_ldst_elems(&op);
    unsigned lane, reg, elem, dlane, dcol;
    smma_vec_writer *w = NULL;
    int rc = start_rows(s, level, seed, "lane:u8 reg:u8 elem:u8", "dlane:u8 dcol:u16 lsb:u8",
                        comments, &w, err);

    for (lane = 0; rc == SMMA_OK && lane < 32; lane++)
        for (reg = 0; rc == SMMA_OK && reg < regs; reg++)
            for (elem = 0; rc == SMMA_OK && elem < elems; elem++) {
                uint64_t r[6] = { lane, reg, elem, 0, 0, 16 * elem };

                if (smma_tmem_ldst_coord(&op, lane, reg, elem, &dlane, &dcol) != SMMA_OK)
                    rc = smma_error_set(err, SMMA_EINVAL, "%s: no cell", s->name);
                r[3] = dlane;
                r[4] = dcol;
                if (rc == SMMA_OK)
                    rc = smma_vec_put_row(w, r, err);
            }
    return finish(rc, w, out);
}

/* The D layouts of tcgen05.mma: M, cta_group and the lane of the address. */
static const unsigned tmem_d_layouts[5][3] = {
    { 64, 1, 0 }, { 64, 1, 16 }, { 128, 1, 0 }, { 128, 2, 0 }, { 256, 2, 0 },
};

static int
frag_tmem_d(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
            smma_error *err)
{
    static const char *const comments[] = {
        "m, n: element (row m, column n) of D (M x N) of tcgen05.mma; cta, lane, col: the",
        "CTA of the pair and the TMEM cell that holds it, D's address at column 0 (a 16-bit",
        "D element sits in bits 15:0 of its cell).  PTX ISA 9.7.16.10.5 Layouts A, B, D, F",
        "with CUTLASS's tmem_frg for the row order (softmma/tmem.h); sm_100a: not yet",
        "checked on a GPU", NULL
    };
    const unsigned *d = tmem_d_layouts[s->var];
    smma_tmem_dlayout l = { d[0], s->n, d[1], smma_tmem_addr(d[2], 0) };
    unsigned m, n, cta, lane, col;
    smma_vec_writer *w = NULL;
    int rc = start_rows(s, level, seed, "m:u8 n:u8", "cta:u8 lane:u8 col:u16", comments, &w,
                        err);

    for (m = 0; rc == SMMA_OK && m < l.m; m++)
        for (n = 0; rc == SMMA_OK && n < l.n; n++) {
            uint64_t r[5] = { m, n, 0, 0, 0 };

            if (smma_tmem_d_coord(&l, m, n, &cta, &lane, &col) != SMMA_OK)
                rc = smma_error_set(err, SMMA_EINVAL, "%s: no cell", s->name);
            r[2] = cta;
            r[3] = lane;
            r[4] = col;
            if (rc == SMMA_OK)
                rc = smma_vec_put_row(w, r, err);
        }
    return finish(rc, w, out);
}

static int
frag_tmem_sf(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
             smma_error *err)
{
    static const char *const comments[] = {
        "sf_id: the instruction descriptor's scale-factor id (every legal one); row, kb,",
        "copy: scale (row, k block) of scale_A (row m) or scale_B (row n), copy 0..3 of",
        "the duplication to the four lane partitions; lane, col, byte: the TMEM cell and",
        "its byte that hold it, the scale address at column 0.  PTX ISA 9.7.16.10.7 with",
        "CUTLASS's tmem_sf_frg (softmma/tmem.h); sm_100a: not yet checked on a GPU", NULL
    };
    smma_tmem_sflayout l = { s->n, s->var, 0, 0 };
    unsigned id, row, kb, copy, lane, col, byte;
    smma_vec_writer *w = NULL;
    int rc = start_rows(s, level, seed, "sf_id:u8 row:u8 kb:u8 copy:u8", "lane:u8 col:u8 byte:u8",
                        comments, &w, err);

    for (id = 0; rc == SMMA_OK && id < 4; id++) {
        l.sf_id = id;
        if (smma_tmem_sf_check(&l, NULL) != SMMA_OK)
            continue;
        for (row = 0; rc == SMMA_OK && row < l.rows; row++)
            for (kb = 0; rc == SMMA_OK && kb < l.vec; kb++)
                for (copy = 0; rc == SMMA_OK && copy < 4; copy++) {
                    uint64_t r[7] = { id, row, kb, copy, 0, 0, 0 };

                    if (smma_tmem_sf_coord(&l, row, kb, copy, &lane, &col, &byte) != SMMA_OK)
                        rc = smma_error_set(err, SMMA_EINVAL, "%s: no cell", s->name);
                    r[4] = lane;
                    r[5] = col;
                    r[6] = byte;
                    if (rc == SMMA_OK)
                        rc = smma_vec_put_row(w, r, err);
                }
    }
    return finish(rc, w, out);
}

static int
gen_fragment(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
             smma_error *err)
{
    switch (s->isa) {
    case ISA_MMA:
        return frag_mma(s, level, seed, out, err);
    case ISA_MMA_BS:
        return frag_mma_bs(s, level, seed, out, err);
    case ISA_LDMATRIX:
        return frag_ldmatrix(s, level, seed, out, err);
    case ISA_WGMMA:
        return frag_wgmma(s, level, seed, out, err);
    case ISA_TMEM_LDST:
        return frag_tmem_ldst(s, level, seed, out, err);
    case ISA_TMEM_D:
        return frag_tmem_d(s, level, seed, out, err);
    case ISA_TMEM_SF:
        return frag_tmem_sf(s, level, seed, out, err);
    case ISA_TC05:
        break;
    }
    return smma_error_set(err, SMMA_EINVAL, "%s: no fragment generator", s->name);
}

/* ------------------------------------------------------------------ mma */

/* The number of random and exact-class cases of an mma suite. */
static unsigned
mma_cases(unsigned level, bool exact)
{
    if (exact)
        return level >= 2 ? 16 : 2;
    return level >= 2 ? 48 : 4;
}

/* Starts an mma suite: the model in the header, the scalar fields and the
 * blocks of the specs, the comments, and the model's own line. */
static int
start_mma(const struct suite *s, unsigned level, uint64_t seed, const char *in,
          const char *blocks_in, const char *blocks_out, const char *const *comments,
          const char *provisional, smma_vec_header *h, smma_vec_writer **w, smma_error *err)
{
    char line[512];
    int rc;

    start_header(s, level, seed, h);
    snprintf(h->model, sizeof(h->model), "%s", s->model->name);
    rc = add_spec(h, in, false, false, err);
    if (rc == SMMA_OK)
        rc = add_spec(h, blocks_in, false, true, err);
    if (rc == SMMA_OK)
        rc = add_spec(h, blocks_out, true, true, err);
    if (rc == SMMA_OK)
        rc = smma_vec_header_check(h, err);
    if (rc == SMMA_OK)
        rc = open_writer(h, comments, w, err);
    snprintf(line, sizeof(line), "model %s: %s; status: %s", s->model->name,
             s->model->summary, s->model->status);
    if (rc == SMMA_OK)
        rc = smma_vec_put_comment(*w, line, err);
    if (rc == SMMA_OK && provisional != NULL)
        rc = smma_vec_put_comment(*w, provisional, err);
    return rc;
}

/* One case's blocks: pointers to the values of each block field, which
 * the case owns. */
struct mma_case {
    smma_vec_case c;
    uint64_t scalars[8];
    const smma_vec_header *h;
};

/* Sets block `name` of the case to rows x cols values. */
static uint64_t *
case_block(struct mma_case *mc, const char *name, size_t rows, size_t cols)
{
    int fi = smma_vec_field_index(mc->h, name);
    smma_vec_block *b;

    if (fi < 0)
        return NULL;
    b = &mc->c.blocks[fi];
    free(b->v);
    b->rows = rows;
    b->cols = cols;
    b->v = calloc(rows * cols, sizeof(uint64_t));
    return b->v;
}

static void
case_free(struct mma_case *mc)
{
    size_t i;

    for (i = 0; i < SMMA_VEC_MAX_FIELDS; i++) {
        free(mc->c.blocks[i].v);
        mc->c.blocks[i].v = NULL;
    }
}

/* Copies n 32-bit registers into a block of rows x n / rows values. */
static int
put_regs(struct mma_case *mc, const char *name, const uint32_t *regs, size_t rows, size_t n,
         smma_error *err)
{
    uint64_t *v = case_block(mc, name, rows, n / rows);
    size_t i;

    if (v == NULL)
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    for (i = 0; i < n; i++)
        v[i] = regs[i];
    return SMMA_OK;
}

/* The inputs of case i: a K-major A and B, C and the scales of shape sh,
 * random or exact-class, from a seed of the suite's seed and the index. */
static int
mma_inputs(const smma_gemm_shape *sh, bool exact, uint64_t seed, unsigned i,
           smma_gemm_data *d, smma_error *err)
{
    uint64_t st = seed ^ (0x9e3779b97f4a7c15ull * (i + 1));

    return smma_gemm_generate(sh, exact ? SMMA_CLASS_EXACT : SMMA_CLASS_RANDOM, next_rand(&st),
                              d, err);
}

/* B of a K-major generated operand as a K x N row-major tile. */
static void
b_tile(const smma_gemm_shape *sh, const uint32_t *b, uint32_t *tile)
{
    size_t kk, j;

    for (kk = 0; kk < sh->k; kk++)
        for (j = 0; j < sh->n; j++)
            tile[kk * sh->n + j] = b[j * sh->k + kk];
}

static const char *const mma_sync_comments[] = {
    "a, b, c: the 32-bit registers of A, B and C, one row per lane (32 rows), one",
    "column per register, packed as the fragment suites of the instruction say",
    "(fragment.INSTRUCTION.a, .b, .c); d: D's registers after the instruction",
    "(fragment.INSTRUCTION.d); D = A B + C, each element by smma_dot under the model.",
    "class 0: random inputs (smma_gemm_generate, SMMA_CLASS_RANDOM), 1: exact-class",
    "inputs, on which every numerics model gives the same D", NULL
};

static int
mma_sync_case(const struct suite *s, const smma_mma_bs *bs, const smma_mma_bs_sel *sel,
              const smma_gemm_shape *sh, const smma_gemm_data *d, struct mma_case *mc,
              uint64_t *st, smma_error *err)
{
    uint32_t tile[64 * 16], a[32 * 4], b[32 * 2], c[32 * 4], dr[32 * 4], sfa[32], sfb[32];
    const smma_frag_layout *la, *lb, *lc;
    smma_frag_layout bl[3];
    unsigned i;
    int rc = SMMA_OK;

    if (bs == NULL) {
        la = smma_frag_layout_get((smma_mma_instr) s->var, SMMA_OP_A);
        lb = smma_frag_layout_get((smma_mma_instr) s->var, SMMA_OP_B);
        lc = smma_frag_layout_get((smma_mma_instr) s->var, SMMA_OP_C);
        smma_frag_pack(la, d->a, a);
        b_tile(sh, d->b, tile);
        smma_frag_pack(lb, tile, b);
        smma_frag_pack(lc, d->c, c);
        rc = smma_mma_exec((smma_mma_instr) s->var, s->model, a, b, c, dr, err);
    } else {
        for (i = 0; rc == SMMA_OK && i < 3; i++)
            rc = smma_mma_bs_layout(bs, (smma_operand) i, &bl[i], err);
        la = &bl[0];
        lb = &bl[1];
        lc = &bl[2];
        if (rc == SMMA_OK)
            rc = smma_mma_bs_pack(bs, SMMA_OP_A, d->a, a, err);
        b_tile(sh, d->b, tile);
        if (rc == SMMA_OK)
            rc = smma_mma_bs_pack(bs, SMMA_OP_B, tile, b, err);
        if (rc == SMMA_OK)
            rc = smma_mma_bs_pack(bs, SMMA_OP_C, d->c, c, err);
        /* The bytes the instruction does not read keep random values. */
        for (i = 0; i < 32; i++) {
            sfa[i] = (uint32_t) next_rand(st);
            sfb[i] = (uint32_t) next_rand(st);
        }
        if (rc == SMMA_OK && bs->scale_vec)
            rc = smma_mma_bs_sf_pack(bs, SMMA_OP_A, sel, d->sa, sfa, err);
        if (rc == SMMA_OK && bs->scale_vec)
            rc = smma_mma_bs_sf_pack(bs, SMMA_OP_B, sel, d->sb, sfb, err);
        if (rc == SMMA_OK)
            rc = smma_mma_bs_exec(bs, sel, s->model, a, b, c, sfa, sfb, dr, err);
    }
    if (rc == SMMA_OK)
        rc = put_regs(mc, "a", a, 32, 32 * la->regs, err);
    if (rc == SMMA_OK)
        rc = put_regs(mc, "b", b, 32, 32 * lb->regs, err);
    if (rc == SMMA_OK)
        rc = put_regs(mc, "c", c, 32, 32 * lc->regs, err);
    if (rc == SMMA_OK && bs != NULL && bs->scale_vec) {
        rc = put_regs(mc, "sfa", sfa, 32, 32, err);
        if (rc == SMMA_OK)
            rc = put_regs(mc, "sfb", sfb, 32, 32, err);
    }
    if (rc == SMMA_OK)
        rc = put_regs(mc, "d", dr, 32, 32 * lc->regs, err);
    return rc;
}

/* The legal selectors of a block-scaled variant, {0, 0, 0, 0} first. */
static size_t
bs_selectors(const smma_mma_bs *v, smma_mma_bs_sel *out)
{
    unsigned x;
    size_t n = 0;

    for (x = 0; x < 256; x++) {
        smma_mma_bs_sel sel = { x & 3, x >> 2 & 3, x >> 4 & 3, x >> 6 & 3 };

        if (smma_mma_bs_sel_check(v, &sel, NULL) == SMMA_OK)
            out[n++] = sel;
    }
    return n;
}

/* Adds comment lines (NULL-terminated). */
static int
put_comments(smma_vec_writer *w, const char *const *comments, smma_error *err)
{
    int rc = SMMA_OK;

    for (; rc == SMMA_OK && *comments != NULL; comments++)
        rc = smma_vec_put_comment(w, *comments, err);
    return rc;
}

static int
gen_mma_sync(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
             smma_error *err)
{
    static const char *const bs_comments[] = {
        "sfa, sfb: the scale registers (scale-a-data, scale-b-data), one per lane, and",
        "byte_id_a, thread_id_a, byte_id_b, thread_id_b the selectors of the case",
        "(fragment.INSTRUCTION.sfa, .sfb), {0, 0, 0, 0} in case 0, then drawn from the",
        "legal ones; the bytes the instruction does not read hold random values, which",
        "a subject must not read", NULL
    };
    static const char *const f16_comments[] = {
        "c and d hold two f16 per register, the lower column in bits 15:0; no exact-class",
        "cases (they need an fp32 D)", NULL
    };
    smma_mma_bs v, *bs = NULL;
    smma_mma_bs_sel sels[256], zero = { 0, 0, 0, 0 };
    smma_gemm_shape sh;
    smma_vec_header h;
    smma_vec_writer *w = NULL;
    struct mma_case mc;
    size_t nsel = 1;
    bool scaled = false, f16acc;
    char blocks_in[80];
    uint64_t st = seed;
    unsigned i, nrand, nexact;
    int rc;

    memset(&mc, 0, sizeof(mc));
    sels[0] = zero;
    if (s->isa == ISA_MMA_BS) {
        rc = smma_mma_bs_at(s->var, &v, err);
        if (rc == SMMA_OK)
            rc = smma_mma_bs_shape(&v, &sh, err);
        bs = &v;
        scaled = v.scale_vec != 0;
        if (scaled)
            nsel = bs_selectors(&v, sels);
    } else {
        rc = smma_mma_instr_shape((smma_mma_instr) s->var, &sh, err);
    }
    if (rc != SMMA_OK)
        return rc;
    f16acc = sh.d_fmt != SMMA_FP32;
    snprintf(blocks_in, sizeof(blocks_in), "a:u32 b:u32 c:%s%s", f16acc ? "u32" : "fp32",
             scaled ? " sfa:u32 sfb:u32" : "");
    rc = start_mma(s, level, seed,
                   scaled ? "class:u8 byte_id_a:u8 thread_id_a:u8 byte_id_b:u8 thread_id_b:u8"
                          : "class:u8",
                   blocks_in, f16acc ? "d:u32" : "d:fp32", mma_sync_comments,
                   s->isa == ISA_MMA_BS ? "sm_120a: every model here is provisional for this "
                                          "instruction (none has been checked on a GPU)"
                                        : NULL,
                   &h, &w, err);
    if (rc == SMMA_OK && scaled)
        rc = put_comments(w, bs_comments, err);
    if (rc == SMMA_OK && f16acc)
        rc = put_comments(w, f16_comments, err);
    mc.h = &h;
    mc.c.scalars = mc.scalars;
    nrand = mma_cases(level, false);
    nexact = f16acc ? 0 : mma_cases(level, true);
    for (i = 0; rc == SMMA_OK && i < nrand + nexact; i++) {
        smma_gemm_data d;
        const smma_mma_bs_sel *sel = &sels[i == 0 ? 0 : next_rand(&st) % nsel];

        rc = mma_inputs(&sh, i >= nrand, seed, i, &d, err);
        if (rc != SMMA_OK)
            break;
        mc.scalars[0] = i >= nrand;
        mc.scalars[1] = sel->byte_id_a;
        mc.scalars[2] = sel->thread_id_a;
        mc.scalars[3] = sel->byte_id_b;
        mc.scalars[4] = sel->thread_id_b;
        rc = mma_sync_case(s, bs, sel, &sh, &d, &mc, &st, err);
        if (rc == SMMA_OK)
            rc = smma_vec_put_case(w, &mc.c, err);
        smma_gemm_data_free(&d);
    }
    case_free(&mc);
    return finish(rc, w, out);
}

/* The immediates of wgmma case i: the swizzle of B's descriptor cycles
 * through none, 128B, 64B, 32B; B is N-major (16-bit only) in odd cases;
 * A is negated in every third, B in every fifth from case 1; scale-d is
 * false in every fourth from case 2; the core matrices or atoms of B are
 * adjacent along K (k_inner) in cases 2, 3, 6, 7, ... */
static void
wgmma_case_variant(unsigned i, smma_wgmma_variant *v, smma_wgmma_swizzle *swz, bool *k_inner)
{
    bool wide = v->a_fmt == SMMA_BF16 || v->a_fmt == SMMA_FP16;

    *swz = (smma_wgmma_swizzle) (i % 4);
    *k_inner = (i >> 1) & 1;
    v->trans_b = wide && i % 2 == 1;
    v->scale_a = i % 3 == 2 ? -1 : 1;
    v->scale_b = i % 5 == 1 ? -1 : 1;
    v->scale_d = i % 4 != 2;
}

static int
wgmma_case(const struct suite *s, unsigned i, const smma_gemm_shape *sh,
           const smma_gemm_data *d, struct mma_case *mc, uint64_t *st, smma_error *err)
{
    smma_wgmma_variant v = smma_wgmma_variant_make(wgmma_fmts[s->var][0],
                                                   wgmma_fmts[s->var][1], s->n);
    uint32_t a[128 * 4], *tile, *din, *dout, bytes, j;
    uint8_t *smem;
    smma_wgmma_frag fa, fd;
    smma_wgmma_swizzle swz;
    smma_wgmma_desc desc;
    uint64_t bdesc, *sv;
    bool k_inner;
    size_t size;
    int rc;

    wgmma_case_variant(i, &v, &swz, &k_inner);
    rc = smma_wgmma_frag_get(&v, SMMA_WGMMA_OP_A, &fa, err);
    if (rc == SMMA_OK)
        rc = smma_wgmma_frag_get(&v, SMMA_WGMMA_OP_D, &fd, err);
    if (rc == SMMA_OK)
        rc = smma_wgmma_desc_dense(&v, SMMA_WGMMA_OP_B, swz, k_inner, 0, &desc, &bytes, err);
    if (rc == SMMA_OK)
        rc = smma_wgmma_desc_encode(&desc, &bdesc, err);
    if (rc != SMMA_OK)
        return rc;
    size = (bytes + 15) / 16 * 16;
    smem = malloc(size);
    tile = malloc(sh->k * sh->n * sizeof(*tile));
    din = malloc(128 * fd.regs * sizeof(*din));
    dout = malloc(128 * fd.regs * sizeof(*dout));
    if (smem == NULL || tile == NULL || din == NULL || dout == NULL) {
        free(smem);
        free(tile);
        free(din);
        free(dout);
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    }
    /* Bytes of the image that hold no element of B stay random. */
    for (j = 0; j < size; j++)
        smem[j] = (uint8_t) next_rand(st);
    b_tile(sh, d->b, tile);
    smma_wgmma_pack(&fa, d->a, a);
    smma_wgmma_pack(&fd, d->c, din);
    if (!v.scale_d)
        for (j = 0; j < 128 * fd.regs; j++)
            din[j] = (uint32_t) next_rand(st);
    rc = smma_wgmma_smem_store(&v, SMMA_WGMMA_OP_B, bdesc, tile, smem, size, err);
    if (rc == SMMA_OK)
        rc = smma_wgmma_exec(&v, s->model, a, 0, bdesc, smem, size, din, dout, err);
    mc->scalars[1] = v.scale_d;
    mc->scalars[2] = v.scale_a < 0;
    mc->scalars[3] = v.scale_b < 0;
    mc->scalars[4] = v.trans_b;
    mc->scalars[5] = bdesc;
    if (rc == SMMA_OK)
        rc = put_regs(mc, "a", a, 128, 128 * fa.regs, err);
    if (rc == SMMA_OK && (sv = case_block(mc, "smem", size / 16, 16)) == NULL)
        rc = smma_error_set(err, SMMA_ENOMEM, "out of memory");
    for (j = 0; rc == SMMA_OK && j < size; j++)
        sv[j] = smem[j];
    if (rc == SMMA_OK)
        rc = put_regs(mc, "d_in", din, 128, 128 * fd.regs, err);
    if (rc == SMMA_OK)
        rc = put_regs(mc, "d", dout, 128, 128 * fd.regs, err);
    free(smem);
    free(tile);
    free(din);
    free(dout);
    return rc;
}

static int
gen_mma_wgmma(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
              smma_error *err)
{
    static const char *const comments[] = {
        "a: the registers of A (wgmma with A from registers), one row per thread of the",
        "warpgroup (128 rows), one column per register (fragment.INSTRUCTION.a); smem:",
        "the shared memory from address 0, 16 bytes a row, holding B as the descriptor",
        "b_desc (64 bits, PTX ISA \"Matrix Descriptor Format\") describes it, bytes outside",
        "B random; d_in, d: D's registers (fragment.INSTRUCTION.d) before and after",
        "wgmma.mma_async ... d, a, b_desc, scale_d, imm-scale-a, imm-scale-b[, imm-trans-b]",
        "with imm-scale-a = -1 when neg_a is 1 (else 1), the same for B, imm-trans-b =",
        "trans_b (B N-major; bf16/f16 only); with scale_d 0, D = A B and d_in is random",
        "and not read.  D = A B + D, each element by smma_dot under the model.  class 0:",
        "random inputs, 1: exact-class inputs (every numerics model gives the same D)", NULL
    };
    smma_wgmma_variant v = smma_wgmma_variant_make(wgmma_fmts[s->var][0],
                                                   wgmma_fmts[s->var][1], s->n);
    smma_gemm_shape sh;
    smma_vec_header h;
    smma_vec_writer *w = NULL;
    struct mma_case mc;
    uint64_t st = seed;
    unsigned i, nrand = mma_cases(level, false), nexact = mma_cases(level, true);
    int rc = smma_wgmma_shape(&v, &sh, err);

    memset(&mc, 0, sizeof(mc));
    if (rc == SMMA_OK)
        rc = start_mma(s, level, seed,
                       "class:u8 scale_d:u8 neg_a:u8 neg_b:u8 trans_b:u8 b_desc:u64",
                       "a:u32 smem:u8 d_in:fp32", "d:fp32", comments, NULL, &h, &w, err);
    mc.h = &h;
    mc.c.scalars = mc.scalars;
    for (i = 0; rc == SMMA_OK && i < nrand + nexact; i++) {
        smma_gemm_data d;

        rc = mma_inputs(&sh, i >= nrand, seed, i, &d, err);
        if (rc != SMMA_OK)
            break;
        mc.scalars[0] = i >= nrand;
        rc = wgmma_case(s, i, &sh, &d, &mc, &st, err);
        if (rc == SMMA_OK)
            rc = smma_vec_put_case(w, &mc.c, err);
        smma_gemm_data_free(&d);
    }
    case_free(&mc);
    return finish(rc, w, out);
}

/* The tcgen05.mma forms of the mma suites, var 0..55: kind::f16 with f16
 * and with bf16 A and B (0, 1); kind::f8f6f4 (2 + 5 ia + ib) and
 * kind::mxf8f6f4 1X (27 + 5 ia + ib), ia and ib in the order e4m3 e5m2
 * e3m2 e2m3 e2m1; kind::mxf4 2X (52); kind::mxf4nvf4 2X with ue8m0 scales
 * (53), 4X with ue4m3 (54) and 4X with ue8m0 (55).  Always cta_group::1,
 * M = 128, N = s->n, A and B K-major in shared memory, D f32. */
struct tc05_form {
    smma_tc05_kind kind;
    smma_format a, b, scale;
    unsigned a_code, b_code, scale_vec, elem_bits;
};

static const smma_format tc05_f8[5] = { SMMA_E4M3, SMMA_E5M2, SMMA_E3M2, SMMA_E2M3, SMMA_E2M1 };
static const unsigned tc05_f8_code[5] = { SMMA_TC05_E4M3, SMMA_TC05_E5M2, SMMA_TC05_E3M2,
                                          SMMA_TC05_E2M3, SMMA_TC05_E2M1 };

static struct tc05_form
tc05_form(unsigned var)
{
    struct tc05_form f;

    memset(&f, 0, sizeof(f));
    f.scale = SMMA_NONE;
    if (var < 2) {
        f.kind = SMMA_TC05_KIND_F16;
        f.a = f.b = var ? SMMA_BF16 : SMMA_FP16;
        f.a_code = f.b_code = var ? SMMA_TC05_BF16 : SMMA_TC05_F16;
        f.elem_bits = 16;
    } else if (var < 52) {
        unsigned j = (var - 2) % 25;

        f.kind = var < 27 ? SMMA_TC05_KIND_F8F6F4 : SMMA_TC05_KIND_MXF8F6F4;
        f.a = tc05_f8[j / 5];
        f.b = tc05_f8[j % 5];
        f.a_code = tc05_f8_code[j / 5];
        f.b_code = tc05_f8_code[j % 5];
        f.elem_bits = 8;
        if (var >= 27) {
            f.scale = SMMA_E8M0;
            f.scale_vec = 1;
        }
    } else {
        f.kind = var == 52 ? SMMA_TC05_KIND_MXF4 : SMMA_TC05_KIND_MXF4NVF4;
        f.a = f.b = SMMA_E2M1;
        f.a_code = f.b_code = SMMA_TC05_MXF4_E2M1;
        f.elem_bits = 4;
        f.scale = var == 54 ? SMMA_UE4M3 : SMMA_E8M0;
        f.scale_vec = var >= 54 ? 4 : 2;
    }
    return f;
}

/* The name of a form: "m128n16k32.f8f6f4.e4m3.e2m1", "m128n16k64.mxf4nvf4.4x"... */
static void
tc05_name(unsigned var, unsigned n, char *buf, size_t size)
{
    struct tc05_form f = tc05_form(var);
    unsigned k = smma_tc05_mma_k(f.kind, false);
    int at = snprintf(buf, size, "tcgen05.m128n%uk%u.%s", n, k, smma_tc05_kind_name(f.kind));

    if (f.kind == SMMA_TC05_KIND_F16)
        snprintf(buf + at, size - (size_t) at, ".%s", f.a == SMMA_FP16 ? "f16" : "bf16");
    else if (f.elem_bits == 8)
        snprintf(buf + at, size - (size_t) at, ".%s.%s", smma_format_name(f.a),
                 smma_format_name(f.b));
    else if (f.kind == SMMA_TC05_KIND_MXF4NVF4)
        snprintf(buf + at, size - (size_t) at, ".%ux%s", f.scale_vec,
                 var == 55 ? ".ue8m0" : "");
}

static smma_gemm_shape
tc05_shape(const struct tc05_form *f, unsigned n)
{
    smma_gemm_shape sh;

    memset(&sh, 0, sizeof(sh));
    sh.a_fmt = f->a;
    sh.b_fmt = f->b;
    sh.scale_fmt = f->scale;
    sh.k = smma_tc05_mma_k(f->kind, false);
    sh.vec = f->scale_vec ? (unsigned) sh.k / f->scale_vec : 32;
    sh.c_fmt = sh.d_fmt = SMMA_FP32;
    sh.m = 128;
    sh.n = n;
    return sh;
}

/* K-major canonical layout of `rows` rows in swizzle mode sw (softmma/
 * tcgen05.h): without swizzling the core matrices of 8 rows x 16 bytes
 * lie next to each other along M/N (SBO 128), the two along K LBO apart;
 * swizzled, 8-row atoms of W bytes follow each other (SBO 8W, LBO 16). */
static smma_tc05_layout
tc05_layout(smma_tc05_swizzle sw, unsigned bits, unsigned rows, uint32_t *bytes)
{
    smma_tc05_layout l;
    unsigned w = smma_tc05_swizzle_bytes(sw);

    l.mn_major = false;
    l.swizzle = sw;
    l.elem_bits = bits;
    if (sw == SMMA_TC05_SWIZZLE_NONE) {
        l.sbo = 128;
        l.lbo = 128 * ((rows + 7) / 8);
        *bytes = 2 * l.lbo;
    } else {
        l.lbo = 16;
        l.sbo = 8 * w;
        *bytes = (rows + 7) / 8 * 8 * w;
    }
    return l;
}

/* Stores the code of element (row, k) at its address: a 16-bit element
 * little-endian, an 8-bit container with 4- and 6-bit codes in bits 5:2
 * (e2m1) or 5:0, zero elsewhere; two e2m1 to a byte for 4-bit operands. */
static int
tc05_put(uint8_t *smem, const smma_tc05_layout *l, uint32_t start, unsigned row, unsigned k,
         smma_format f, uint32_t code, smma_error *err)
{
    uint32_t byte;
    unsigned bit;
    int rc = smma_tc05_smem_addr(l, start, row, k, &byte, &bit, err);

    if (rc != SMMA_OK)
        return rc;
    if (l->elem_bits == 16) {
        smem[byte] = (uint8_t) code;
        smem[byte + 1] = (uint8_t) (code >> 8);
    } else if (l->elem_bits == 8) {
        smem[byte] = (uint8_t) (f == SMMA_E2M1 ? code << 2 : code);
    } else {
        smem[byte] = (uint8_t) ((smem[byte] & ~(0xFu << bit)) | (code & 0xFu) << bit);
    }
    return SMMA_OK;
}

/* The TMEM columns of a case: D at 0, then scale_A (4 columns for 128
 * rows), then scale_B. */
#define TC05_SFA_COL(n) (n)
#define TC05_SFB_COL(n) ((n) + 4)

static int
tc05_case(const struct suite *s, unsigned i, unsigned level, const smma_gemm_shape *sh,
          const smma_gemm_data *d, smma_tmem *t, struct mma_case *mc, uint64_t *st,
          smma_error *err)
{
    static const smma_tc05_swizzle swz[4] = { SMMA_TC05_SWIZZLE_NONE, SMMA_TC05_SWIZZLE_32B,
                                              SMMA_TC05_SWIZZLE_64B, SMMA_TC05_SWIZZLE_128B };
    struct tc05_form f = tc05_form(s->var);
    smma_tc05_swizzle sw = swz[level >= 2 ? i % 4 : i % 2];
    smma_tmem_dlayout dl = { 128, s->n, 1, 0 };
    smma_tmem_sflayout sfa = { 128, f.scale_vec, 0, smma_tmem_addr(0, TC05_SFA_COL(s->n)) };
    smma_tmem_sflayout sfb = { s->n, f.scale_vec, 0, smma_tmem_addr(0, TC05_SFB_COL(s->n)) };
    unsigned ncols = f.scale_vec ? TC05_SFB_COL(s->n) + 1 : s->n, m, n, k, kb, p, ids[4], nid = 0;
    uint32_t abytes, bbytes, bstart, idw, lane, col, byte;
    smma_tc05_layout la = tc05_layout(sw, f.elem_bits, 128, &abytes);
    smma_tc05_layout lb = tc05_layout(sw, f.elem_bits, s->n, &bbytes);
    smma_tc05_sdesc sd;
    smma_tc05_idesc id;
    smma_tc05_mma op;
    smma_tc05_cta cta;
    uint8_t *smem;
    uint64_t *v;
    size_t size;
    int rc = SMMA_OK;

    bstart = (abytes + 1023) / 1024 * 1024;
    size = bstart + (bbytes + 15) / 16 * 16;
    smem = calloc(size, 1);
    if (smem == NULL)
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    memset(&id, 0, sizeof(id));
    id.a_fmt = f.a_code;
    id.b_fmt = f.b_code;
    id.negate_a = i % 3 == 2;
    id.negate_b = i % 5 == 1;
    id.n = s->n;
    id.m = 128;
    if (f.scale_vec) {
        for (k = 0; k < 4; k++) {
            sfa.sf_id = k;
            if (smma_tmem_sf_check(&sfa, NULL) == SMMA_OK)
                ids[nid++] = k;
        }
        id.scale_fmt = f.scale == SMMA_UE4M3 ? SMMA_TC05_SCALE_UE4M3 : SMMA_TC05_SCALE_UE8M0;
        sfa.sf_id = id.sfa_id = ids[i % nid];
        sfb.sf_id = id.sfb_id = ids[(i / 2) % nid];
    } else {
        id.d_fmt = SMMA_TC05_D_F32;
    }
    memset(&op, 0, sizeof(op));
    op.kind = f.kind;
    op.cta_group = 1;
    op.scale_vec = f.scale_vec;
    op.d_taddr = dl.addr;
    op.sfa_taddr = sfa.addr;
    op.sfb_taddr = sfb.addr;
    op.enable_input_d = i % 4 != 2;
    rc = smma_tc05_idesc_encode(f.kind, &id, &idw, err);
    op.idesc = idw;
    memset(&sd, 0, sizeof(sd));
    sd.swizzle = sw;
    sd.lbo = la.lbo;
    sd.sbo = la.sbo;
    if (rc == SMMA_OK)
        rc = smma_tc05_sdesc_encode(&sd, &op.a_desc, err);
    sd.start = bstart;
    sd.lbo = lb.lbo;
    sd.sbo = lb.sbo;
    if (rc == SMMA_OK)
        rc = smma_tc05_sdesc_encode(&sd, &op.b_desc, err);
    for (m = 0; rc == SMMA_OK && m < 128; m++)
        for (k = 0; rc == SMMA_OK && k < sh->k; k++)
            rc = tc05_put(smem, &la, 0, m, k, f.a, d->a[m * sh->k + k], err);
    for (n = 0; rc == SMMA_OK && n < s->n; n++)
        for (k = 0; rc == SMMA_OK && k < sh->k; k++)
            rc = tc05_put(smem, &lb, bstart, n, k, f.b, d->b[n * sh->k + k], err);
    /* TMEM: D (random when it is not read), the scales with random bytes
     * where the instruction reads nothing. */
    smma_tmem_init(t);
    for (lane = 0; lane < 128; lane++)
        for (col = 0; col < ncols; col++)
            t->cell[lane][col] = (uint32_t) next_rand(st);
    for (m = 0; op.enable_input_d && m < 128; m++)
        for (n = 0; n < s->n; n++)
            t->cell[m][n] = d->c[m * s->n + n];
    for (kb = 0; kb < f.scale_vec; kb++)
        for (p = 0; p < 4; p++) {
            for (m = 0; m < 128; m++) {
                smma_tmem_sf_coord(&sfa, m, kb, p, &lane, &col, &byte);
                t->cell[lane][col] &= ~(0xFFu << (8 * byte));
                t->cell[lane][col] |= d->sa[m * f.scale_vec + kb] << (8 * byte);
            }
            for (n = 0; n < s->n; n++) {
                smma_tmem_sf_coord(&sfb, n, kb, p, &lane, &col, &byte);
                t->cell[lane][col] &= ~(0xFFu << (8 * byte));
                t->cell[lane][col] |= d->sb[n * f.scale_vec + kb] << (8 * byte);
            }
        }
    mc->scalars[1] = op.idesc;
    mc->scalars[2] = op.a_desc;
    mc->scalars[3] = op.b_desc;
    mc->scalars[4] = op.enable_input_d;
    if (rc == SMMA_OK && (v = case_block(mc, "smem", size / 16, 16)) == NULL)
        rc = smma_error_set(err, SMMA_ENOMEM, "out of memory");
    for (k = 0; rc == SMMA_OK && k < size; k++)
        v[k] = smem[k];
    if (rc == SMMA_OK && (v = case_block(mc, "tmem", 128, ncols)) == NULL)
        rc = smma_error_set(err, SMMA_ENOMEM, "out of memory");
    for (lane = 0; rc == SMMA_OK && lane < 128; lane++)
        for (col = 0; col < ncols; col++)
            v[lane * ncols + col] = t->cell[lane][col];
    cta.smem = smem;
    cta.smem_size = size;
    cta.tmem = t;
    if (rc == SMMA_OK)
        rc = smma_tc05_mma_exec(&op, s->model, &cta, err);
    if (rc == SMMA_OK && (v = case_block(mc, "d", 128, s->n)) == NULL)
        rc = smma_error_set(err, SMMA_ENOMEM, "out of memory");
    for (m = 0; rc == SMMA_OK && m < 128; m++)
        for (n = 0; n < s->n; n++)
            v[m * s->n + n] = t->cell[m][n];
    free(smem);
    return rc;
}

static int
gen_mma_tc05(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
             smma_error *err)
{
    static const char *const comments[] = {
        "tcgen05.mma.cta_group::1.kind::KIND[.block_scale.scale_vec::NX] [d_taddr], a_desc,",
        "b_desc, idesc[, [sfa_taddr], [sfb_taddr]], enable_input_d, with d_taddr = lane 0",
        "column 0 and, for the block-scaled kinds, sfa_taddr column N, sfb_taddr column",
        "N + 4.  idesc: the instruction descriptor (PTX ISA \"Instruction descriptor\"; M",
        "128, N, the formats, negate A / B, the scale format and ids); a_desc, b_desc: the",
        "shared-memory descriptors (A at address 0, B after it, both K-major, the swizzle",
        "cycling through none and 32B at level 1, every mode at level 2); smem: the shared",
        "memory from address 0, 16 bytes a row (f16/bf16 elements little-endian, f8f6f4",
        "and mxf8f6f4 elements one per byte, e2m1 in bits 5:2 and e2m3/e3m2 in bits 5:0,",
        "mxf4 and mxf4nvf4 two e2m1 per byte, the lower k in the low nibble); tmem: lanes",
        "0-127 x the columns from 0: D (layout D: lane m, column n; random and not read",
        "when enable_input_d is 0), then scale_A and scale_B as fragment.tcgen05.sf.* says",
        "(four copies, the other bytes random); d: columns 0..N-1 after the instruction, so",
        "d[m][n] = D[m][n].  class 0: random inputs, 1: exact-class inputs", NULL
    };
    struct tc05_form f = tc05_form(s->var);
    smma_gemm_shape sh = tc05_shape(&f, s->n);
    smma_vec_header h;
    smma_vec_writer *w = NULL;
    struct mma_case mc;
    uint64_t st = seed;
    unsigned i, nrand = level >= 2 ? 24 : 3, nexact = level >= 2 ? 8 : 1;
    smma_tmem *t = malloc(sizeof(*t));
    int rc = t == NULL ? smma_error_set(err, SMMA_ENOMEM, "out of memory") : SMMA_OK;

    memset(&mc, 0, sizeof(mc));
    if (rc == SMMA_OK)
        rc = start_mma(s, level, seed, "class:u8 idesc:u32 a_desc:u64 b_desc:u64 "
                       "enable_input_d:u8", "smem:u8 tmem:u32", "d:fp32", comments,
                       "sm_100a: every model here is provisional for this instruction (none "
                       "has been checked on a GPU)", &h, &w, err);
    mc.h = &h;
    mc.c.scalars = mc.scalars;
    for (i = 0; rc == SMMA_OK && i < nrand + nexact; i++) {
        smma_gemm_data d;

        rc = mma_inputs(&sh, i >= nrand, seed, i, &d, err);
        if (rc != SMMA_OK)
            break;
        mc.scalars[0] = i >= nrand;
        rc = tc05_case(s, i, level, &sh, &d, t, &mc, &st, err);
        if (rc == SMMA_OK)
            rc = smma_vec_put_case(w, &mc.c, err);
        smma_gemm_data_free(&d);
    }
    case_free(&mc);
    free(t);
    return finish(rc, w, out);
}

static int
gen_mma(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
        smma_error *err)
{
    switch (s->isa) {
    case ISA_MMA:
    case ISA_MMA_BS:
        return gen_mma_sync(s, level, seed, out, err);
    case ISA_WGMMA:
        return gen_mma_wgmma(s, level, seed, out, err);
    case ISA_TC05:
        return gen_mma_tc05(s, level, seed, out, err);
    default:
        break;
    }
    return smma_error_set(err, SMMA_EINVAL, "%s: no mma generator", s->name);
}

/* ------------------------------------------------------------------ gemm */

/* The format combinations of the gemm suites. */
static const struct gemm_combo {
    const char *name;
    smma_format a, b, scale;
    unsigned vec;
} gemm_combos[] = {
    { "mxfp8", SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32 },
    { "mxfp6e2m3", SMMA_E2M3, SMMA_E2M3, SMMA_E8M0, 32 },
    { "mxfp6e3m2", SMMA_E3M2, SMMA_E3M2, SMMA_E8M0, 32 },
    { "mxfp4", SMMA_E2M1, SMMA_E2M1, SMMA_E8M0, 32 },
    { "nvfp4", SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, 16 },
    { "mxfp8-mxfp4", SMMA_E4M3, SMMA_E2M1, SMMA_E8M0, 32 },
    { "bf16", SMMA_BF16, SMMA_BF16, SMMA_NONE, 32 },
};
#define NCOMBO (sizeof(gemm_combos) / sizeof(gemm_combos[0]))

/* The tile problems (m, n, k) of a level: level 1 one tile and one with a
 * short last scale block; level 2 adds larger tiles and more draws. */
static const unsigned gemm_problems[][3] = {
    { 32, 16, 64 }, { 16, 8, 80 },
    { 128, 64, 128 }, { 64, 32, 256 }, { 32, 16, 64 }, { 32, 16, 64 }, { 16, 16, 96 },
};

static size_t
gemm_nproblems(unsigned level)
{
    return level >= 2 ? sizeof(gemm_problems) / sizeof(gemm_problems[0]) : 2;
}

static smma_gemm_shape
gemm_shape(const struct gemm_combo *c, const unsigned *p)
{
    smma_gemm_shape sh;

    memset(&sh, 0, sizeof(sh));
    sh.a_fmt = c->a;
    sh.b_fmt = c->b;
    sh.scale_fmt = c->scale;
    sh.vec = c->vec;
    sh.c_fmt = SMMA_FP32;
    sh.d_fmt = SMMA_FP32;
    sh.m = p[0];
    sh.n = p[1];
    sh.k = p[2];
    return sh;
}

/* The models of the model-class suites of a combination: exact-rn and
 * fp32-fma-seq for all; bf16-upcast-h100 and the provisional b200-fp8 for
 * the block-scaled ones; h100-fp8 where A and B are fp8; h100-bf16 for
 * bf16.  Those smma_model_check refuses are left out (gemm_suites). */
static size_t
gemm_models(const struct gemm_combo *c, const char **names)
{
    size_t n = 0;

    names[n++] = "exact-rn";
    names[n++] = "fp32-fma-seq";
    if (c->scale != SMMA_NONE) {
        names[n++] = "bf16-upcast-h100";
        names[n++] = "b200-fp8";
    }
    if ((c->a == SMMA_E4M3 || c->a == SMMA_E5M2) && (c->b == SMMA_E4M3 || c->b == SMMA_E5M2))
        names[n++] = "h100-fp8";
    if (c->a == SMMA_BF16)
        names[n++] = "h100-bf16";
    return n;
}

/* Fills a rows x cols block from a strided source: element (r, c) is
 * src[r * rs + c * cs]. */
static int
put_matrix(struct mma_case *mc, const char *name, const uint32_t *src, size_t rows,
           size_t cols, size_t rs, size_t cs, smma_error *err)
{
    uint64_t *v = case_block(mc, name, rows, cols);
    size_t r, c;

    if (v == NULL)
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    for (r = 0; r < rows; r++)
        for (c = 0; c < cols; c++)
            v[r * cols + c] = src[r * rs + c * cs];
    return SMMA_OK;
}

/* The names of the models that can compute shape sh, space-separated. */
static void
gemm_exact_models(const smma_gemm_shape *sh, char *buf, size_t size)
{
    size_t i, at = 0;

    buf[0] = '\0';
    for (i = 0; i < smma_model_count(); i++) {
        const smma_model *m = smma_model_at(i);

        if (smma_model_check(m, sh, NULL) == SMMA_OK && at + strlen(m->name) + 2 < size)
            at += (size_t) snprintf(buf + at, size - at, "%s%s", at ? " " : "", m->name);
    }
}

/* D of the exact class under every model that can compute the shape: each
 * must equal exact-rn's D, or the suite is not generated. */
static int
gemm_exact_check(const smma_gemm_shape *sh, const smma_gemm_operands *ops, const uint32_t *d,
                 smma_error *err)
{
    uint32_t *d2 = malloc(sh->m * sh->n * sizeof(*d2));
    size_t i;
    int rc = SMMA_OK;

    if (d2 == NULL)
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    for (i = 0; rc == SMMA_OK && i < smma_model_count(); i++) {
        const smma_model *m = smma_model_at(i);

        if (smma_model_check(m, sh, NULL) != SMMA_OK)
            continue;
        rc = smma_gemm(m, sh, ops, d2, err);
        if (rc == SMMA_OK && memcmp(d, d2, sh->m * sh->n * sizeof(*d2)) != 0)
            rc = smma_error_set(err, SMMA_EINVAL, "exact-class D of %zux%zux%zu under %s "
                                "differs from exact-rn's", sh->m, sh->n, sh->k, m->name);
    }
    free(d2);
    return rc;
}

static int
gemm_case(const struct suite *s, const struct gemm_combo *co, const unsigned *p,
          uint64_t seed, struct mma_case *mc, smma_error *err)
{
    smma_gemm_shape sh = gemm_shape(co, p);
    smma_gemm_data d;
    smma_gemm_operands ops;
    size_t kb = smma_gemm_kblocks(&sh);
    uint32_t *dd = malloc(sh.m * sh.n * sizeof(*dd));
    const smma_model *exact;
    int rc = dd == NULL ? smma_error_set(err, SMMA_ENOMEM, "out of memory")
                        : smma_model_from_name("exact-rn", &exact, err);

    if (rc == SMMA_OK)
        rc = smma_gemm_generate(&sh, s->exact ? SMMA_CLASS_EXACT : SMMA_CLASS_RANDOM, seed, &d,
                                err);
    if (rc != SMMA_OK) {
        free(dd);
        return rc;
    }
    ops = smma_gemm_data_operands(&sh, &d);
    rc = smma_gemm(s->exact ? exact : s->model, &sh, &ops, dd, err);
    if (rc == SMMA_OK && s->exact)
        rc = gemm_exact_check(&sh, &ops, dd, err);
    mc->scalars[0] = sh.m;
    mc->scalars[1] = sh.n;
    mc->scalars[2] = sh.k;
    /* A and B are K-major in d: A (m x k) row-major, B (n x k) transposed
     * to k x n; SB (n x kb) to kb x n. */
    if (rc == SMMA_OK)
        rc = put_matrix(mc, "a", d.a, sh.m, sh.k, sh.k, 1, err);
    if (rc == SMMA_OK)
        rc = put_matrix(mc, "b", d.b, sh.k, sh.n, 1, sh.k, err);
    if (rc == SMMA_OK && kb > 0)
        rc = put_matrix(mc, "sa", d.sa, sh.m, kb, kb, 1, err);
    if (rc == SMMA_OK && kb > 0)
        rc = put_matrix(mc, "sb", d.sb, kb, sh.n, 1, kb, err);
    if (rc == SMMA_OK)
        rc = put_matrix(mc, "c", d.c, sh.m, sh.n, sh.n, 1, err);
    if (rc == SMMA_OK)
        rc = put_matrix(mc, "d", dd, sh.m, sh.n, sh.n, 1, err);
    smma_gemm_data_free(&d);
    free(dd);
    return rc;
}

static int
gen_gemm(const struct suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
         smma_error *err)
{
    static const char *const comments[] = {
        "one tile problem per case, every matrix a block in its mathematical orientation,",
        "row-major: a (m x k) and b (k x n) element codes, sa (m x kb) the scales of row i",
        "of A, sb (kb x n) the scales of column j of B, kb = ceil(k / vec), k block t",
        "covering k in [t vec, (t+1) vec) (the last one short when vec does not divide",
        "k); c (m x n) fp32, d (m x n) fp32: D = C + sum_k (A[i][k] SA[i][k/vec])",
        "(B[k][j] SB[k/vec][j]), each element by smma_dot (softmma/gemm.h)", NULL
    };
    const struct gemm_combo *co = &gemm_combos[s->combo];
    smma_vec_header h;
    smma_vec_writer *w = NULL;
    struct mma_case mc;
    char line[512], blocks_in[96], names[400];
    smma_gemm_shape sh = gemm_shape(co, gemm_problems[0]);
    uint64_t st = seed;
    size_t i;
    int rc;

    memset(&mc, 0, sizeof(mc));
    start_header(s, level, seed, &h);
    if (s->model != NULL)
        snprintf(h.model, sizeof(h.model), "%s", s->model->name);
    snprintf(blocks_in, sizeof(blocks_in), "a:%s b:%s", smma_format_name(co->a),
             smma_format_name(co->b));
    if (co->scale != SMMA_NONE)
        snprintf(blocks_in + strlen(blocks_in), sizeof(blocks_in) - strlen(blocks_in),
                 " sa:%s sb:%s", smma_format_name(co->scale), smma_format_name(co->scale));
    strcat(blocks_in, " c:fp32");
    rc = add_spec(&h, "m:u32 n:u32 k:u32", false, false, err);
    if (rc == SMMA_OK)
        rc = add_spec(&h, blocks_in, false, true, err);
    if (rc == SMMA_OK)
        rc = add_spec(&h, "d:fp32", true, true, err);
    if (rc == SMMA_OK)
        rc = smma_vec_header_check(&h, err);
    if (rc == SMMA_OK)
        rc = open_writer(&h, comments, &w, err);
    if (co->scale != SMMA_NONE)
        snprintf(line, sizeof(line), "%s: a %s, b %s, scales %s, vec %u", co->name,
                 smma_format_name(co->a), smma_format_name(co->b),
                 smma_format_name(co->scale), co->vec);
    else
        snprintf(line, sizeof(line), "%s: a %s, b %s, no scales", co->name,
                 smma_format_name(co->a), smma_format_name(co->b));
    if (rc == SMMA_OK)
        rc = smma_vec_put_comment(w, line, err);
    if (s->model != NULL) {
        snprintf(line, sizeof(line), "model %s: %s; status: %s", s->model->name,
                 s->model->summary, s->model->status);
        if (rc == SMMA_OK)
            rc = smma_vec_put_comment(w, line, err);
    }
    gemm_exact_models(&sh, names, sizeof(names));
    if (s->exact)
        snprintf(line, sizeof(line), "exact class (smma_gemm_generate, SMMA_CLASS_EXACT): "
                 "every model gives this D; checked when generated under %s", names);
    else
        snprintf(line, sizeof(line), "model class: random inputs (smma_gemm_generate, "
                 "SMMA_CLASS_RANDOM), D under the model");
    if (rc == SMMA_OK)
        rc = smma_vec_put_comment(w, line, err);
    mc.h = &h;
    mc.c.scalars = mc.scalars;
    for (i = 0; rc == SMMA_OK && i < gemm_nproblems(level); i++) {
        rc = gemm_case(s, co, gemm_problems[i], next_rand(&st), &mc, err);
        if (rc == SMMA_OK)
            rc = smma_vec_put_case(w, &mc.c, err);
    }
    case_free(&mc);
    return finish(rc, w, out);
}

/* ------------------------------------------------------------------ the table */

/* Appends a suite to the table being built: family, instruction family,
 * variant, operand, N, and its name from a format. */
static struct suite *
sim_add(enum suite_family fam, enum suite_isa isa, unsigned var, unsigned op, unsigned n,
        const char *fmt, ...)
{
    struct suite *s;
    va_list ap;

    if (sim_table.n >= SIM_MAX)
        return NULL;
    s = &sim_table.s[sim_table.n++];
    memset(s, 0, sizeof(*s));
    s->family = fam;
    s->isa = isa;
    s->var = var;
    s->op = op;
    s->n = n;
    va_start(ap, fmt);
    vsnprintf(s->name, sizeof(s->name), fmt, ap);
    va_end(ap);
    return s;
}

static const unsigned wgmma_ns[] = { 8, 16, 64, 256 };

static void
fragment_suites(void)
{
    unsigned i, op, num, k, shape, pack, st, li, n;
    char name[64];
    smma_mma_bs v;

    for (i = 0; i < SMMA_MMA_INSTR_COUNT; i++)
        for (op = 0; op < 4; op++)
            sim_add(SUITE_FRAGMENT, ISA_MMA, i, op, 0, "fragment.%s.%s",
                    smma_mma_instr_name((smma_mma_instr) i), op_names[op]);
    for (i = 0; i < SMMA_MMA_BS_COUNT; i++) {
        smma_mma_bs_at(i, &v, NULL);
        for (op = 0; op < (v.scale_vec ? 6u : 4u); op++)
            sim_add(SUITE_FRAGMENT, ISA_MMA_BS, i, op, 0, "fragment.%s.%s", smma_mma_bs_name(&v),
                    op_names[op]);
    }
    for (i = 0; i < 12; i++) {
        smma_matrix_op mo = ldmatrix_op(i);

        sim_add(SUITE_FRAGMENT, ISA_LDMATRIX, i, 0, 0, "fragment.%s.x%u%s",
                mo.kind == SMMA_LDMATRIX ? "ldmatrix" : "stmatrix", mo.num,
                mo.trans ? ".trans" : "");
    }
    for (i = 0; i < 6; i++)
        for (k = 0; k < sizeof(wgmma_ns) / sizeof(wgmma_ns[0]); k++)
            for (op = 0; op < 2; op++) {
                smma_wgmma_variant wv = smma_wgmma_variant_make(wgmma_fmts[i][0],
                                                                wgmma_fmts[i][1], wgmma_ns[k]);

                smma_wgmma_name(&wv, name, sizeof(name), NULL);
                sim_add(SUITE_FRAGMENT, ISA_WGMMA, i, op, wgmma_ns[k], "fragment.%s.%s", name,
                        op ? "d" : "a");
            }
    for (st = 0; st < 2; st++)
        for (shape = 0; shape < SMMA_TMEM_SHAPE_COUNT; shape++)
            for (pack = 0; pack < 2; pack++)
                for (num = 1; num <= 128; num *= 2) {
                    smma_tmem_ldst lo = tmem_ldst_op(st << 4 | pack << 3 | shape, num);

                    if (smma_tmem_ldst_check(&lo, NULL) != SMMA_OK)
                        continue;
                    sim_add(SUITE_FRAGMENT, ISA_TMEM_LDST, st << 4 | pack << 3 | shape, 0, num,
                            "fragment.tcgen05.%s.%s.x%u%s", st ? "st" : "ld",
                            smma_tmem_shape_name((smma_tmem_shape) shape), num,
                            pack ? (st ? ".unpack" : ".pack") : "");
                }
    for (li = 0; li < 5; li++)
        for (n = 16; n <= 256; n *= 4)
            sim_add(SUITE_FRAGMENT, ISA_TMEM_D, li, 0, n, "fragment.tcgen05.d.m%un%u.cg%u%s",
                    tmem_d_layouts[li][0], n, tmem_d_layouts[li][1],
                    tmem_d_layouts[li][2] ? ".lane16" : "");
    for (i = 1; i <= 4; i *= 2)
        for (n = 128; n <= 256; n *= 2)
            sim_add(SUITE_FRAGMENT, ISA_TMEM_SF, i, 0, n, "fragment.tcgen05.sf.%ux.r%u", i, n);
}

/* The models of the mma suites of an instruction family and format: the
 * validated or primary model of the instruction (h100-bf16 for the 16-bit
 * forms of mma.sync and wgmma, h100-fp8 for wgmma on fp8; the provisional
 * b200-fp8 for the sm_120a forms and the fp8/fp6/fp4 kinds of tcgen05, and
 * b200-bf16 for its kind::f16) and exact-rn.  mma.sync on fp8 has
 * no model that fits the H100 (bench/h100-mma-probe.md): exact-rn only. */
static size_t
mma_models(enum suite_isa isa, smma_format a, const char **names)
{
    size_t n = 0;

    if (isa == ISA_MMA_BS || (isa == ISA_TC05 && a != SMMA_BF16 && a != SMMA_FP16))
        names[n++] = "b200-fp8";
    else if (isa == ISA_TC05)
        names[n++] = "b200-bf16";
    else if (a == SMMA_BF16 || a == SMMA_FP16)
        names[n++] = "h100-bf16";
    else if (isa == ISA_WGMMA)
        names[n++] = "h100-fp8";
    names[n++] = "exact-rn";
    return n;
}

/* Adds the mma suite of an instruction named instr under each model that
 * can compute its shape (smma_model_check). */
static void
mma_add(enum suite_isa isa, unsigned var, unsigned n, const char *instr,
        const smma_gemm_shape *sh)
{
    const char *names[4];
    const smma_model *m;
    size_t k, nm = mma_models(isa, sh->a_fmt, names);
    struct suite *s;

    for (k = 0; k < nm; k++) {
        if (smma_model_from_name(names[k], &m, NULL) != SMMA_OK ||
            smma_model_check(m, sh, NULL) != SMMA_OK)
            continue;
        s = sim_add(SUITE_MMA, isa, var, 0, n, "mma.%s.%s", instr, m->name);
        if (s != NULL)
            s->model = m;
    }
}

static void
mma_suites(void)
{
    smma_gemm_shape sh;
    smma_mma_bs v;
    unsigned i, k;
    char name[64];

    for (i = 0; i < SMMA_MMA_INSTR_COUNT; i++)
        if (smma_mma_instr_shape((smma_mma_instr) i, &sh, NULL) == SMMA_OK)
            mma_add(ISA_MMA, i, 0, smma_mma_instr_name((smma_mma_instr) i) + 4, &sh);
    for (i = 0; i < SMMA_MMA_BS_COUNT; i++)
        if (smma_mma_bs_at(i, &v, NULL) == SMMA_OK && smma_mma_bs_shape(&v, &sh, NULL) == SMMA_OK)
            mma_add(ISA_MMA_BS, i, 0, smma_mma_bs_name(&v) + 4, &sh);
    for (i = 0; i < 6; i++)
        for (k = 8; k <= 256; k *= k == 8 ? 8 : 4) {
            smma_wgmma_variant wv = smma_wgmma_variant_make(wgmma_fmts[i][0], wgmma_fmts[i][1],
                                                            k);

            if (smma_wgmma_shape(&wv, &sh, NULL) == SMMA_OK &&
                smma_wgmma_name(&wv, name, sizeof(name), NULL) == SMMA_OK)
                mma_add(ISA_WGMMA, i, k, name, &sh);
        }
    for (i = 0; i < 56; i++) {
        struct tc05_form f = tc05_form(i);

        sh = tc05_shape(&f, 16);
        tc05_name(i, 16, name, sizeof(name));
        mma_add(ISA_TC05, i, 16, name, &sh);
    }
}

static void
gemm_suites(void)
{
    const char *names[8];
    const smma_model *m;
    size_t c, k, nm;
    struct suite *s;

    for (c = 0; c < NCOMBO; c++) {
        smma_gemm_shape sh = gemm_shape(&gemm_combos[c], gemm_problems[0]);

        s = sim_add(SUITE_GEMM, ISA_MMA, 0, 0, 0, "gemm.%s.exact", gemm_combos[c].name);
        if (s != NULL) {
            s->combo = (unsigned) c;
            s->exact = true;
        }
        nm = gemm_models(&gemm_combos[c], names);
        for (k = 0; k < nm; k++) {
            if (smma_model_from_name(names[k], &m, NULL) != SMMA_OK ||
                smma_model_check(m, &sh, NULL) != SMMA_OK)
                continue;
            s = sim_add(SUITE_GEMM, ISA_MMA, 0, 0, 0, "gemm.%s.model.%s", gemm_combos[c].name,
                        m->name);
            if (s != NULL) {
                s->combo = (unsigned) c;
                s->model = m;
            }
        }
    }
}

static void
sim_table_build(void)
{
    fragment_suites();
    mma_suites();
    gemm_suites();
}

/* Committed fragments: every mma.sync and ldmatrix/stmatrix one; of the
 * sm_120a forms one per kind and scale vector (f8f6f4 and mxf8f6f4 with
 * e4m3 A and e2m1 B, mxf4, mxf4nvf4 2X and 4X); wgmma at N = 8 and 64;
 * tcgen05.ld of every shape at .x1 (with and without .pack) and .x8; the D
 * layouts at N = 16; the scale factors of 128 rows.  Committed mma suites:
 * every mma.sync one; the sm_120a forms above and mxf4nvf4 4X with ue8m0
 * scales; wgmma at N = 8; tcgen05 kind::f16 on bf16, f8f6f4 on e4m3,
 * mxf8f6f4 on e4m3 x e2m1, mxf4nvf4 4X with ue4m3 scales. */
static bool
sim_committed(const struct suite *s)
{
    if (s->family == SUITE_GEMM)
        return true;
    if (s->family == SUITE_MMA)
        return s->isa == ISA_MMA ||
               (s->isa == ISA_MMA_BS && (s->var == 4 || s->var == 29 || s->var >= 50)) ||
               (s->isa == ISA_WGMMA && s->n == 8) ||
               (s->isa == ISA_TC05 && (s->var == 1 || s->var == 2 || s->var == 31 ||
                                       s->var == 54));
    switch (s->isa) {
    case ISA_MMA:
    case ISA_LDMATRIX:
        return true;
    case ISA_MMA_BS:
        return s->var == 4 || s->var == 29 || (s->var >= 50 && s->var <= 52);
    case ISA_WGMMA:
        return s->n == 8 || s->n == 64;
    case ISA_TMEM_LDST:
        return !(s->var >> 4) && (s->n == 1 || (s->n == 8 && !(s->var >> 3 & 1)));
    case ISA_TMEM_D:
        return s->n == 16;
    case ISA_TMEM_SF:
        return s->n == 128;
    case ISA_TC05:
        break;
    }
    return false;
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
    case SUITE_FRAGMENT:
        return gen_fragment(s, level, seed, out, err);
    case SUITE_MMA:
        return gen_mma(s, level, seed, out, err);
    case SUITE_GEMM:
        return gen_gemm(s, level, seed, out, err);
    }
    return smma_error_set(err, SMMA_EINVAL, "unknown suite family");
}

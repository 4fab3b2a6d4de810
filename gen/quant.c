/*
 * gen/quant.c - the quant and scale-layout suites: blocks at the edges of
 * the scale rules quantized under a profile, and the byte offsets of the
 * scale-factor layouts (doc/vectors.md, "quant." and "scale-layout.").
 * Also the amax points and random blocks that softmma diff searches with.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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
smma_suite_amax_points(const smma_block_format_desc *bd, int k, double pts[5])
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

    smma_suite_amax_points(bd, k, pts);
    for (j = 0; j < 5; j++) {
        uint32_t b;

        if (!smma_gen_f32_exact(pts[j], &b) || b == 0 || isinf(pts[j]))
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

        if ((u == 0x7e && j == 1) || !smma_gen_f32_exact(pts[j], &b))
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

    if (!smma_gen_f32_exact(ldexp(bd->max_elem, k) * 1.0625, &a) ||
        !smma_gen_f32_exact(ldexp(mid, k + sh), &b) || b == 0)
        return;
    for (d = -1; d <= 1; d++)
        q_pair(q, a, b + (uint32_t) d);
}

void
smma_suite_random_block(uint64_t *state, unsigned n, uint32_t *x)
{
    unsigned j, nz = 1 + (unsigned) (smma_gen_rand(state) % n);
    int center = (int) (smma_gen_rand(state) % 254) - 126;
    bool bf16 = smma_gen_rand(state) % 4 == 0;

    for (j = 0; j < nz; j++) {
        uint64_t r = smma_gen_rand(state);
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
            smma_suite_random_block(&st, n, k->x);
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
    smma_gen_f32_exact(bd->max_elem, &maxb);
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

int
smma_gen_quant(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
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
    smma_gen_header(s, level, seed, &h);
    rc = nv ? smma_gen_add_field(&h, "global", SMMA_VT_U8, false, 1, err) : SMMA_OK;
    if (rc == SMMA_OK && nv)
        rc = smma_gen_add_field(&h, "gbits", SMMA_VT_FP32, false, 1, err);
    if (rc == SMMA_OK)
        rc = smma_gen_add_field(&h, "x", SMMA_VT_FP32, false, n, err);
    if (rc == SMMA_OK && nv)
        rc = smma_gen_add_field(&h, "gdecode", SMMA_VT_FP32, true, 1, err);
    if (rc == SMMA_OK)
        rc = smma_gen_add_field(&h, "scale", (smma_vec_type) bd->scale, true, 1, err);
    if (rc == SMMA_OK)
        rc = smma_gen_add_field(&h, "codes", (smma_vec_type) bd->elem, true, n, err);
    snprintf(line, sizeof(line), "one block of %u fp32 values quantized to %s under profile %s "
             "(smma_quantize): its scale and %u codes", n, bd->name, s->profile->name, n);
    if (rc == SMMA_OK)
        rc = smma_gen_open(&h, comments, &w, err);
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
    return smma_gen_finish(rc, w, out);
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

int
smma_gen_scale_layout(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
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

    smma_gen_header(s, level, seed, &h);
    rc = smma_gen_add_field(&h, "rows", SMMA_VT_U32, false, 1, err);
    if (rc == SMMA_OK)
        rc = smma_gen_add_field(&h, "k", SMMA_VT_U32, false, 1, err);
    if (rc == SMMA_OK)
        rc = smma_gen_add_field(&h, "vec", SMMA_VT_U8, false, 1, err);
    if (rc == SMMA_OK)
        rc = smma_gen_add_field(&h, "bytes", SMMA_VT_U32, true, 1, err);
    if (rc == SMMA_OK)
        rc = smma_vec_header_add(&h, "offset", SMMA_VT_U32, true, true, 0, err);
    if (rc == SMMA_OK)
        rc = smma_gen_open(&h, comments, &w, err);
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
    return smma_gen_finish(rc, w, out);
}


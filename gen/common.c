/*
 * gen/common.c - the helpers every suite generator uses: the random
 * numbers, the header and the writer of a suite, and the blocks of a case.
 *
 * Nothing here formats through the C library's locale or floating-point
 * printing, and the random numbers come from splitmix64 alone, so that a
 * suite's bytes are the same on every machine.
 */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

uint64_t
smma_gen_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

bool
smma_gen_f32_exact(double x, uint32_t *bits)
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

void
smma_gen_header(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_header *h)
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

int
smma_gen_add_field(smma_vec_header *h, const char *name, smma_vec_type t, bool out,
                   unsigned count, smma_error *err)
{
    return smma_vec_header_add(h, name, t, out, false, count, err);
}

int
smma_gen_add_spec(smma_vec_header *h, const char *spec, bool out, bool block, smma_error *err)
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

int
smma_gen_comments(smma_vec_writer *w, const char *const *comments, smma_error *err)
{
    int rc = SMMA_OK;

    for (; rc == SMMA_OK && *comments != NULL; comments++)
        rc = smma_vec_put_comment(w, *comments, err);
    return rc;
}

int
smma_gen_open(smma_vec_header *h, const char *const *comments, smma_vec_writer **w,
              smma_error *err)
{
    int rc = smma_vec_writer_new(h, w, err);

    if (rc == SMMA_OK)
        rc = smma_gen_comments(*w, comments, err);
    return rc;
}

int
smma_gen_finish(int rc, smma_vec_writer *w, smma_vec_writer **out)
{
    if (rc == SMMA_OK)
        *out = w;
    else
        smma_vec_writer_free(w);
    return rc;
}

uint64_t *
smma_gen_case_block(struct smma_gen_case *mc, const char *name, size_t rows, size_t cols)
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

void
smma_gen_case_free(struct smma_gen_case *mc)
{
    size_t i;

    for (i = 0; i < SMMA_VEC_MAX_FIELDS; i++) {
        free(mc->c.blocks[i].v);
        mc->c.blocks[i].v = NULL;
    }
}

int
smma_gen_put_regs(struct smma_gen_case *mc, const char *name, const uint32_t *regs, size_t rows,
                  size_t n, smma_error *err)
{
    uint64_t *v = smma_gen_case_block(mc, name, rows, n / rows);
    size_t i;

    if (v == NULL)
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    for (i = 0; i < n; i++)
        v[i] = regs[i];
    return SMMA_OK;
}

int
smma_gen_put_matrix(struct smma_gen_case *mc, const char *name, const uint32_t *src, size_t rows,
                    size_t cols, size_t rs, size_t cs, smma_error *err)
{
    uint64_t *v = smma_gen_case_block(mc, name, rows, cols);
    size_t r, c;

    if (v == NULL)
        return smma_error_set(err, SMMA_ENOMEM, "out of memory");
    for (r = 0; r < rows; r++)
        for (c = 0; c < cols; c++)
            v[r * cols + c] = src[r * rs + c * cs];
    return SMMA_OK;
}

/*
 * gen/table.c - the list of suites (softmma/suites.h): their names, which
 * are committed, and the dispatch to each family's generator.
 *
 * The decode, encode, quant and scale-layout suites are numbered
 * arithmetically from the formats, roundings, profiles and layouts; the
 * fragment, mma and gemm suites come from a table that their files fill
 * once (smma_gen_fragment_suites, smma_gen_mma_suites,
 * smma_gen_gemm_suites) from the simulator's own lists of variants and
 * the models each can be computed with.
 */
#include <config.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define NROUND ((size_t) SMMA_ROUND_COUNT)
#define NFMT ((size_t) SMMA_FORMAT_COUNT)
#define NBF ((size_t) SMMA_BLOCK_FORMAT_COUNT)
#define NSL ((size_t) SMMA_SL_COUNT)

/* The suites of the fragment, mma and gemm families, in list order, built
 * once and read-only after. */
#define SIM_MAX 4096u

static struct sim_table {
    smma_suite s[SIM_MAX];
    size_t n;
} sim_table;
static pthread_once_t sim_once = PTHREAD_ONCE_INIT;

smma_suite *
smma_gen_add(smma_suite_family fam, smma_suite_isa isa, unsigned var, unsigned op, unsigned n,
             const char *fmt, ...)
{
    smma_suite *s;
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

static void
sim_table_build(void)
{
    smma_gen_fragment_suites();
    smma_gen_mma_suites();
    smma_gen_gemm_suites();
    smma_gen_kernel_suites();
}

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
smma_suite_count(void)
{
    return arith_count() + sim_suites()->n;
}

bool
smma_suite_at(size_t i, smma_suite *s)
{
    size_t np = smma_profile_count();

    memset(s, 0, sizeof(*s));
    if (i < NFMT) {
        s->family = SMMA_SUITE_DECODE;
        s->fmt = (smma_format) i;
        snprintf(s->name, sizeof(s->name), "decode.%s", smma_format_name(s->fmt));
        return true;
    }
    i -= NFMT;
    if (i < NFMT * NROUND * np) {
        s->family = SMMA_SUITE_ENCODE;
        s->fmt = (smma_format) (i / (NROUND * np));
        s->round = (smma_round) (i / np % NROUND);
        s->profile = smma_profile_at(i % np);
        snprintf(s->name, sizeof(s->name), "encode.%s.%s.%s", smma_format_name(s->fmt),
                 smma_round_name(s->round), s->profile->name);
        return true;
    }
    i -= NFMT * NROUND * np;
    if (i < NBF * np) {
        s->family = SMMA_SUITE_QUANT;
        s->bf = (smma_block_format) (i / np);
        s->profile = smma_profile_at(i % np);
        snprintf(s->name, sizeof(s->name), "quant.%s.%s", smma_block_format_name(s->bf),
                 s->profile->name);
        return true;
    }
    i -= NBF * np;
    if (i < NSL) {
        s->family = SMMA_SUITE_SCALE_LAYOUT;
        s->layout = (smma_scale_layout) i;
        snprintf(s->name, sizeof(s->name), "scale-layout.%s", smma_scale_layout_name(s->layout));
        return true;
    }
    i -= NSL;
    if (i < sim_suites()->n) {
        *s = sim_suites()->s[i];
        return true;
    }
    memset(s, 0, sizeof(*s));
    return false;
}

int
smma_suite_find(const char *name, smma_suite *s, smma_error *err)
{
    size_t i, n = smma_suite_count();

    if (name == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no suite name given");
    for (i = 0; i < n; i++)
        if (smma_suite_at(i, s) && strcmp(s->name, name) == 0)
            return SMMA_OK;
    return smma_error_set(err, SMMA_EINVAL, "unknown suite '%.*s'", 200, name);
}

/* Committed: every decode, quant and scale-layout suite; the encode suites
 * of every rounding under cuda (what PTX cvt and the CUDA headers do), and
 * of each other profile's own rounding (rn; ra for microxcaling); of the
 * other families what their files say. */
bool
smma_suite_committed(const smma_suite *s)
{
    switch (s->family) {
    case SMMA_SUITE_FRAGMENT:
        return smma_gen_fragment_committed(s);
    case SMMA_SUITE_MMA:
        return smma_gen_mma_committed(s);
    case SMMA_SUITE_GEMM:
        return smma_gen_gemm_committed(s);
    case SMMA_SUITE_ENCODE:
        return s->profile == smma_profile_cuda() || s->round == s->profile->round;
    default:
        return true;
    }
}

int
smma_suite_generate(const smma_suite *s, unsigned level, uint64_t seed, smma_vec_writer **out,
                    smma_error *err)
{
    *out = NULL;
    if (level < 1 || level > 2)
        return smma_error_set(err, SMMA_EINVAL, "level %u is not 1 or 2", level);
    switch (s->family) {
    case SMMA_SUITE_DECODE:
        return smma_gen_decode(s, level, seed, out, err);
    case SMMA_SUITE_ENCODE:
        return smma_gen_encode(s, level, seed, out, err);
    case SMMA_SUITE_QUANT:
        return smma_gen_quant(s, level, seed, out, err);
    case SMMA_SUITE_SCALE_LAYOUT:
        return smma_gen_scale_layout(s, level, seed, out, err);
    case SMMA_SUITE_FRAGMENT:
        return smma_gen_fragment(s, level, seed, out, err);
    case SMMA_SUITE_MMA:
        return smma_gen_mma(s, level, seed, out, err);
    case SMMA_SUITE_GEMM:
        return smma_gen_gemm(s, level, seed, out, err);
    }
    return smma_error_set(err, SMMA_EINVAL, "unknown suite family");
}

/*
 * tests/sm90-pass.c - the conversion pass of the block-scaled sm90 kernels
 * on the host (sm90-pass.h).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <softmma/format.h>

#include "sm90-pass.h"
#include "tap/basic.h"

uint32_t
t90_stored_code(smma_format f, const uint8_t *u, unsigned e)
{
    if (f == SMMA_BF16)
        return (uint32_t) u[2 * e] | (uint32_t) u[2 * e + 1] << 8;
    if (f == SMMA_E2M1)
        return (u[e / 2] >> (4 * (e % 2))) & 0xfu;
    if (f == SMMA_E2M3 || f == SMMA_E3M2)
        return u[e] & 0x3fu;
    return u[e];
}

void
t90_pass_rows(const smma_sm90_plan *pl, smma_format f, smma_format sfmt, uint32_t rows,
              const uint8_t *src, uint64_t src_ld, const uint8_t *sf, bool bs, uint8_t *dst,
              uint64_t dst_ld, bool next_scale, bool swap_pairs)
{
    const smma_format to = bs ? SMMA_BF16 : SMMA_E4M3;
    const uint32_t tbits = bs ? 16 : 8, bits = smma_sm90_fmt_bits(f);
    smma_cvt rn = smma_cvt_default();
    uint64_t u;

    rn.sat = false;
    for (u = 0; u < (uint64_t) rows * ((pl->k + 15) / 16); u++) {
        uint32_t row, k0, e, kbu, sbyte;
        double s = 1;

        smma_sm90_pre_unit(u, pl->k, &row, &k0);
        kbu = (k0 >> pl->vshift) + (next_scale ? 1 : 0);
        if (bs) {
            sbyte = sfmt == SMMA_E8M0 ? 0x7fu : 0x38u;
            if (kbu < pl->kb_cols)
                sbyte = sf[smma_sm90_sf_goff(pl, row, kbu)];
            s = smma_decode(sfmt, sbyte);
        }
        for (e = 0; e < 16 && k0 + e < pl->k; e++) {
            uint32_t c = t90_stored_code(f, src + smma_sm90_pre_off(src_ld, row, k0, bits),
                                         swap_pairs ? e ^ 1u : e);
            uint32_t v = smma_encode(to, smma_decode(f, c) * s, &rn);
            uint8_t *o = dst + smma_sm90_pre_off(dst_ld, row, k0 + e, tbits);

            o[0] = (uint8_t) v;
            if (bs)
                o[1] = (uint8_t) (v >> 8);
        }
    }
}

void
t90_pass(const smma_sm90_plan *pl, const smma_gpu_gemm_args *a, const t100_prob *p,
         bool wrong, t100_prob *q, smma_gpu_kernel *k)
{
    const bool bs = pl->version == 4;
    const uint32_t tbits = bs ? 16 : 8;
    smma_gpu_gemm_args y;
    size_t bytes[2], kb = smma_gemm_kblocks(&p->s), i;
    uint8_t *ws;
    unsigned w;

    smma_sm90_pre_args(a, pl, NULL, &y, k, bytes);
    ws = t100_calloc(bytes[0] + bytes[1], 1);
    memset(ws, 0xee, bytes[0] + bytes[1]);
    smma_sm90_pre_args(a, pl, ws, &y, k, bytes);
    memset(q, 0, sizeof(*q));
    q->s = y.shape;
    q->layout = p->layout;
    q->a = t100_calloc(p->s.m * p->s.k, sizeof(uint32_t));
    q->b = t100_calloc(p->s.n * p->s.k, sizeof(uint32_t));
    memcpy(q->a, p->a, p->s.m * p->s.k * sizeof(uint32_t));
    memcpy(q->b, p->b, p->s.n * p->s.k * sizeof(uint32_t));
    if (!bs) {
        q->sa = t100_calloc(p->s.m * kb, sizeof(uint32_t));
        q->sb = t100_calloc(p->s.n * kb, sizeof(uint32_t));
        memcpy(q->sa, p->sa, p->s.m * kb * sizeof(uint32_t));
        memcpy(q->sb, p->sb, p->s.n * kb * sizeof(uint32_t));
    }
    if (p->c != NULL) {
        q->c = t100_calloc(p->s.m * p->s.n, sizeof(uint32_t));
        memcpy(q->c, p->c, p->s.m * p->s.n * sizeof(uint32_t));
    }
    for (w = 0; w < 2; w++) {
        const smma_format f = w ? p->s.b_fmt : p->s.a_fmt;
        const uint32_t rows = (uint32_t) (w ? p->s.n : p->s.m), bits = smma_sm90_fmt_bits(f);
        uint8_t *dst = (uint8_t *) (w ? y.b : y.a);
        uint32_t *codes = w ? q->b : q->a;

        if (bytes[w] == 0)
            continue;
        t90_pass_rows(pl, f, p->s.scale_fmt, rows, w ? p->gb : p->ga,
                      (w ? pl->b_ld : pl->a_ld) * bits / 8, w ? p->gsb : p->gsa, bs, dst,
                      smma_sm90_pre_ld(pl->k) * tbits / 8, wrong && bs, wrong && !bs && w == 1);
        /* The codes the GEMM reads, through y's leading dimension. */
        for (i = 0; i < (size_t) rows * p->s.k; i++) {
            const uint8_t *o = dst + smma_sm90_pre_off((w ? y.ldb : y.lda) * tbits / 8,
                                                       (uint32_t) (i / p->s.k),
                                                       (uint32_t) (i % p->s.k), tbits);

            codes[i] = bs ? (uint32_t) o[0] | (uint32_t) o[1] << 8 : o[0];
        }
    }
    free(ws);
}

int
t90_pass_diff(smma_gpu_kernel kernel, const smma_gpu_gemm_args *a, const t100_prob *p,
              const char *inner, const uint32_t *want, t90_pass_result *r, char *msg,
              size_t len)
{
    const smma_sm90_plan *pl = &r->pl;
    int w;

    memset(r, 0, sizeof(*r));
    r->rc = smma_sm90_plan_init(&r->pl, a, kernel, 132, NULL, msg, len);
    if (r->rc != SMMA_GPU_STATUS_OK || !smma_sm90_pre_applies(pl))
        return r->rc;
    r->applies = true;
    smma_sm90_pre_args(a, pl, (void *) (uintptr_t) 1024, &r->y, &r->k, r->bytes);
    r->rc = smma_sm90_check(&r->y, r->k, msg, len);
    for (w = 0; w < 2; w++) {
        smma_gpu_kernel kq;
        t100_prob q;
        uint32_t *got;
        size_t i;

        t90_pass(pl, a, p, w == 1, &q, &kq);
        got = t100_expected_under(&q, inner);
        for (i = 0; i < p->s.m * p->s.n; i++)
            r->bad[w] += got[i] != want[i];
        r->same_kernel = w == 0 ? kq == r->k : r->same_kernel && kq == r->k;
        free(got);
        t100_prob_free(&q);
    }
    return r->rc;
}

bool
t90_sample(smma_gpu_kernel kernel, const smma_gpu_gemm_args *a, const t100_prob *p,
           unsigned sms, const smma_sm90_tune *tu, const char *what)
{
    smma_sm90_plan pl;
    char msg[256];

    if (smma_sm90_plan_init(&pl, a, kernel, sms, tu, msg, sizeof(msg)) != SMMA_GPU_STATUS_OK)
        return true;
    return t100_sample(smma_gpu_kernel_name(kernel), &p->s, p->layout, pl.bm, pl.bn, pl.bk,
                       what);
}

/* The run, the plan, the problem and the flags of one dry run. */
struct t90_run_ctx {
    t90_run_fn run;
    const smma_sm90_plan *pl;
    const t100_prob *p;
    unsigned flags;
};

static int
t90_run_ctx(void *ctx, uint32_t *d, smma_error *err)
{
    const struct t90_run_ctx *c = ctx;

    return c->run(c->pl, c->p, c->flags, d, err);
}

long
t90_diff_plan(t90_run_fn run, const smma_sm90_plan *pl, const t100_prob *p, unsigned flags,
              const uint32_t *want, const char *what)
{
    struct t90_run_ctx c = { run, pl, p, flags };

    return t100_diff_run(p, t90_run_ctx, &c, want, what);
}

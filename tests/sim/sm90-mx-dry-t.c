/*
 * tests/sim/sm90-mx-dry-t.c - the dry run of sm90-mixed
 * (gpu/sm90/gemm_mixed.cu): its plan (gpu/sm90/plan.h, gpu/pipe.h)
 * executed on the simulator's wgmma executor with A from registers,
 * compared bit for bit with the golden vectors and smma_gemm under
 * bf16-upcast-h100.
 *
 * The run follows the kernel CTA by CTA (both CTAs of a cluster), tile by
 * tile in the scheduler's order, k-step by k-step through the stage slots:
 * TMA's boxes land in the slot (W's rows as stored, ra bytes each,
 * unswizzled; X's atoms of bf16 with the 128-byte swizzle, each CTA of a
 * cluster its half of X's rows into both; 0 past the tensor), then every
 * consumer thread builds its A registers for each 16-k block from the
 * bytes at the plan's offsets (smma_sm90_mx_a_cell, smma_sm90_mx_w_off)
 * times its rows' scales (smma_sm90_mx_sf_off), each product rounded to bf16
 * by the reference (not by the kernel's instructions), +0 past K, and the
 * warpgroup runs wgmma.m64nNk16 with those registers and X's descriptor
 * (smma_sm90_mx_desc_x), scale-d as the plan says; then D from the
 * registers to the caller's D transposed (smma_sm90_mx_dpos).  Slots are
 * filled with 0xee before each k-step and the bytes past each row of A and
 * B hold 0xa5, so a byte read at the wrong place shows.
 *
 * A block-scaled X goes first through the pass (tests/sm90-pass.c's
 * t90_pass_rows over the stored rows, as launch.cu's mixed_gemm launches
 * gemm_bs.cu's s90_bs_pre) into a bf16 copy, which TMA then reads.
 *
 * D must equal the committed suites of every pair the kernel takes (bf16 x
 * MXFP4, bf16 x MXFP8, MXFP4, NVFP4, MXFP8 and its mixes, MXFP8 x MXFP4,
 * MXFP6) under bf16-upcast-h100, and smma_gemm on generated problems (M
 * from 1 to 300: every X tile of 8 to 256 rows, two X tiles; the weights as
 * B and as A; ragged n and k; NaN scales in the last block, past K; C,
 * alpha, every D; both scale layouts; clusters of one and two); a run
 * whose threads take the other row's scale, or whose pass over X takes the
 * next block's scale, must not.  The test also checks the rules of
 * smma_sm90_check for the kernel, its plan, and that the A fragments and
 * X's offsets cover their tiles once.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <softmma/format.h>
#include <softmma/gemm.h>
#include <softmma/scale_layout.h>
#include <softmma/wgmma.h>

#include "sm100-util.h"
#include "sm90-pass.h"
#include "sm90/sm90.h"
#include "tap/basic.h"

#define SMEM_BASE 1024u
#define MODEL "bf16-upcast-h100"

/* The arguments of sm90-mixed for a problem (tests/sm100-util.h). */
static smma_gpu_gemm_args
prob_args(const t100_prob *p)
{
    smma_gpu_gemm_args a = t100_prob_args(p);

    a.d = (void *) (uintptr_t) 4096;
    a.kernel = SMMA_GPU_SM90_MIXED;
    return a;
}

/* ---- the stage ----------------------------------------------------------------------------- */

/* TMA's boxes of k-step kit for CTA `rank` of its cluster (W's tiles at
 * rows m0s[r] of wsrc, X's at n0 of xsrc) into a slot: its own W, every CTA's multicast
 * half of X (swizzled as the map says); bytes outside the tensor are 0. */
static void
stage_tma(const smma_sm90_plan *pl, const uint8_t *wsrc, const uint8_t *xsrc, uint32_t rank,
          const uint32_t *m0s, uint32_t n0, uint32_t kit, uint8_t *slot)
{
    uint32_t r, i, x, y;

    for (r = 0; r < pl->pipe.cluster; r++)
        for (i = 0; i < smma_sm90_nboxes(pl); i++) {
            uint64_t dims[2], strides[1];
            uint32_t box[2], off;
            unsigned map;
            int32_t c[2];
            bool mc = smma_sm90_box(pl, i, m0s[r], n0, kit, r, &map, c, &off);
            bool w = map == SMMA_SM90_MAP_A;
            const uint8_t *g = w ? wsrc : xsrc;
            uint32_t eb = w ? 1 : 2;

            if (r != rank && !mc)
                continue;
            smma_sm90_tma_geom(pl, map, dims, strides, box);
            for (y = 0; y < box[1]; y++)
                for (x = 0; x < box[0] * eb; x++) {
                    uint64_t gx = (uint64_t) c[0] + x / eb, gy = (uint64_t) c[1] + y;
                    uint32_t at = w ? off + y * box[0] + x
                                    : smma_tc05_swz(SMMA_TC05_SW_128B,
                                                    off + y * SMMA_SM90_ROWB + x);

                    slot[at] = gx < dims[0] && gy < dims[1]
                               ? g[gy * strides[0] + gx * eb + x % eb] : 0;
                }
        }
}

enum { RUN_ALL = 0, RUN_OTHER_ROW_SCALE = 1, RUN_X_NEXT_SCALE = 2 };

/* The A registers of thread t (128 threads x 4 words at regs[t * 4]) for
 * 16-k block j of k-step kit of the W tile at row m0, from the slot: each
 * element's code times its row's scale rounded to bf16 by the reference,
 * +0 past K.  RUN_OTHER_ROW_SCALE: rows r and r + 8 trade scales. */
static void
a_regs(const smma_sm90_plan *pl, const t100_prob *p, uint32_t m0, uint32_t kit, uint32_t j,
       unsigned flags, const uint8_t *slot, uint32_t *regs)
{
    smma_cvt rn = smma_cvt_default();
    const smma_format f = (smma_format) pl->a_fmt;
    const uint8_t *wsf = pl->w_is_b ? p->gsb : p->gsa;
    uint32_t t, reg, e;

    rn.sat = false; /* past bf16's range: Inf, as fma.rn.bf16x2 rounds */
    for (t = 0; t < 128; t++)
        for (reg = 0; reg < 4; reg++) {
            uint32_t word = 0;

            for (e = 0; e < 2; e++) {
                uint32_t row, kk, g, kb, byte, code, sbyte, v;

                smma_sm90_mx_a_cell(0, t, j, reg, e, &row, &kk);
                if (flags & RUN_OTHER_ROW_SCALE)
                    row ^= 8;
                g = m0 + row < pl->m ? m0 + row : pl->m - 1;
                if (flags & RUN_OTHER_ROW_SCALE)
                    row ^= 8;
                kb = (kit * pl->bk + kk) >> pl->vshift;
                kb = kb < pl->kb_cols ? kb : pl->kb_cols - 1;
                byte = slot[smma_sm90_mx_w_off(pl, row, kk)];
                code = f == SMMA_E2M1 ? (byte >> (4 * (kk & 1))) & 0xfu
                       : f == SMMA_E2M3 || f == SMMA_E3M2 ? byte & 0x3fu : byte;
                sbyte = wsf[smma_sm90_mx_sf_off(pl, g, kb)];
                v = smma_encode(SMMA_BF16, smma_decode(f, code) *
                                               smma_decode(p->s.scale_fmt, sbyte), &rn);
                if (kit * pl->bk + kk >= pl->k)
                    v = 0;
                word |= v << (16 * e);
            }
            regs[t * 4 + reg] = word;
        }
}

static uint32_t
part(size_t size, uint32_t origin, unsigned len)
{
    return t100_part(size, origin, len);
}

static int
run_plan(const smma_sm90_plan *pl, const t100_prob *p, unsigned flags, uint32_t *d,
         smma_error *err)
{
    const unsigned R = pl->bn / 2;
    size_t smem_size = SMEM_BASE + pl->smem_bytes;
    uint8_t *smem = t100_calloc(smem_size, 1);
    uint32_t *acc = t100_calloc((size_t) 128 * R, sizeof(uint32_t));
    uint32_t *regs = t100_calloc((size_t) 128 * 4, sizeof(uint32_t));
    const uint8_t *wsrc = pl->w_is_b ? p->gb : p->ga, *xsrc = pl->w_is_b ? p->ga : p->gb;
    uint8_t *xcopy = NULL;
    smma_wgmma_variant v;
    uint32_t c, i, kit, j, t, r, row, col;
    int rc = SMMA_OK;

    if (smma_sm90_mx_x_bytes(pl) != 0) {
        /* A block-scaled X: the pass's bf16 copy first (launch.cu's
         * mixed_gemm), from the stored rows as the caller's arguments say. */
        smma_gpu_gemm_args a = prob_args(p);
        uint64_t xld = pl->w_is_b ? a.lda : a.ldb;

        xcopy = t100_calloc(smma_sm90_mx_x_bytes(pl), 1);
        memset(xcopy, 0xee, smma_sm90_mx_x_bytes(pl));
        t90_pass_rows(pl, (smma_format) pl->x_fmt, p->s.scale_fmt, pl->n, xsrc,
                      xld * smma_sm90_fmt_bits(pl->x_fmt) / 8, pl->w_is_b ? p->gsa : p->gsb,
                      true, xcopy, (uint64_t) pl->b_ld * 2, (flags & RUN_X_NEXT_SCALE) != 0,
                      false);
        xsrc = xcopy;
    }
    v = smma_wgmma_variant_make(SMMA_BF16, SMMA_BF16, pl->bn);
    v.a_smem = false;
    for (c = 0; c < pl->pipe.grid && rc == SMMA_OK; c++) {
        uint32_t iter = 0, rank = c % pl->pipe.cluster;

        for (i = 0; i < smma_pipe_cta_nunits(&pl->pipe, c) && rc == SMMA_OK; i++) {
            uint32_t tm, tn, m0, n0, m0s[2], q;
            bool inside = smma_pipe_cta_tile(&pl->pipe, c, i, &tm, &tn);

            smma_sm90_origin(pl, tm, tn, &m0, &n0);
            for (q = 0; q < pl->pipe.cluster; q++) {
                uint32_t tq, nq;

                smma_pipe_cta_tile(&pl->pipe, c - rank + q, i, &tq, &nq);
                smma_sm90_origin(pl, tq, nq, &m0s[q], &nq);
            }
            /* The accumulator: C (the plan's D is the caller's D,
             * transposed where W is B), or 0xdeadbeef, which scale-d 0
             * ignores. */
            for (t = 0; t < 128; t++)
                for (r = 0; r < R; r++) {
                    smma_sm90_d_cell(0, t, r, &row, &col);
                    acc[t * R + r] = p->s.c_fmt != SMMA_NONE && m0 + row < pl->m
                                     && n0 + col < pl->n
                                     ? (pl->w_is_b ? t100_c_bits(p, n0 + col, m0 + row)
                                                   : t100_c_bits(p, m0 + row, n0 + col))
                                     : 0xdeadbeefu;
                }
            for (kit = 0; kit < pl->pipe.kiters && rc == SMMA_OK; kit++, iter++) {
                uint32_t st = SMEM_BASE + smma_pipe_slot(&pl->pipe, iter) * pl->pipe.stage_bytes;

                memset(smem + st, 0xee, pl->pipe.stage_bytes);
                stage_tma(pl, wsrc, xsrc, rank, m0s, n0, kit, smem + st);
                for (j = 0; j < smma_sm90_nmma(pl, kit) && rc == SMMA_OK; j++) {
                    a_regs(pl, p, m0, kit, j, flags, smem + st, regs);
                    v.scale_d = smma_sm90_scale_d(pl, kit, j);
                    rc = smma_wgmma_exec_part(&v, tap_model("h100-bf16"), regs, 0,
                                              smma_sm90_mx_desc_x(pl, st, j), smem, smem_size,
                                              v.scale_d ? acc : NULL, acc,
                                              part(pl->m, m0, 64), part(pl->n, n0, pl->bn),
                                              err);
                }
            }
            if (!inside || rc != SMMA_OK)
                continue;
            for (t = 0; t < 128; t++)
                for (r = 0; r < R; r++) {
                    smma_sm90_d_cell(0, t, r, &row, &col);
                    if (m0 + row < pl->m && n0 + col < pl->n)
                        d[smma_sm90_mx_dpos(pl, p->s.n, m0 + row, n0 + col)] =
                            t100_epilogue(p->s.d_fmt, p->s.has_alpha, p->s.alpha,
                                          acc[t * R + r]);
                }
        }
    }
    free(smem);
    free(acc);
    free(regs);
    free(xcopy);
    return rc;
}

static long
diff_plan(const smma_sm90_plan *pl, const t100_prob *p, unsigned flags, const uint32_t *want,
          const char *what)
{
    return t90_diff_plan(run_plan, pl, p, flags, want, what);
}

static void
check_plan(const t100_prob *p, unsigned sms, const smma_sm90_tune *tu, const uint32_t *want,
           const char *what)
{
    smma_gpu_gemm_args a = prob_args(p);
    smma_sm90_plan pl;
    char msg[256];
    long bad;

    if (smma_sm90_plan_init(&pl, &a, SMMA_GPU_SM90_MIXED, sms, tu, msg, sizeof(msg))
        != SMMA_GPU_STATUS_OK) {
        ok(false, "%s: plan: %s", what, msg);
        return;
    }
    bad = diff_plan(&pl, p, RUN_ALL, want, what);
    ok(bad == 0, "%s, scales %s (%u x %u tiles of %u x %u, %u k-steps, %u stages, %u CTAs in "
       "clusters of %u): %ld of %zu outputs differ", what, smma_scale_layout_name(p->layout),
       pl.pipe.tiles_m, pl.pipe.tiles_n, pl.bm, pl.bn, pl.pipe.kiters, pl.pipe.stages,
       pl.pipe.grid, pl.pipe.cluster, bad, p->s.m * p->s.n);
}

/* Whether the dry run of problem p is a point of this run (TEST_SAMPLE). */
static bool
sampled(const t100_prob *p, unsigned sms, const smma_sm90_tune *tu, const char *what)
{
    smma_gpu_gemm_args a = prob_args(p);

    return t90_sample(SMMA_GPU_SM90_MIXED, &a, p, sms, tu, what);
}

/* A case of a suite, on 1 or 2 multiprocessors, clusters of 2 and 1 by
 * turns where the tile allows. */
static void
suite_case(const t100_prob *p, const uint32_t *want, const char *what, unsigned ncase,
           void *ctx)
{
    smma_sm90_tune tu;

    (void) ctx;
    memset(&tu, 0, sizeof(tu));
    /* X: the caller's A where it is bf16 or B has at least as many rows. */
    tu.cluster = (p->s.a_fmt == SMMA_BF16 || p->s.n >= p->s.m ? p->s.m : p->s.n) > 8
                 ? 1 + ncase % 2 : 1;
    if (sampled(p, 1 + ncase % 2, &tu, what))
        check_plan(p, 1 + ncase % 2, &tu, want, what);
}

/* ---- generated problems ------------------------------------------------------------------- */

struct gen {
    smma_format a, b, sf;
    unsigned vec;
    size_t m, n, k;
    smma_format c, d;
    bool alpha;
    smma_scale_layout layout;
    unsigned sms;
    smma_sm90_tune tu;
};

static const struct gen gens[] = {
    /* One tile: M 8, N 64, K 64. */
    { SMMA_BF16, SMMA_E2M1, SMMA_E8M0, 32, 8, 64, 64, SMMA_NONE, SMMA_FP32, false,
      SMMA_SL_128X4, 132,
      { 0, 0, 0, 0, 0, 0, 0 } },
    /* M 1 (8 rows of X), ragged n and k (K 200: a last k-step of 8 k, a
     * short block), C, bf16 D, several tiles per CTA. */
    { SMMA_BF16, SMMA_E2M1, SMMA_E8M0, 32, 1, 300, 200, SMMA_FP32, SMMA_BF16, false,
      SMMA_SL_LINEAR, 2,
      { 0, 0, 0, 0, 0, 0, 0 } },
    /* MXFP8 weights, M 16, clusters of two, alpha, fp16 D. */
    { SMMA_BF16, SMMA_E4M3, SMMA_E8M0, 32, 16, 200, 136, SMMA_FP32, SMMA_FP16, true,
      SMMA_SL_128X4, 4,
      { 0, 0, 0, 0, 0, 0, 0 } },
    /* M 40 (64 rows of X), 3 stages. */
    { SMMA_BF16, SMMA_E2M1, SMMA_E8M0, 32, 40, 130, 192, SMMA_NONE, SMMA_FP32, false,
      SMMA_SL_128X4, 3,
      { 0, 3, 0, 0, 0, 0, 0 } },
    /* M 300: two tiles of 256 rows of X, one CTA an SM. */
    { SMMA_BF16, SMMA_E4M3, SMMA_E8M0, 32, 300, 72, 96, SMMA_FP32, SMMA_BF16, false,
      SMMA_SL_LINEAR, 2,
      { 0, 0, 0, 0, 0, 0, 0 } },
    /* M 100 in tiles of 32 rows (SMMA_SM90_BN), clusters of one. */
    { SMMA_BF16, SMMA_E2M1, SMMA_E8M0, 32, 100, 70, 72, SMMA_NONE, SMMA_BF16, false,
      SMMA_SL_LINEAR, 5,
      { 32, 0, 1, 0, 0, 0, 0 } },
    /* M 128, K 1. */
    { SMMA_BF16, SMMA_E4M3, SMMA_E8M0, 32, 128, 64, 2, SMMA_FP32, SMMA_FP32, false,
      SMMA_SL_128X4, 1,
      { 0, 0, 0, 0, 0, 0, 0 } },
    /* Both operands block-scaled, X converted by the pass first: MXFP4,
     * M 24 (32 rows of X), C, bf16 D, ragged k. */
    { SMMA_E2M1, SMMA_E2M1, SMMA_E8M0, 32, 24, 136, 200, SMMA_FP32, SMMA_BF16, false,
      SMMA_SL_128X4, 3, { 0, 0, 0, 0, 0, 0, 0 } },
    /* NVFP4 (ue4m3 per 16), M 8, linear scales. */
    { SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, 16, 8, 130, 96, SMMA_NONE, SMMA_FP32, false,
      SMMA_SL_LINEAR, 2, { 0, 0, 0, 0, 0, 0, 0 } },
    /* The weights as A (M 200 > N 16): D not transposed; MXFP8, C, alpha,
     * clusters of two. */
    { SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32, 200, 16, 136, SMMA_FP32, SMMA_FP32, true,
      SMMA_SL_128X4, 4, { 0, 0, 0, 0, 0, 0, 0 } },
    /* MXFP8 x MXFP4 with the e4m3 weights as A, N 40 of e2m1 X. */
    { SMMA_E4M3, SMMA_E2M1, SMMA_E8M0, 32, 300, 40, 128, SMMA_NONE, SMMA_BF16, false,
      SMMA_SL_LINEAR, 3, { 0, 0, 0, 0, 0, 0, 0 } },
    /* k-steps of 4 and 2 atoms (SMMA_SM90_KQ): K 520 in 3 k-steps of 256
     * k, the last of 8 k; the weights as A in k-steps of 128 k. */
    { SMMA_BF16, SMMA_E2M1, SMMA_E8M0, 32, 12, 200, 520, SMMA_FP32, SMMA_BF16, false,
      SMMA_SL_128X4, 3, { 0, 0, 0, 0, 0, 0, 4 } },
    { SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32, 136, 40, 200, SMMA_NONE, SMMA_FP32, false,
      SMMA_SL_LINEAR, 2, { 0, 0, 0, 0, 0, 0, 2 } },
    /* MXFP6 (e2m3, e3m2) and e5m2, M 4 and 2. */
    { SMMA_E2M3, SMMA_E2M3, SMMA_E8M0, 32, 4, 64, 64, SMMA_NONE, SMMA_FP16, false,
      SMMA_SL_128X4, 1, { 0, 0, 0, 0, 0, 0, 0 } },
    { SMMA_E3M2, SMMA_E3M2, SMMA_E8M0, 32, 2, 72, 96, SMMA_FP32, SMMA_FP32, false,
      SMMA_SL_LINEAR, 2, { 0, 0, 0, 0, 0, 0, 0 } },
    { SMMA_E5M2, SMMA_E5M2, SMMA_E8M0, 32, 70, 66, 64, SMMA_NONE, SMMA_BF16, false,
      SMMA_SL_128X4, 2, { 0, 0, 0, 0, 0, 0, 0 } },
};

static smma_gemm_shape
shape_of(const struct gen *g)
{
    smma_gemm_shape s;

    memset(&s, 0, sizeof(s));
    s.a_fmt = g->a;
    s.b_fmt = g->b;
    s.scale_fmt = g->sf;
    s.vec = g->vec;
    s.c_fmt = g->c;
    s.d_fmt = g->d;
    s.m = g->m;
    s.n = g->n;
    s.k = g->k;
    s.has_alpha = g->alpha;
    s.alpha = 0x3fa00000u; /* 1.25 */
    return s;
}

/* A generated problem; a bf16 A with scales of 1 (the suites' unscaled A). */
static void
gen_problem(t100_prob *p, const struct gen *g, uint64_t seed)
{
    smma_gemm_shape s = shape_of(g);
    size_t i, kb;

    t100_prob_generate(p, &s, g->layout, SMMA_CLASS_RANDOM, seed);
    kb = smma_gemm_kblocks(&p->s);
    for (i = 0; g->a == SMMA_BF16 && i < p->s.m * kb; i++)
        p->sa[i] = 0x7f;
    t100_prob_store(p);
}

static void
test_generated(void)
{
    size_t i;

    for (i = 0; i < sizeof(gens) / sizeof(gens[0]); i++) {
        const struct gen *g = &gens[i];
        t100_prob p;
        uint32_t *want;
        char what[200];

        gen_problem(&p, g, 0x3d5 + i);
        snprintf(what, sizeof(what), "%s x %s (%s per %u) %zux%zux%zu C %s D %s%s",
                 smma_format_name(g->a), smma_format_name(g->b), smma_format_name(g->sf), g->vec,
                 g->m, g->n, g->k,
                 g->c == SMMA_NONE ? "none" : smma_format_name(g->c), smma_format_name(g->d),
                 g->alpha ? " alpha 1.25" : "");
        if (!sampled(&p, g->sms, &g->tu, what)) {
            t100_prob_free(&p);
            continue;
        }
        want = t100_expected_under(&p, MODEL);
        check_plan(&p, g->sms, &g->tu, want, what);
        free(want);
        t100_prob_free(&p);
    }
}

/* NaN scales (0xff) in the last block of half the rows of W, which reaches
 * past K (the converters must write +0 there, not 0 x NaN), 0x00 and 0xfe
 * scales, NaN and the largest codes; and a run whose threads take the
 * other row's scale must differ (the test can fail). */
static void
test_special(void)
{
    static const uint32_t e8[] = { 0x00, 0x01, 0xfe, 0xfd, 0xff, 0x7f };
    struct gen g = { SMMA_BF16, SMMA_E4M3, SMMA_E8M0, 32, 24, 136, 200, SMMA_FP32, SMMA_FP32, false,
                     SMMA_SL_128X4, 3, { 0, 0, 0, 0, 0, 0, 0 } };
    smma_gpu_gemm_args a;
    smma_sm90_plan pl;
    size_t kb, i;
    uint64_t x = 12345;
    t100_prob p;
    uint32_t *want;
    char msg[256];

    gen_problem(&p, &g, 0x5bed);
    kb = smma_gemm_kblocks(&p.s);
    for (i = 0; i < p.s.n * kb; i++) {
        if (i % kb == kb - 1 && i / kb % 2 == 0)
            p.sb[i] = 0xff; /* the last block (k 192 .. 199) of every other row of W */
        else if ((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 62 == 0)
            p.sb[i] = e8[(x >> 33) % 6];
    }
    for (i = 0; i < p.s.n * p.s.k; i++)
        if ((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 56 == 0)
            p.b[i] = (x >> 40) % 3 == 0 ? 0x7f : (x >> 40) % 3 == 1 ? 0x7e : 0x80;
    t100_prob_store(&p);
    want = t100_expected_under(&p, MODEL);
    check_plan(&p, 3, &g.tu, want, "special values 24x136x200, NaN scales in the last block");
    a = prob_args(&p);
    if (smma_sm90_plan_init(&pl, &a, SMMA_GPU_SM90_MIXED, 3, NULL, msg, sizeof(msg)) != 0)
        bail("plan: %s", msg);
    ok(diff_plan(&pl, &p, RUN_OTHER_ROW_SCALE, want, "the other row's scale") > 0,
       "a run whose threads take the other row's scale differs");
    free(want);
    t100_prob_free(&p);

    /* X block-scaled: a pass whose units take the next block's scale must
     * differ. */
    g.a = SMMA_E4M3;
    gen_problem(&p, &g, 0x5bee);
    want = t100_expected_under(&p, MODEL);
    a = prob_args(&p);
    if (smma_sm90_plan_init(&pl, &a, SMMA_GPU_SM90_MIXED, 3, NULL, msg, sizeof(msg)) != 0)
        bail("plan: %s", msg);
    ok(diff_plan(&pl, &p, RUN_ALL, want, "mxfp8 X") == 0
       && diff_plan(&pl, &p, RUN_X_NEXT_SCALE, want, "X's next scale") > 0,
       "mxfp8 24x136x200: the pass over X matches; a pass that takes the next block's scale "
       "differs");
    free(want);
    t100_prob_free(&p);
}

/* ---- the rules and the plan ----------------------------------------------------------------- */

static smma_gpu_gemm_args
args_of(smma_format fb, smma_format sf, unsigned vec, size_t m, size_t n, size_t k)
{
    smma_gpu_gemm_args a;

    memset(&a, 0, sizeof(a));
    a.shape.a_fmt = SMMA_BF16;
    a.shape.b_fmt = fb;
    a.shape.scale_fmt = sf;
    a.shape.vec = vec;
    a.shape.c_fmt = SMMA_NONE;
    a.shape.d_fmt = SMMA_BF16;
    a.shape.m = m;
    a.shape.n = n;
    a.shape.k = k;
    a.a = (const void *) (uintptr_t) 4096;
    a.b = (const void *) (uintptr_t) 8192;
    a.sb = (const void *) (uintptr_t) 16384;
    a.lda = a.ldb = (k + 63) / 64 * 64;
    a.a_kmajor = a.b_kmajor = true;
    a.ldd = n;
    a.scale_layout = SMMA_SL_128X4;
    a.kernel = SMMA_GPU_SM90_MIXED;
    return a;
}

static void
expect_refusal(const smma_gpu_gemm_args *a, const char *needle, const char *what)
{
    char msg[256] = "";
    int rc = smma_sm90_check(a, SMMA_GPU_SM90_MIXED, msg, sizeof(msg));

    ok(rc == SMMA_GPU_STATUS_EINVAL && strstr(msg, needle) != NULL, "refused: %s (%s)", what,
       msg);
}

static void
test_check(void)
{
    smma_gpu_gemm_args a;
    smma_sm90_tune tu;
    smma_sm90_plan p;
    char msg[256] = "";

    a = args_of(SMMA_E2M1, SMMA_E8M0, 32, 16, 8192, 8192);
    is_int(SMMA_GPU_STATUS_OK, smma_sm90_check(&a, SMMA_GPU_SM90_MIXED, msg, sizeof(msg)),
           "bf16 x mxfp4 16 x 8192 x 8192 accepted (%s)", msg);
    smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_MIXED, 132, NULL, msg, sizeof(msg));
    ok(p.version == 5 && p.w_is_b && p.m == 8192 && p.n == 16 && p.bm == 64 && p.bn == 16
       && p.bk == 64 && p.kq == 1 && p.ra == 32 && p.pipe.tiles_m == 128
       && p.pipe.tiles_n == 1 && p.pipe.cluster == 2 && p.b_rows == 8 && p.pipe.stages == 8
       && p.pipe.grid == 128 && p.pipe.kiters == 128 && p.pipe.stage_tx == 64 * 32 + 16 * 128
       && p.smem_bytes <= SMMA_SM90_SMEM_LIMIT / 2 - 512,
       "M 16: tiles of 64 rows of W by 16 of X, 128 CTAs (two an SM) in clusters of two, "
       "k-steps of one atom of 64 k, 8 stages of %u bytes, %u bytes a CTA", p.pipe.stage_bytes,
       p.smem_bytes);
    memset(&tu, 0, sizeof(tu));
    tu.kq = 4;
    smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_MIXED, 132, &tu, msg, sizeof(msg));
    ok(p.bk == 256 && p.kq == 4 && p.ra == 128 && p.pipe.stages == 6 && p.pipe.kiters == 32
       && p.pipe.stage_tx == 64 * 128 + 4 * 16 * 128,
       "SMMA_SM90_KQ=4: k-steps of 4 atoms, W's rows in runs of 128 bytes, 6 stages");
    a = args_of(SMMA_E4M3, SMMA_E8M0, 32, 1, 28672, 8192);
    smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_MIXED, 132, NULL, msg, sizeof(msg));
    ok(p.bn == 8 && p.pipe.cluster == 1 && p.kq == 1 && p.ra == 64 && p.pipe.grid == 264
       && p.pipe.stages == 8,
       "M 1: 8 rows of X, clusters of one, 64 bytes of a row of MXFP8 weights a k-step, "
       "8 stages, 264 persistent CTAs");
    memset(&tu, 0, sizeof(tu));
    tu.kq = 4;
    smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_MIXED, 132, &tu, msg, sizeof(msg));
    ok(p.kq == 4 && p.bk == 256 && p.ra == 256 && p.pipe.stages == 5 && p.pipe.kiters == 32,
       "SMMA_SM90_KQ=4 on MXFP8: 256 bytes of a row a k-step (TMA's largest box row), "
       "5 stages");
    tu.kq = 3;
    ok(smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_MIXED, 132, &tu, msg, sizeof(msg))
       == SMMA_GPU_STATUS_EINVAL && strstr(msg, "1, 2 or 4") != NULL,
       "k-steps of 3 atoms refused (%s)", msg);
    a = args_of(SMMA_E2M1, SMMA_E8M0, 32, 1, 8192, 100);
    tu.kq = 2;
    smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_MIXED, 132, &tu, msg, sizeof(msg));
    ok(p.kq == 2 && p.pipe.kiters == 1, "K 100, SMMA_SM90_KQ=2: one k-step of 2 atoms");
    a = args_of(SMMA_E2M1, SMMA_E8M0, 32, 300, 8192, 8192);
    smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_MIXED, 132, NULL, msg, sizeof(msg));
    ok(p.bn == 256 && p.pipe.tiles_n == 2 && p.pipe.grid == 132 && p.vshift == 5
       && p.bk >> p.vshift == 2 && p.smem_bytes <= SMMA_SM90_SMEM_LIMIT
       && p.pipe.stages == 6 && p.kq == 1,
       "M 300: two tiles of 256 rows of X, one CTA an SM, 2 scales a row a k-step, "
       "%u stages of %u bytes", p.pipe.stages, p.pipe.stage_bytes);
    memset(&tu, 0, sizeof(tu));
    tu.bn = 24;
    ok(smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_MIXED, 132, &tu, msg, sizeof(msg))
       == SMMA_GPU_STATUS_EINVAL && strstr(msg, "24") != NULL,
       "a tile of 24 rows of X refused (%s)", msg);
    a = args_of(SMMA_E2M1, SMMA_E8M0, 32, 1, 128, 128);
    tu.bn = 0;
    tu.cluster = 2;
    ok(smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_MIXED, 132, &tu, msg, sizeof(msg))
       == SMMA_GPU_STATUS_EINVAL && strstr(msg, "8 rows each") != NULL,
       "clusters of two on a tile of 8 rows of X refused (%s)", msg);

    a = args_of(SMMA_E2M1, SMMA_E8M0, 32, 16, 8192, 8192);
    a.shape.a_fmt = SMMA_E2M1;
    a.sa = (const void *) (uintptr_t) 32768;
    smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_MIXED, 132, NULL, msg, sizeof(msg));
    ok(p.w_is_b && p.x_fmt == SMMA_E2M1 && p.a_fmt == SMMA_E2M1 && p.b_fmt == SMMA_BF16
       && p.a_ld == 8192 && p.b_ld == 8192 && smma_sm90_mx_x_bytes(&p) == 16 * 8192 * 2,
       "mxfp4 16 x 8192 x 8192: W the caller's B, X (e2m1) through the pass into %llu bytes "
       "of bf16", (unsigned long long) smma_sm90_mx_x_bytes(&p));
    a = args_of(SMMA_E4M3, SMMA_E8M0, 32, 8192, 24, 1000);
    a.shape.a_fmt = SMMA_E4M3;
    msg[0] = '\0';
    a.sa = (const void *) (uintptr_t) 32768;
    a.ldd = 24;
    is_int(SMMA_GPU_STATUS_OK, smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_MIXED, 132, NULL, msg,
                                                   sizeof(msg)), "mxfp8 8192 x 24 x 1000 (%s)",
           msg);
    ok(!p.w_is_b && p.m == 8192 && p.n == 24 && p.bn == 32 && p.a_ld == 1024
       && p.b_ld == 1008 && smma_sm90_mx_dpos(&p, 24, 5, 7) == 5 * 24 + 7,
       "mxfp8 8192 x 24: W the caller's A, D not transposed, X's copy 1008 elements a row");
    a = args_of(SMMA_E4M3, SMMA_E8M0, 32, 16, 128, 128);
    a.shape.a_fmt = SMMA_E4M3;
    a.lda = 136;
    expect_refusal(&a, "multiples of 16", "e4m3 X with lda 136");
    a = args_of(SMMA_E4M3, SMMA_UE4M3, 16, 16, 128, 128);
    expect_refusal(&a, "NVFP4", "e4m3 weights with ue4m3 scales");
    a = args_of(SMMA_E2M1, SMMA_E8M0, 32, 16, 128, 128);
    a.b_kmajor = false;
    expect_refusal(&a, "K-major", "N-major B");
    a = args_of(SMMA_E2M1, SMMA_E8M0, 32, 16, 128, 128);
    a.lda = 132;
    expect_refusal(&a, "multiples of 8", "lda 132");
    a = args_of(SMMA_E2M1, SMMA_E8M0, 32, 16, 128, 128);
    a.shape.d_fmt = SMMA_E4M3;
    expect_refusal(&a, "fp32, bf16 or fp16", "e4m3 D");
    a = args_of(SMMA_E2M1, SMMA_E8M0, 32, 16, 128, 128);
    a.scale_layout = SMMA_SL_TRITON5D;
    expect_refusal(&a, "triton5d", "triton5d scales");
    a = args_of(SMMA_E5M2, SMMA_E8M0, 32, 16, 128, 128);
    expect_refusal(&a, "not built", "bf16 x e5m2 (not a pair of the fast kernels)");
    a = args_of(SMMA_E2M1, SMMA_UE4M3, 16, 16, 128, 128);
    expect_refusal(&a, "NVFP4", "bf16 x e2m1 with ue4m3 scales");
}

/* The A fragments cover each 16-k block of W's 64 rows once, at bytes of
 * the stage inside W's area; X's offsets are distinct, inside X's area,
 * and the descriptors start where X's block j does. */
static void
test_cells(void)
{
    smma_gpu_gemm_args a = args_of(SMMA_E2M1, SMMA_E8M0, 32, 32, 8192, 8192);
    smma_sm90_plan p;
    char msg[256];
    uint8_t seen[64 * 16], *xs;
    uint32_t t, j, reg, e, row, kk, x, bad = 0;

    if (smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_MIXED, 132, NULL, msg, sizeof(msg)) != 0)
        bail("plan: %s", msg);
    for (j = 0; j < 4; j++) {
        memset(seen, 0, sizeof(seen));
        for (t = 0; t < 128; t++)
            for (reg = 0; reg < 4; reg++)
                for (e = 0; e < 2; e++) {
                    smma_sm90_mx_a_cell(0, t, j, reg, e, &row, &kk);
                    bad += row >= 64 || kk < 16 * j || kk >= 16 * j + 16
                           || seen[row * 16 + kk % 16]++ != 0
                           || smma_sm90_mx_w_off(&p, row, kk) >= p.off_ra + 64 * p.ra
                           || (e == 1 && kk % 2 == 0);
                }
    }
    ok(bad == 0, "the A fragments of the 128 threads cover each 16-k block of 64 rows once, "
       "the pairs of a register at even k, inside W's %u bytes (%u bad)", 64 * p.ra, bad);
    xs = t100_calloc(p.pipe.stage_bytes, 1);
    for (bad = 0, x = 0; x < p.bn; x++)
        for (kk = 0; kk < p.bk; kk++) {
            uint32_t o = smma_sm90_mx_x_off(&p, x, kk);

            bad += o < p.off_b || o + 2 > p.off_b + p.kq * p.bn * 128 || o % 2 != 0
                   || xs[o]++ != 0;
        }
    for (j = 0; j < 4; j++)
        bad += ((smma_sm90_mx_desc_x(&p, 1024, j) & 0x3fffu) << 4) != 1024 + p.off_b + 32 * j;
    ok(bad == 0 && p.off_b >= p.off_ra + 64 * p.ra && p.off_b % 1024 == 0,
       "X's %u x %u elements lie at distinct offsets of its area, 1024-aligned after W's; "
       "the descriptor of block j starts 32 j bytes into it (%u bad)", p.bn, p.bk, bad);
    free(xs);
}

int
main(void)
{
    static const char *const suites[] = {
        "gemm.bf16-mxfp4.kernel.model." MODEL, "gemm.bf16-mxfp4.kernel.exact",
        "gemm.bf16-mxfp8.kernel.model." MODEL, "gemm.bf16-mxfp8.kernel.exact",
        "gemm.mxfp4.kernel.model." MODEL, "gemm.nvfp4.kernel.model." MODEL,
        "gemm.mxfp8.kernel.model." MODEL, "gemm.mxfp8e5m2.kernel.model." MODEL,
        "gemm.mxfp8-e4m3-e5m2.kernel.model." MODEL, "gemm.mxfp8-mxfp4.kernel.model." MODEL,
        "gemm.mxfp6e2m3.kernel.model." MODEL, "gemm.mxfp6e3m2.kernel.model." MODEL,
    };
    double t0 = tap_seconds();
    size_t i;

    plan_lazy();
    test_check();
    test_cells();
    test_special();
    for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
        t100_each_case(suites[i], false, test_level() >= 2, suite_case, NULL);
    test_generated();
    diag("%.2f s", tap_seconds() - t0);
    return exit_status();
}

/*
 * tests/sim/sm90-p32-dry-t.c - the dry run of sm90-promote32 (gpu/sm90/
 * gemm_p32.cu): its plan (gpu/sm90/plan.h, gpu/pipe.h) executed on the
 * simulator's wgmma executor, compared bit for bit with the golden vectors
 * and smma_gemm under h100-fp8-promote32.
 *
 * The run follows the kernel CTA by CTA (both CTAs of a cluster), tile by
 * tile in the scheduler's order, k-step by k-step through the stage slots:
 * TMA's boxes of A and B land in the simulated stage (128-byte rows, the
 * 128-byte swizzle, 0 past the tensor; an e2m1, e2m3 or e3m2 operand's
 * bytes as stored, unswizzled, in the stage's raw area, which the
 * converters write as e4m3 codes where TMA would have put them -- each
 * value encoded by the reference, not the kernel's instructions), the
 * converters write the k-step's scales there as the kernel's converter
 * threads do (read from the scales as stored, linear or 128x4, at
 * smma_sm90_sf_goff; written as fp32 at smma_sm90_sfa_off / _sfb_off; 1.0
 * past the matrix and past K), every
 * consumer thread's accumulator starts from C (or 0), each 32-k block is
 * one wgmma (m64n128k32, from zero) whose registers every thread promotes
 * with smma_sm90_promote and the two scales it loads from the stage at the
 * kernel's offsets, blocks past K not promoted; then D from the registers
 * through the epilogue.  The padding of 128x4 scales holds 0xff (NaN), and
 * the bytes of A and B past their rows 0xa5, so a read of either shows.
 *
 * D must equal the committed suites of every MX pair (MXFP8, MXFP6, MXFP4,
 * MXFP8 x MXFP4) under h100-fp8-promote32 and smma_gemm on generated
 * problems (ragged m, n, k; C; alpha; bf16/fp16 D; e5m2 operands; the
 * converted formats; both scale layouts; clusters of one and two; several
 * tiles per CTA); a run whose consumers read the
 * wrong row's scale must not.  The test also checks the rules of
 * smma_sm90_check for the kernel, the plan's shared memory, and that the
 * scale offsets of a stage are distinct words inside their areas.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/format.h>
#include <softmma/gemm.h>
#include <softmma/scale_layout.h>
#include <softmma/vectors.h>
#include <softmma/wgmma.h>

#include "sm100-util.h"
#include "sm90-pass.h"
#include "sm90/sm90.h"
#include "tap/basic.h"

#define SMEM_BASE 1024u
#define MODEL "h100-fp8-promote32"

static float
f32(uint32_t bits)
{
    float f;

    memcpy(&f, &bits, sizeof(f));
    return f;
}

static uint32_t
bits32(float f)
{
    uint32_t u;

    memcpy(&u, &f, sizeof(u));
    return u;
}

/* The arguments of sm90-promote32 for a problem (tests/sm100-util.h). */
static smma_gpu_gemm_args
prob_args(const t100_prob *p)
{
    smma_gpu_gemm_args a = t100_prob_args(p);

    a.d = (void *) (uintptr_t) 4096;
    a.ldd = p->s.n + (8 - p->s.n % 8) % 8;
    a.kernel = SMMA_GPU_SM90_PROMOTE32;
    return a;
}

/* ---- the stage of a k-step ------------------------------------------------------------- */

/* TMA's boxes of k-step kit for CTA `rank` of its cluster (tiles at rows
 * m0s[r], column n0): its own A, every CTA's multicast half of B. */
static void
stage_tma(const smma_sm90_plan *pl, const t100_prob *p, uint32_t rank, const uint32_t *m0s,
          uint32_t n0, uint32_t kit, uint8_t *stage)
{
    uint32_t r, i, x, y;

    for (r = 0; r < pl->pipe.cluster; r++)
        for (i = 0; i < smma_sm90_nboxes(pl); i++) {
            uint64_t dims[2], strides[1];
            uint32_t box[2], off;
            unsigned map;
            int32_t c[2];
            bool mc = smma_sm90_box(pl, i, m0s[r], n0, kit, r, &map, c, &off);
            const uint8_t *g = map == SMMA_SM90_MAP_A ? p->ga : p->gb;

            if (r != rank && !mc)
                continue;
            smma_sm90_tma_geom(pl, map, dims, strides, box);
            for (y = 0; y < box[1]; y++)
                for (x = 0; x < box[0]; x++) {
                    uint64_t gx = (uint64_t) c[0] + x, gy = (uint64_t) c[1] + y;
                    uint8_t v = gx < dims[0] && gy < dims[1] ? g[gy * strides[0] + gx] : 0;

                    /* A converted operand's bytes land unswizzled, as stored. */
                    if (smma_sm90_box_raw(pl, i))
                        stage[off + y * box[0] + x] = v;
                    else
                        stage[smma_tc05_swz(SMMA_TC05_SW_128B, off + y * 128 + x)] = v;
                }
        }
}

/* The converters' e4m3 codes of the converted operands (e2m1, e2m3, e3m2),
 * chunk by chunk as smma_sm90_cvt_chunk lays them out, each code's value
 * encoded exactly in e4m3 by the reference (the kernel's prmt tables and
 * bit moves are checked on the GPU). */
static void
stage_convert(const smma_sm90_plan *pl, uint8_t *stage)
{
    smma_cvt cvt = smma_cvt_default();
    uint32_t q, e, op, row, k0, raw;

    cvt.sat = false;
    for (q = 0; q < smma_sm90_cvt_chunks(pl); q++) {
        smma_format f;
        unsigned n;

        smma_sm90_cvt_chunk(pl, q, &op, &row, &k0, &raw);
        f = (smma_format) (op ? pl->b_fmt : pl->a_fmt);
        n = f == SMMA_E2M1 ? 32 : 16;
        for (e = 0; e < n; e++) {
            uint32_t code = f == SMMA_E2M1 ? (stage[raw + e / 2] >> (4 * (e % 2))) & 0xfu
                                           : stage[raw + e] & 0x3fu;

            stage[op ? smma_sm90_smem_b(pl, row, k0 + e) : smma_sm90_smem_a(pl, row, k0 + e)] =
                (uint8_t) smma_encode(SMMA_E4M3, smma_decode(f, code), &cvt);
        }
    }
}

/* The converters: the k-step's scales of the tile's rows of A and columns
 * of B as fp32 (gemm_p32.cu, p32_convert): a row's four as the bytes of
 * the word at its first where the plan says they lie in one (sf_words),
 * else one by one; with sprod also as bf16 at k 0 of the scale tiles, and
 * the range flags of the three converter warps. */
static void
stage_scales(const smma_sm90_plan *pl, const t100_prob *p, uint32_t m0, uint32_t n0,
             uint32_t kit, uint8_t *stage)
{
    uint32_t nb = smma_sm90_kblocks(pl, kit), task, j;

    if (pl->sprod)
        memset(stage + pl->off_sflag, 0, 12);
    for (task = 0; task < 256; task++) {
        uint32_t r = task & 127u, g = (task >= 128 ? n0 : m0) + r;
        bool in = g < (task >= 128 ? pl->n : pl->m);
        const uint8_t *sf = task >= 128 ? p->gsb : p->gsa;

        for (j = 0; j < 4; j++) {
            uint64_t at = pl->sf_words ? smma_sm90_sf_goff(pl, g, 4 * kit) + j
                                       : smma_sm90_sf_goff(pl, g, 4 * kit + j);
            uint32_t v = in && j < nb ? sf[at] : 0x7fu;
            uint32_t w = smma_sm90_e8m0(v);

            memcpy(stage + (task >= 128 ? smma_sm90_sfb_off(pl, j, r)
                                        : smma_sm90_sfa_off(pl, j, r)), &w, 4);
            if (!pl->sprod)
                continue;
            /* sprod: the value as bf16 at k 0 of its tile, and the flag
             * of converter warp (task % 96) / 32 when out of range. */
            w >>= 16;
            memcpy(stage + (task >= 128 ? smma_sm90_sfs_off(pl, j, r)
                                        : smma_sm90_sfsa_off(pl, j, r)), &w, 2);
            if (v < SMMA_SM90_SFS_LO || v > SMMA_SM90_SFS_HI)
                stage[pl->off_sflag + 4 * (task % 96 / 32)] = 1;
        }
    }
}

/* ---- running the plan --------------------------------------------------------------------- */

enum { RUN_ALL = 0, RUN_ROW_SCALE_R = 1, RUN_WRONG_S = 2 };

/* The k-steps the dry runs took each way: the scales' products on the
 * tensor core (p32_kstep_s) and in fp32 (p32_kstep). */
static unsigned long ksteps_s, ksteps_f;

/* sprod's k-step of consumer warpgroup wg (p32_kstep_s): per block, the
 * block's wgmma into tmp and the scale tiles' into s, acc = fma(tmp, s,
 * acc) for the blocks below K; RUN_WRONG_S takes the next block's
 * products (the test can fail).  The wgmmas compute the first rows x cols
 * cells, those inside the matrix (smma_wgmma_exec_part). */
static int
kstep_s(const smma_sm90_plan *pl, const smma_wgmma_variant *v, uint8_t *smem, size_t smem_size,
        uint32_t st, uint32_t wg, uint32_t nb, unsigned flags, uint32_t *acc, uint32_t *tmp,
        uint32_t *s, unsigned rows, unsigned cols, smma_error *err)
{
    smma_wgmma_variant vs = smma_wgmma_variant_make(SMMA_BF16, SMMA_BF16, 128);
    smma_sm90_p32_descs d0 = smma_sm90_p32_descs0(pl, SMEM_BASE, wg), d, ds;
    uint32_t slot = (st - SMEM_BASE) / pl->pipe.stage_bytes, j, t, r;
    int rc = SMMA_OK;

    vs.a_smem = true;
    vs.scale_d = false;
    for (j = 0; j < 4 && rc == SMMA_OK; j++) {
        /* The kernel's descriptors: slot 0's block 0 moved (p32_kstep_s). */
        d = smma_sm90_p32_descs_at(pl, &d0, slot, j);
        ds = smma_sm90_p32_descs_at(pl, &d0, slot, flags & RUN_WRONG_S ? (j + 1) % 4 : j);
        rc = smma_wgmma_exec_part(v, tap_model("h100-fp8"), NULL, d.a, d.b, smem, smem_size,
                                  NULL, tmp, rows, cols, err);
        if (rc == SMMA_OK)
            rc = smma_wgmma_exec_part(&vs, tap_model("h100-bf16"), NULL, ds.sa, ds.sb, smem,
                                      smem_size, NULL, s, rows, cols, err);
        if (rc != SMMA_OK || j >= nb)
            continue;
        for (t = 0; t < 128; t++)
            for (r = 0; r < 64; r++) {
                uint32_t *x = &acc[(wg * 128 + t) * 64 + r];

                *x = bits32(fmaf(f32(tmp[t * 64 + r]), f32(s[t * 64 + r]), f32(*x)));
            }
    }
    return rc;
}

static int
run_plan(const smma_sm90_plan *pl, const t100_prob *p, unsigned flags, uint32_t *d,
         smma_error *err)
{
    size_t smem_size = SMEM_BASE + pl->smem_bytes;
    uint8_t *smem = t100_calloc(smem_size, 1);
    uint32_t *acc = t100_calloc((size_t) 2 * 128 * 64, sizeof(uint32_t));
    uint32_t *tmp = t100_calloc((size_t) 128 * 64, sizeof(uint32_t));
    uint32_t *s = t100_calloc((size_t) 128 * 64, sizeof(uint32_t));
    smma_wgmma_variant v;
    uint32_t c, i, kit, wg, t, r, j;
    int rc = SMMA_OK;

    v = smma_wgmma_variant_make(pl->a_conv ? SMMA_E4M3 : p->s.a_fmt,
                                pl->b_conv ? SMMA_E4M3 : p->s.b_fmt, 128);
    v.a_smem = true;
    v.scale_d = false;
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
            t100_sm90_tile_init(p, acc, 64, m0, n0, 0);
            for (kit = 0; kit < pl->pipe.kiters && rc == SMMA_OK; kit++, iter++) {
                uint32_t st = SMEM_BASE + smma_pipe_slot(&pl->pipe, iter) * pl->pipe.stage_bytes;
                bool by_s;

                /* The stage as TMA and the converters leave it (the scale
                 * tiles' zeros stay: the kernel writes them once). */
                memset(smem + st, 0xee, pl->sprod ? pl->off_sfs : pl->pipe.stage_bytes);
                stage_tma(pl, p, rank, m0s, n0, kit, smem + st);
                stage_convert(pl, smem + st);
                stage_scales(pl, p, m0, n0, kit, smem + st);
                by_s = pl->sprod && smem[st + pl->off_sflag] == 0
                       && smem[st + pl->off_sflag + 4] == 0 && smem[st + pl->off_sflag + 8] == 0;
                ksteps_s += by_s;
                ksteps_f += !by_s;
                for (wg = 0; wg < 2 && by_s && rc == SMMA_OK; wg++)
                    rc = kstep_s(pl, &v, smem, smem_size, st, wg, smma_sm90_kblocks(pl, kit),
                                 flags, acc, tmp, s, t100_part(p->s.m, m0 + 64 * wg, 64),
                                 t100_part(p->s.n, n0, pl->bn), err);
                for (wg = 0; wg < 2 && !by_s && rc == SMMA_OK; wg++)
                    for (j = 0; j < 4 && rc == SMMA_OK; j++) {
                        smma_sm90_p32_descs d0 = smma_sm90_p32_descs0(pl, SMEM_BASE, wg);
                        smma_sm90_p32_descs dj = smma_sm90_p32_descs_at(
                            pl, &d0, smma_pipe_slot(&pl->pipe, iter), j);

                        rc = smma_wgmma_exec_part(&v, tap_model("h100-fp8"), NULL, dj.a, dj.b,
                                                  smem, smem_size, NULL, tmp,
                                                  t100_part(p->s.m, m0 + 64 * wg, 64),
                                                  t100_part(p->s.n, n0, pl->bn), err);
                        if (rc != SMMA_OK || j >= smma_sm90_kblocks(pl, kit))
                            continue;
                        /* Every thread's promotion, its scales where
                         * p32_promote loads them. */
                        for (t = 0; t < 128; t++) {
                            uint32_t ra = st + smma_sm90_sfa_off(pl, j, 64 * wg + 16 * (t / 32)
                                                                        + (t % 32) / 4);
                            uint32_t rb = st + smma_sm90_sfb_off(pl, j, 2 * (t % 4));

                            for (r = 0; r < 64; r++) {
                                uint32_t sa, sb, *x = &acc[(wg * 128 + t) * 64 + r];

                                memcpy(&sa, smem + ra + 4 * (flags & RUN_ROW_SCALE_R
                                                             ? 0 : (r >> 1) & 1), 4);
                                memcpy(&sb, smem + rb + 4 * (2 * (r >> 2) + (r & 1)), 4);
                                *x = bits32(smma_sm90_promote(f32(tmp[t * 64 + r]), f32(sa),
                                                              f32(sb), f32(*x)));
                            }
                        }
                    }
            }
            if (!inside || rc != SMMA_OK)
                continue;
            t100_sm90_tile_store(p, d, acc, 64, m0, n0);
        }
    }
    free(smem);
    free(acc);
    free(tmp);
    free(s);
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

    if (smma_sm90_plan_init(&pl, &a, SMMA_GPU_SM90_PROMOTE32, sms, tu, msg, sizeof(msg))
        != SMMA_GPU_STATUS_OK) {
        ok(false, "%s: plan: %s", what, msg);
        return;
    }
    bad = diff_plan(&pl, p, RUN_ALL, want, what);
    ok(bad == 0, "%s, scales %s (%u k-steps, %u stages, %u CTAs in clusters of %u): %ld of %zu "
       "outputs differ", what, smma_scale_layout_name(p->layout), pl.pipe.kiters,
       pl.pipe.stages, pl.pipe.grid, pl.pipe.cluster, bad, p->s.m * p->s.n);
}

/* Whether the dry run of problem p on sms multiprocessors with tu is a point
 * of this run (TEST_SAMPLE; t90_sample). */
static bool
sampled(const t100_prob *p, unsigned sms, const smma_sm90_tune *tu, const char *what)
{
    smma_gpu_gemm_args a = prob_args(p);

    return t90_sample(SMMA_GPU_SM90_PROMOTE32, &a, p, sms, tu, what);
}

/* A run with flags (a consumer that reads the wrong scales or products)
 * on 3 multiprocessors must differ from want: the test can fail. */
static void
check_differs(const t100_prob *p, unsigned flags, const uint32_t *want, const char *what)
{
    smma_gpu_gemm_args a = prob_args(p);
    smma_sm90_plan pl;
    char msg[256];

    if (smma_sm90_plan_init(&pl, &a, SMMA_GPU_SM90_PROMOTE32, 3, NULL, msg, sizeof(msg)) != 0)
        bail("plan: %s", msg);
    ok(diff_plan(&pl, p, flags, want, what) > 0, "a consumer that takes %s differs", what);
}

/* ---- golden vector suites ------------------------------------------------------------------ */

/* A case of a suite, on 1 or 2 multiprocessors, clusters of 2 and 1 by
 * turns. */
static void
suite_case(const t100_prob *p, const uint32_t *want, const char *what, unsigned ncase,
           void *ctx)
{
    smma_sm90_tune tu;

    (void) ctx;
    memset(&tu, 0, sizeof(tu));
    tu.cluster = 1 + ncase % 2;
    if (sampled(p, 1 + ncase % 2, &tu, what))
        check_plan(p, 1 + ncase % 2, &tu, want, what);
}

/* ---- generated problems ------------------------------------------------------------------ */

struct gen {
    size_t m, n, k;
    smma_format a, b, c, d;
    bool alpha;
    smma_scale_layout layout;
    unsigned sms;
    smma_sm90_tune tu;
};

static const struct gen gens[] = {
    /* One tile. */
    { 128, 128, 128, SMMA_E4M3, SMMA_E4M3, SMMA_NONE, SMMA_FP32, false, SMMA_SL_128X4, 132,
      { 0, 0, 0, 0, 0, 0, 0 } },
    /* Ragged m, n, k (a last k-step of 2 blocks, the last of 8 k); C; bf16
     * D; several tiles per CTA in clusters of two. */
    { 300, 272, 200, SMMA_E4M3, SMMA_E5M2, SMMA_FP32, SMMA_BF16, false, SMMA_SL_LINEAR, 4,
      { 0, 0, 0, 0, 0, 0, 0 } },
    /* e5m2 x e4m3, alpha, fp16 D, clusters of one, 3 stages, K 1000. */
    { 130, 200, 1000, SMMA_E5M2, SMMA_E4M3, SMMA_FP32, SMMA_FP16, true, SMMA_SL_128X4, 2,
      { 0, 3, 1, 0, 0, 0, 0 } },
    /* k = 1, m = 1, n = 1. */
    { 1, 1, 1, SMMA_E4M3, SMMA_E4M3, SMMA_FP32, SMMA_FP32, false, SMMA_SL_LINEAR, 132,
      { 0, 0, 0, 0, 0, 0, 0 } },
    /* Many k-steps through 2 slots; K 520 (a last k-step of one block of 8);
     * groups of 2 tile rows. */
    { 384, 264, 520, SMMA_E5M2, SMMA_E5M2, SMMA_NONE, SMMA_BF16, true, SMMA_SL_128X4, 3,
      { 0, 2, 2, 2, 0, 0, 0 } },
    /* The converted formats: MXFP4 ragged (k 200, a block of 8 k), MXFP6
     * e2m3 and e3m2 with C and bf16 D, MXFP8 x MXFP4 in clusters of one. */
    { 300, 136, 200, SMMA_E2M1, SMMA_E2M1, SMMA_FP32, SMMA_BF16, false, SMMA_SL_LINEAR, 4,
      { 0, 0, 0, 0, 0, 0, 0 } },
    { 130, 140, 264, SMMA_E2M3, SMMA_E2M3, SMMA_FP32, SMMA_FP32, true, SMMA_SL_128X4, 2,
      { 0, 0, 0, 0, 0, 0, 0 } },
    { 129, 200, 136, SMMA_E3M2, SMMA_E3M2, SMMA_NONE, SMMA_FP16, false, SMMA_SL_128X4, 3,
      { 0, 0, 0, 0, 0, 0, 0 } },
    { 256, 129, 512, SMMA_E4M3, SMMA_E2M1, SMMA_FP32, SMMA_FP32, false, SMMA_SL_LINEAR, 2,
      { 0, 3, 1, 0, 0, 0, 0 } },
    /* The scales' products in fp32 only (SMMA_SM90_P32_SPROD=0). */
    { 300, 272, 392, SMMA_E4M3, SMMA_E4M3, SMMA_FP32, SMMA_BF16, false, SMMA_SL_128X4, 4,
      { 0, 0, 0, 0, 0, 1, 0 } },
};

static smma_gemm_shape
shape_of(const struct gen *g)
{
    smma_gemm_shape s;

    memset(&s, 0, sizeof(s));
    s.a_fmt = g->a;
    s.b_fmt = g->b;
    s.scale_fmt = SMMA_E8M0;
    s.vec = 32;
    s.c_fmt = g->c;
    s.d_fmt = g->d;
    s.m = g->m;
    s.n = g->n;
    s.k = g->k;
    s.has_alpha = g->alpha;
    s.alpha = 0x3fa00000u; /* 1.25 */
    return s;
}

/* The conversion pass over problem p where an operand is e2m1, e2m3 or
 * e3m2 (tests/sm90-pass.c, as s90_p32_pre runs it), then sm90-promote32
 * over the e4m3 copies with the same scales -- what smma_sm90_gemm runs for
 * a large problem -- must give want, and the problem over the copies must
 * be one the kernel takes; a pass that swaps each pair of elements must
 * not. */
static void
check_pass(const t100_prob *p, const uint32_t *want, const char *what)
{
    smma_gpu_gemm_args a = prob_args(p);
    t90_pass_result r;
    char msg[256] = "";

    t90_pass_diff(SMMA_GPU_SM90_PROMOTE32, &a, p, MODEL, want, &r, msg, sizeof(msg));
    if (r.rc == SMMA_GPU_STATUS_OK && !r.applies)
        return;
    ok(r.rc == SMMA_GPU_STATUS_OK && r.k == SMMA_GPU_SM90_PROMOTE32 && r.same_kernel
       && r.y.shape.a_fmt != SMMA_E2M1 && r.y.shape.b_fmt != SMMA_E2M1 && r.bad[0] == 0
       && r.bad[1] > 0,
       "the pass: %s: sm90-promote32 over the e4m3 copies (%zu + %zu bytes) gives %s in all "
       "but %zu of %zu outputs; with each pair of elements swapped %zu differ%s%s", what,
       r.bytes[0], r.bytes[1], MODEL, r.bad[0], p->s.m * p->s.n, r.bad[1],
       r.rc == SMMA_GPU_STATUS_OK ? "" : "; refused: ", msg);
}

static void
test_generated(void)
{
    size_t i;

    for (i = 0; i < sizeof(gens) / sizeof(gens[0]); i++) {
        const struct gen *g = &gens[i];
        smma_gemm_shape s = shape_of(g);
        t100_prob p;
        uint32_t *want;
        char what[200];

        /* Level 0 (check-valgrind): the first four, MXFP4 and fp32 products;
         * every one above. */
        if (test_level() == 0 && i > 3 && i != 5 && i + 1 != sizeof(gens) / sizeof(gens[0]))
            continue;
        t100_prob_generate(&p, &s, g->layout, SMMA_CLASS_RANDOM, 0x9032 + i);
        snprintf(what, sizeof(what), "%s x %s %zux%zux%zu C %s D %s%s", smma_format_name(g->a),
                 smma_format_name(g->b), g->m, g->n, g->k,
                 g->c == SMMA_NONE ? "none" : smma_format_name(g->c),
                 smma_format_name(g->d), g->alpha ? " alpha 1.25" : "");
        if (!sampled(&p, g->sms, &g->tu, what)) {
            t100_prob_free(&p);
            continue;
        }
        want = t100_expected_under(&p, MODEL);
        check_plan(&p, g->sms, &g->tu, want, what);
        check_pass(&p, want, what);
        free(want);
        t100_prob_free(&p);
    }
}

/* Extreme scales (e8m0 0x00, 0x01, 0xfe, 0xfd, 0xff) and codes (NaN, the
 * largest, -0) in a problem: the scales' product past fp32 either way,
 * NaN scales; and a run whose consumers take the row r scale for row
 * r + 8 too must differ (the test can fail). */
static void
test_special(void)
{
    static const uint32_t e8[] = { 0x00, 0x01, 0xfe, 0xfd, 0xff, 0x7f };
    struct gen g = { 136, 264, 136, SMMA_E4M3, SMMA_E4M3, SMMA_FP32, SMMA_FP32, false,
                     SMMA_SL_128X4, 3, { 0, 0, 0, 0, 0, 0, 0 } };
    smma_gemm_shape s = shape_of(&g);
    size_t kb = smma_gemm_kblocks(&s), i;
    uint64_t x = 12345;
    t100_prob p;
    uint32_t *want;

    t100_prob_generate(&p, &s, SMMA_SL_128X4, SMMA_CLASS_RANDOM, 0x5bec);
    for (i = 0; i < s.m * kb; i++)
        if (i / kb % 8 != 0 && (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 62 == 0)
            p.sa[i] = e8[(x >> 33) % 6];
    for (i = 0; i < s.n * kb; i++)
        if (i / kb % 8 != 0 && (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 62 == 0)
            p.sb[i] = e8[(x >> 33) % 6];
    for (i = 0; i < s.m * s.k; i++)
        if ((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 56 == 0)
            p.a[i] = (x >> 40) % 3 == 0 ? 0x7f : (x >> 40) % 3 == 1 ? 0x7e : 0x80;
    t100_prob_store(&p);
    want = t100_expected_under(&p, MODEL);
    check_plan(&p, 3, &g.tu, want, "special values 136x264x136");
    check_differs(&p, RUN_ROW_SCALE_R, want, "row r's scale for row r + 8");
    free(want);
    t100_prob_free(&p);
}

/* The scales' products on the tensor core: a run that takes the next
 * block's products differs (the test can fail); scales at the ends of the
 * range (e8m0 64 and 190: products 2^-126 and 2^126, fp32 normals) take
 * that way and give the model's D. */
static void
test_sprod(void)
{
    struct gen g = { 136, 264, 392, SMMA_E4M3, SMMA_E4M3, SMMA_FP32, SMMA_FP32, false,
                     SMMA_SL_128X4, 3, { 0, 0, 0, 0, 0, 0, 0 } };
    smma_gemm_shape s = shape_of(&g);
    size_t kb = smma_gemm_kblocks(&s), i;
    unsigned long s0 = ksteps_s, f0 = ksteps_f;
    t100_prob p;
    uint32_t *want;

    t100_prob_generate(&p, &s, SMMA_SL_128X4, SMMA_CLASS_RANDOM, 0x5e0d);
    for (i = 0; i < s.m * kb; i++)
        p.sa[i] = i % 3 == 0 ? SMMA_SM90_SFS_LO : i % 3 == 1 ? SMMA_SM90_SFS_HI : p.sa[i];
    for (i = 0; i < s.n * kb; i++)
        p.sb[i] = i % 5 == 0 ? SMMA_SM90_SFS_LO : i % 5 == 1 ? SMMA_SM90_SFS_HI : p.sb[i];
    t100_prob_store(&p);
    want = t100_expected_under(&p, MODEL);
    check_plan(&p, 3, &g.tu, want, "scales at the ends of the products' range");
    ok(ksteps_s > s0 && ksteps_f == f0, "... all on the tensor core (%lu k-steps)",
       ksteps_s - s0);
    check_differs(&p, RUN_WRONG_S, want, "the next block's products");
    free(want);
    t100_prob_free(&p);
}

/* ---- the rules, the plan, the offsets ------------------------------------------------------ */

static smma_gpu_gemm_args
args_of(smma_format fa, smma_format fb, size_t m, size_t n, size_t k)
{
    smma_gpu_gemm_args a;

    memset(&a, 0, sizeof(a));
    a.shape.a_fmt = fa;
    a.shape.b_fmt = fb;
    a.shape.scale_fmt = SMMA_E8M0;
    a.shape.vec = 32;
    a.shape.c_fmt = SMMA_NONE;
    a.shape.d_fmt = SMMA_BF16;
    a.shape.m = m;
    a.shape.n = n;
    a.shape.k = k;
    a.a = (const void *) (uintptr_t) 4096;
    a.b = (const void *) (uintptr_t) 8192;
    a.lda = a.ldb = (k + 15) / 16 * 16;
    a.a_kmajor = a.b_kmajor = true;
    a.ldd = n;
    a.scale_layout = SMMA_SL_128X4;
    a.kernel = SMMA_GPU_SM90_PROMOTE32;
    return a;
}

static void
expect_refusal(const smma_gpu_gemm_args *a, const char *needle, const char *what)
{
    char msg[256] = "";
    int rc = smma_sm90_check(a, SMMA_GPU_SM90_PROMOTE32, msg, sizeof(msg));

    ok(rc == SMMA_GPU_STATUS_EINVAL && strstr(msg, needle) != NULL, "refused: %s (%s)", what,
       msg);
}

static void
test_check(void)
{
    smma_gpu_gemm_args a = args_of(SMMA_E4M3, SMMA_E4M3, 8192, 8192, 8192);
    smma_sm90_plan p;
    smma_sm90_tune tu;
    char msg[256] = "";

    is_int(SMMA_GPU_STATUS_OK, smma_sm90_check(&a, SMMA_GPU_SM90_PROMOTE32, msg, sizeof(msg)),
           "mxfp8 8192^3 accepted (%s)", msg);
    smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_PROMOTE32, 132, NULL, msg, sizeof(msg));
    ok(p.version == 3 && p.bm == 128 && p.bn == 128 && p.ebytes == 1 && p.bk == 128
       && p.pipe.kiters == 64 && p.pipe.stage_tx == 32768 && p.pipe.stage_bytes == 54272
       && p.pipe.stages == 3 && p.pipe.cluster == 2 && p.kb_cols == 256 && p.kb_pad == 256
       && p.sf_128x4 && p.smem_bytes <= SMMA_SM90_SMEM_LIMIT && p.epi_tma && p.sprod,
       "the plan: 128 x 128 tiles, k-steps of 128, the scales' products on the tensor core, "
       "3 stages of 54272 bytes (%u bytes)", p.smem_bytes);
    memset(&tu, 0, sizeof(tu));
    tu.sprod = 1;
    smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_PROMOTE32, 132, &tu, msg, sizeof(msg));
    ok(!p.sprod && p.pipe.stage_bytes == 37888 && p.pipe.stages == 5
       && p.smem_bytes <= SMMA_SM90_SMEM_LIMIT,
       "... in fp32 only (SMMA_SM90_P32_SPROD=0): 5 stages of 37888 bytes (%u bytes)",
       p.smem_bytes);
    a = args_of(SMMA_E5M2, SMMA_E4M3, 1, 1, 1);
    a.shape.c_fmt = SMMA_FP32;
    a.ldc = 1;
    a.scale_layout = SMMA_SL_LINEAR;
    is_int(SMMA_GPU_STATUS_OK, smma_sm90_check(&a, SMMA_GPU_SM90_PROMOTE32, msg, sizeof(msg)),
           "e5m2 x e4m3 1x1x1, C, linear scales accepted (%s)", msg);
    smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_PROMOTE32, 132, NULL, msg, sizeof(msg));
    ok(p.a_e5m2 && !p.b_e5m2 && !p.sf_128x4 && p.kb_cols == 1 && p.kb_pad == 4
       && smma_sm90_kblocks(&p, 0) == 1 && !p.sf_words,
       "1x1x1: one k-step of one block; linear scales a byte at a time (1 column)");
    a = args_of(SMMA_E4M3, SMMA_E4M3, 100, 100, 256);
    a.scale_layout = SMMA_SL_LINEAR;
    a.sa = (const void *) (uintptr_t) 4096;
    a.sb = (const void *) (uintptr_t) 8192;
    smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_PROMOTE32, 132, NULL, msg, sizeof(msg));
    ok(p.sf_words, "linear scales of 8 columns at aligned addresses: a word a row and k-step");
    a.sb = (const void *) (uintptr_t) 8195;
    smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_PROMOTE32, 132, NULL, msg, sizeof(msg));
    ok(!p.sf_words, "scales of B at an odd address: a byte at a time");

    a = args_of(SMMA_E2M1, SMMA_E4M3, 128, 128, 128);
    expect_refusal(&a, "the MX pairs", "e2m1 x e4m3");
    a = args_of(SMMA_E4M3, SMMA_E4M3, 128, 128, 128);
    a.shape.scale_fmt = SMMA_UE4M3;
    a.shape.vec = 16;
    expect_refusal(&a, "with ue4m3 scales per 16", "ue4m3 scales");
    a = args_of(SMMA_BF16, SMMA_BF16, 128, 128, 128);
    a.shape.scale_fmt = SMMA_NONE;
    expect_refusal(&a, "without scales", "bf16");
    a = args_of(SMMA_E4M3, SMMA_E4M3, 128, 128, 128);
    a.b_kmajor = false;
    a.ldb = 128;
    expect_refusal(&a, "B must be K-major", "N-major B");
    a = args_of(SMMA_E4M3, SMMA_E4M3, 128, 128, 120);
    a.lda = a.ldb = 120;
    expect_refusal(&a, "multiples of 16", "lda 120");
    a = args_of(SMMA_E4M3, SMMA_E4M3, 128, 128, 128);
    a.scale_layout = SMMA_SL_TRITON5D;
    expect_refusal(&a, "triton5d", "triton5d scales");
    a = args_of(SMMA_E4M3, SMMA_E4M3, 128, 128, 128);
    a.shape.d_fmt = SMMA_E4M3;
    expect_refusal(&a, "not fp32, bf16 or fp16", "e4m3 D");
    a = args_of(SMMA_E4M3, SMMA_E4M3, 128, 128, 128);
    memset(&tu, 0, sizeof(tu));
    tu.bn = 256;
    ok(smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_PROMOTE32, 132, &tu, msg, sizeof(msg))
       == SMMA_GPU_STATUS_EINVAL && strstr(msg, "256") != NULL,
       "tiles of 256 columns refused (%s)", msg);
}

/* The scale offsets of one stage: distinct 4-byte words, A's inside
 * [off_sfa, off_sfa + SFA_BYTES), B's inside [off_sfb, + SFB_BYTES), the
 * two areas inside the stage; a thread's two rows side by side and its 32
 * columns in a row of 16-byte aligned words. */
static void
test_offsets(void)
{
    smma_gpu_gemm_args a = args_of(SMMA_E4M3, SMMA_E4M3, 512, 512, 512);
    smma_sm90_plan p;
    char msg[256];
    uint8_t *seen;
    unsigned j, r, t, s, wg, bad = 0;

    if (smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_PROMOTE32, 132, NULL, msg, sizeof(msg)) != 0)
        bail("plan: %s", msg);
    seen = t100_calloc(p.pipe.stage_bytes, 1);
    for (j = 0; j < 4; j++)
        for (r = 0; r < 128; r++) {
            uint32_t oa = smma_sm90_sfa_off(&p, j, r), ob = smma_sm90_sfb_off(&p, j, r);

            bad += oa % 4 != 0 || oa < p.off_sfa || oa + 4 > p.off_sfa + SMMA_SM90_SFA_BYTES
                   || seen[oa]++ != 0;
            bad += ob % 4 != 0 || ob < p.off_sfb || ob + 4 > p.off_sfb + SMMA_SM90_SFB_BYTES
                   || seen[ob]++ != 0;
        }
    ok(bad == 0 && p.off_sfa >= p.off_b + 128 * 128
       && p.off_sfb + SMMA_SM90_SFB_BYTES <= p.pipe.stage_bytes
       && smma_sm90_sfree(&p, 0) == smma_pipe_empty(&p.pipe, p.pipe.stages - 1) + 8
       && smma_sm90_sfree(&p, p.pipe.stages - 1) + 8 <= p.pipe.off_bar + SMMA_SM90_BAR_BYTES
       && p.off_epi >= p.pipe.off_bar + SMMA_SM90_BAR_BYTES,
       "the stage's 1024 scale words are distinct and inside their areas, the sfree "
       "barriers after the ring's (%u bad)", bad);
    for (bad = 0, j = 0; j < 4; j++)
        for (t = 0; t < 256; t++) {
            uint32_t row = 64 * (t / 128) + 16 * (t % 128 / 32) + t % 32 / 4, q = t % 4, i;
            uint32_t oa = smma_sm90_sfa_off(&p, j, row), ob = smma_sm90_sfb_off(&p, j, 2 * q);

            bad += oa % 8 != 0 || smma_sm90_sfa_off(&p, j, row + 8) != oa + 4 || ob % 16 != 0;
            for (i = 0; i < 32; i++)
                bad += smma_sm90_sfb_off(&p, j, 8 * (i / 2) + 2 * q + i % 2) != ob + 4 * i;
        }
    ok(bad == 0, "each thread's scales: rows r and r + 8 in one 8-byte word, its 32 columns in "
       "eight 16-byte words (%u bad)", bad);
    /* sprod's tiles: every row's and column's k 0 a distinct 16-byte row
     * of its block, the tiles after the other areas and before the flags,
     * the zeros after the epilogue's buffers; the descriptors' LBO reaches
     * them. */
    for (bad = 0, j = 0; j < 4; j++)
        for (r = 0; r < 128; r++) {
            uint32_t ob = smma_sm90_sfs_off(&p, j, r), oa = smma_sm90_sfsa_off(&p, j, r);

            bad += ob % 16 != 0 || ob < p.off_sfs || ob + 16 > p.off_sflag || seen[ob]++ != 0;
            bad += oa % 16 != 0 || oa < p.off_sfs || oa + 16 > p.off_sflag || seen[oa]++ != 0;
        }
    for (j = 0; j < 4; j++) {
        uint64_t da = smma_sm90_desc_sa(&p, 1024, 1024 + p.off_zero, 1, j);
        uint64_t db = smma_sm90_desc_sb(&p, 1024, 1024 + p.off_zero, j);

        bad += ((da & 0x3fffu) << 4) != 1024 + smma_sm90_sfsa_off(&p, j, 64)
               || ((da & 0x3fffu) << 4) + (((da >> 16) & 0x3fffu) << 4) != 1024 + p.off_zero
               || ((db & 0x3fffu) << 4) + (((db >> 16) & 0x3fffu) << 4) != 1024 + p.off_zero
               || ((db >> 32) & 0x3fffu) != 8 || (db >> 62) != 0;
    }
    /* The k-step's descriptors moved from slot 0's block 0 are the ones
     * computed in full, in every slot, block and warpgroup. */
    for (s = 0; s < p.pipe.stages; s++)
        for (wg = 0; wg < 2; wg++)
            for (j = 0; j < 4; j++) {
                uint32_t st = 1024 + s * p.pipe.stage_bytes, zero = 1024 + p.off_zero;
                smma_sm90_p32_descs d0 = smma_sm90_p32_descs0(&p, 1024, wg);
                smma_sm90_p32_descs d = smma_sm90_p32_descs_at(&p, &d0, s, j);

                bad += d.a != smma_sm90_desc_a(&p, st, wg, j) || d.b != smma_sm90_desc_b(&p, st, j)
                       || d.sa != smma_sm90_desc_sa(&p, st, zero, wg, j)
                       || d.sb != smma_sm90_desc_sb(&p, st, zero, j);
            }
    ok(bad == 0 && p.sprod && p.off_sfs >= p.off_sfb + SMMA_SM90_SFB_BYTES
       && p.off_sflag == p.off_sfs + 8 * SMMA_SM90_SFS_BLOCK
       && p.off_sflag + 12 <= p.pipe.stage_bytes
       && p.off_zero >= p.off_epi + 4 * SMMA_SM90_EPI_BUF
       && p.off_zero + SMMA_SM90_SFS_BLOCK + 1024 <= p.smem_bytes,
       "sprod: the scale tiles' 1024 rows are distinct and inside their area, the flags "
       "after, the zeros after the epilogue; the descriptors reach them, and those moved "
       "from slot 0's block 0 are the ones computed in full (%u bad)", bad);
    free(seen);
}

/* smma_sm90_e8m0 is the e8m0 decoding for every code; smma_sm90_promote
 * rounds the scales' product once and fuses the rest. */
static void
test_promote(void)
{
    unsigned e, bad = 0;

    for (e = 0; e < 256; e++) {
        double want = smma_decode(SMMA_E8M0, e);
        float got = f32(smma_sm90_e8m0(e));

        bad += want != want ? got == got : (double) got != want;
    }
    ok(bad == 0, "smma_sm90_e8m0 decodes all 256 codes (%u bad)", bad);
    /* 2^-127 * 2^-127 rounds to 0, so the sum is acc exactly; 2^127 * 2^1
     * is Inf; 3 * 2^-149 * 2^0: one rounding of 3 * 2^-149 + 0. */
    ok(smma_sm90_promote(1.0f, f32(0x00400000u), f32(0x00400000u), 1.5f) == 1.5f,
       "2^-127 x 2^-127 rounds to 0");
    ok(isinf(smma_sm90_promote(1.0f, f32(0x7f000000u), 2.0f, 0.0f)),
       "2^127 x 2 rounds to Inf");
    ok(bits32(smma_sm90_promote(0.0f, f32(0x7f000000u) * 2.0f, 1.0f, 1.0f)) == 0x7fffffffu,
       "0 x Inf is the GPU's NaN");
    ok(bits32(smma_sm90_promote(3.0f, f32(0x00000001u), 1.0f, 0.0f)) == 0x00000003u,
       "a subnormal product is kept");
    ok(smma_sm90_promote(1.0f + 0x1p-12f, 1.0f + 0x1p-12f, 1.0f, -1.0f) == 0x1p-11f + 0x1p-24f,
       "the fma rounds once");
    ok(smma_sm90_promote(1.0f, 1.0f + 0x1p-12f, 1.0f + 0x1p-12f, -1.0f) == 0x1p-11f,
       "the scales' product is rounded to fp32 first");
}

int
main(void)
{
    static const char *const suites[] = {
        "gemm.mxfp8.exact", "gemm.mxfp8.model.h100-fp8-promote32", "gemm.mxfp8.kernel.exact",
        "gemm.mxfp8.kernel.model.h100-fp8-promote32", "gemm.mxfp8e5m2.kernel.exact",
        "gemm.mxfp8e5m2.kernel.model.h100-fp8-promote32",
        "gemm.mxfp8-e4m3-e5m2.kernel.model.h100-fp8-promote32",
        "gemm.mxfp4.kernel.model.h100-fp8-promote32", "gemm.mxfp4.model.h100-fp8-promote32",
        "gemm.mxfp6e2m3.kernel.model.h100-fp8-promote32",
        "gemm.mxfp6e2m3.model.h100-fp8-promote32",
        "gemm.mxfp6e3m2.kernel.model.h100-fp8-promote32",
        "gemm.mxfp6e3m2.model.h100-fp8-promote32",
        "gemm.mxfp8-mxfp4.kernel.model.h100-fp8-promote32",
        "gemm.mxfp8-mxfp4.model.h100-fp8-promote32",
    };
    double t0 = tap_seconds();
    size_t i;

    plan_lazy();
    test_check();
    test_offsets();
    test_promote();
    test_special();
    for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
        t100_each_case(suites[i], false, test_level() >= 2, suite_case, NULL);
    test_generated();
    test_sprod();
    ok(ksteps_s > 0 && ksteps_f > 0, "the dry runs took both ways: %lu k-steps with the "
       "scales' products on the tensor core, %lu in fp32", ksteps_s, ksteps_f);
    diag("%.2f s", tap_seconds() - t0);
    return exit_status();
}

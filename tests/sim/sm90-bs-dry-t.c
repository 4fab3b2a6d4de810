/*
 * tests/sim/sm90-bs-dry-t.c - the dry run of sm90-bs (gpu/sm90/gemm_bs.cu):
 * its plan (gpu/sm90/plan.h, gpu/pipe.h) executed on the simulator's wgmma
 * executor, compared bit for bit with the golden vectors and smma_gemm
 * under bf16-upcast-h100.
 *
 * The run follows the kernel CTA by CTA (both CTAs of a cluster), tile by
 * tile in the scheduler's order, k-step by k-step through the slots of both
 * rings: TMA's boxes of the stored bytes land in a slot of the stored ring
 * (rows of ra and rb bytes, unswizzled, 0 past the tensor; B's halves from
 * both CTAs of a cluster), the converters' units (smma_sm90_unit_raw,
 * _unit_conv, _unit_kb) turn them into bf16 times their scales in a slot
 * of the bf16 ring -- the rounding computed here with the reference's
 * decoding and encoding, not the kernel's instructions -- with +0 past K,
 * and each consumer warpgroup runs the wgmma of each k-step (m64n256k16,
 * h100-bf16) with the descriptors and scale-d the plan gives; then D from the registers through the epilogue.  Slots are filled
 * with 0xee before each k-step and the bytes past each row of A and B hold
 * 0xa5, so a unit read or written at the wrong place shows.
 *
 * D must equal every committed suite under bf16-upcast-h100 (all the pairs
 * the kernel takes, with C, alpha and every D; at level 0 the kernel-scale
 * suites of mxfp8, mxfp6e2m3, nvfp4 and bf16-mxfp8 only) and smma_gemm on generated
 * problems (ragged m, n, k; NaN scales next to K's end; both scale
 * layouts; clusters of one and two; several tiles per CTA); a run whose
 * converters take the scale of the wrong block must not.  The test also
 * checks the rules of smma_sm90_check for the kernel and the plan's shared
 * memory, and that the units cover each slot of both rings exactly once.
 *
 * The conversion pass that runs instead unless SMMA_SM90_PRE=0 (plan.h,
 * smma_sm90_pre_ld): when it is chosen, its units, and on each generated
 * problem the pass (tests/sm90-pass.c) then sm90-v2's bf16 GEMM under
 * h100-bf16 equal to bf16-upcast-h100.
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

/* The arguments of sm90-bs for a problem (tests/sm100-util.h). */
static smma_gpu_gemm_args
prob_args(const t100_prob *p)
{
    smma_gpu_gemm_args a = t100_prob_args(p);

    a.d = (void *) (uintptr_t) 4096;
    a.ldd = p->s.n + (8 - p->s.n % 8) % 8;
    a.kernel = SMMA_GPU_SM90_BS;
    return a;
}

/* ---- the two rings ------------------------------------------------------------------------ */

/* TMA's boxes of k-step kit for CTA `rank` of its cluster (tiles at rows
 * m0s[r], column n0) into a slot of the stored ring: its own A, every CTA's
 * multicast half of B; bytes outside the tensor are 0. */
static void
stage_tma(const smma_sm90_plan *pl, const t100_prob *p, uint32_t rank, const uint32_t *m0s,
          uint32_t n0, uint32_t kit, uint8_t *slot)
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

                    slot[off + y * box[0] + x] =
                        gx < dims[0] && gy < dims[1] ? g[gy * strides[0] + gx] : 0;
                }
        }
}

enum { RUN_ALL = 0, RUN_NEXT_BLOCK = 1 };

/* The converters: every unit of k-step kit of the tile at (m0, n0) from
 * the stored slot `raw` into the bf16 slot `conv`.  RUN_NEXT_BLOCK: the
 * scale of the block after the unit's (a wrong kernel). */
static void
stage_convert(const smma_sm90_plan *pl, const t100_prob *p, uint32_t m0, uint32_t n0,
              uint32_t kit, unsigned flags, const uint8_t *raw, uint8_t *conv)
{
    smma_cvt rn = smma_cvt_default();
    uint32_t q, e, h;

    rn.sat = false; /* past bf16's range: Inf, as cvt.rn.bf16x2.f32 rounds */

    for (q = 0; q < smma_sm90_units(pl); q++) {
        uint32_t row = q / 4, k0 = kit * pl->bk + 16 * (q % 4);
        bool is_a = row < pl->bm;
        smma_format f = is_a ? p->s.a_fmt : p->s.b_fmt;
        uint32_t g = is_a ? m0 + row : n0 + row - pl->bm;
        uint32_t kb = smma_sm90_unit_kb(pl, kit, q) + (flags & RUN_NEXT_BLOCK ? 1 : 0);
        uint32_t sbyte = p->s.scale_fmt == SMMA_E8M0 ? 0x7fu : 0x38u;
        double s;

        if (g < (is_a ? p->s.m : p->s.n) && kb < pl->kb_cols && f != SMMA_BF16)
            sbyte = (is_a ? p->gsa : p->gsb)[smma_sm90_sf_goff(pl, g, kb)];
        s = smma_decode(p->s.scale_fmt, sbyte);
        for (h = 0; h < 2; h++)
            for (e = 0; e < 8; e++) {
                uint32_t v, code = t90_stored_code(f, raw + smma_sm90_unit_raw(pl, q), 8 * h + e);

                v = f == SMMA_BF16 ? code : smma_encode(SMMA_BF16, smma_decode(f, code) * s, &rn);
                if (k0 + 8 * h + e >= pl->k)
                    v = 0;
                conv[smma_sm90_unit_conv(pl, q, h) + 2 * e] = (uint8_t) v;
                conv[smma_sm90_unit_conv(pl, q, h) + 2 * e + 1] = (uint8_t) (v >> 8);
            }
    }
}

static int
run_plan(const smma_sm90_plan *pl, const t100_prob *p, unsigned flags, uint32_t *d,
         smma_error *err)
{
    size_t smem_size = SMEM_BASE + pl->smem_bytes;
    uint8_t *smem = t100_calloc(smem_size, 1);
    uint32_t *acc = t100_calloc((size_t) 2 * 128 * 128, sizeof(uint32_t));
    smma_wgmma_variant v;
    uint32_t c, i, kit, wg, j;
    int rc = SMMA_OK;

    v = smma_wgmma_variant_make(SMMA_BF16, SMMA_BF16, pl->bn);
    v.a_smem = true;
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
            t100_sm90_tile_init(p, acc, pl->bn / 2, m0, n0, 0xdeadbeefu);
            for (kit = 0; kit < pl->pipe.kiters && rc == SMMA_OK; kit++, iter++) {
                uint32_t rs = SMEM_BASE + smma_pipe_slot(&pl->pipe, iter) * pl->pipe.stage_bytes;
                uint32_t st = SMEM_BASE + pl->off_conv
                              + smma_pipe_slot(&pl->conv, iter) * pl->conv.stage_bytes;

                memset(smem + rs, 0xee, pl->pipe.stage_bytes);
                memset(smem + st, 0xee, pl->conv.stage_bytes);
                stage_tma(pl, p, rank, m0s, n0, kit, smem + rs);
                stage_convert(pl, p, m0, n0, kit, flags, smem + rs, smem + st);
                for (wg = 0; wg < 2 && rc == SMMA_OK; wg++)
                    for (j = 0; j < smma_sm90_nmma(pl, kit) && rc == SMMA_OK; j++) {
                        uint32_t *x = &acc[(size_t) wg * 128 * 128];

                        v.scale_d = smma_sm90_scale_d(pl, kit, j);
                        rc = smma_wgmma_exec_part(&v, tap_model("h100-bf16"), NULL,
                                                  smma_sm90_desc_a(pl, st, wg, j),
                                                  smma_sm90_desc_b(pl, st, j), smem, smem_size,
                                                  v.scale_d ? x : NULL, x,
                                                  t100_part(p->s.m, m0 + 64 * wg, 64),
                                                  t100_part(p->s.n, n0, pl->bn), err);
                    }
            }
            if (!inside || rc != SMMA_OK)
                continue;
            t100_sm90_tile_store(p, d, acc, pl->bn / 2, m0, n0);
        }
    }
    free(smem);
    free(acc);
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

    if (smma_sm90_plan_init(&pl, &a, SMMA_GPU_SM90_BS, sms, tu, msg, sizeof(msg))
        != SMMA_GPU_STATUS_OK) {
        ok(false, "%s: plan: %s", what, msg);
        return;
    }
    bad = diff_plan(&pl, p, RUN_ALL, want, what);
    ok(bad == 0, "%s, scales %s (%u k-steps, %u + %u slots, %u CTAs in clusters of %u): %ld of "
       "%zu outputs differ", what, smma_scale_layout_name(p->layout), pl.pipe.kiters,
       pl.pipe.stages, pl.conv.stages, pl.pipe.grid, pl.pipe.cluster, bad, p->s.m * p->s.n);
}

/* Whether the dry run of problem p on sms multiprocessors with tu is a point
 * of this run (TEST_SAMPLE; t90_sample). */
static bool
sampled(const t100_prob *p, unsigned sms, const smma_sm90_tune *tu, const char *what)
{
    smma_gpu_gemm_args a = prob_args(p);

    return t90_sample(SMMA_GPU_SM90_BS, &a, p, sms, tu, what);
}

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

/* ---- the conversion pass ------------------------------------------------------------------ */

/* The pass over problem p (tests/sm90-pass.c, as s90_bs_pre runs it), then
 * sm90-v2's GEMM of the bf16 copies under h100-bf16 -- what smma_sm90_gemm
 * runs for a large problem -- must give want (bf16-upcast-h100 of p), and
 * the problem over the copies must be one sm90-v2 takes; a pass that takes
 * the next block's scales must not match where the rows have two blocks. */
static void
check_pass(const t100_prob *p, const uint32_t *want, const char *what)
{
    smma_gpu_gemm_args a = prob_args(p);
    t90_pass_result r;
    char msg[256] = "";

    t90_pass_diff(SMMA_GPU_SM90_BS, &a, p, "h100-bf16", want, &r, msg, sizeof(msg));
    ok(r.rc == SMMA_GPU_STATUS_OK && r.k == SMMA_GPU_SM90_V2 && r.same_kernel && r.bad[0] == 0
       && (r.pl.kb_cols < 2 || r.bad[1] > 0),
       "the pass: %s: sm90-v2 over the bf16 copies (%zu + %zu bytes, rows of %llu) gives "
       "%s in all but %zu of %zu outputs; with the next block's scales %zu differ%s%s",
       what, r.bytes[0], r.bytes[1], (unsigned long long) smma_sm90_pre_ld(r.pl.k), MODEL,
       r.bad[0], p->s.m * p->s.n, r.bad[1], r.rc == SMMA_GPU_STATUS_OK ? "" : "; refused: ",
       msg);
}

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
    /* One tile. */
    { SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32, 128, 256, 128, SMMA_NONE, SMMA_FP32, false,
      SMMA_SL_128X4, 132, { 0, 0, 0, 0, 0, 0, 0 } },
    /* Ragged m, n, k (K 200: a last k-step of 8 k, a short block); C;
     * bf16 D; several tiles per CTA in clusters of two. */
    { SMMA_E2M1, SMMA_E2M1, SMMA_E8M0, 32, 300, 300, 200, SMMA_FP32, SMMA_BF16, false,
      SMMA_SL_LINEAR, 4, { 0, 0, 0, 0, 0, 0, 0 } },
    /* NVFP4, alpha, fp16 D, clusters of one, 3 stages. */
    { SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, 16, 130, 200, 1000, SMMA_FP32, SMMA_FP16, true,
      SMMA_SL_128X4, 2, { 0, 3, 1, 0, 0, 0, 0 } },
    /* bf16 x MXFP8, k = 2 (a ragged first and last k-step), m = n = 1. */
    { SMMA_BF16, SMMA_E4M3, SMMA_E8M0, 32, 1, 1, 2, SMMA_FP32, SMMA_FP32, false,
      SMMA_SL_LINEAR, 132, { 0, 0, 0, 0, 0, 0, 0 } },
    /* e2m3 and e3m2, e8m0 per 16; many k-steps through 2 slots; groups of 2. */
    { SMMA_E2M3, SMMA_E2M3, SMMA_E8M0, 16, 384, 264, 520, SMMA_NONE, SMMA_BF16, true,
      SMMA_SL_128X4, 3, { 0, 2, 2, 2, 0, 0, 0 } },
    { SMMA_E3M2, SMMA_E3M2, SMMA_E8M0, 32, 200, 300, 136, SMMA_FP32, SMMA_FP32, false,
      SMMA_SL_LINEAR, 2, { 0, 0, 2, 0, 0, 0, 0 } },
    /* e5m2 x e4m3 and MXFP8 x MXFP4, bf16 x MXFP4. */
    { SMMA_E5M2, SMMA_E4M3, SMMA_E8M0, 32, 129, 257, 192, SMMA_NONE, SMMA_FP32, false,
      SMMA_SL_128X4, 3, { 0, 0, 0, 0, 0, 0, 0 } },
    { SMMA_E4M3, SMMA_E2M1, SMMA_E8M0, 32, 256, 256, 320, SMMA_FP32, SMMA_BF16, false,
      SMMA_SL_LINEAR, 2, { 0, 0, 0, 0, 0, 0, 0 } },
    { SMMA_BF16, SMMA_E2M1, SMMA_E8M0, 32, 140, 260, 100, SMMA_NONE, SMMA_FP32, true,
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

/* A generated problem; with bf16 A its scales are 1 (the kernel reads
 * none). */
static void
gen_problem(t100_prob *p, const struct gen *g, uint64_t seed)
{
    smma_gemm_shape s = shape_of(g);
    size_t i, kb;

    t100_prob_generate(p, &s, g->layout, SMMA_CLASS_RANDOM, seed);
    if (g->a == SMMA_BF16) {
        kb = smma_gemm_kblocks(&p->s);
        for (i = 0; i < p->s.m * kb; i++)
            p->sa[i] = 0x7f;
        t100_prob_store(p);
    }
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

        /* Level 0 (check-valgrind): the first, second and fourth problem
         * (NVFP4 and e2m3 run in the level-0 suites); every one above. */
        if (test_level() == 0 && (i == 2 || i > 3))
            continue;
        gen_problem(&p, g, 0x9b5 + i);
        snprintf(what, sizeof(what), "%s x %s (%s per %u) %zux%zux%zu C %s D %s%s",
                 smma_format_name(g->a), smma_format_name(g->b), smma_format_name(g->sf),
                 g->vec, g->m, g->n, g->k, g->c == SMMA_NONE ? "none" : smma_format_name(g->c),
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

/* NaN scales in the last block, which reaches past K (the converters must
 * write +0 into B there, not 0 x NaN), 0x00 and 0xfe scales, NaN and the
 * largest codes; and a run whose converters take the next block's scale
 * must differ (the test can fail). */
static void
test_special(void)
{
    static const uint32_t e8[] = { 0x00, 0x01, 0xfe, 0xfd, 0xff, 0x7f };
    struct gen g = { SMMA_E4M3, SMMA_E5M2, SMMA_E8M0, 32, 136, 264, 200, SMMA_FP32, SMMA_FP32,
                     false, SMMA_SL_128X4, 3, { 0, 0, 0, 0, 0, 0, 0 } };
    smma_gpu_gemm_args a;
    smma_sm90_plan pl;
    size_t kb, i;
    uint64_t x = 12345;
    t100_prob p;
    uint32_t *want;
    char msg[256];

    gen_problem(&p, &g, 0x5bec);
    kb = smma_gemm_kblocks(&p.s);
    for (i = 0; i < p.s.m * kb; i++)
        if (i / kb % 8 != 0 && (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 62 == 0)
            p.sa[i] = e8[(x >> 33) % 6];
    for (i = 0; i < p.s.n * kb; i++)
        if (i % kb == kb - 1 && i / kb % 2 == 0)
            p.sb[i] = 0xff; /* the last block (k 192 .. 199) of every other column */
    for (i = 0; i < p.s.m * p.s.k; i++)
        if ((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 56 == 0)
            p.a[i] = (x >> 40) % 3 == 0 ? 0x7f : (x >> 40) % 3 == 1 ? 0x7e : 0x80;
    t100_prob_store(&p);
    want = t100_expected_under(&p, MODEL);
    check_plan(&p, 3, &g.tu, want, "special values 136x264x200, NaN scales in the last block");
    check_pass(&p, want, "special values 136x264x200, NaN scales in the last block");
    a = prob_args(&p);
    if (smma_sm90_plan_init(&pl, &a, SMMA_GPU_SM90_BS, 3, NULL, msg, sizeof(msg)) != 0)
        bail("plan: %s", msg);
    ok(diff_plan(&pl, &p, RUN_NEXT_BLOCK, want, "the next block's scale") > 0,
       "converters that take the next block's scale differ");
    free(want);
    t100_prob_free(&p);
}

/* ---- the rules, the plan, the units ------------------------------------------------------ */

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
    a.lda = a.ldb = (k + 31) / 32 * 32;
    a.a_kmajor = a.b_kmajor = true;
    a.ldd = n;
    a.scale_layout = SMMA_SL_128X4;
    a.kernel = SMMA_GPU_SM90_BS;
    return a;
}

static void
expect_refusal(const smma_gpu_gemm_args *a, const char *needle, const char *what)
{
    char msg[256] = "";
    int rc = smma_sm90_check(a, SMMA_GPU_SM90_BS, msg, sizeof(msg));

    ok(rc == SMMA_GPU_STATUS_EINVAL && strstr(msg, needle) != NULL, "refused: %s (%s)", what,
       msg);
}

/* Every pair the kernel takes is accepted, with the plan's two rings in
 * shared memory; the units of a k-step cover both slots exactly once. */
static void
test_plan(void)
{
    static const smma_format pairs[][2] = {
        { SMMA_E4M3, SMMA_E4M3 }, { SMMA_E4M3, SMMA_E5M2 }, { SMMA_E5M2, SMMA_E4M3 },
        { SMMA_E5M2, SMMA_E5M2 }, { SMMA_E2M3, SMMA_E2M3 }, { SMMA_E3M2, SMMA_E3M2 },
        { SMMA_E2M1, SMMA_E2M1 }, { SMMA_E4M3, SMMA_E2M1 }, { SMMA_BF16, SMMA_E2M1 },
        { SMMA_BF16, SMMA_E4M3 },
    };
    size_t i;
    char msg[256] = "";

    for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
        smma_gpu_gemm_args a = args_of(pairs[i][0], pairs[i][1], 8192, 8192, 8192);
        smma_sm90_plan p;
        uint8_t *raw, *conv;
        uint32_t n, q, b, who, t, j, bad = 0, raw_used = 0;
        int rc = smma_sm90_plan_init(&p, &a, SMMA_GPU_SM90_BS, 132, NULL, msg, sizeof(msg));

        if (rc != SMMA_GPU_STATUS_OK) {
            ok(false, "%s x %s: %s", smma_format_name(pairs[i][0]),
               smma_format_name(pairs[i][1]), msg);
            continue;
        }
        raw = t100_calloc(p.pipe.stage_bytes, 1);
        conv = t100_calloc(p.conv.stage_bytes, 1);
        /* Every unit once, through who converts it: thread t of `who`
         * (the converters, then each consumer) its units j; a consumer's
         * units lie in its own rows of A, and a thread's share its k. */
        bad += smma_sm90_unit_count(&p, 0) > 8 || smma_sm90_unit_count(&p, 1) > 8;
        for (n = 0; n < (p.wgs + 1) * SMMA_SM90_BS_CONVERTERS * 8; n++) {
            uint32_t row, rb;

            who = n / (SMMA_SM90_BS_CONVERTERS * 8);
            t = n / 8 % SMMA_SM90_BS_CONVERTERS;
            j = n % 8;
            if (j >= smma_sm90_unit_count(&p, who))
                continue;
            q = smma_sm90_unit_first(&p, who) + t + SMMA_SM90_BS_CONVERTERS * j;
            row = q / 4;
            bad += who == 0 ? row < p.bm : row < 64 * (who - 1) || row >= 64 * who;
            rb = row < p.bm ? p.ra / 4 : p.rb / 4;

            for (b = 0; b < rb; b++)
                bad += raw[smma_sm90_unit_raw(&p, q) + b]++ != 0;
            raw_used += rb;
            for (b = 0; b < 32; b++)
                bad += conv[smma_sm90_unit_conv(&p, q, b / 16) + b % 16]++ != 0;
            /* The written-out offsets are smem_a's and smem_b's. */
            for (b = 0; b < 2; b++)
                bad += smma_sm90_unit_conv(&p, q, b)
                       != (row < p.bm ? smma_sm90_smem_a(&p, row, 16 * (q % 4) + 8 * b)
                                      : smma_sm90_smem_b(&p, row - p.bm, 16 * (q % 4) + 8 * b));
        }
        for (b = 0; b < p.conv.stage_bytes; b++)
            bad += conv[b] != 1;
        ok(rc == SMMA_GPU_STATUS_OK && p.version == 4 && p.bm == 128 && p.bn == 256
           && p.bk == 64 && p.pipe.stage_tx == raw_used && raw_used <= p.pipe.stage_bytes
           && p.pipe.stages >= 2 && p.conv.stages >= 2 && p.conv.cluster == 1
           && p.conv.off_bar == p.pipe.off_bar + 16 * p.pipe.stages
           && p.conv.off_bar + 16 * p.conv.stages <= p.pipe.off_bar + SMMA_SM90_BAR_BYTES
           && p.off_conv + p.conv.stages * p.conv.stage_bytes == p.pipe.off_bar
           && p.smem_bytes <= SMMA_SM90_SMEM_LIMIT && p.pipe.cluster == 2 && bad == 0,
           "%s x %s 8192^3: %u stored slots of %u bytes, %u bf16 slots, %u bytes; the units "
           "of the converters and of each consumer's rows of A cover both slots once, at "
           "smem_a's and smem_b's offsets (%u bad)",
           smma_format_name(pairs[i][0]), smma_format_name(pairs[i][1]), p.pipe.stages,
           p.pipe.stage_bytes, p.conv.stages, p.smem_bytes, bad);
        free(raw);
        free(conv);
    }
}

/* When the kernels convert in a pass before the GEMM (wherever it applies,
 * unless SMMA_SM90_PRE=0), and the pass's units: every element of every
 * row once. */
static void
test_pre_rule(void)
{
    static const smma_sm90_tune never = { 0, 0, 0, 0, 1, 0, 0 },
                                always = { 0, 0, 0, 0, 2, 0, 0 };
    struct {
        smma_format a, b;
        smma_gpu_kernel k;
        size_t m, n;
        bool applies;
    } cases[] = {
        { SMMA_E4M3, SMMA_E4M3, SMMA_GPU_SM90_BS, 8192, 8192, true },
        { SMMA_E2M1, SMMA_E2M1, SMMA_GPU_SM90_BS, 1, 1, true },
        { SMMA_BF16, SMMA_E2M1, SMMA_GPU_SM90_BS, 1023, 8192, true },
        { SMMA_E2M1, SMMA_E2M1, SMMA_GPU_SM90_PROMOTE32, 8192, 8192, true },
        { SMMA_E4M3, SMMA_E2M1, SMMA_GPU_SM90_PROMOTE32, 16, 1024, true },
        { SMMA_E2M3, SMMA_E2M3, SMMA_GPU_SM90_PROMOTE32, 8192, 128, true },
        { SMMA_E4M3, SMMA_E4M3, SMMA_GPU_SM90_PROMOTE32, 8192, 8192, false },
        { SMMA_BF16, SMMA_BF16, SMMA_GPU_SM90_V2, 8192, 8192, false },
    };
    uint32_t row, k0, k, rows = 3;
    size_t i, bad;
    char msg[256] = "";

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        smma_gpu_gemm_args a = args_of(cases[i].a, cases[i].b, cases[i].m, cases[i].n, 4096);
        smma_sm90_plan p;
        int rc;

        if (cases[i].k == SMMA_GPU_SM90_V2)
            a.shape.scale_fmt = SMMA_NONE;
        rc = smma_sm90_plan_init(&p, &a, cases[i].k, 132, NULL, msg, sizeof(msg));
        ok(rc == SMMA_GPU_STATUS_OK && smma_sm90_pre_applies(&p) == cases[i].applies
           && smma_sm90_pre_wanted(&p, NULL) == cases[i].applies
           && smma_sm90_pre_wanted(&p, &always) == cases[i].applies
           && !smma_sm90_pre_wanted(&p, &never),
           "%s %s x %s %zux%zux4096: a pass %s (SMMA_SM90_PRE unset or 1: %s, 0: never)%s%s",
           smma_gpu_kernel_name(cases[i].k), smma_format_name(cases[i].a),
           smma_format_name(cases[i].b), cases[i].m, cases[i].n,
           cases[i].applies ? "applies" : "does not apply", cases[i].applies ? "run" : "not run",
           rc == SMMA_GPU_STATUS_OK ? "" : ": ", msg);
    }
    /* The units of rows of k elements: each (row, k0) once, in order. */
    for (k = 1, bad = 0; k <= 70; k++) {
        uint64_t u, n = (uint64_t) rows * ((k + 15) / 16);

        bad += smma_sm90_pre_ld(k) % 16 != 0 || smma_sm90_pre_ld(k) < k
               || smma_sm90_pre_ld(k) >= k + 16;
        for (u = 0; u < n; u++) {
            smma_sm90_pre_unit(u, k, &row, &k0);
            bad += row != u / ((k + 15) / 16) || k0 != u % ((k + 15) / 16) * 16 || k0 >= k
                   || row >= rows;
        }
        bad += smma_sm90_pre_off(48, 2, 16, 4) != 104 || smma_sm90_pre_off(96, 1, 5, 16) != 106;
    }
    ok(bad == 0, "the pass's units cover rows of 1 .. 70 elements once, its rows a whole number "
       "of units (%zu bad)", bad);
}

static void
test_check(void)
{
    smma_gpu_gemm_args a;

    a = args_of(SMMA_E2M1, SMMA_E4M3, 128, 128, 128);
    expect_refusal(&a, "e2m1 x e4m3 is not built", "mxfp4 x mxfp8");
    a = args_of(SMMA_E4M3, SMMA_E4M3, 128, 128, 128);
    a.shape.scale_fmt = SMMA_UE4M3;
    a.shape.vec = 16;
    expect_refusal(&a, "NVFP4", "e4m3 with ue4m3 scales");
    a = args_of(SMMA_BF16, SMMA_BF16, 128, 128, 128);
    a.shape.scale_fmt = SMMA_NONE;
    expect_refusal(&a, "without scales", "bf16 x bf16");
    a = args_of(SMMA_E4M3, SMMA_E4M3, 128, 128, 128);
    a.b_kmajor = false;
    a.ldb = 128;
    expect_refusal(&a, "B must be K-major", "N-major B");
    a = args_of(SMMA_E4M3, SMMA_E2M1, 128, 128, 40);
    a.ldb = 48;
    expect_refusal(&a, "multiples of 16 and 32", "e2m1 B, ldb 48 (24 bytes)");
    a = args_of(SMMA_BF16, SMMA_E2M1, 128, 128, 128);
    a.lda = 132;
    expect_refusal(&a, "multiples of 8 and 32", "bf16 A, lda 132");
    a.lda = 136;
    is_int(SMMA_GPU_STATUS_OK, smma_sm90_check(&a, SMMA_GPU_SM90_BS, NULL, 0),
           "bf16 A, lda 136 (272 bytes) accepted");
    a = args_of(SMMA_E2M1, SMMA_E2M1, 128, 128, 127);
    a.lda = a.ldb = 128;
    expect_refusal(&a, "must be even", "e2m1 with k = 127");
    a = args_of(SMMA_E4M3, SMMA_E4M3, 128, 128, 128);
    a.scale_layout = SMMA_SL_TRITON5D;
    expect_refusal(&a, "triton5d", "triton5d scales");
    a = args_of(SMMA_E4M3, SMMA_E4M3, 128, 128, 128);
    a.shape.c_fmt = SMMA_BF16;
    a.ldc = 128;
    expect_refusal(&a, "C must be fp32", "bf16 C");
    a = args_of(SMMA_E4M3, SMMA_E4M3, 128, 128, 100);
    a.lda = a.ldb = 112;
    is_int(SMMA_GPU_STATUS_OK, smma_sm90_check(&a, SMMA_GPU_SM90_BS, NULL, 0),
           "k = 100 (not a multiple of 8) accepted");
}

int
main(void)
{
    /* The kernel-scale suites of every pair, and the tile suites where
     * they exist. */
    static const char *const kernel[] = {
        "mxfp8", "mxfp8e5m2", "mxfp8-e4m3-e5m2", "mxfp6e2m3", "mxfp6e3m2", "mxfp4", "nvfp4",
        "mxfp8-mxfp4", "bf16-mxfp4", "bf16-mxfp8",
    };
    static const char *const tile[] = {
        "mxfp8", "mxfp6e2m3", "mxfp6e3m2", "mxfp4", "nvfp4", "mxfp8-mxfp4",
    };
    double t0 = tap_seconds();
    char name[128];
    size_t i;

    plan_lazy();
    test_check();
    test_pre_rule();
    test_plan();
    test_special();
    for (i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++) {
        /* Level 0 (check-valgrind): the kernel-scale suites of four pairs
         * (an 8-bit, a 6-bit, a 4-bit pair with ue4m3 scales and bf16 A);
         * every pair at level 1 and above. */
        if (test_level() == 0 && i % 3 != 0)
            continue;
        snprintf(name, sizeof(name), "gemm.%s.kernel.model.%s", kernel[i], MODEL);
        t100_each_case(name, false, test_level() >= 2, suite_case, NULL);
    }
    for (i = 0; i < sizeof(tile) / sizeof(tile[0]); i++) {
        snprintf(name, sizeof(name), "gemm.%s.model.%s", tile[i], MODEL);
        t100_each_case(name, false, test_level() >= 2, suite_case, NULL);
    }
    test_generated();
    diag("%.2f s", tap_seconds() - t0);
    return exit_status();
}

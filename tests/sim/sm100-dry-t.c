/*
 * tests/sim/sm100-dry-t.c - the dry run of the sm_100 GEMM kernels: their
 * plan (gpu/sm100/plan.h, the functions the kernels call) executed on the
 * simulator, compared bit for bit with the golden vectors and smma_gemm.
 *
 * For each kernel version, format combination, scale layout and shape the
 * test builds the caller's buffers, runs the preparation the launcher runs
 * on the device (e2m1 unpacking, linear -> 128x4 scales), then, CTA by CTA
 * and k-step by k-step in the kernel's order: fills the simulated shared
 * memory of the stage slot chunk by chunk from the plan (out-of-bounds bytes
 * 0, as TMA fills them), applies the fix-up of a ragged last k-step, runs
 * every tcgen05.cp (smma_tmem_cp_exec) and tcgen05.mma (smma_tc05_mma_exec)
 * with the descriptors, instruction descriptor and TMEM addresses the plan
 * gives, stores C into the accumulator and reads D back with the
 * tcgen05.st/ld layouts (smma_tmem_st / smma_tmem_ld), and applies the
 * epilogue (alpha, rounding to bf16/fp16).  D must equal:
 *   - the committed suites gemm.COMBO.exact and gemm.COMBO.model.b200-fp8;
 *   - the kernel-scale suites gemm.COMBO.kernel.exact and
 *     gemm.COMBO.kernel.model.b200-fp8 when they exist (skipped otherwise);
 *   - smma_gemm under b200-fp8 on generated problems (one tile, several
 *     tiles, ragged m, n and k, C, alpha, bf16/fp16 D), for v1 and for v2
 *     with a small grid so that CTAs take several tiles.
 * It also checks smma_sm100_check's acceptance rules and messages, and that
 * the plan's shared-memory shortcut equals the descriptor's view.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <softmma/format.h>
#include <softmma/gemm.h>
#include <softmma/quant.h>
#include <softmma/scale_layout.h>
#include <softmma/tcgen05.h>
#include <softmma/tmem.h>
#include <softmma/vectors.h>

#include "sm100-util.h"
#include "tap/basic.h"

/* ---- running the plan on the simulator -------------------------------------------------- */

#define SMEM_BASE 1024u

/* A fault the dry run can put into a v3 plan's run, to show that the
 * comparisons see it: rank 1's stages without the scale blocks of B that
 * rank 0 multicasts (as if the multicast reached only rank 0). */
static bool drop_peer_sfb;

/*
 * Executes the plan on the simulator: every cluster of the grid (one CTA,
 * or a pair for v3, each CTA with its own shared memory and TMEM), its
 * tiles in the scheduler's order, the stage slots and accumulators as the
 * kernel cycles through them; v3's tcgen05.cp and tcgen05.mma run with
 * cta_group::2 on the pair.  d receives m x n codes of D.
 */
static int
run_plan(const smma_sm100_plan *p, const t100_prob *pr, const smma_model *model, uint32_t *d,
         smma_error *err)
{
    static const smma_tmem_ldst ld32 = { SMMA_TMEM_32X32B, 32, false, 0 };
    const unsigned cl = p->pipe.cluster;
    const smma_tmem_cp cp = { SMMA_TMEM_CP_32X128B_WARPX4, cl, SMMA_TMEM_CP_PLAIN };
    size_t smem_size = SMEM_BASE + (size_t) p->pipe.stages * p->pipe.stage_bytes;
    smma_tc05_cta ctas[2];
    uint8_t *smem[2];
    smma_tmem *tm[2];
    uint32_t regs[32 * 32], c0, q, i, kit, j, part, chunk, t, r, row, col, tbase = 0, tb = 0;
    t100_kin in;
    int rc = SMMA_OK;

    t100_prepare(p, pr, &in);
    for (q = 0; q < cl; q++) {
        smem[q] = t100_calloc(smem_size, 1);
        tm[q] = t100_calloc(1, sizeof(*tm[q]));
        ctas[q].smem = smem[q];
        ctas[q].smem_size = smem_size;
        ctas[q].tmem = tm[q];
    }
    for (c0 = 0; c0 < p->pipe.grid && rc == SMMA_OK; c0 += cl) {
        uint32_t iter = 0;

        for (q = 0; q < cl && rc == SMMA_OK; q++) {
            smma_tmem_init(tm[q]);
            rc = smma_tmem_alloc(tm[q], p->tmem_cols, q == 0 ? &tbase : &tb, err);
            if (rc == SMMA_OK && q > 0 && tb != tbase)
                rc = smma_error_set(err, SMMA_EINVAL, "the pair's TMEM bases differ");
        }
        for (i = 0; i < smma_pipe_cta_nunits(&p->pipe, c0) && rc == SMMA_OK; i++) {
            uint32_t acc = i % p->acc_stages, m0[2] = { 0, 0 }, n0 = 0, tmr;
            uint32_t dacc = tbase + acc * p->bn;

            for (q = 0; q < cl; q++) {
                smma_pipe_cta_tile(&p->pipe, c0 + q, i, &tmr, &n0);
                m0[q] = tmr * SMMA_SM100_BM;
                n0 *= p->bn;
            }
            for (q = 0; q < cl; q++)
                for (part = 0; part < 4 && pr->s.c_fmt != SMMA_NONE && rc == SMMA_OK; part++)
                    for (chunk = 0; chunk < p->bn / 32 && rc == SMMA_OK; chunk++) {
                        for (t = 0; t < 32; t++)
                            for (r = 0; r < 32; r++) {
                                smma_sm100_epi_cell(part, chunk, t, r, &row, &col);
                                regs[t * 32 + r] = m0[q] + row < p->m && n0 + col < p->n
                                                   ? t100_c_bits(pr, m0[q] + row, n0 + col)
                                                   : 0;
                            }
                        rc = smma_tmem_st(&ld32, tm[q], part,
                                          dacc + smma_sm100_epi_taddr(part, chunk), regs, err);
                    }
            for (kit = 0; kit < p->pipe.kiters && rc == SMMA_OK; kit++, iter++) {
                uint32_t slot = smma_pipe_slot(&p->pipe, iter);
                uint32_t sbase = SMEM_BASE + slot * p->pipe.stage_bytes;

                for (q = 0; q < cl; q++)
                    t100_stage_image_cta(p, &in, q, m0[q], n0, kit, smem[q] + sbase);
                if (drop_peer_sfb && cl == 2)
                    for (j = 0; j < smma_sm100_v3_nsfb(p, 0); j++) {
                        int32_t bc[4];
                        uint32_t off = smma_sm100_v3_sfb_box(p, 0, j, n0, kit, bc);

                        memset(smem[1] + sbase + off, 0, p->sf_blks * SMMA_SM100_SFBLK);
                    }
                for (j = 0; j < smma_sm100_ncp(p) && rc == SMMA_OK; j++) {
                    uint64_t sdesc;
                    uint32_t taddr;

                    smma_sm100_cp(p, slot, j, sbase, tbase, &sdesc, &taddr);
                    rc = smma_tc05_cp_exec(&cp, ctas, sdesc, taddr, err);
                }
                for (j = 0; j < SMMA_SM100_MMAS && rc == SMMA_OK; j++) {
                    smma_sm100_mma_ops o;
                    smma_tc05_mma op;

                    smma_sm100_mma(p, slot, j, sbase, tbase, acc, &o);
                    memset(&op, 0, sizeof(op));
                    op.kind = (smma_tc05_kind) p->kind;
                    op.cta_group = cl;
                    op.scale_vec = p->scale_vec;
                    op.idesc = o.idesc;
                    op.a_desc = o.adesc;
                    op.b_desc = o.bdesc;
                    op.d_taddr = o.d;
                    op.sfa_taddr = o.sfa;
                    op.sfb_taddr = o.sfb;
                    op.enable_input_d = pr->s.c_fmt != SMMA_NONE || kit > 0 || j > 0;
                    rc = smma_tc05_mma_exec(&op, model, ctas, err);
                }
            }
            for (q = 0; q < cl; q++)
                for (part = 0; part < 4 && rc == SMMA_OK; part++)
                    for (chunk = 0; chunk < p->bn / 32 && rc == SMMA_OK; chunk++) {
                        rc = smma_tmem_ld(&ld32, tm[q], part,
                                          dacc + smma_sm100_epi_taddr(part, chunk), regs, err);
                        for (t = 0; t < 32 && rc == SMMA_OK; t++)
                            for (r = 0; r < 32; r++) {
                                smma_sm100_epi_cell(part, chunk, t, r, &row, &col);
                                if (m0[q] + row < p->m && n0 + col < p->n)
                                    d[(size_t) (m0[q] + row) * p->n + n0 + col] =
                                        t100_epilogue(pr->s.d_fmt, pr->s.has_alpha,
                                                      pr->s.alpha, regs[t * 32 + r]);
                            }
                    }
        }
        for (q = 0; q < cl && rc == SMMA_OK; q++)
            rc = smma_tmem_dealloc(tm[q], tbase, p->tmem_cols, err);
    }
    t100_kin_free(&in);
    for (q = 0; q < cl; q++) {
        free(smem[q]);
        free(tm[q]);
    }
    return rc;
}

/* Runs a plan and counts the outputs that differ from want (the first
 * five are printed); -1 when the simulator refuses the plan. */
static long
diff_plan(const smma_sm100_plan *p, const t100_prob *pr, const uint32_t *want,
          const char *what)
{
    smma_error err;
    uint32_t *d;
    size_t i, mn = pr->s.m * pr->s.n;
    long bad = 0;

    d = t100_calloc(mn, sizeof(uint32_t));
    for (i = 0; i < mn; i++)
        d[i] = 0xdeadbeefu;
    if (run_plan(p, pr, tap_model("b200-fp8"), d, &err) != SMMA_OK) {
        diag("%s: the simulator refused the plan: %s", what, err.msg);
        free(d);
        return -1;
    }
    for (i = 0; i < mn; i++)
        if (d[i] != want[i] && bad++ < 5)
            diag("%s: D[%zu][%zu] = 0x%08lx, want 0x%08lx", what, i / pr->s.n, i % pr->s.n,
                 (unsigned long) d[i], (unsigned long) want[i]);
    free(d);
    return bad;
}

/* Runs kernel k's plan (v2 on `sms` multiprocessors) and compares D with
 * want; one TAP point (none where TEST_SAMPLE leaves it out: t100_sample). */
static void
check_plan(const t100_prob *pr, smma_gpu_kernel k, unsigned sms, const uint32_t *want,
           const char *what)
{
    smma_gpu_gemm_args a = t100_prob_args(pr);
    smma_sm100_plan p;
    char msg[256], full[400];
    const char *kn = k == SMMA_GPU_SM100_V1 ? "v1" : k == SMMA_GPU_SM100_V2 ? "v2" : "v3";
    long bad;

    if (smma_sm100_plan_init(&p, &a, k, sms, msg, sizeof(msg)) != SMMA_GPU_STATUS_OK) {
        ok(false, "%s %s: plan: %s", kn, what, msg);
        return;
    }
    snprintf(full, sizeof(full), "%s %s", kn, what);
    if (!t100_sample(smma_gpu_kernel_name(k), &pr->s, pr->layout, p.mma_m, p.bn, p.k_step,
                     full))
        return;
    bad = diff_plan(&p, pr, want, full);
    ok(bad == 0, "%s (bn %u, %u k-steps, %u stages, grid %u): %ld of %zu outputs differ",
       full, p.bn, p.pipe.kiters, p.pipe.stages, p.pipe.grid, bad, pr->s.m * pr->s.n);
}

/* ---- generated problems ------------------------------------------------------------------ */

static void
test_generated(void)
{
    size_t ci, i;
    int lev = test_level();

    /* Level 1 runs each combination on the one-tile case and on one of the
     * others, v1 and v2 taking turns (every case meets both kernels over
     * the combinations); level 2 runs everything through both. */
    for (ci = 0; ci < t100_ncombos; ci++)
        for (i = 0; i < t100_ngens; i++) {
            smma_scale_layout layout = (ci + i) % 2 ? SMMA_SL_LINEAR : SMMA_SL_128X4;
            bool first = (ci + (i > 0)) % 2 == 0;
            t100_prob p;
            uint32_t *want;
            char what[160];

            if ((lev < 2 && i != 0 && i != 1 + ci % 4) || (lev < 1 && i != 0))
                continue;
            t100_gen_problem(&p, ci, &t100_gens[i], layout, 0x5d100 + 16 * ci + i, what,
                             sizeof(what));
            want = t100_expected(&p);
            if (lev >= 2 || first)
                check_plan(&p, SMMA_GPU_SM100_V1, 0, want, what);
            if (lev >= 2 || !first)
                check_plan(&p, SMMA_GPU_SM100_V2, 1 + (unsigned) i % 2, want, what);
            /* v3 on every case that runs, on one pair or two (persistent). */
            check_plan(&p, SMMA_GPU_SM100_V3, 2 + 2 * ((unsigned) i % 2), want, what);
            free(want);
            t100_prob_free(&p);
        }
}

/* The padding of a ragged K keeps a -0 sum -0, and keeps NaN padding of the
 * 128x4 scales out; the same plan with +0 in A's padding, or with NaN as
 * the fix-up's scale, gives other bits (so these comparisons can fail). */
static void
test_padding(void)
{
    smma_gemm_shape s;
    t100_prob p;
    uint32_t *want;
    smma_gpu_gemm_args a;
    smma_sm100_plan pl;
    char msg[256];
    size_t i, kb;

    memset(&s, 0, sizeof(s));
    memset(&p, 0, sizeof(p));
    s.a_fmt = s.b_fmt = SMMA_E4M3;
    s.scale_fmt = SMMA_E8M0;
    s.vec = 32;
    s.c_fmt = s.d_fmt = SMMA_FP32;
    s.m = 16;
    s.n = 8;
    s.k = 40;
    kb = smma_gemm_kblocks(&s);
    p.s = s;
    p.layout = SMMA_SL_128X4;
    p.a = t100_calloc(s.m * s.k, sizeof(uint32_t));
    p.b = t100_calloc(s.n * s.k, sizeof(uint32_t));
    p.sa = t100_calloc(s.m * kb, sizeof(uint32_t));
    p.sb = t100_calloc(s.n * kb, sizeof(uint32_t));
    p.c = t100_calloc(s.m * s.n, sizeof(uint32_t));
    for (i = 0; i < s.m * s.k; i++)
        p.a[i] = 0x80;                  /* -0 times +0: every product is -0 */
    for (i = 0; i < s.m * kb; i++)
        p.sa[i] = 0x7f;
    for (i = 0; i < s.n * kb; i++)
        p.sb[i] = 0x7f;
    for (i = 0; i < s.m * s.n; i++)
        p.c[i] = 0x80000000u;
    t100_prob_store(&p);
    want = t100_expected(&p);
    ok(want[0] == 0x80000000u, "C = -0 plus -0 products is -0 (0x%08lx)",
       (unsigned long) want[0]);
    check_plan(&p, SMMA_GPU_SM100_V1, 0, want, "-0 sum, K 40 padded to 128");
    check_plan(&p, SMMA_GPU_SM100_V3, 2, want, "-0 sum, K 40 padded to 128");
    a = t100_prob_args(&p);
    if (smma_sm100_plan_init(&pl, &a, SMMA_GPU_SM100_V1, 0, msg, sizeof(msg)) != 0)
        bail("plan: %s", msg);
    pl.a_neg_zero = 0;
    ok(diff_plan(&pl, &p, want, "A padded with +0") == (long) (s.m * s.n),
       "a plan padding A with +0 turns every -0 into +0");
    pl.a_neg_zero = 0x80;
    pl.sf_one = 0xff;
    ok(diff_plan(&pl, &p, want, "scale padding NaN") == (long) (s.m * s.n),
       "a plan padding the scales with NaN makes every output NaN");
    free(want);
    t100_prob_free(&p);
}

/* ---- golden vector suites ------------------------------------------------------------------ */

/* One suite case: even cases through v1 (with 128x4 scales), odd ones
 * through v2 (linear scales); level 2: both kernels. */
static void
suite_case(const t100_prob *p, const uint32_t *want, const char *what, unsigned ncase,
           void *ctx)
{
    (void) ctx;
    if (test_level() >= 2 || ncase % 2 == 0)
        check_plan(p, SMMA_GPU_SM100_V1, 0, want, what);
    if (test_level() >= 2 || ncase % 2 == 1)
        check_plan(p, SMMA_GPU_SM100_V2, 1, want, what);
    if (test_level() >= 2 || ncase % 3 == 0)
        check_plan(p, SMMA_GPU_SM100_V3, 2, want, what);
}


/* ---- the plan against the simulator's own functions ----------------------------------------- */

/* The plan's stage offset of (row, byte) equals the address the
 * tcgen05.mma descriptors of the plan describe, for every instruction of
 * the k-step, every row and every byte it reads. */
static void
test_smem_view(void)
{
    static const smma_format fa[] = { SMMA_E4M3, SMMA_E2M1 };
    unsigned f, bn, which, j, row, kk, bad = 0, total = 0;

    for (f = 0; f < 2; f++)
        for (bn = 64; bn <= 256; bn *= 2) {
            smma_gpu_gemm_args a;
            smma_sm100_plan p;
            char msg[256];

            memset(&a, 0, sizeof(a));
            a.shape.a_fmt = a.shape.b_fmt = fa[f];
            a.shape.scale_fmt = SMMA_E8M0;
            a.shape.vec = 32;
            a.shape.c_fmt = SMMA_NONE;
            a.shape.d_fmt = SMMA_FP32;
            a.shape.m = 128;
            a.shape.n = bn;
            a.shape.k = 512;
            a.lda = a.ldb = 512;
            a.a_kmajor = a.b_kmajor = true;
            a.ldd = bn;
            if (smma_sm100_plan_init(&p, &a, SMMA_GPU_SM100_V2, 4, msg, sizeof(msg)) != 0)
                bail("plan: %s", msg);
            for (j = 0; j < SMMA_SM100_MMAS; j++) {
                smma_sm100_mma_ops o;
                smma_tc05_sdesc sd;
                smma_tc05_layout l;
                smma_error err;

                smma_sm100_mma(&p, 1, j, SMEM_BASE + p.pipe.stage_bytes, 0, 0, &o);
                for (which = 0; which < 2; which++) {
                    if (smma_tc05_sdesc_decode(which ? o.bdesc : o.adesc, &sd, &err) != SMMA_OK)
                        bail("sdesc: %s", err.msg);
                    l.mn_major = false;
                    l.swizzle = sd.swizzle;
                    l.elem_bits = 8;
                    l.lbo = sd.lbo;
                    l.sbo = sd.sbo;
                    for (row = 0; row < (which ? bn : 128); row++)
                        for (kk = 0; kk < 32; kk++) {
                            uint32_t byte;

                            if (smma_tc05_smem_addr(&l, sd.start, row, kk, &byte, NULL, &err)
                                != SMMA_OK)
                                bail("smem_addr: %s", err.msg);
                            total++;
                            if (byte != SMEM_BASE + p.pipe.stage_bytes
                                            + smma_sm100_smem_ab(&p, which, row, 32 * j + kk)
                                && bad++ < 5)
                                diag("%s bn %u mma %u %c row %u byte %u: descriptor 0x%x",
                                     smma_format_name(fa[f]), bn, j, which ? 'B' : 'A', row,
                                     kk, (unsigned) byte);
                        }
                }
            }
        }
    ok(bad == 0, "the plan's swizzled stage offsets equal the descriptors' addresses "
       "(%u of %u differ)", bad, total);
}

/* smma_tc05_sf128x4_off / _pos against the library's 128x4 layout. */
static void
test_128x4(void)
{
    static const size_t rows[] = { 1, 127, 128, 300 };
    static const size_t ks[] = { 32, 100, 512, 1000 };
    size_t ri, ki, m, kb, off, bad = 0, total = 0;

    for (ri = 0; ri < 4; ri++)
        for (ki = 0; ki < 4; ki++) {
            size_t nkb = (ks[ki] + 31) / 32, kb_pad = (nkb + 3) / 4 * 4;

            for (m = 0; m < rows[ri]; m++)
                for (kb = 0; kb < nkb; kb++) {
                    uint64_t pm, pk;
                    smma_error err;

                    if (smma_scale_offset(SMMA_SL_128X4, rows[ri], ks[ki], 32, m, kb, &off,
                                          &err) != SMMA_OK)
                        bail("scale offset: %s", err.msg);
                    smma_tc05_sf128x4_pos(off, kb_pad, &pm, &pk);
                    total++;
                    if ((smma_tc05_sf128x4_off(m, kb, kb_pad) != off || pm != m || pk != kb)
                        && bad++ < 5)
                        diag("rows %zu k %zu (%zu, %zu): library %zu, tc05_addr %llu", rows[ri],
                             ks[ki], m, kb, off,
                             (unsigned long long) smma_tc05_sf128x4_off(m, kb, kb_pad));
                }
        }
    ok(bad == 0, "128x4 offsets and their inverse equal smma_scale_offset (%zu of %zu differ)",
       bad, total);
}

/* ---- acceptance ----------------------------------------------------------------------- */

static smma_gpu_gemm_args
args_of(smma_format fa, smma_format fb, smma_format sf, unsigned vec, size_t m, size_t n,
        size_t k)
{
    smma_gpu_gemm_args a;

    memset(&a, 0, sizeof(a));
    a.shape.a_fmt = fa;
    a.shape.b_fmt = fb;
    a.shape.scale_fmt = sf;
    a.shape.vec = vec;
    a.shape.c_fmt = SMMA_NONE;
    a.shape.d_fmt = SMMA_BF16;
    a.shape.m = m;
    a.shape.n = n;
    a.shape.k = k;
    a.lda = a.ldb = (k + 31) / 32 * 32;
    a.a_kmajor = a.b_kmajor = true;
    a.scale_layout = SMMA_SL_128X4;
    a.ldd = n;
    return a;
}

static void
expect_refusal(const smma_gpu_gemm_args *a, smma_gpu_kernel k, const char *needle,
               const char *what)
{
    char msg[256] = "";
    int rc = smma_sm100_check(a, k, msg, sizeof(msg));

    ok(rc == SMMA_GPU_STATUS_EINVAL && strstr(msg, needle) != NULL, "refused: %s (\"%s\")",
       what, msg);
}

/*
 * Every chunk a plan loads lies inside its buffer: A and B end with their
 * last row's K bytes, the 128x4 scale arrays with rows_pad / 128 row groups
 * of kb_pad / 4 groups of four blocks (512 bytes each); a chunk past them is
 * not read (valid 0) and lands as zeros.  The shapes overhang a tile in M
 * and N (a B tile of 256 rows over n = 100) and a k-step in K (nvfp4 at k
 * = 160: ten scale columns padded to twelve, a k-step of sixteen).
 */
static void
test_chunks_inside(void)
{
    static const size_t shapes[][3] = { { 100, 100, 160 }, { 130, 300, 520 }, { 1, 1, 1 },
                                        { 256, 129, 96 }, { 200, 600, 1000 } };
    size_t ci, si, v, bad = 0, n = 0;

    for (ci = 0; ci < t100_ncombos; ci++)
        for (si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++)
            for (v = 1; v <= 2; v++) {
                const t100_combo *co = &t100_combos[ci];
                smma_gpu_gemm_args a = args_of(co->a, co->b, co->scale, co->vec, shapes[si][0],
                                               shapes[si][1], shapes[si][2]);
                smma_sm100_plan p;
                char msg[256];
                uint64_t size[4], goff;
                uint32_t tile, kit, j, m0, n0, off, valid;
                unsigned buf;

                if (smma_sm100_plan_init(&p, &a, v == 1 ? SMMA_GPU_SM100_V1
                                                         : SMMA_GPU_SM100_V2, 148, msg,
                                         sizeof(msg)) != SMMA_GPU_STATUS_OK) {
                    ok(0, "%s %zu x %zu x %zu: %s", co->name, shapes[si][0], shapes[si][1],
                       shapes[si][2], msg);
                    continue;
                }
                size[SMMA_SM100_BUF_A] = (uint64_t) (p.m - 1) * p.a_ld + p.kbytes;
                size[SMMA_SM100_BUF_B] = (uint64_t) (p.n - 1) * p.b_ld + p.kbytes;
                size[SMMA_SM100_BUF_SFA] = (uint64_t) p.a_rows_pad / 128 * (p.kb_pad / 4) * 512;
                size[SMMA_SM100_BUF_SFB] = (uint64_t) p.b_rows_pad / 128 * (p.kb_pad / 4) * 512;
                for (tile = 0; tile < p.tiles; tile++) {
                    smma_sm100_tile(&p, tile, &m0, &n0);
                    for (kit = 0; kit < p.pipe.kiters; kit++)
                        for (j = 0; j < smma_sm100_nchunks(&p); j++, n++) {
                            smma_sm100_chunk(&p, m0, n0, kit, j, &buf, &off, &goff, &valid);
                            if (valid > 16 || (valid > 0 && goff + valid > size[buf])) {
                                if (bad++ < 10)
                                    diag("%s %zu x %zu x %zu v%zu: tile %u k-step %u chunk "
                                         "%u reads %u bytes at %llu of buffer %u (%llu bytes)",
                                         co->name, shapes[si][0], shapes[si][1], shapes[si][2],
                                         v, tile, kit, j, valid, (unsigned long long) goff, buf,
                                         (unsigned long long) size[buf]);
                            }
                        }
                }
            }
    ok(bad == 0 && n > 0, "every chunk of %zu loads lies inside its buffer", n);
}

static void
test_check(void)
{
    smma_gpu_gemm_args a;
    char msg[256];
    smma_sm100_plan p;

    a = args_of(SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32, 1, 1, 1);
    is_int(SMMA_GPU_STATUS_OK, smma_sm100_check(&a, SMMA_GPU_SM100_V1, msg, sizeof(msg)),
           "v1 takes mxfp8 1 x 1 x 1");
    is_int(SMMA_GPU_STATUS_OK, smma_sm100_check(&a, SMMA_GPU_SM100_V2, msg, sizeof(msg)),
           "v2 takes mxfp8 1 x 1 x 1");
    a = args_of(SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, 16, 8192, 8192, 8192);
    smma_sm100_plan_init(&p, &a, SMMA_GPU_SM100_V2, 148, msg, sizeof(msg));
    ok(p.kind == 6 && p.scale_vec == 4 && p.bn == 256 && p.pipe.stages >= 2 && p.tmem_cols == 512
       && p.smem_bytes <= SMMA_SM100_SMEM_LIMIT + 1024 && p.pipe.grid == 148,
       "nvfp4 8192^3 on v2: mxf4nvf4 4X, bn 256, %u stages of %u bytes, %u TMEM columns, "
       "grid %u", p.pipe.stages, p.pipe.stage_bytes, p.tmem_cols, p.pipe.grid);
    /* The hardware's numbers, written out: 227 KiB of dynamic shared memory
     * per CTA on sm_100, of which the ring takes what 256 bytes of mbarriers
     * and 1 KiB of alignment slack leave. */
    is_int(232448, SMMA_SM100_SMEM_LIMIT, "an sm_100 CTA has 227 KiB of dynamic shared memory");
    is_int(p.pipe.off_bar + 256 + 1024, p.smem_bytes,
           "the ring, 256 bytes of mbarriers and the TMEM slot, 1 KiB of slack");
    ok(p.pipe.off_bar == p.pipe.stages * p.pipe.stage_bytes
       && (232448 - 256 - 1024) / p.pipe.stage_bytes >= p.pipe.stages
       && smma_sm100_bar(&p, SMMA_SM100_TMEM_SLOT, 0) + 4 <= p.pipe.off_bar + 256,
       "the stages fit 227 KiB, the mbarriers and the slot their 256 bytes");
    a = args_of(SMMA_E4M3, SMMA_E2M1, SMMA_E8M0, 32, 100, 100, 100);
    smma_sm100_plan_init(&p, &a, SMMA_GPU_SM100_V1, 148, msg, sizeof(msg));
    ok(p.kind == 4 && p.b_expand && !p.a_expand && p.b_code == 5 && p.b_ld == 112,
       "mxfp8 x mxfp4: mxf8f6f4 with B unpacked into a scratch of 112-byte rows");
    is_string("b200-fp8", smma_sm100_model(&a.shape), "the model is b200-fp8");

    a = args_of(SMMA_BF16, SMMA_BF16, SMMA_NONE, 32, 16, 16, 16);
    expect_refusal(&a, SMMA_GPU_SM100_V1, "not a block-scaled kind", "bf16 x bf16");
    ok(smma_sm100_model(&a.shape) == NULL, "no model for bf16");
    a = args_of(SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 16, 16, 16, 16);
    expect_refusal(&a, SMMA_GPU_SM100_V1, "per 32 elements", "mxfp8 with vec 16");
    a = args_of(SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, 32, 16, 16, 64);
    expect_refusal(&a, SMMA_GPU_SM100_V1, "vec 16", "nvfp4 with vec 32");
    a = args_of(SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32, 16, 16, 64);
    a.b_kmajor = false;
    expect_refusal(&a, SMMA_GPU_SM100_V2, "K-major", "N-major B");
    a = args_of(SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32, 16, 16, 32);
    a.lda = 40;
    is_int(SMMA_GPU_STATUS_OK, smma_sm100_check(&a, SMMA_GPU_SM100_V1, msg, sizeof(msg)),
           "v1 takes lda 40 (no TMA)");
    expect_refusal(&a, SMMA_GPU_SM100_V2, "lda = 40", "v2 with lda 40 bytes");
    a.lda = 32;
    a.a = (const void *) (uintptr_t) 8;
    expect_refusal(&a, SMMA_GPU_SM100_V2, "16 bytes", "v2 with A at an 8-byte boundary");
    a = args_of(SMMA_E2M1, SMMA_E4M3, SMMA_E8M0, 32, 16, 16, 64);
    a.lda = 66;
    a.a = (const void *) (uintptr_t) 8;
    is_int(SMMA_GPU_STATUS_OK, smma_sm100_check(&a, SMMA_GPU_SM100_V2, msg, sizeof(msg)),
           "v2 takes an unpacked e2m1 A at any alignment");
    a.lda = 65;
    expect_refusal(&a, SMMA_GPU_SM100_V1, "even", "odd lda for e2m1");
    a.lda = 32;
    expect_refusal(&a, SMMA_GPU_SM100_V1, "less than k", "lda < k");
    a = args_of(SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32, 16, 16, 64);
    a.scale_layout = SMMA_SL_TRITON5D;
    expect_refusal(&a, SMMA_GPU_SM100_V1, "linear or 128x4", "triton5d scales");
    a.scale_layout = SMMA_SL_LINEAR;
    a.ldd = 8;
    expect_refusal(&a, SMMA_GPU_SM100_V1, "ldd", "ldd < n");
    a = args_of(SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32, 16, 16, 64);
    expect_refusal(&a, SMMA_GPU_SM80_V1, "not sm100-v1, sm100-v2 or sm100-v3", "an sm80 kernel");
    a.shape.m = 0;
    expect_refusal(&a, SMMA_GPU_SM100_V1, "sm100-v1: ", "m = 0");
}

/*
 * The two conventions the simulator cannot check against hardware
 * (doc/tcgen05.md, "Two readings"): every tcgen05.mma of the kernels
 * carries its SF_ID in bits 31-30 of both scale addresses as well as in
 * the instruction descriptor, and every tcgen05.cp source descriptor has
 * LBO 16.  Over the three kinds (1X: ids 0-3, 2X: 0 and 2, 4X: 0) and
 * every stage slot of the v2 plan.
 */
static void
test_conventions(void)
{
    static const struct {
        smma_format a, b, sf;
        unsigned vec;
    } fmt[3] = {
        { SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32 }, { SMMA_E2M1, SMMA_E2M1, SMMA_E8M0, 32 },
        { SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, 16 },
    };
    unsigned f, slot, j, n = 0, nonzero = 0, bad = 0, ncp = 0, badcp = 0;
    char msg[256];

    for (f = 0; f < 3; f++) {
        smma_gpu_gemm_args a = args_of(fmt[f].a, fmt[f].b, fmt[f].sf, fmt[f].vec, 512, 512,
                                       1024);
        smma_sm100_plan p;

        if (smma_sm100_plan_init(&p, &a, SMMA_GPU_SM100_V2, 148, msg, sizeof(msg))
            != SMMA_GPU_STATUS_OK)
            bail("plan: %s", msg);
        for (slot = 0; slot < p.pipe.stages; slot++) {
            for (j = 0; j < SMMA_SM100_MMAS; j++) {
                smma_sm100_mma_ops o;

                smma_sm100_mma(&p, slot, j, SMEM_BASE, 0, 0, &o);
                n++;
                nonzero += (o.idesc >> 29 & 3u) != 0;
                if (smma_tc05_sf_taddr_id(o.sfa) != (o.idesc >> 29 & 3u)
                    || smma_tc05_sf_taddr_id(o.sfb) != (o.idesc >> 4 & 3u))
                    bad++;
            }
            for (j = 0; j < smma_sm100_ncp(&p); j++) {
                uint64_t sdesc;
                uint32_t taddr;

                smma_sm100_cp(&p, slot, j, SMEM_BASE, 0, &sdesc, &taddr);
                ncp++;
                if ((sdesc >> 16 & 0x3FFFu) << 4 != SMMA_TC05_CP_LBO)
                    badcp++;
            }
        }
    }
    ok(bad == 0 && nonzero > 0 && nonzero < n,
       "sm100 kernels: all %u tcgen05.mma (%u with SF_ID != 0) carry the descriptor's SF_ID "
       "in bits 31-30 of both scale addresses", n, nonzero);
    ok(badcp == 0 && ncp > 0, "sm100 kernels: all %u tcgen05.cp source descriptors have LBO 16",
       ncp);
}

/*
 * sm100-v3's pair protocol, for each N of the instruction: the boxes of
 * scale_B that the two CTAs multicast cover every block of the pair's
 * tile once; each CTA's full barrier is told the bytes that land in its
 * stage (its own A, B and scale_A boxes and every scale_B box); the
 * leader's commit reaches both CTAs' empty and acc_full barriers, whose
 * counts are the arrivals they get per phase; acc_empty of the leader
 * counts the four epilogue warps of both CTAs; the barriers lie apart in
 * their 256 bytes; the pairs take every unit once, both CTAs of a pair the
 * same tile column and the two 128-row halves of one 256-row tile; every
 * tcgen05.mma is M = 256 with the SF_IDs of both readings.
 */
static void
test_v3_protocol(void)
{
    static const size_t ns[3] = { 40, 100, 1000 };
    unsigned f, bad = 0, checked = 0;
    char msg[256];

    for (f = 0; f < 3; f++) {
        smma_gpu_gemm_args a = args_of(SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, 16, 1000, ns[f], 700);
        smma_sm100_plan p;
        smma_tc05_commit commit = { 2, true, SMMA_SM100_PAIR_MASK };
        smma_error err;
        uint32_t targets = 0, r, i, rb, seen[4] = { 0, 0, 0, 0 }, tx[2], c, u, w;
        uint32_t bars[64], nbar = 0, unit_seen[64];

        if (smma_sm100_plan_init(&p, &a, SMMA_GPU_SM100_V3, 6, msg, sizeof(msg))
            != SMMA_GPU_STATUS_OK)
            bail("v3 plan: %s", msg);
        checked++;
        if (p.pipe.cluster != 2 || p.mma_m != 256 || p.b_rows * 2 != p.bn || p.pipe.grid % 2
            || p.pipe.grid > 6)
            bad++, diag("bn %u: cluster %u, M %u, b_rows %u, grid %u", p.bn, p.pipe.cluster,
                        p.mma_m, p.b_rows, p.pipe.grid);
        for (r = 0; r < 2; r++) {
            tx[r] = SMMA_SM100_BM * SMMA_SM100_ROWB + p.b_rows * SMMA_SM100_ROWB
                    + p.sf_blks * SMMA_SM100_SFBLK;
            for (i = 0; i < smma_sm100_v3_nsfb(&p, r); i++) {
                int32_t bc[4];
                uint32_t off = smma_sm100_v3_sfb_box(&p, r, i, 0, 3, bc);

                rb = (uint32_t) bc[3];
                if (rb >= p.nrb || bc[2] != (int32_t) (3 * p.sf_blks)
                    || off != smma_sm100_smem_sf(&p, SMMA_SM100_BUF_SFB, rb, 0, 0))
                    bad++, diag("bn %u rank %u box %u: block %u at %u", p.bn, r, i, rb, off);
                else
                    seen[rb]++;
            }
        }
        for (rb = 0; rb < p.nrb; rb++)
            if (seen[rb] != 1)
                bad++, diag("bn %u: scale block %u of B loaded %u times", p.bn, rb, seen[rb]);
        for (r = 0; r < 2; r++) {
            tx[r] += p.nrb * p.sf_blks * SMMA_SM100_SFBLK;
            if (tx[r] != p.pipe.stage_tx)
                bad++, diag("bn %u rank %u: %u bytes land, full expects %u", p.bn, r, tx[r],
                            p.pipe.stage_tx);
        }
        if (smma_tc05_commit_targets(&commit, 2, 0, 0, &targets, &err) != SMMA_OK
            || targets != 3 || smma_sm100_bar_count(&p, SMMA_SM100_BAR_EMPTY) != 1
            || smma_sm100_bar_count(&p, SMMA_SM100_BAR_ACC_FULL) != 1
            || smma_sm100_bar_count(&p, SMMA_SM100_BAR_ACC_EMPTY) != 8
            || smma_sm100_bar_count(&p, SMMA_SM100_BAR_PFULL) != 1)
            bad++, diag("bn %u: commit targets 0x%x or barrier counts", p.bn, targets);
        /* Barriers: distinct, 8-aligned, inside the BAR_BYTES after the ring. */
        for (w = SMMA_SM100_BAR_FULL; w <= SMMA_SM100_BAR_PFULL; w++)
            for (i = 0; i < (w == SMMA_SM100_TMEM_SLOT ? 1
                             : w == SMMA_SM100_BAR_ACC_FULL || w == SMMA_SM100_BAR_ACC_EMPTY
                             ? p.acc_stages : p.pipe.stages); i++)
                bars[nbar++] = smma_sm100_bar(&p, w, i);
        for (i = 0; i < nbar; i++) {
            if (bars[i] % 8 != 0 || bars[i] < p.pipe.off_bar
                || bars[i] + 8 > p.pipe.off_bar + SMMA_SM100_BAR_BYTES)
                bad++, diag("bn %u: barrier at %u outside [%u, +256)", p.bn, bars[i],
                            p.pipe.off_bar);
            for (u = 0; u < i; u++)
                if (bars[u] == bars[i])
                    bad++, diag("bn %u: two barriers at %u", p.bn, bars[i]);
        }
        /* The scheduler's pairs. */
        memset(unit_seen, 0, sizeof(unit_seen));
        for (c = 0; c < p.pipe.grid; c += 2)
            for (i = 0; i < smma_pipe_cta_nunits(&p.pipe, c); i++) {
                uint32_t tm0, tm1, tn0, tn1;

                smma_pipe_cta_tile(&p.pipe, c, i, &tm0, &tn0);
                smma_pipe_cta_tile(&p.pipe, c + 1, i, &tm1, &tn1);
                u = smma_pipe_cta_unit(&p.pipe, c, i);
                if (u < 64)
                    unit_seen[u]++;
                if (smma_pipe_cta_nunits(&p.pipe, c + 1) != smma_pipe_cta_nunits(&p.pipe, c)
                    || tn0 != tn1 || tm0 % 2 != 0 || tm1 != tm0 + 1)
                    bad++, diag("bn %u pair %u unit %u: tiles (%u, %u) and (%u, %u)", p.bn,
                                c / 2, i, tm0, tn0, tm1, tn1);
            }
        for (u = 0; u < smma_pipe_units(&p.pipe) && u < 64; u++)
            if (unit_seen[u] != 1)
                bad++, diag("bn %u: unit %u taken %u times", p.bn, u, unit_seen[u]);
        for (i = 0; i < SMMA_SM100_MMAS; i++) {
            smma_sm100_mma_ops o;
            smma_tc05_idesc id;

            smma_sm100_mma(&p, 1, i, SMEM_BASE, 0, 0, &o);
            if (smma_tc05_idesc_decode(SMMA_TC05_KIND_MXF4NVF4, o.idesc, &id, &err) != SMMA_OK
                || id.m != 256 || id.n != p.bn || smma_tc05_sf_taddr_id(o.sfa) != id.sfa_id
                || smma_tc05_sf_taddr_id(o.sfb) != id.sfb_id)
                bad++, diag("bn %u mma %u: M %u N %u", p.bn, i, id.m, id.n);
        }
    }
    ok(bad == 0 && checked == 3, "v3 (bn 64, 128, 256): scale_B multicast boxes cover every "
       "block once, full barriers expect the bytes that land, the leader's commit reaches "
       "both CTAs' barriers, barrier counts, offsets, the pairs' tiles, M = 256 descriptors");
}

/* Special values through v3 (and v2 beside it): e8m0 scales 0x00, 0x01,
 * 0xfe, 0xfd, NaN and 1 among random ones of A, NaN in the last scale block
 * of every other column of B (that block reaches past K = 200), e5m2
 * infinities, NaN, the largest code and -0 in A; 300 x 264 is ragged in
 * both M (the second pair's CTA 1 lies past the last tile row) and N. */
static void
test_special(void)
{
    static const uint32_t e8[] = { 0x00, 0x01, 0xfe, 0xfd, 0xff, 0x7f };
    static const uint32_t e5[] = { 0x7c, 0xfc, 0x7f, 0x7b, 0x80 };
    const t100_gen g = { 300, 264, 200, SMMA_FP32, SMMA_FP32, false, SMMA_CLASS_RANDOM };
    uint64_t x = 4242;
    size_t kb, i;
    t100_prob p;
    uint32_t *want;
    char what[160];

    t100_gen_problem(&p, 1, &g, SMMA_SL_128X4, 0x5bec3, what, sizeof(what));
    kb = smma_gemm_kblocks(&p.s);
    for (i = 0; i < p.s.m * kb; i++)
        if ((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 61 == 0)
            p.sa[i] = e8[(x >> 33) % 6];
    for (i = 0; i < p.s.n * kb; i++)
        if (i % kb == kb - 1 && i / kb % 2 == 0)
            p.sb[i] = 0xff;
    for (i = 0; i < p.s.m * p.s.k; i++)
        if ((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 56 == 0)
            p.a[i] = e5[(x >> 40) % 5];
    t100_prob_store(&p);
    want = t100_expected(&p);
    check_plan(&p, SMMA_GPU_SM100_V3, 2, want, "special values 300x264x200 (one pair)");
    check_plan(&p, SMMA_GPU_SM100_V3, 8, want, "special values 300x264x200 (four pairs)");
    check_plan(&p, SMMA_GPU_SM100_V2, 3, want, "special values 300x264x200");
    free(want);
    t100_prob_free(&p);
}

/* The v3 dry run sees the pair: without rank 0's multicast of scale_B in
 * rank 1's stage, exactly the outputs of the second 128 rows differ. */
static void
test_v3_fault(void)
{
    t100_prob p;
    uint32_t *want;
    smma_gpu_gemm_args a;
    smma_sm100_plan pl;
    char msg[256], what[160];
    long bad;

    t100_gen_problem(&p, 0, &t100_gens[1], SMMA_SL_128X4, 0x5d3, what, sizeof(what));
    if (p.s.m <= 128)
        bail("the case has %zu rows", p.s.m);
    want = t100_expected(&p);
    a = t100_prob_args(&p);
    if (smma_sm100_plan_init(&pl, &a, SMMA_GPU_SM100_V3, 2, msg, sizeof(msg)) != 0)
        bail("plan: %s", msg);
    drop_peer_sfb = true;
    bad = diff_plan(&pl, &p, want, "v3 without the peer's scale_B");
    drop_peer_sfb = false;
    ok(bad > 0 && (size_t) bad <= (p.s.m - 128) * p.s.n,
       "v3 with rank 1 missing rank 0's scale_B multicast: %ld outputs differ, no more than "
       "rows 128 on hold", bad);
    free(want);
    t100_prob_free(&p);
}

int
main(void)
{
    double t0 = tap_seconds();

    plan_lazy();
    test_check();
    test_chunks_inside();
    test_smem_view();
    test_128x4();
    test_conventions();
    test_v3_protocol();
    t100_each_suite_case(false, suite_case, NULL);
    test_padding();
    test_generated();
    test_special();
    test_v3_fault();
    diag("%.2f s", tap_seconds() - t0);
    return exit_status();
}

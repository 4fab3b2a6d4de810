/*
 * tests/gpu/tma-t.c - the producer of sm100-v2 (TMA with tensor maps, the
 * 128-byte swizzle, the mbarrier pipeline, the persistent schedule, the
 * fix-up of a ragged last k-step) on an H100 or B200, against the plan.
 *
 * For each problem the test builds the caller's buffers, a v2 plan with a
 * small grid (so that CTAs take several tiles and the stage slots wrap),
 * runs gpu/probes/tma_probe.cu (the device's preparation kernels, then the
 * producer and a consumer that copies every stage out), and compares every
 * byte of every stage with t100_stage_image: the shared-memory image the
 * dry run (tests/sim/sm100-dry-t) feeds to the simulator's tcgen05.cp and
 * tcgen05.mma.  Equal bytes mean that the sm_100 kernel's shared memory is
 * what the dry run verified.
 *
 * Skips without CUDA, without a device, or on a device other than compute
 * capability 9.0 or 10.0.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "sm100-util.h"
#include "tap/basic.h"

#ifndef HAVE_CUDA

int
main(void)
{
    skip_all("CUDA not configured (configure found no working nvcc, or --without-cuda)");
}

#else

#include "probes/tma_probe.h"

struct tcase {
    unsigned combo;             /* t100_combos */
    size_t m, n, k;
    smma_scale_layout layout;
    unsigned sms;
};

/* Names the region of a stage offset, for messages. */
static const char *
region(const smma_sm100_plan *p, uint32_t off)
{
    return off < p->off_b ? "A" : off < p->off_sfa ? "B" : off < p->off_sfb ? "SFA" : "SFB";
}

/* Runs one problem: one TAP point. */
static void
run_case(const struct tcase *tc)
{
    const t100_combo *co = &t100_combos[tc->combo];
    smma_gemm_shape s;
    smma_gpu_gemm_args a;
    smma_sm100_plan p;
    t100_prob pr;
    t100_kin in;
    uint8_t *out, *img;
    char msg[512];
    uint32_t t, kit, m0, n0, o;
    size_t bad = 0, total = 0;
    int rc;

    s = t100_shape(co, tc->m, tc->n, tc->k, SMMA_NONE, SMMA_FP32, false);
    t100_prob_generate(&pr, &s, tc->layout, SMMA_CLASS_RANDOM, 0x7a4a + tc->m + tc->k);
    a = t100_prob_args(&pr);
    a.a = a.b = a.sa = a.sb = NULL; /* device buffers: 16-byte aligned */
    if (smma_sm100_plan_init(&p, &a, SMMA_GPU_SM100_V2, tc->sms, msg, sizeof(msg)) != 0)
        bail("plan: %s", msg);
    out = t100_calloc((size_t) p.tiles * p.pipe.kiters, p.pipe.stage_tx);
    img = t100_calloc(p.pipe.stage_bytes, 1);
    rc = smma_gpu_tma_probe(&p, pr.ga, pr.ga_bytes, pr.gb, pr.gb_bytes, pr.gsa, pr.gsa_bytes,
                            pr.gsb, pr.gsb_bytes, out, msg, sizeof(msg));
    if (rc != SMMA_GPU_STATUS_OK) {
        ok(false, "%s %zux%zux%zu: %s", co->name, tc->m, tc->n, tc->k, msg);
    } else {
        t100_prepare(&p, &pr, &in);
        for (t = 0; t < p.tiles; t++) {
            smma_sm100_tile(&p, t, &m0, &n0);
            for (kit = 0; kit < p.pipe.kiters; kit++) {
                const uint8_t *got = out + ((size_t) t * p.pipe.kiters + kit) * p.pipe.stage_tx;

                t100_stage_image(&p, &in, m0, n0, kit, img);
                for (o = 0; o < p.pipe.stage_tx; o++, total++)
                    if (got[o] != img[o] && bad++ < 8)
                        diag("tile %u (m0 %u, n0 %u) k-step %u: byte 0x%x (%s) is 0x%02x, the "
                             "plan says 0x%02x", t, m0, n0, kit, o, region(&p, o), got[o],
                             img[o]);
            }
        }
        t100_kin_free(&in);
        ok(bad == 0,
           "%s %zux%zux%zu, %s scales: %u tiles x %u k-steps on %u CTAs through %u stages "
           "(bn %u): %zu of %zu bytes differ", co->name, tc->m, tc->n, tc->k,
           smma_scale_layout_name(tc->layout), p.tiles, p.pipe.kiters, p.pipe.grid,
           p.pipe.stages, p.bn, bad, total);
    }
    free(out);
    free(img);
    t100_prob_free(&pr);
}

int
main(void)
{
    /* combo indices: 0 mxfp8, 2 mxfp6 e2m3, 4 mxfp4, 5 nvfp4, 6 mxfp8 x mxfp4,
     * 7 mxfp4 x mxfp6 e3m2 */
    static const struct tcase cases[] = {
        { 0, 300, 72, 200, SMMA_SL_LINEAR, 2 },   /* ragged K, linear scales, 3 tiles / 2 CTAs */
        { 5, 129, 300, 264, SMMA_SL_128X4, 1 },   /* nvfp4, bn 256, NaN scale padding */
        { 4, 64, 64, 512, SMMA_SL_128X4, 1 },     /* mxfp4, 2 k-steps */
        { 6, 150, 130, 100, SMMA_SL_LINEAR, 3 },  /* B unpacked on the device */
        { 2, 256, 256, 384, SMMA_SL_128X4, 1 },   /* 6 k-steps through 4 stages */
        { 7, 40, 20, 72, SMMA_SL_128X4, 1 },      /* A unpacked, tiny */
        { 0, 1000, 40, 1200, SMMA_SL_128X4, 3 },  /* 8 tiles, 10 k-steps each */
    };
    size_t i;
    char msg[512];

    if (smma_gpu_tma_probe_check(msg, sizeof(msg)) != SMMA_GPU_STATUS_OK)
        skip_all("%s", msg);
    plan_lazy();
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        run_case(&cases[i]);
    return exit_status();
}

#endif /* HAVE_CUDA */

/*
 * tests/gpu/mma-bs-t.c - the sm_120a mma.sync kinds f8f6f4, mxf8f6f4, mxf4
 * and mxf4nvf4 on the GPU against the simulator.
 *
 * Point 1 (any machine with nvcc): gpu/probes/mma_bs_probe.cu compiles with
 * `nvcc -arch=sm_120a -cubin -DSMMA_MMA_BS_PROBE_CHECK`, which fails unless
 * the device pass really holds the sm_120a instructions: every asm statement
 * of the probe assembles for sm_120a.  This build's own GPU library is made
 * for the configured targets (sm_80, sm_90a, sm_100a by default), where the
 * probe reports SMMA_GPU_EARCH.
 *
 * Then, one point per variant, only on an sm_120 / sm_121 device with code
 * built for it (configure with an sm_120a target; elsewhere the points skip
 * with "needs sm_120"): seeded cases are packed with the simulator
 * (smma_mma_bs_pack, smma_mma_bs_sf_pack, the scale registers' other bytes
 * random), run on the GPU for every legal selector set, and D is compared
 * bit for bit with smma_mma_bs_exec.  Half the cases are exact-class
 * (smma_gemm_generate SMMA_CLASS_EXACT: every numerics model gives the same
 * bits), so agreement there checks the layouts, the containers and the scale
 * selection whatever the hardware's accumulation; those must all agree.  For
 * the random-class half, which no published model covers for these kinds,
 * the agreement of each model is printed.
 *
 * Never run: no sm_120 GPU was available when this was written.
 *
 * Level 0: 64 cases per variant; level 1: 2,048; level 2: 32,768.
 */
#define _POSIX_C_SOURCE 200809L
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/format.h>
#include <softmma/gemm.h>
#include <softmma/mma_bs.h>

#include "ptxas.h"
#include "tap/basic.h"

#ifndef HAVE_CUDA

int
main(void)
{
    skip_all("CUDA not configured (configure found no working nvcc, or --without-cuda)");
}

#else

#include "probes/mma_bs_probe.h"
#include "probes/probes.h"

/* Compiles the probe for sm_120a; returns nvcc's exit status, -1 when there
 * is no nvcc or it could not be run. */
static int
compile_probe(void)
{
    char *src = test_file_path("gpu/probes/mma_bs_probe.cu");
    int rc = nvcc_cubin("sm_120a", "-DSMMA_MMA_BS_PROBE_CHECK", src, true);

    test_file_free(src);
    return rc;
}

/* The legal selector sets of the PTX ISA's Table 37 (one empty set for
 * f8f6f4). */
static unsigned
selector_sets(const smma_mma_bs *v, smma_mma_bs_sel *out)
{
    unsigned ba, ta, bb, tb, n = 0;

    if (v->scale_vec == 0) {
        memset(out, 0, sizeof(*out));
        return 1;
    }
    for (ba = 0; ba < 4; ba++)
        for (ta = 0; ta < 2; ta++)
            for (bb = 0; bb < 4; bb++)
                for (tb = 0; tb < 4; tb++) {
                    smma_mma_bs_sel s = { ba, ta, bb, tb };

                    if (smma_mma_bs_sel_check(v, &s, NULL) == SMMA_OK)
                        out[n++] = s;
                }
    return n;
}

static const char *const models[] = { "exact-rn", "exact-rz", "h100-fp8", "b200-fp8",
                                      "fp32-fma-seq" };
#define NMODELS (sizeof(models) / sizeof(models[0]))

/* Registers of n cases. */
struct cases {
    uint32_t *a, *b, *c, *sa, *sb, *d;
};

static void
alloc_cases(struct cases *cs, size_t n)
{
    cs->a = malloc(n * 128 * sizeof(uint32_t));
    cs->b = malloc(n * 64 * sizeof(uint32_t));
    cs->c = malloc(n * 128 * sizeof(uint32_t));
    cs->d = malloc(n * 128 * sizeof(uint32_t));
    cs->sa = malloc(n * 32 * sizeof(uint32_t));
    cs->sb = malloc(n * 32 * sizeof(uint32_t));
    if (cs->a == NULL || cs->b == NULL || cs->c == NULL || cs->d == NULL || cs->sa == NULL ||
        cs->sb == NULL)
        sysbail("cannot allocate %zu cases", n);
}

static void
free_cases(struct cases *cs)
{
    free(cs->a);
    free(cs->b);
    free(cs->c);
    free(cs->d);
    free(cs->sa);
    free(cs->sb);
}

/* Case t of variant v with selectors s: exact-class when t is even. */
static void
make_case(const smma_mma_bs *v, const smma_mma_bs_sel *s, uint64_t seed, size_t t,
          struct cases *cs, tap_rng *rng)
{
    smma_gemm_shape sh;
    smma_gemm_data g;
    smma_error err;
    uint32_t bt[64 * 8];
    unsigned k = smma_mma_bs_k(v), kk, j, l;

    if (smma_mma_bs_shape(v, &sh, &err) != SMMA_OK ||
        smma_gemm_generate(&sh, t % 2 == 0 ? SMMA_CLASS_EXACT : SMMA_CLASS_RANDOM, seed, &g,
                           &err) != SMMA_OK)
        bail("%s: %s", smma_mma_bs_name(v), err.msg);
    for (kk = 0; kk < k; kk++)
        for (j = 0; j < 8; j++)
            bt[kk * 8 + j] = g.b[j * k + kk];
    for (l = 0; l < 32; l++) {
        cs->sa[t * 32 + l] = (uint32_t) tap_rng_next(rng);
        cs->sb[t * 32 + l] = (uint32_t) tap_rng_next(rng);
    }
    if (smma_mma_bs_pack(v, SMMA_OP_A, g.a, cs->a + t * 128, &err) != SMMA_OK ||
        smma_mma_bs_pack(v, SMMA_OP_B, bt, cs->b + t * 64, &err) != SMMA_OK ||
        smma_mma_bs_pack(v, SMMA_OP_C, g.c, cs->c + t * 128, &err) != SMMA_OK ||
        (v->scale_vec != 0 &&
         (smma_mma_bs_sf_pack(v, SMMA_OP_A, s, g.sa, cs->sa + t * 32, &err) != SMMA_OK ||
          smma_mma_bs_sf_pack(v, SMMA_OP_B, s, g.sb, cs->sb + t * 32, &err) != SMMA_OK)))
        bail("%s: pack: %s", smma_mma_bs_name(v), err.msg);
    smma_gemm_data_free(&g);
}

int
main(void)
{
    int level = test_level(), major = 0, minor = 0, rc;
    size_t n = level == 0 ? 64 : level == 1 ? 2048 : 32768;
    char name[128], msg[256];
    unsigned vi, m;

    plan(1 + SMMA_MMA_BS_COUNT);
    if (!nvcc_available())
        skip("no nvcc to compile gpu/probes/mma_bs_probe.cu with");
    else
        is_int(0, compile_probe(), "gpu/probes/mma_bs_probe.cu compiles for sm_120a with every "
               "mma.sync variant in its device code");

    rc = smma_gpu_device_info(&major, &minor, name, sizeof(name), msg, sizeof(msg));
    if (rc != SMMA_GPU_OK) {
        skip_block(SMMA_MMA_BS_COUNT, "needs sm_120: no CUDA device: %s", msg);
        return exit_status();
    }
    if (major != 12) {
        skip_block(SMMA_MMA_BS_COUNT, "needs sm_120 (found sm_%d%d, %s)", major, minor, name);
        return exit_status();
    }
    diag("device 0: %s (sm_%d%d); %zu cases per variant", name, major, minor, n);
    for (vi = 0; vi < SMMA_MMA_BS_COUNT; vi++) {
        smma_mma_bs v;
        smma_mma_bs_sel sels[128];
        unsigned ns, si;
        size_t per, t, exact_bad = 0, exact_n = 0, rnd_n = 0, agree[NMODELS];
        struct cases cs;
        tap_rng rng;
        bool arch = false;

        smma_mma_bs_at(vi, &v, NULL);
        ns = selector_sets(&v, sels);
        per = n / ns > 2 ? n / ns : 2;
        alloc_cases(&cs, per);
        tap_rng_seed(&rng, 0x6d6273u + vi);
        memset(agree, 0, sizeof(agree));
        for (si = 0; si < ns && !arch; si++) {
            const smma_mma_bs_sel *s = &sels[si];

            for (t = 0; t < per; t++)
                make_case(&v, s, 1000000u * vi + per * si + t, t, &cs, &rng);
            rc = smma_gpu_mma_bs((int) vi, s->byte_id_a, s->thread_id_a, s->byte_id_b,
                                 s->thread_id_b, cs.a, cs.b, cs.c, cs.sa, cs.sb, cs.d, per,
                                 msg, sizeof(msg));
            if (rc == SMMA_GPU_EARCH) {
                arch = true;
                break;
            }
            if (rc != SMMA_GPU_OK)
                bail("%s: %s", smma_mma_bs_name(&v), msg);
            for (t = 0; t < per; t++) {
                uint32_t d[32 * 4];

                for (m = 0; m < NMODELS; m++) {
                    smma_error err;

                    if (smma_mma_bs_exec(&v, s, tap_model(models[m]), cs.a + t * 128,
                                         cs.b + t * 64, cs.c + t * 128, cs.sa + t * 32,
                                         cs.sb + t * 32, d, &err) != SMMA_OK)
                        bail("%s: %s", smma_mma_bs_name(&v), err.msg);
                    if (t % 2 == 0 && m == 0) {
                        exact_n++;
                        if (memcmp(d, cs.d + t * 128, sizeof(d)) != 0 && exact_bad++ < 3)
                            diag("%s sel {%u,%u},{%u,%u} case %zu: the GPU differs on an "
                                 "exact-class case", smma_mma_bs_name(&v), s->byte_id_a,
                                 s->thread_id_a, s->byte_id_b, s->thread_id_b, t);
                    }
                    if (t % 2 == 1)
                        agree[m] += memcmp(d, cs.d + t * 128, sizeof(d)) == 0;
                }
                rnd_n += t % 2;
            }
        }
        if (arch) {
            skip("%s: %s", smma_mma_bs_name(&v), msg);
        } else {
            ok(exact_bad == 0, "%s: the GPU equals the simulator on %zu exact-class cases over "
               "%u selector sets (%zu differ)", smma_mma_bs_name(&v), exact_n, ns, exact_bad);
            for (m = 0; m < NMODELS; m++)
                diag("%s: random-class cases, model %s agrees on %zu of %zu",
                     smma_mma_bs_name(&v), models[m], agree[m], rnd_n);
            diag("RESULT variant=%s exact=%zu/%zu", smma_mma_bs_name(&v), exact_n - exact_bad,
                 exact_n);
        }
        free_cases(&cs);
    }
    return exit_status();
}

#endif /* HAVE_CUDA */

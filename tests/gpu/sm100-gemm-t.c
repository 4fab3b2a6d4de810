/*
 * tests/gpu/sm100-gemm-t.c - the sm_100 GEMM kernels sm100-v1, sm100-v2 and sm100-v3
 * on a Blackwell GPU (compute capability 10.0), bit for bit against the
 * golden vectors and the reference under b200-fp8.
 *
 *   1. every case of the committed suites gemm.COMBO.exact and
 *      gemm.COMBO.model.b200-fp8 (and of the kernel-scale suites
 *      gemm.COMBO.kernel.* when they exist) through the three kernels and both
 *      scale layouts;
 *   2. generated problems of every format combination: one tile, several
 *      tiles, ragged m, n and k, C in fp32/bf16/fp16, alpha, bf16/fp16 D,
 *      compared in full; D poisoned before the run and ldd > n, so that a
 *      write outside the m x n matrix is seen;
 *   3. large problems (2048 x 2048 x 2048 at level 1; more at level 2)
 *      verified by sampling: for every tile, every TMEM lane (row) and
 *      every accumulator column is sampled at least once.
 * Without CUDA, without a device, or on another device it says why and
 * skips ("needs sm_100 (found sm_90)").  Not yet run on a B200.
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

#include <cuda_runtime_api.h>

#include "probes/probes.h"

#define POISON 0xa7u

/* Copies n bytes to a new device buffer; bails out on failure. */
static void *
upload(const void *host, size_t n)
{
    void *d = NULL;

    if (cudaMalloc(&d, n == 0 ? 1 : n) != cudaSuccess
        || (n > 0 && cudaMemcpy(d, host, n, cudaMemcpyHostToDevice) != cudaSuccess))
        bail("cudaMalloc/cudaMemcpy of %zu bytes failed", n);
    return d;
}

/*
 * Runs kernel k on problem p with ldd = n + 8 over a poisoned D; d receives
 * the m x n codes.  Returns the status of smma_sm100_gemm (msg set), and
 * counts in *poison_bad the bytes outside the m x n matrix that changed.
 */
static int
run_gpu(const t100_prob *p, smma_gpu_kernel k, uint32_t *d, size_t *poison_bad, char *msg,
        size_t len)
{
    smma_gpu_gemm_args a = t100_prob_args(p);
    size_t m = p->s.m, n = p->s.n, ldd = n + 8, esz = p->s.d_fmt == SMMA_FP32 ? 4 : 2;
    size_t csz = p->s.c_fmt == SMMA_FP32 ? 4 : 2, i, j, bytes = m * ldd * esz;
    void *dc = NULL, *dd = NULL, *da, *db, *dsa, *dsb;
    uint8_t *hd = t100_calloc(bytes, 1), *hc = NULL;
    cudaError_t e;
    int rc;

    da = upload(p->ga, p->ga_bytes);
    db = upload(p->gb, p->gb_bytes);
    dsa = upload(p->gsa, p->gsa_bytes);
    dsb = upload(p->gsb, p->gsb_bytes);
    if (p->s.c_fmt != SMMA_NONE) {
        hc = t100_calloc(m * n, csz);
        for (i = 0; i < m * n; i++) {
            if (csz == 4)
                memcpy(hc + 4 * i, &p->gc[i], 4);
            else {
                uint16_t v = (uint16_t) p->gc[i];

                memcpy(hc + 2 * i, &v, 2);
            }
        }
        dc = upload(hc, m * n * csz);
    }
    memset(hd, POISON, bytes);
    dd = upload(hd, bytes);
    a.a = da;
    a.b = db;
    a.sa = dsa;
    a.sb = dsb;
    a.c = dc;
    a.d = dd;
    a.ldd = ldd;
    rc = smma_sm100_gemm(&a, k, msg, len);
    if (rc == SMMA_GPU_STATUS_OK && ((e = cudaDeviceSynchronize()) != cudaSuccess
                                     || (e = cudaMemcpy(hd, dd, bytes, cudaMemcpyDeviceToHost))
                                            != cudaSuccess)) {
        snprintf(msg, len, "after the kernel: %s", cudaGetErrorString(e));
        rc = SMMA_GPU_STATUS_ECUDA;
    }
    *poison_bad = 0;
    if (rc == SMMA_GPU_STATUS_OK)
        for (i = 0; i < m; i++) {
            for (j = 0; j < n; j++) {
                uint32_t v = 0;

                memcpy(&v, hd + (i * ldd + j) * esz, esz);
                d[i * n + j] = v;
            }
            for (j = n * esz; j < ldd * esz; j++)
                *poison_bad += hd[i * ldd * esz + j] != POISON;
        }
    cudaFree(da);
    cudaFree(db);
    cudaFree(dsa);
    cudaFree(dsb);
    cudaFree(dc);
    cudaFree(dd);
    free(hd);
    free(hc);
    return rc;
}

/* Runs and compares in full; one TAP point. */
static void
check_full(const t100_prob *p, smma_gpu_kernel k, const uint32_t *want, const char *what)
{
    uint32_t *d = t100_calloc(p->s.m * p->s.n, sizeof(uint32_t));
    size_t i, bad = 0, poison;
    char msg[512];
    const char *kn = smma_gpu_kernel_name(k);
    int rc = run_gpu(p, k, d, &poison, msg, sizeof(msg));

    if (rc != SMMA_GPU_STATUS_OK) {
        ok(false, "%s %s: %s", kn, what, msg);
        free(d);
        return;
    }
    for (i = 0; i < p->s.m * p->s.n; i++)
        if (d[i] != want[i] && bad++ < 5)
            diag("%s %s: D[%zu][%zu] = 0x%08lx, want 0x%08lx", kn, what, i / p->s.n,
                 i % p->s.n, (unsigned long) d[i], (unsigned long) want[i]);
    ok(bad == 0 && poison == 0, "%s %s: %zu of %zu outputs differ, %zu bytes written past n",
       kn, what, bad, p->s.m * p->s.n, poison);
    free(d);
}

/* One suite case through the three kernels. */
static void
suite_case(const t100_prob *p, const uint32_t *want, const char *what, unsigned ncase,
           void *ctx)
{
    (void) ncase;
    (void) ctx;
    check_full(p, SMMA_GPU_SM100_V1, want, what);
    check_full(p, SMMA_GPU_SM100_V2, want, what);
    check_full(p, SMMA_GPU_SM100_V3, want, what);
}

/* Every generated case of the dry run, and two more: several tiles in
 * both directions with three k-steps and a ragged end, and 1 x 1 x 1. */
static const t100_gen more_gens[] = {
    { 513, 385, 1000, SMMA_FP32, SMMA_FP32, false, SMMA_CLASS_RANDOM },
    { 1, 1, 1, SMMA_NONE, SMMA_FP32, false, SMMA_CLASS_RANDOM },
};

static void
test_generated(void)
{
    size_t ci, i, ngen = t100_ngens + sizeof(more_gens) / sizeof(more_gens[0]);

    for (ci = 0; ci < t100_ncombos; ci++)
        for (i = 0; i < ngen; i++) {
            const t100_gen *g = i < t100_ngens ? &t100_gens[i] : &more_gens[i - t100_ngens];
            smma_scale_layout layout = (ci + i) % 2 ? SMMA_SL_LINEAR : SMMA_SL_128X4;
            t100_prob p;
            uint32_t *want;
            char what[200];

            t100_gen_problem(&p, ci, g, layout, 0x6b100 + 16 * ci + i, what, sizeof(what));
            want = t100_expected(&p);
            check_full(&p, SMMA_GPU_SM100_V1, want, what);
            check_full(&p, SMMA_GPU_SM100_V2, want, what);
            check_full(&p, SMMA_GPU_SM100_V3, want, what);
            free(want);
            t100_prob_free(&p);
        }
}

/*
 * A large problem verified by sampling.  For every tile (128 x bn), rows
 * m0 + r with columns n0 + (7r + t) % bn for r < 128 (every TMEM lane) and
 * columns n0 + c with rows m0 + (5c + t) % 128 for c < bn (every
 * accumulator column, so every register of every tcgen05.ld), inside the
 * matrix.
 */
static void
check_sampled(unsigned combo, size_t m, size_t n, size_t k, smma_gpu_kernel kern)
{
    const t100_combo *co = &t100_combos[combo];
    const smma_model *model = tap_model("b200-fp8");
    smma_gemm_shape s;
    smma_gemm_operands op;
    smma_gemm_data gd;
    smma_gpu_gemm_args a;
    smma_sm100_plan pl;
    t100_prob p;
    uint32_t *d, tile, m0, n0, r;
    size_t checked = 0, bad = 0, poison;
    char msg[512];
    double t0;
    int rc;

    s = t100_shape(co, m, n, k, SMMA_FP32, SMMA_BF16, false);
    t100_prob_generate(&p, &s, SMMA_SL_128X4, SMMA_CLASS_RANDOM, 0x1a59e + m + k);
    a = t100_prob_args(&p);
    a.a = a.b = a.sa = a.sb = NULL;
    if (smma_sm100_plan_init(&pl, &a, kern, 148, msg, sizeof(msg)) != 0)
        bail("plan: %s", msg);
    d = t100_calloc(m * n, sizeof(uint32_t));
    t0 = tap_seconds();
    rc = run_gpu(&p, kern, d, &poison, msg, sizeof(msg));
    if (rc != SMMA_GPU_STATUS_OK) {
        ok(false, "%s %zux%zux%zu sampled: %s", co->name, m, n, k, msg);
        free(d);
        t100_prob_free(&p);
        return;
    }
    diag("%s %zux%zux%zu: %.2f s with transfers", co->name, m, n, k, tap_seconds() - t0);
    gd.a = p.a;
    gd.b = p.b;
    gd.sa = p.sa;
    gd.sb = p.sb;
    gd.c = p.c;
    op = smma_gemm_data_operands(&s, &gd);
    for (tile = 0; tile < pl.tiles; tile++) {
        m0 = tile % pl.pipe.tiles_m * 128; /* every 128 x bn tile, whatever the order */
        n0 = tile / pl.pipe.tiles_m * pl.bn;
        for (r = 0; r < 128 + pl.bn; r++) {
            size_t i = r < 128 ? m0 + r : m0 + (5 * (r - 128) + tile) % 128;
            size_t j = r < 128 ? n0 + (7 * r + tile) % pl.bn : n0 + (r - 128);
            uint32_t want;

            if (i >= m || j >= n)
                continue;
            want = smma_gemm_element(model, &s, &op, i, j);
            checked++;
            if (want != d[i * n + j] && bad++ < 5)
                diag("D[%zu][%zu] = 0x%04lx, want 0x%04lx", i, j, (unsigned long) d[i * n + j],
                     (unsigned long) want);
        }
    }
    ok(bad == 0 && poison == 0,
       "%s %s %zux%zux%zu C fp32 D bf16: %zu of %zu sampled outputs differ, %zu bytes written "
       "past n", smma_gpu_kernel_name(kern), co->name, m, n, k, bad,
       checked, poison);
    free(d);
    t100_prob_free(&p);
}

int
main(void)
{
    int major = 0, minor = 0, rc;
    char name[128], msg[512];
    size_t i;

    rc = smma_gpu_device_info(&major, &minor, name, sizeof(name), msg, sizeof(msg));
    if (rc != SMMA_GPU_OK)
        skip_all("no CUDA device: %s", msg);
    if (major != 10 || minor != 0)
        skip_all("needs sm_100 (found sm_%d%d)", major, minor);
    {
        /* A build without sm_100a code says so before any point. */
        smma_gemm_shape s;
        t100_prob p;
        uint32_t d;
        size_t poison;

        s = t100_shape(&t100_combos[0], 1, 1, 1, SMMA_NONE, SMMA_FP32, false);
        t100_prob_generate(&p, &s, SMMA_SL_LINEAR, SMMA_CLASS_RANDOM, 1);
        rc = run_gpu(&p, SMMA_GPU_SM100_V1, &d, &poison, msg, sizeof(msg));
        t100_prob_free(&p);
        if (rc == SMMA_GPU_STATUS_EARCH || rc == SMMA_GPU_STATUS_ENODEV)
            skip_all("%s", msg);
    }
    plan_lazy();
    diag("device: %s (sm_%d%d)", name, major, minor);
    t100_each_suite_case(true, suite_case, NULL);
    test_generated();
    check_sampled(0, 2048, 2048, 2048, SMMA_GPU_SM100_V2);
    check_sampled(5, 2048, 2048, 2048, SMMA_GPU_SM100_V2);
    check_sampled(0, 1000, 1500, 777, SMMA_GPU_SM100_V1);
    check_sampled(0, 2048, 2048, 2048, SMMA_GPU_SM100_V3);
    check_sampled(5, 2000, 1900, 1000, SMMA_GPU_SM100_V3);
    if (test_level() >= 2) {
        for (i = 0; i < t100_ncombos; i++) {
            check_sampled((unsigned) i, 4096, 4096, 4096, SMMA_GPU_SM100_V2);
            check_sampled((unsigned) i, 4096, 4096, 4096, SMMA_GPU_SM100_V3);
        }
    }
    return exit_status();
}

#endif /* HAVE_CUDA */

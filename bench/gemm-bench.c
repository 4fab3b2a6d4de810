/*
 * bench/gemm-bench.c - the 16-bit sm_80 kernels beside cuBLAS, in one
 * process on one GPU.
 *
 * For each shape: A (m x k, row-major), B (k x n, K-major or N-major) and D
 * are filled with random bf16 values (not zeros); the softmma kernel
 * (smma_gpu_gemm) and cuBLASLt (bf16 in, fp32 accumulation, the same D
 * format) each run `warmup` times and then `reps` times between CUDA events;
 * the median is reported in TFLOP/s (2 m n k / time), with cuBLAS's ratio
 * and the fraction of the mma.sync ceiling (a register-only mma.sync loop
 * measured in the same process).  Where A and B together are smaller than
 * 200 MB, several copies are made and the runs rotate through them, so that
 * a small problem is not timed from the 50 MB L2.  Nothing is locked and no
 * clock is changed: the clock the driver reports is printed.
 *
 * Build: `make bench` (needs CUDA and cuBLASLt).  Run:
 *     bench/gemm-bench [--reps N] [--warmup N] [--kernels sm80-v2,sm80-v1]
 *                      [--shapes square,llm] [--d bf16|fp32] [--b kmajor|nmajor]
 * The record of a run on the project's H100 is bench/h100-gemm-bf16.md.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <softmma/gpu.h>

#include "bench_cuda.h"

struct shape {
    size_t m, n, k;
    const char *set;
};

static const struct shape shapes[] = {
    { 4096, 4096, 4096, "square" },   { 8192, 8192, 8192, "square" },
    { 1, 4096, 4096, "llm" },         { 1, 14336, 4096, "llm" },
    { 1, 4096, 14336, "llm" },        { 16, 4096, 4096, "llm" },
    { 16, 14336, 4096, "llm" },       { 16, 4096, 14336, "llm" },
    { 4096, 4096, 4096, "llm" },      { 4096, 14336, 4096, "llm" },
    { 4096, 4096, 14336, "llm" },
};

struct run {
    smma_gpu_gemm_args x;
    bench_cublas *cb;
    void **a, **b;
    void *d;
    int copies;
};

static int
run_softmma(void *vctx, int iter)
{
    struct run *r = vctx;
    char msg[256];

    r->x.a = r->a[iter % r->copies];
    r->x.b = r->b[iter % r->copies];
    if (smma_gpu_gemm(&r->x, msg, sizeof(msg)) != SMMA_GPU_STATUS_OK) {
        fprintf(stderr, "gemm-bench: %s\n", msg);
        return -1;
    }
    return 0;
}

static int
run_cublas(void *vctx, int iter)
{
    struct run *r = vctx;

    return bench_cublas_run(r->cb, r->a[iter % r->copies], r->b[iter % r->copies], r->d);
}

static bool
listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    const char *p = list;

    while ((p = strstr(p, name)) != NULL) {
        if ((p == list || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
            return true;
        p += n;
    }
    return false;
}

int
main(int argc, char **argv)
{
    int reps = 20, warmup = 5, i;
    const char *kernels = "sm80-v2", *sets = "square,llm";
    bool d_fp32 = false, b_kmajor = true;
    smma_gpu_device dev;
    char msg[256];
    double ceiling;
    size_t si;

    if (argc > 1 && strcmp(argv[1], "--ceilings") == 0) {
        static const int warps[] = { 4, 8, 12, 16, 32, 64 };
        static const char *const shape[] = { "1x8 (8 chains)", "4x8 (64x64 warp tile)",
                                              "2x8 (32x64 warp tile)" };
        int sh, w;

        printf("mma.sync.m16n8k16 bf16 register-only loops, TFLOP/s (median of 20):\n");
        printf("%-24s", "warps per SM:");
        for (w = 0; w < 6; w++)
            printf(" %7d", warps[w]);
        printf("\n");
        for (sh = 0; sh < 3; sh++) {
            printf("%-24s", shape[sh]);
            for (w = 0; w < 6; w++)
                printf(" %7.1f", bench_mma_ceiling_shape(20, warps[w], sh));
            printf("\n");
        }
        return 0;
    }
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc)
            warmup = atoi(argv[++i]);
        else if (strcmp(argv[i], "--kernels") == 0 && i + 1 < argc)
            kernels = argv[++i];
        else if (strcmp(argv[i], "--shapes") == 0 && i + 1 < argc)
            sets = argv[++i];
        else if (strcmp(argv[i], "--d") == 0 && i + 1 < argc)
            d_fp32 = strcmp(argv[++i], "fp32") == 0;
        else if (strcmp(argv[i], "--b") == 0 && i + 1 < argc)
            b_kmajor = strcmp(argv[++i], "nmajor") != 0;
        else {
            fprintf(stderr, "gemm-bench: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (reps < 10) {
        fprintf(stderr, "gemm-bench: --reps must be at least 10\n");
        return 2;
    }
    if (smma_gpu_info(&dev, msg, sizeof(msg)) != SMMA_GPU_STATUS_OK) {
        fprintf(stderr, "gemm-bench: %s\n", msg);
        return 1;
    }
    ceiling = bench_mma_ceiling(reps, 8);
    printf("device: %s, compute capability %d.%d, %d SMs, clock %d MHz (driver's maximum), "
           "memory clock %d MHz\n", dev.name, dev.sm_major, dev.sm_minor, dev.multiprocessors,
           bench_clock_khz() / 1000, dev.mem_clock_khz / 1000);
    printf("timing: %d warm-up runs, median of %d runs between CUDA events; bf16 in, D %s, B "
           "%s\n", warmup, reps, d_fp32 ? "fp32" : "bf16", b_kmajor ? "K-major" : "N-major");
    printf("mma.sync ceiling (register-only m16n8k16 loop, 64 warps per SM): %.1f TFLOP/s; "
           "with 8 warps per SM: %.1f\n\n", ceiling, bench_mma_ceiling(reps, 1));
    printf("%-20s %-14s %10s %9s %10s %9s %7s %9s\n", "m x n x k", "kernel", "ms", "TFLOP/s",
           "cuBLAS ms", "TFLOP/s", "ratio", "ceiling");
    for (si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
        const struct shape *sh = &shapes[si];
        size_t abytes = sh->m * sh->k * 2, bbytes = sh->n * sh->k * 2, ki;
        double flops = 2.0 * sh->m * sh->n * sh->k, cb_med = 0, cb_min = 0;
        struct run r;
        int c;

        if (!listed(sets, sh->set))
            continue;
        memset(&r, 0, sizeof(r));
        r.copies = (int) ((200u << 20) / (abytes + bbytes)) + 1;
        if (r.copies > 64)
            r.copies = 64;
        r.a = calloc((size_t) r.copies, sizeof(void *));
        r.b = calloc((size_t) r.copies, sizeof(void *));
        if (smma_gpu_malloc(&r.a[0], abytes, msg, sizeof(msg)) != 0 ||
            smma_gpu_malloc(&r.b[0], bbytes, msg, sizeof(msg)) != 0 ||
            smma_gpu_malloc(&r.d, sh->m * sh->n * (d_fp32 ? 4 : 2), msg, sizeof(msg)) != 0) {
            fprintf(stderr, "gemm-bench: %s\n", msg);
            return 1;
        }
        bench_fill_random16(r.a[0], sh->m * sh->k, false, 1 + si);
        bench_fill_random16(r.b[0], sh->n * sh->k, false, 1001 + si);
        for (c = 1; c < r.copies; c++) {
            if (smma_gpu_malloc(&r.a[c], abytes, msg, sizeof(msg)) != 0 ||
                smma_gpu_malloc(&r.b[c], bbytes, msg, sizeof(msg)) != 0) {
                fprintf(stderr, "gemm-bench: %s\n", msg);
                return 1;
            }
            bench_copy(r.a[c], r.a[0], abytes);
            bench_copy(r.b[c], r.b[0], bbytes);
        }
        r.cb = bench_cublas_new(false, sh->m, sh->n, sh->k, sh->k, b_kmajor ? sh->k : sh->n,
                                b_kmajor, d_fp32, msg, sizeof(msg));
        if (r.cb == NULL ||
            bench_time(run_cublas, &r, warmup, reps, &cb_med, &cb_min, msg, sizeof(msg)) != 0) {
            fprintf(stderr, "gemm-bench: cuBLAS: %s\n", msg);
            return 1;
        }
        memset(&r.x, 0, sizeof(r.x));
        r.x.shape.a_fmt = r.x.shape.b_fmt = SMMA_BF16;
        r.x.shape.scale_fmt = SMMA_NONE;
        r.x.shape.vec = 32;
        r.x.shape.c_fmt = SMMA_NONE;
        r.x.shape.d_fmt = d_fp32 ? SMMA_FP32 : SMMA_BF16;
        r.x.shape.m = sh->m;
        r.x.shape.n = sh->n;
        r.x.shape.k = sh->k;
        r.x.a_kmajor = true;
        r.x.lda = sh->k;
        r.x.b_kmajor = b_kmajor;
        r.x.ldb = b_kmajor ? sh->k : sh->n;
        r.x.d = r.d;
        r.x.ldd = sh->n;
        for (ki = 1; ki < SMMA_GPU_KERNEL_COUNT; ki++) {
            double med = 0, mn = 0;

            if (!listed(kernels, smma_gpu_kernel_name((smma_gpu_kernel) ki)))
                continue;
            r.x.kernel = (smma_gpu_kernel) ki;
            if (bench_time(run_softmma, &r, warmup, reps, &med, &mn, msg, sizeof(msg)) != 0) {
                printf("%zux%zux%zu %s: %s\n", sh->m, sh->n, sh->k,
                       smma_gpu_kernel_name(r.x.kernel), msg);
                continue;
            }
            printf("%6zux%6zux%6zu %-14s %10.4f %9.1f %10.4f %9.1f %7.3f %8.1f%%\n", sh->m,
                   sh->n, sh->k, smma_gpu_kernel_name(r.x.kernel), med, flops / med / 1e9,
                   cb_med, flops / cb_med / 1e9, cb_med / med,
                   100.0 * flops / med / 1e9 / ceiling);
            fflush(stdout);
        }
        bench_cublas_free(r.cb);
        for (c = 0; c < r.copies; c++) {
            smma_gpu_free(r.a[c]);
            smma_gpu_free(r.b[c]);
        }
        smma_gpu_free(r.d);
        free(r.a);
        free(r.b);
    }
    return 0;
}

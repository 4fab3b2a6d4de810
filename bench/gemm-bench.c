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
 * clock is changed: the clock the driver reports is printed (NVML, sampled
 * every millisecond during the timed runs; SMMA_BENCH_CLOCK_MS=N every N
 * ms up to 60000, 0 not at all; another value is refused, exit 2).
 *
 * Build: `make bench` (needs CUDA and cuBLASLt).  Run:
 *     bench/gemm-bench [--reps N] [--warmup N] [--kernels sm80-v2,sm80-v1]
 *                      [--shapes square,llm] [--d bf16|fp32] [--b kmajor|nmajor]
 *                      [--passes N]
 *     bench/gemm-bench --formats mxfp8,nvfp4,...|all [--shapes large,llm,mid,small,mixed]
 *     bench/gemm-bench --ceilings
 * --passes N goes over the 16-bit shapes N times in one process, each time
 * with operands allocated anew (whether a figure follows the process or
 * the allocation).  --formats times the block-scaled kernels: sm80-bs-large
 * and sm90-bs (and for the MX pairs sm90-promote32) at 8192^3 beside cuBLAS bf16 at
 * 8192^3 (set "large"), the same at 4096 x 14336 x 4096 and 4096 x 4096 x
 * 14336 (set "llm"), at M from 32 to 2048 x 8192 x 8192 and at 8192 x {256,
 * 1024} x 8192 (set "mid"),
 * and sm80-bs-small at M in {1, 4, 16} x (N, K) in
 * {(8192, 8192), (28672, 8192), (8192, 28672)} (set "small") with the bytes
 * moved per second (A, B, their scales, D) beside the device-to-device copy
 * bandwidth and cuBLAS bf16's time for the same shape; and sm90-mixed at M
 * in {1, 2, 4, ..., 512} on those (N, K) (set "mixed", bench_mixed).  Every block-scaled
 * line also gives "read": the time of a kernel that only reads the same
 * operands (bench_read, the same rotating copies) as a percentage of the
 * kernel's, the share of the memory-bound ceiling at that size that the
 * kernel reaches (a small problem cannot reach the copy bandwidth of 1 GiB).  Operands are
 * random codes (finite, scales near 1) in rotating copies; scales 128x4.
 * sm90-bs, and sm90-promote32 with an e2m1, e2m3 or e3m2 operand, run twice:
 * converting inside the kernel, and with the conversion pass ("+pass").
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

/* The block-scaled format pairs, named as the gemm suites name them. */
struct bs_pair {
    const char *name;
    smma_format a, b, scale;
    unsigned vec;
};

static const struct bs_pair bs_pairs[] = {
    { "mxfp8", SMMA_E4M3, SMMA_E4M3, SMMA_E8M0, 32 },
    { "mxfp8e5m2", SMMA_E5M2, SMMA_E5M2, SMMA_E8M0, 32 },
    { "mxfp8-e4m3-e5m2", SMMA_E4M3, SMMA_E5M2, SMMA_E8M0, 32 },
    { "mxfp6e2m3", SMMA_E2M3, SMMA_E2M3, SMMA_E8M0, 32 },
    { "mxfp6e3m2", SMMA_E3M2, SMMA_E3M2, SMMA_E8M0, 32 },
    { "mxfp4", SMMA_E2M1, SMMA_E2M1, SMMA_E8M0, 32 },
    { "nvfp4", SMMA_E2M1, SMMA_E2M1, SMMA_UE4M3, 16 },
    { "mxfp8-mxfp4", SMMA_E4M3, SMMA_E2M1, SMMA_E8M0, 32 },
    { "bf16-mxfp4", SMMA_BF16, SMMA_E2M1, SMMA_E8M0, 32 },
    { "bf16-mxfp8", SMMA_BF16, SMMA_E4M3, SMMA_E8M0, 32 },
};

/* Bytes of rows x k elements of format f. */
static size_t
fmt_bytes(smma_format f, size_t rows, size_t k)
{
    return f == SMMA_BF16 ? rows * k * 2 : f == SMMA_E2M1 ? rows * k / 2 : rows * k;
}

static bool listed(const char *list, const char *name);

struct bs_run {
    smma_gpu_gemm_args x;
    void **a, **b, **sa, **sb;
    int copies;
    bool a_scaled;
};

static int
run_bs(void *vctx, int iter)
{
    struct bs_run *r = vctx;
    char msg[256];

    r->x.a = r->a[iter % r->copies];
    r->x.b = r->b[iter % r->copies];
    r->x.sa = r->a_scaled ? r->sa[iter % r->copies] : NULL;
    r->x.sb = r->sb[iter % r->copies];
    if (smma_gpu_gemm(&r->x, msg, sizeof(msg)) != SMMA_GPU_STATUS_OK) {
        fprintf(stderr, "gemm-bench: %s\n", msg);
        return -1;
    }
    return 0;
}

/* A kernel that only reads the problem's operands, rotating through the
 * same copies: A, B, B's scales and as many bytes of A's scales as A's
 * rows use (from the start of the buffer: at M <= 16 a few KB, whatever
 * bytes the layout puts them in): the ceiling of the "read" column. */
static int
run_read(void *vctx, int iter)
{
    const struct bs_run *r = vctx;
    const size_t kb = (r->x.shape.k + r->x.shape.vec - 1) / r->x.shape.vec;
    const size_t abytes = fmt_bytes(r->x.shape.a_fmt, r->x.shape.m, r->x.shape.k);
    bench_read_bufs b = { { r->a[iter % r->copies], r->b[iter % r->copies],
                            r->a_scaled ? r->sa[iter % r->copies] : NULL,
                            r->sb[iter % r->copies] },
                          { abytes, fmt_bytes(r->x.shape.b_fmt, r->x.shape.n, r->x.shape.k),
                            r->a_scaled ? (r->x.shape.m * kb + 15) / 16 * 16 : 0,
                            r->x.shape.n * kb } };

    return bench_read(&b);
}

/* Appended to the kernel's name in a line ("+pass": the conversion pass of
 * sm90-bs and sm90-promote32 forced). */
static const char *bs_tag = "";
/* The last bench_bs_one's median and that of its read-only kernel, in ms
 * (0 where either failed). */
static double last_ms, last_read_ms;

/* One shape of one pair with one kernel; prints a line.  cb_ms is cuBLAS
 * bf16's time for the same shape (0: not timed). */
static void
bench_bs_one(const struct bs_pair *pr, size_t m, size_t n, size_t k, smma_gpu_kernel kernel,
             int warmup, int reps, double ceiling, double copy_gbs, double cb_ms)
{
    struct bs_run r;
    size_t kb = (k + pr->vec - 1) / pr->vec, abytes = fmt_bytes(pr->a, m, k);
    size_t bbytes = fmt_bytes(pr->b, n, k), sab = ((m + 127) / 128 * 128) * ((kb + 3) / 4 * 4);
    size_t sbb = ((n + 127) / 128 * 128) * ((kb + 3) / 4 * 4), moved;
    double flops = 2.0 * m * n * k, med = 0, mn = 0, rd = 0;
    void *d = NULL;
    char msg[256];
    int c;

    memset(&r, 0, sizeof(r));
    r.copies = (int) ((200u << 20) / (abytes + bbytes + sab + sbb)) + 1;
    if (r.copies > 64)
        r.copies = 64;
    r.a = calloc((size_t) r.copies, sizeof(void *));
    r.b = calloc((size_t) r.copies, sizeof(void *));
    r.sa = calloc((size_t) r.copies, sizeof(void *));
    r.sb = calloc((size_t) r.copies, sizeof(void *));
    for (c = 0; c < r.copies; c++) {
        if (smma_gpu_malloc(&r.a[c], abytes, msg, sizeof(msg)) != 0 ||
            smma_gpu_malloc(&r.b[c], bbytes, msg, sizeof(msg)) != 0 ||
            smma_gpu_malloc(&r.sa[c], sab, msg, sizeof(msg)) != 0 ||
            smma_gpu_malloc(&r.sb[c], sbb, msg, sizeof(msg)) != 0) {
            fprintf(stderr, "gemm-bench: %s\n", msg);
            exit(1);
        }
        if (pr->a == SMMA_BF16)
            bench_fill_random16(r.a[c], m * k, false, 7 + c);
        else
            bench_fill_codes(r.a[c], abytes, pr->a, 7 + c);
        bench_fill_codes(r.b[c], bbytes, pr->b, 1007 + c);
        bench_fill_codes(r.sa[c], sab, pr->scale, 2007 + c);
        bench_fill_codes(r.sb[c], sbb, pr->scale, 3007 + c);
    }
    if (smma_gpu_malloc(&d, m * n * 2, msg, sizeof(msg)) != 0) {
        fprintf(stderr, "gemm-bench: %s\n", msg);
        exit(1);
    }
    r.x.shape.a_fmt = pr->a;
    r.x.shape.b_fmt = pr->b;
    r.x.shape.scale_fmt = pr->scale;
    r.x.shape.vec = pr->vec;
    r.x.shape.c_fmt = SMMA_NONE;
    r.x.shape.d_fmt = SMMA_BF16;
    r.x.shape.m = m;
    r.x.shape.n = n;
    r.x.shape.k = k;
    if (pr->scale == SMMA_UE4M3) {
        r.x.shape.has_alpha = true;
        r.x.shape.alpha = 0x3e200000u;
    }
    r.x.a_kmajor = r.x.b_kmajor = true;
    r.x.lda = r.x.ldb = k;
    r.x.scale_layout = SMMA_SL_128X4;
    r.x.d = d;
    r.x.ldd = n;
    r.x.kernel = kernel;
    r.a_scaled = pr->a != SMMA_BF16;
    moved = abytes + bbytes + (pr->a == SMMA_BF16 ? 0 : m * kb) + n * kb + m * n * 2;
    if (bench_time(run_read, &r, warmup, reps, &rd, &mn, msg, sizeof(msg)) != 0) {
        fprintf(stderr, "gemm-bench: the read-only kernel failed (%s); read prints -\n", msg);
        rd = 0;
    }
    last_ms = 0;
    last_read_ms = rd;
    if (bench_time(run_bs, &r, warmup, reps, &med, &mn, msg, sizeof(msg)) != 0) {
        printf("%-16s %6zux%6zux%6zu %-14s%-6s failed: %s\n", pr->name, m, n, k,
               smma_gpu_kernel_name(kernel), bs_tag, msg);
    } else {
        last_ms = med;
        bench_clocks clk;
        char read[16];

        bench_last_clocks(&clk);
        if (rd > 0)
            snprintf(read, sizeof(read), "%.1f%%", 100.0 * rd / med);
        else
            snprintf(read, sizeof(read), "-");
        printf("%-16s %6zux%6zux%6zu %-14s%-6s %9.4f %8.1f %8.1f %7.3f %6.1f%% %8.0f %6.1f%% "
               "%7s %6.0f %5.0f\n", pr->name, m, n, k, smma_gpu_kernel_name(kernel), bs_tag,
               med, flops / med / 1e9, cb_ms > 0 ? flops / cb_ms / 1e9 : 0.0,
               cb_ms > 0 ? cb_ms / med : 0.0, 100.0 * flops / med / 1e9 / ceiling,
               moved / med / 1e6, 100.0 * moved / med / 1e6 / copy_gbs, read, clk.mhz_mean,
               clk.watts_mean);
    }
    fflush(stdout);
    for (c = 0; c < r.copies; c++) {
        smma_gpu_free(r.a[c]);
        smma_gpu_free(r.b[c]);
        smma_gpu_free(r.sa[c]);
        smma_gpu_free(r.sb[c]);
    }
    smma_gpu_free(d);
    free(r.a);
    free(r.b);
    free(r.sa);
    free(r.sb);
}

/* An sm90 kernel on one shape: where a conversion pass applies (sm90-bs;
 * sm90-promote32 with an e2m1, e2m3 or e3m2 operand) twice, with the
 * conversion inside the kernel (SMMA_SM90_PRE=0) and as a pass before the
 * GEMM (=1, "+pass"); else once. */
static void
bench_sm90(const struct bs_pair *pr, size_t m, size_t n, size_t k, smma_gpu_kernel kernel,
           int warmup, int reps, double ceiling, double copy_gbs, double cb_ms)
{
    bool fp8 = (pr->a == SMMA_E4M3 || pr->a == SMMA_E5M2)
               && (pr->b == SMMA_E4M3 || pr->b == SMMA_E5M2);
    int mode, modes = kernel == SMMA_GPU_SM90_BS || !fp8 ? 2 : 1;

    for (mode = 0; mode < modes; mode++) {
        setenv("SMMA_SM90_PRE", mode ? "1" : "0", 1);
        bs_tag = mode ? "+pass" : "";
        bench_bs_one(pr, m, n, k, kernel, warmup, reps, ceiling, copy_gbs, cb_ms);
    }
    unsetenv("SMMA_SM90_PRE");
    bs_tag = "";
}

/* cuBLAS bf16 on the shape (A, B bf16, rotating copies), in ms. */
static double
cublas_ms(size_t m, size_t n, size_t k, int warmup, int reps);

/* The shapes of LLM decoding and small prefill (set "mixed"): M in {1,
 * 2, 4, ..., 512} x (N, K) in {(8192, 8192), (28672, 8192), (8192,
 * 28672)}: sm90-mixed, sm80-bs-small where M <= 16 and sm90-bs where
 * M >= 32, beside cuBLAS bf16 at every shape; then for sm90-mixed one
 * line a shape, "<pair> M=<m> N=<n> K=<k>: <r>x cuBLAS bf16, <p>% of read
 * (<card>)", the form of the record (bench/sm90-kernels.md). */
static void
bench_mixed(const struct bs_pair *pr, int warmup, int reps, double ceiling, double copy)
{
    static const size_t ms[] = { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512 };
    static const size_t nk[][2] = { { 8192, 8192 }, { 28672, 8192 }, { 8192, 28672 } };
    char lines[sizeof(ms) / sizeof(ms[0]) * 3][320];
    smma_gpu_device dev;
    char msg[256];
    size_t si, mi, nl = 0;

    if (smma_gpu_info(&dev, msg, sizeof(msg)) != SMMA_GPU_STATUS_OK)
        snprintf(dev.name, sizeof(dev.name), "?");
    for (si = 0; si < 3; si++)
        for (mi = 0; mi < sizeof(ms) / sizeof(ms[0]); mi++) {
            size_t m = ms[mi], n = nk[si][0], k = nk[si][1];
            double cb = cublas_ms(m, n, k, warmup, reps), t, rd;

            bench_bs_one(pr, m, n, k, SMMA_GPU_SM90_MIXED, warmup, reps, ceiling, copy, cb);
            t = last_ms;
            rd = last_read_ms;
            if (m <= 16)
                bench_bs_one(pr, m, n, k, SMMA_GPU_SM80_BS_SMALL, warmup, reps, ceiling, copy,
                             cb);
            else
                bench_bs_one(pr, m, n, k, SMMA_GPU_SM90_BS, warmup, reps, ceiling, copy, cb);
            if (t > 0 && cb > 0 && rd > 0)
                snprintf(lines[nl++], sizeof(lines[0]), "%s M=%zu N=%zu K=%zu: %.2fx cuBLAS "
                         "bf16, %.0f%% of read (%s)", pr->name, m, n, k, cb / t, 100 * rd / t,
                         dev.name);
            else
                snprintf(lines[nl++], sizeof(lines[0]), "%s M=%zu N=%zu K=%zu: not measured "
                         "(%s failed)", pr->name, m, n, k, t <= 0 ? "sm90-mixed"
                         : cb <= 0 ? "cuBLAS" : "the read-only kernel");
        }
    for (si = 0; si < nl; si++)
        printf("RECORD %s\n", lines[si]);
}

static void
bench_formats(const char *formats, const char *sets, int warmup, int reps, double ceiling)
{
    static const size_t small[][3] = { { 1, 8192, 8192 },   { 4, 8192, 8192 },
                                       { 16, 8192, 8192 },  { 1, 28672, 8192 },
                                       { 4, 28672, 8192 },  { 16, 28672, 8192 },
                                       { 1, 8192, 28672 },  { 4, 8192, 28672 },
                                       { 16, 8192, 28672 } };
    /* The wgmma kernels' LLM shapes beside 8192^3. */
    static const size_t llm[][3] = { { 4096, 14336, 4096 }, { 4096, 4096, 14336 } };
    static const size_t mid[][3] = { { 32, 8192, 8192 },   { 64, 8192, 8192 },
                                     { 128, 8192, 8192 },  { 256, 8192, 8192 },
                                     { 512, 8192, 8192 },  { 1024, 8192, 8192 },
                                     { 2048, 8192, 8192 }, { 8192, 256, 8192 },
                                     { 8192, 1024, 8192 } };
    double copy = bench_copy_bandwidth(reps), cb_large = 0, cb_llm[2] = { 0, 0 };
    size_t pi, si, li;

    printf("device-to-device copy: %.0f GB/s (read + write), median of %d copies of 1 GiB\n",
           copy, reps);
    printf("%-16s %20s %-20s %9s %8s %8s %7s %7s %8s %7s %7s %6s %5s\n", "format",
           "m x n x k", "kernel", "ms", "TFLOP/s", "cuBLAS", "ratio", "ceil", "GB/s", "copy",
           "read", "MHz", "W");
    if (listed(sets, "large"))
        cb_large = cublas_ms(8192, 8192, 8192, warmup, reps);
    for (li = 0; li < 2 && listed(sets, "llm"); li++)
        cb_llm[li] = cublas_ms(llm[li][0], llm[li][1], llm[li][2], warmup, reps);
    for (pi = 0; pi < sizeof(bs_pairs) / sizeof(bs_pairs[0]); pi++) {
        if (!listed(formats, bs_pairs[pi].name) && strcmp(formats, "all") != 0)
            continue;
        /* sm90-promote32's pairs: the MX ones (e8m0 scales, no bf16 A). */
        bool mx8 = bs_pairs[pi].scale == SMMA_E8M0 && bs_pairs[pi].a != SMMA_BF16;

        if (listed(sets, "large")) {
            bench_bs_one(&bs_pairs[pi], 8192, 8192, 8192, SMMA_GPU_SM80_BS_LARGE, warmup, reps,
                         ceiling, copy, cb_large);
            /* sm90-bs (every pair, bf16 wgmma; compute capability 9.0). */
            bench_sm90(&bs_pairs[pi], 8192, 8192, 8192, SMMA_GPU_SM90_BS, warmup, reps,
                       ceiling, copy, cb_large);
        }
        /* sm90-promote32 (the MX pairs on fp8 wgmma; compute capability 9.0). */
        if (listed(sets, "large") && mx8)
            bench_sm90(&bs_pairs[pi], 8192, 8192, 8192, SMMA_GPU_SM90_PROMOTE32, warmup, reps,
                       ceiling, copy, cb_large);
        for (li = 0; li < 2 && listed(sets, "llm"); li++) {
            bench_bs_one(&bs_pairs[pi], llm[li][0], llm[li][1], llm[li][2],
                         SMMA_GPU_SM80_BS_LARGE, warmup, reps, ceiling, copy, cb_llm[li]);
            bench_sm90(&bs_pairs[pi], llm[li][0], llm[li][1], llm[li][2], SMMA_GPU_SM90_BS,
                       warmup, reps, ceiling, copy, cb_llm[li]);
            if (mx8)
                bench_sm90(&bs_pairs[pi], llm[li][0], llm[li][1], llm[li][2],
                           SMMA_GPU_SM90_PROMOTE32, warmup, reps, ceiling, copy, cb_llm[li]);
        }
        /* Where the conversion pass starts to pay: M from 32 to 2048 at
         * N = K = 8192, and N of 256 and 1024 at M = K = 8192. */
        for (li = 0; li < sizeof(mid) / sizeof(mid[0]) && listed(sets, "mid"); li++) {
            double cb = cublas_ms(mid[li][0], mid[li][1], mid[li][2], warmup, reps);

            bench_bs_one(&bs_pairs[pi], mid[li][0], mid[li][1], mid[li][2],
                         SMMA_GPU_SM80_BS_LARGE, warmup, reps, ceiling, copy, cb);
            bench_sm90(&bs_pairs[pi], mid[li][0], mid[li][1], mid[li][2], SMMA_GPU_SM90_BS,
                       warmup, reps, ceiling, copy, cb);
            if (mx8)
                bench_sm90(&bs_pairs[pi], mid[li][0], mid[li][1], mid[li][2],
                           SMMA_GPU_SM90_PROMOTE32, warmup, reps, ceiling, copy, cb);
        }
        if (listed(sets, "small"))
            for (si = 0; si < sizeof(small) / sizeof(small[0]); si++)
                bench_bs_one(&bs_pairs[pi], small[si][0], small[si][1], small[si][2],
                             SMMA_GPU_SM80_BS_SMALL, warmup, reps, ceiling, copy,
                             cublas_ms(small[si][0], small[si][1], small[si][2], warmup,
                                       reps));
        if (listed(sets, "mixed"))
            bench_mixed(&bs_pairs[pi], warmup, reps, ceiling, copy);
    }
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

struct cb_only {
    bench_cublas *cb;
    void **a, **b;
    void *d;
    int copies;
};

static int
run_cb_only(void *vctx, int iter)
{
    struct cb_only *r = vctx;

    return bench_cublas_run(r->cb, r->a[iter % r->copies], r->b[iter % r->copies], r->d);
}

static double
cublas_ms(size_t m, size_t n, size_t k, int warmup, int reps)
{
    struct cb_only r;
    size_t ab = m * k * 2, bb = n * k * 2;
    double med = 0, mn = 0;
    char msg[256];
    int c;

    r.copies = (int) ((200u << 20) / (ab + bb)) + 1;
    r.a = calloc((size_t) r.copies, sizeof(void *));
    r.b = calloc((size_t) r.copies, sizeof(void *));
    for (c = 0; c < r.copies; c++) {
        if (smma_gpu_malloc(&r.a[c], ab, msg, sizeof(msg)) != 0 ||
            smma_gpu_malloc(&r.b[c], bb, msg, sizeof(msg)) != 0)
            return 0;
        bench_fill_random16(r.a[c], m * k, false, 11 + c);
        bench_fill_random16(r.b[c], n * k, false, 111 + c);
    }
    smma_gpu_malloc(&r.d, m * n * 2, msg, sizeof(msg));
    r.cb = bench_cublas_new(false, m, n, k, k, k, true, false, msg, sizeof(msg));
    if (r.cb == NULL || bench_time(run_cb_only, &r, warmup, reps, &med, &mn, msg, sizeof(msg)))
        med = 0;
    bench_cublas_free(r.cb);
    for (c = 0; c < r.copies; c++) {
        smma_gpu_free(r.a[c]);
        smma_gpu_free(r.b[c]);
    }
    smma_gpu_free(r.d);
    free(r.a);
    free(r.b);
    return med;
}

int
main(int argc, char **argv)
{
    int reps = 20, warmup = 5, passes = 1, i;
    const char *kernels = "sm80-v2", *sets = "square,llm", *formats = NULL;
    bool d_fp32 = false, b_kmajor = true;
    smma_gpu_device dev;
    char msg[256];
    double ceiling, ceiling8;
    bench_clocks ceil_clk, ceil8_clk;
    size_t si;

    if (bench_clock_period_ms(msg, sizeof(msg)) < 0) {
        fprintf(stderr, "gemm-bench: %s\n", msg);
        return 2;
    }
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
        if (strcmp(argv[i], "--passes") == 0 && i + 1 < argc)
            passes = atoi(argv[++i]);
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
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
        else if (strcmp(argv[i], "--formats") == 0 && i + 1 < argc)
            formats = argv[++i];
        else {
            fprintf(stderr, "gemm-bench: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (passes < 1) {
        fprintf(stderr, "gemm-bench: --passes must be at least 1\n");
        return 2;
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
    bench_last_clocks(&ceil_clk);
    printf("device: %s, compute capability %d.%d, %d SMs, clock %d MHz (driver's maximum), "
           "memory clock %d MHz\n", dev.name, dev.sm_major, dev.sm_minor, dev.multiprocessors,
           bench_clock_khz() / 1000, dev.mem_clock_khz / 1000);
    printf("timing: %d warm-up runs, median of %d runs between CUDA events; bf16 in, D %s, B "
           "%s\n", warmup, reps, d_fp32 ? "fp32" : "bf16", b_kmajor ? "K-major" : "N-major");
    ceiling8 = bench_mma_ceiling(reps, 1);
    bench_last_clocks(&ceil8_clk);
    printf("mma.sync ceiling (register-only m16n8k16 loop, 64 warps per SM): %.1f TFLOP/s "
           "(%.0f MHz, %.0f W); with 8 warps per SM: %.1f (%.0f MHz, %.0f W)\n\n", ceiling,
           ceil_clk.mhz_mean, ceil_clk.watts_mean, ceiling8, ceil8_clk.mhz_mean,
           ceil8_clk.watts_mean);
    if (formats != NULL) {
        bench_formats(formats, strcmp(sets, "square,llm") == 0 ? "large,small" : sets, warmup,
                      reps, ceiling);
        return 0;
    }
    printf("clocks: the SM clock (MHz, mean of NVML samples about every ms) and board power "
           "(W) while the timed runs ran, for the kernel and for cuBLAS\n");
    printf("%-20s %-14s %10s %9s %10s %9s %7s %9s %6s %5s %6s %5s\n", "m x n x k", "kernel", "ms",
           "TFLOP/s", "cuBLAS ms", "TFLOP/s", "ratio", "ceiling", "MHz", "W", "cbMHz", "cbW");
    for (si = 0; si < passes * (sizeof(shapes) / sizeof(shapes[0])); si++) {
        const struct shape *sh = &shapes[si % (sizeof(shapes) / sizeof(shapes[0]))];
        size_t abytes = sh->m * sh->k * 2, bbytes = sh->n * sh->k * 2, ki;
        double flops = 2.0 * sh->m * sh->n * sh->k, cb_med = 0, cb_min = 0;
        bench_clocks cb_clk, k_clk;
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
        bench_last_clocks(&cb_clk);
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
            bench_last_clocks(&k_clk);
            printf("%6zux%6zux%6zu %-14s %10.4f %9.1f %10.4f %9.1f %7.3f %8.1f%% %6.0f %5.0f "
                   "%6.0f %5.0f\n", sh->m, sh->n, sh->k, smma_gpu_kernel_name(r.x.kernel), med,
                   flops / med / 1e9, cb_med, flops / cb_med / 1e9, cb_med / med,
                   100.0 * flops / med / 1e9 / ceiling, k_clk.mhz_mean, k_clk.watts_mean,
                   cb_clk.mhz_mean, cb_clk.watts_mean);
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

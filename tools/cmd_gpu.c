/*
 * tools/cmd_gpu.c - softmma gpu, and the GPU side of softmma gemm --on gpu.
 *
 * gpu prints device 0 and, for every kernel of softmma/gpu.h, whether it
 * runs there and the numerics model it follows there.  The gemm helpers
 * store a problem's codes as the kernels take them (A and B K-major, rows
 * padded to 16 bytes; scales in the linear layout; C fp32), run it through
 * smma_gpu_gemm and copy D back, or time it.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kernels.h"
#include "options.h"

static bool
is16(smma_format f)
{
    return f == SMMA_BF16 || f == SMMA_FP16;
}

/* Whether operand A (a) or B of s carries scales on the GPU: a bf16 or fp16
 * operand of a scaled product has none (bf16 x mxfp4). */
static bool
gpu_scaled(const smma_gemm_shape *s, bool a)
{
    return s->scale_fmt != SMMA_NONE && !is16(a ? s->a_fmt : s->b_fmt);
}

/* The code of the scale 1. */
static uint32_t
scale_one(smma_format f)
{
    return f == SMMA_UE4M3 ? 0x38 : 0x7f;
}

/* Elements of format f in 16 bytes: rows padded to this stay 16-byte
 * aligned, as the fast kernels need. */
static size_t
per16(smma_format f)
{
    return is16(f) ? 8 : f == SMMA_E2M1 ? 32 : 16;
}

static size_t
round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

/* The arguments of a problem of shape s without its device pointers. */
static void
gemm_args(const smma_gemm_shape *s, smma_gpu_kernel kernel, smma_gpu_gemm_args *x)
{
    memset(x, 0, sizeof(*x));
    x->shape = *s;
    x->a_kmajor = true;
    x->lda = round_up(s->k, per16(s->a_fmt));
    x->b_kmajor = true;
    x->ldb = round_up(s->k, per16(s->b_fmt));
    x->scale_layout = SMMA_SL_LINEAR;
    x->ldc = s->n;
    x->ldd = s->n;
    x->kernel = kernel;
}

/* ---- softmma gpu ------------------------------------------------------------- */

/* A problem every kernel of its kind takes: bf16 x bf16 for the 16-bit
 * kernels, mxfp8 (e4m3 x e4m3, e8m0 scales per 32) for the block-scaled
 * ones; 256 x 256 x 256 (m = 16 for sm80-bs-small). */
static void
representative(smma_gpu_kernel k, smma_gpu_gemm_args *x)
{
    const smma_gpu_kernel_row *r = smma_gpu_kernel_row_of(k);
    bool bs = r != NULL && r->kind == SMMA_GPU_KIND_SCALED;
    smma_gemm_shape s;

    memset(&s, 0, sizeof(s));
    s.a_fmt = bs ? SMMA_E4M3 : SMMA_BF16;
    s.b_fmt = s.a_fmt;
    s.scale_fmt = bs ? SMMA_E8M0 : SMMA_NONE;
    s.vec = 32;
    s.c_fmt = SMMA_NONE;
    s.d_fmt = SMMA_FP32;
    s.m = k == SMMA_GPU_SM80_BS_SMALL ? 16 : 256;
    s.n = 256;
    s.k = 256;
    gemm_args(&s, k, x);
}

/* softmma gpu --table: the kernel table and AUTO's preference table
 * (gpu/kernels.h), which doc/kernels.md shows as they are. */
static void
print_tables(void)
{
    size_t i;
    int k;

    printf("| kernel | code | runs on | kind | file | what it is |\n");
    printf("|---|---|---|---|---|---|\n");
    for (k = SMMA_GPU_AUTO + 1; k < SMMA_GPU_KERNEL_COUNT; k++) {
        const smma_gpu_kernel_row *r = smma_gpu_kernel_row_of((smma_gpu_kernel) k);

        if (r != NULL)
            printf("| `%s` | %s | %s | %s | `%s` | %s |\n", r->name, r->code, r->needs,
                   r->kind == SMMA_GPU_KIND_16BIT ? "16-bit" : "block-scaled", r->file,
                   r->summary);
    }
    printf("\n| place | kernel | auto | why |\n");
    printf("|---|---|---|---|\n");
    for (i = 0; i < smma_gpu_nprefs; i++)
        printf("| %zu | `%s` | %s | %s |\n", i + 1, smma_gpu_kernel_name(smma_gpu_prefs[i].id),
               !smma_gpu_prefs[i].in_auto
                   ? (smma_gpu_prefs[i].fits != NULL ? "not yet" : "by its model")
               : smma_gpu_prefs[i].fits_text != NULL ? smma_gpu_prefs[i].fits_text : "yes",
               smma_gpu_prefs[i].why);
}

int
cmd_gpu(int argc, char **argv)
{
    static const char usage[] =
        "Usage: softmma gpu [--table]\n\n"
        "Prints device 0: its name, compute capability, multiprocessors, clocks,\n"
        "memory and the shared memory a block may opt in to; then, for every GPU\n"
        "kernel, whether it runs on this device and the numerics model it reproduces\n"
        "there bit for bit (for bf16 x bf16 with the 16-bit kernels, for mxfp8 with\n"
        "the block-scaled ones).  Without CUDA, a driver or a device it says why and\n"
        "exits 2.\n\n"
        "--table prints instead, on any machine, the kernel table (each kernel's code,\n"
        "the devices it runs on, its kind, file and summary) and the preference\n"
        "table auto walks, as Markdown (doc/kernels.md shows them).\n";
    bool table = false;
    const struct opt_spec specs[] = {
        { "table", false, NULL, &table },
        { NULL, false, NULL, NULL }
    };
    struct opt_result r;
    smma_gpu_device dev;
    char msg[512];
    int rc = opt_parse(argc, argv, specs, &r), k;

    if (rc == CLI_OK && r.help) {
        fputs(usage, stdout);
        opt_free(&r);
        return CLI_OK;
    }
    if (rc == CLI_OK && r.npos > 0)
        rc = cli_error("unexpected argument '%s'", r.pos[0]);
    opt_free(&r);
    if (rc != CLI_OK)
        return rc;
    if (table) {
        print_tables();
        return CLI_OK;
    }
    if (smma_gpu_info(&dev, msg, sizeof(msg)) != SMMA_GPU_STATUS_OK)
        return cli_error("no GPU: %s", msg);
    printf("device: %s\n", dev.name);
    printf("compute capability: %d.%d\n", dev.sm_major, dev.sm_minor);
    printf("multiprocessors: %d\n", dev.multiprocessors);
    printf("clock: %d MHz; memory clock: %d MHz\n", dev.clock_khz / 1000,
           dev.mem_clock_khz / 1000);
    printf("memory: %zu MiB\n", dev.mem_bytes >> 20);
    printf("shared memory per block (opt-in): %zu bytes\n", dev.smem_optin_bytes);
    printf("kernels (16-bit ones for bf16 x bf16, block-scaled ones for e4m3 x e4m3, e8m0 "
           "scales, vec 32):\n");
    for (k = SMMA_GPU_AUTO + 1; k < SMMA_GPU_KERNEL_COUNT; k++) {
        smma_gpu_gemm_args x;
        smma_gpu_kernel chosen;
        const char *model = NULL;
        const char *name = smma_gpu_kernel_name((smma_gpu_kernel) k);

        representative((smma_gpu_kernel) k, &x);
        if (smma_gpu_gemm_check(&x, dev.sm_major, dev.sm_minor, &chosen, msg, sizeof(msg)) !=
            SMMA_GPU_STATUS_OK) {
            printf("  %-14s does not run: %s\n", name, msg);
            continue;
        }
        if (smma_gpu_gemm_model(chosen, &x.shape, dev.sm_major, dev.sm_minor, &model, msg,
                                sizeof(msg)) != SMMA_GPU_STATUS_OK)
            printf("  %-14s runs; no model: %s\n", name, msg);
        else
            printf("  %-14s runs; model %s\n", name, model);
    }
    /* What auto runs for bf16 x bf16 here, and why. */
    {
        smma_gpu_gemm_args x;
        smma_gpu_kernel chosen;

        representative(SMMA_GPU_AUTO, &x);
        if (smma_gpu_gemm_choose(&x, &chosen, msg, sizeof(msg)) == SMMA_GPU_STATUS_OK)
            printf("auto for bf16 x bf16: %s\n", msg);
        else
            printf("auto for bf16 x bf16: nothing runs: %s\n", msg);
    }
    return CLI_OK;
}

/* ---- softmma gemm --on gpu --------------------------------------------------- */

int
cli_gpu_generate(const smma_gemm_shape *s, smma_input_class cls, uint64_t seed,
                 smma_gemm_data *g, smma_error *err)
{
    smma_gemm_gen_opts o;
    size_t kb = smma_gemm_kblocks(s), n, i, t;
    uint32_t **sc;
    int rc;

    memset(&o, 0, sizeof(o));
    o.unscaled_a = s->scale_fmt != SMMA_NONE && !gpu_scaled(s, true);
    o.unscaled_b = s->scale_fmt != SMMA_NONE && !gpu_scaled(s, false);
    if ((rc = smma_gemm_generate_opts(s, cls, seed, &o, g, err)) != SMMA_OK)
        return rc;
    /* The unscaled operands get scales of 1: the same product, and data
     * that --save-inputs can write. */
    for (i = 0; i < 2 && kb > 0; i++) {
        sc = i == 0 ? &g->sa : &g->sb;
        n = (i == 0 ? s->m : s->n) * kb;
        if (*sc != NULL)
            continue;
        if ((*sc = malloc(n * sizeof(**sc))) == NULL) {
            smma_gemm_data_free(g);
            return smma_error_set(err, SMMA_ENOMEM, "out of memory for scales");
        }
        for (t = 0; t < n; t++)
            (*sc)[t] = scale_one(s->scale_fmt);
    }
    return SMMA_OK;
}

int
cli_gpu_plan_gemm(const smma_gemm_shape *s, const smma_gemm_data *g, smma_gpu_kernel kernel,
                  const char *model, cli_gpu_plan *plan)
{
    smma_gpu_gemm_args x;
    char msg[512];
    size_t kb = smma_gemm_kblocks(s), i;
    int op;

    memset(plan, 0, sizeof(*plan));
    /* The kernels take a 16-bit operand of a scaled product unscaled. */
    for (op = 0; op < 2 && kb > 0; op++) {
        const uint32_t *sc = op == 0 ? g->sa : g->sb;
        size_t n = (op == 0 ? s->m : s->n) * kb;

        if (gpu_scaled(s, op == 0) || sc == NULL)
            continue;
        for (i = 0; i < n; i++)
            if (smma_decode(s->scale_fmt, sc[i]) != 1.0)
                return cli_error("--on gpu: %s is %s in a block-scaled product: the kernels "
                                 "take it without scales, but its scale %zu is 0x%02x, not 1",
                                 op == 0 ? "A" : "B",
                                 smma_format_name(op == 0 ? s->a_fmt : s->b_fmt), i,
                                 (unsigned) sc[i]);
    }
    if (smma_gpu_info(&plan->dev, msg, sizeof(msg)) != SMMA_GPU_STATUS_OK)
        return cli_error("--on gpu: no GPU: %s", msg);
    gemm_args(s, kernel, &x);
    x.model = model;
    if (smma_gpu_gemm_choose(&x, &plan->kernel, msg, sizeof(msg)) != SMMA_GPU_STATUS_OK) {
        if (kernel != SMMA_GPU_AUTO)
            return cli_error("--kernel %s: %s", smma_gpu_kernel_name(kernel), msg);
        return cli_error("--on gpu: no kernel computes this problem: %s", msg);
    }
    if (kernel == SMMA_GPU_AUTO)
        snprintf(plan->why, sizeof(plan->why), "%s", msg);
    if (smma_gpu_gemm_model(plan->kernel, s, plan->dev.sm_major, plan->dev.sm_minor,
                            &plan->model, plan->no_model, sizeof(plan->no_model)) !=
        SMMA_GPU_STATUS_OK)
        plan->model = NULL;
    return CLI_OK;
}

/* Stores the codes as format f with ld elements per row and copies them to
 * a new device buffer. */
static int
upload_matrix(smma_format f, const uint32_t *codes, size_t rows, size_t cols, size_t ld,
              void **dev, char *msg, size_t len)
{
    size_t bytes = smma_gpu_matrix_bytes(f, rows, ld);
    void *host = malloc(bytes > 0 ? bytes : 1);
    int rc;

    if (host == NULL) {
        snprintf(msg, len, "out of host memory");
        return SMMA_GPU_STATUS_ENOMEM;
    }
    rc = smma_gpu_pack_matrix(f, codes, rows, cols, ld, host, msg, len);
    if (rc == SMMA_GPU_STATUS_OK)
        rc = smma_gpu_malloc(dev, bytes, msg, len);
    if (rc == SMMA_GPU_STATUS_OK)
        rc = smma_gpu_copy(*dev, host, bytes, true, msg, len);
    free(host);
    return rc;
}

/* Copies count codes to a new device buffer, `width` bytes each (1: scales
 * in the linear layout, 4: fp32 C). */
static int
upload_codes(const uint32_t *codes, size_t count, unsigned width, void **dev, char *msg,
             size_t len)
{
    uint8_t *host = malloc(count * width + 1);
    size_t i;
    int rc;

    if (host == NULL) {
        snprintf(msg, len, "out of host memory");
        return SMMA_GPU_STATUS_ENOMEM;
    }
    if (width == 4)
        memcpy(host, codes, count * 4);
    else
        for (i = 0; i < count; i++)
            host[i] = (uint8_t) codes[i];
    rc = smma_gpu_malloc(dev, count * width, msg, len);
    if (rc == SMMA_GPU_STATUS_OK)
        rc = smma_gpu_copy(*dev, host, count * width, true, msg, len);
    free(host);
    return rc;
}

int
cli_gpu_run_gemm(const cli_gpu_plan *plan, const smma_gemm_shape *s, const smma_gemm_data *g,
                 uint32_t *d, unsigned reps, double *median_ms)
{
    smma_gpu_gemm_args x;
    void *da = NULL, *db = NULL, *dsa = NULL, *dsb = NULL, *dc = NULL, *dd = NULL;
    size_t kb = smma_gemm_kblocks(s), dsize = s->d_fmt == SMMA_FP32 ? 4 : 2, i;
    void *host = NULL;
    char msg[512] = "";
    int rc;

    gemm_args(s, plan->kernel, &x);
    rc = upload_matrix(s->a_fmt, g->a, s->m, s->k, x.lda, &da, msg, sizeof(msg));
    if (rc == SMMA_GPU_STATUS_OK)
        rc = upload_matrix(s->b_fmt, g->b, s->n, s->k, x.ldb, &db, msg, sizeof(msg));
    if (rc == SMMA_GPU_STATUS_OK && kb > 0 && gpu_scaled(s, true))
        rc = upload_codes(g->sa, s->m * kb, 1, &dsa, msg, sizeof(msg));
    if (rc == SMMA_GPU_STATUS_OK && kb > 0 && gpu_scaled(s, false))
        rc = upload_codes(g->sb, s->n * kb, 1, &dsb, msg, sizeof(msg));
    if (rc == SMMA_GPU_STATUS_OK && s->c_fmt == SMMA_FP32)
        rc = upload_codes(g->c, s->m * s->n, 4, &dc, msg, sizeof(msg));
    if (rc == SMMA_GPU_STATUS_OK)
        rc = smma_gpu_malloc(&dd, s->m * s->n * dsize, msg, sizeof(msg));
    if (rc != SMMA_GPU_STATUS_OK)
        goto out;
    x.a = da;
    x.b = db;
    x.sa = dsa;
    x.sb = dsb;
    x.c = dc;
    x.d = dd;
    if (reps > 0) {
        rc = smma_gpu_time_gemm(&x, 1, reps, median_ms, msg, sizeof(msg));
        goto out;
    }
    if ((host = malloc(s->m * s->n * dsize)) == NULL) {
        snprintf(msg, sizeof(msg), "out of host memory for D");
        rc = SMMA_GPU_STATUS_ENOMEM;
        goto out;
    }
    rc = smma_gpu_gemm(&x, msg, sizeof(msg));
    if (rc == SMMA_GPU_STATUS_OK)
        rc = smma_gpu_sync(msg, sizeof(msg));
    if (rc == SMMA_GPU_STATUS_OK)
        rc = smma_gpu_copy(host, dd, s->m * s->n * dsize, false, msg, sizeof(msg));
    if (rc == SMMA_GPU_STATUS_OK)
        for (i = 0; i < s->m * s->n; i++)
            d[i] = dsize == 4 ? ((const uint32_t *) host)[i] : ((const uint16_t *) host)[i];
out:
    smma_gpu_free(da);
    smma_gpu_free(db);
    smma_gpu_free(dsa);
    smma_gpu_free(dsb);
    smma_gpu_free(dc);
    smma_gpu_free(dd);
    free(host);
    if (rc != SMMA_GPU_STATUS_OK)
        return cli_error("--on gpu: %s: %s", smma_gpu_kernel_name(plan->kernel), msg);
    return CLI_OK;
}

/*
 * gpu/gemm_check.c - the kernel table (gpu/kernels.h): the rows of every
 * architecture joined, the kernels' names, the preference table that
 * SMMA_GPU_AUTO walks, and smma_gpu_gemm_check and smma_gpu_gemm_model on
 * top of them.  Plain C, built with and without CUDA, so that these rules
 * are tested everywhere (tests/gpu/gemm-check-t).
 */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "gemm_internal.h"
#include "kernels.h"
#include "sm90/sm90.h"

/* ---- the table ----------------------------------------------------------------------------- */

static const struct {
    const smma_gpu_kernel_row *rows;
    const size_t *n;
} arches[] = {
    { smma_sm80_rows, &smma_sm80_nrows },
    { smma_sm90_rows, &smma_sm90_nrows },
    { smma_sm100_rows, &smma_sm100_nrows },
};

const smma_gpu_kernel_row *
smma_gpu_kernel_row_of(smma_gpu_kernel k)
{
    size_t a, i;

    for (a = 0; a < sizeof(arches) / sizeof(arches[0]); a++)
        for (i = 0; i < *arches[a].n; i++)
            if (arches[a].rows[i].id == k)
                return &arches[a].rows[i];
    return NULL;
}

bool
smma_gpu_row_runs_on(const smma_gpu_kernel_row *r, int major, int minor)
{
    if (r->any_later)
        return major > r->major || (major == r->major && minor >= r->minor);
    return major == r->major && minor == r->minor;
}

const char *
smma_gpu_kernel_name(smma_gpu_kernel k)
{
    const smma_gpu_kernel_row *r = smma_gpu_kernel_row_of(k);

    return k == SMMA_GPU_AUTO ? "auto" : r != NULL ? r->name : "?";
}

int
smma_gpu_kernel_from_name(const char *name, smma_gpu_kernel *out, smma_error *err)
{
    char known[512] = "auto";
    size_t used = strlen(known);
    unsigned k;

    for (k = 0; name != NULL && k < SMMA_GPU_KERNEL_COUNT; k++)
        if (strcasecmp(name, smma_gpu_kernel_name((smma_gpu_kernel) k)) == 0) {
            *out = (smma_gpu_kernel) k;
            return SMMA_OK;
        }
    for (k = 1; k < SMMA_GPU_KERNEL_COUNT && used < sizeof(known); k++)
        used += (size_t) snprintf(known + used, sizeof(known) - used, " %s",
                                  smma_gpu_kernel_name((smma_gpu_kernel) k));
    return smma_error_set(err, SMMA_EINVAL, "unknown kernel '%s' (known: %s)",
                          name != NULL ? name : "(null)", known);
}

/* The preference table (gpu/kernels.h): AUTO's order, each place with the
 * reason and the measurement (doc/kernels.md, "Which kernel runs"). */
const smma_gpu_pref smma_gpu_prefs[] = {
    { SMMA_GPU_SM100_V2, true, "compute capability 10.0 runs tcgen05's block-scaled MMA", NULL,
      NULL },
    { SMMA_GPU_SM100_V1, false, "the tcgen05 teaching kernel", NULL, NULL },
    { SMMA_GPU_SM100_V3, false, "never run: a B200 must first measure it beside sm100-v2 "
      "(doc/sm100.md says what it should gain)", NULL, NULL },
    { SMMA_GPU_SM90_V2, true, "compute capability 9.0 runs wgmma, the fastest kernel there: "
      "1.7-1.9x sm80-v2 at 4096^3 and 8192^3 on an H200", NULL, NULL },
    { SMMA_GPU_SM90_V1, false, "the wgmma teaching kernel", NULL, NULL },
    { SMMA_GPU_SM90_PROMOTE32, false, "the MX pairs under h100-fp8-promote32, a model of its "
      "own, so AUTO does not change a problem's answer by choosing it", NULL, NULL },
    { SMMA_GPU_SM80_BS_SMALL, true, "m <= 16: B streamed once, 0.033-0.039 ms for MXFP8 at "
      "N = K = 8192 on an H200, where sm90-bs takes 0.18 ms at m = 32", NULL, NULL },
    { SMMA_GPU_SM90_MIXED, true, "the fastest measured at 17 to 128 rows of activations by "
      "at least 4096 of block-scaled weights (1.3-2.8x sm90-bs at M 32 to 128 on an H100, "
      "every pair and shape measured); compute-sanitizer clean", smma_sm90_mx_auto,
      "m 17 .. 128" },
    { SMMA_GPU_SM90_BS, true, "compute capability 9.0 with sm_90a code: a conversion pass and "
      "wgmma, 1.15-2.6x sm80-bs-large from m = 32 to 8192^3 on an H200", NULL, NULL },
    { SMMA_GPU_SM80_BS_LARGE, true, "mma.sync with converter warps, where the device's shared "
      "memory holds its ring", NULL, NULL },
    { SMMA_GPU_SM80_BS_V1, true, "the teaching block-scaled kernel takes every pair", NULL,
      NULL },
    { SMMA_GPU_SM80_V2, true, "mma.sync, the fastest kernel below compute capability 9.0", NULL,
      NULL },
    { SMMA_GPU_SM80_V1, true, "the teaching kernel takes every 16-bit problem", NULL, NULL },
};

const size_t smma_gpu_nprefs = sizeof(smma_gpu_prefs) / sizeof(smma_gpu_prefs[0]);

/* ---- checking a problem -------------------------------------------------------------------- */

/* Kernel r on the device: its code runs there, then its own rules. */
static int
row_accepts(const smma_gpu_kernel_row *r, const smma_gpu_gemm_args *x, const smma_gpu_dev *dev,
            char *msg, size_t len)
{
    smma_gpu_gemm_args y = *x;

    if (!smma_gpu_row_runs_on(r, dev->major, dev->minor))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "%s needs compute capability %s, "
                            "the device has %d.%d", r->name, r->needs, dev->major, dev->minor);
    y.kernel = r->id;
    y.model = NULL;
    return r->accepts(&y, dev, msg, len);
}

/* SMMA_GPU_AUTO: the first kernel of the preference table that AUTO takes,
 * of the problem's kind, whose code runs on the device and which takes the
 * problem.  The message gives its place's reason, or where a kernel before
 * it that runs on the device refused the problem, the last such refusal. */
static int
choose_auto(const smma_gpu_gemm_args *x, const smma_gpu_dev *dev, smma_gpu_kernel *chosen,
            char *msg, size_t len)
{
    smma_gpu_kind kind = smma_gpu_kind_of(&x->shape);
    char why[256] = "";
    int last = SMMA_GPU_STATUS_EARCH;
    size_t i;

    for (i = 0; i < smma_gpu_nprefs; i++) {
        const smma_gpu_kernel_row *r = smma_gpu_kernel_row_of(smma_gpu_prefs[i].id);

        if (!smma_gpu_prefs[i].in_auto || r == NULL || r->kind != kind ||
            !smma_gpu_row_runs_on(r, dev->major, dev->minor)
            || (smma_gpu_prefs[i].fits != NULL && !smma_gpu_prefs[i].fits(x)))
            continue;
        if ((last = row_accepts(r, x, dev, why, sizeof(why))) != SMMA_GPU_STATUS_OK)
            continue;
        *chosen = r->id;
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_OK, "auto: %s (%s)", r->name,
                            why[0] != '\0' ? why : smma_gpu_prefs[i].why);
    }
    if (why[0] != '\0')
        return smma_gpu_msg(msg, len, last, "%s", why);
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "no kernel runs on compute capability "
                        "%d.%d (the kernels need compute capability 8.0 or later: "
                        "mma.sync.m16n8k16)", dev->major, dev->minor);
}

/* Whether kernel k takes x on the device and follows the model named m
 * there. */
static bool
follows(const smma_gpu_gemm_args *x, smma_gpu_kernel k, const smma_gpu_dev *dev, const char *m)
{
    const smma_gpu_kernel_row *r = smma_gpu_kernel_row_of(k);
    const char *km = NULL;

    return r != NULL && row_accepts(r, x, dev, NULL, 0) == SMMA_GPU_STATUS_OK
           && r->model(&x->shape, dev->major, dev->minor, &km, NULL, 0) == SMMA_GPU_STATUS_OK
           && strcmp(km, m) == 0;
}

/* SMMA_GPU_AUTO with a model: AUTO's kernel where it follows the model,
 * else the first of the preference table that takes the problem and
 * follows it. */
static int
choose_for_model(const smma_gpu_gemm_args *x, const smma_gpu_dev *dev, smma_gpu_kernel *chosen,
                 char *msg, size_t len)
{
    const smma_model *m;
    smma_error err;
    smma_gpu_kernel k = SMMA_GPU_AUTO;
    const char *km = NULL;
    char why[256] = "";
    size_t i;
    int rc;

    if (smma_model_from_name(x->model, &m, &err) != SMMA_OK)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "model: %s", err.msg);
    rc = choose_auto(x, dev, &k, why, sizeof(why));
    if (rc == SMMA_GPU_STATUS_OK
        && smma_gpu_gemm_model(k, &x->shape, dev->major, dev->minor, &km, NULL, 0)
           == SMMA_GPU_STATUS_OK
        && strcmp(km, m->name) == 0) {
        *chosen = k;
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_OK, "%s; it follows %s", why, m->name);
    }
    for (i = 0; i < smma_gpu_nprefs; i++)
        if ((rc != SMMA_GPU_STATUS_OK || smma_gpu_prefs[i].id != k)
            && follows(x, smma_gpu_prefs[i].id, dev, m->name)) {
            *chosen = smma_gpu_prefs[i].id;
            return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_OK, "auto for %s: %s (the fastest "
                                "kernel whose arithmetic on %d.%d is that model)", m->name,
                                smma_gpu_kernel_name(*chosen), dev->major, dev->minor);
        }
    if (rc != SMMA_GPU_STATUS_OK)
        return smma_gpu_msg(msg, len, rc, "%s", why);
    return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "no kernel computes %s for this "
                        "problem on %d.%d (auto would run %s, which follows %s there)", m->name,
                        dev->major, dev->minor, smma_gpu_kernel_name(k),
                        km != NULL ? km : "no model");
}

int
smma_gpu_gemm_check_ex(const smma_gpu_gemm_args *x, int major, int minor, size_t smem,
                       bool sm90a, smma_gpu_kernel *chosen, char *msg, size_t len)
{
    smma_gpu_dev dev;
    const smma_gpu_kernel_row *r;
    int rc;

    if (x == NULL || chosen == NULL)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "no arguments given");
    if ((rc = smma_gpu_check_common(x, msg, len)) != SMMA_GPU_STATUS_OK)
        return rc;
    dev.major = major;
    dev.minor = minor;
    dev.smem = smem;
    dev.sm90a = sm90a;
    if (x->kernel == SMMA_GPU_AUTO)
        return x->model != NULL ? choose_for_model(x, &dev, chosen, msg, len)
                                : choose_auto(x, &dev, chosen, msg, len);
    if ((r = smma_gpu_kernel_row_of(x->kernel)) == NULL)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "kernel %d is not a kernel",
                            (int) x->kernel);
    *chosen = r->id;
    return row_accepts(r, x, &dev, msg, len);
}

int
smma_gpu_gemm_check_smem(const smma_gpu_gemm_args *x, int major, int minor, size_t smem,
                         smma_gpu_kernel *chosen, char *msg, size_t len)
{
    return smma_gpu_gemm_check_ex(x, major, minor, smem, true, chosen, msg, len);
}

int
smma_gpu_gemm_check(const smma_gpu_gemm_args *x, int major, int minor, smma_gpu_kernel *chosen,
                    char *msg, size_t len)
{
    return smma_gpu_gemm_check_smem(x, major, minor, smma_gpu_smem_optin(major, minor), chosen,
                                    msg, len);
}

int
smma_gpu_gemm_model(smma_gpu_kernel kernel, const smma_gemm_shape *s, int major, int minor,
                    const char **model, char *msg, size_t len)
{
    const smma_gpu_kernel_row *r = smma_gpu_kernel_row_of(kernel);

    if (s == NULL || model == NULL)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EINVAL, "no shape given");
    if (r == NULL)
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "%s has no model: it is not a "
                            "kernel", smma_gpu_kernel_name(kernel));
    if (!smma_gpu_row_runs_on(r, major, minor))
        return smma_gpu_msg(msg, len, SMMA_GPU_STATUS_EARCH, "%s runs on compute capability "
                            "%s only, not %d.%d", r->name, r->needs, major, minor);
    return r->model(s, major, minor, model, msg, len);
}

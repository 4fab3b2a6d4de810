/*
 * gpu/kernels.h - the GPU kernels of softmma/gpu.h as one table.  Plain C.
 *
 * Every kernel is one row: its number and name, the code it is built as
 * and the devices that code runs on, the kind of product it computes, a
 * one-line summary, the function that says whether it takes a problem on
 * a device (or why not), the function that names the numerics model it
 * reproduces there, and its launcher.  Each architecture's check.c
 * contributes its rows (gpu/sm80/check.c, gpu/sm90/check.c,
 * gpu/sm100/check.c) and calls nothing above it; what they share lies
 * below them all, in gpu/rules.c.  gpu/gemm_check.c joins the rows into
 * the table (smma_gpu_kernel_row) and holds the one preference table
 * SMMA_GPU_AUTO walks (smma_gpu_prefs, measured: doc/kernels.md, "Which
 * kernel runs"); `softmma gpu`, doc/kernels.md and tests/gpu/gemm-check-t
 * read the same two tables.
 */
#ifndef SOFTMMA_GPU_KERNELS_H
#define SOFTMMA_GPU_KERNELS_H 1

#include <stdbool.h>
#include <stddef.h>

#include "softmma/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The device a rule looks at: its compute capability, the shared memory a
 * block may opt in to, and whether the build loaded sm_90a code for it
 * (smma_sm90_ready; assumed on a device not asked). */
typedef struct smma_gpu_dev {
    int major, minor;
    size_t smem;
    bool sm90a;
} smma_gpu_dev;

/* The kinds of product: 16-bit operands without scales (bf16 x bf16,
 * fp16 x fp16), or block-scaled ones (at least one quantized operand with
 * e8m0 or ue4m3 scales; the other may be unscaled bf16). */
typedef enum smma_gpu_kind { SMMA_GPU_KIND_16BIT = 0, SMMA_GPU_KIND_SCALED } smma_gpu_kind;

/* The kind of a problem's shape. */
smma_gpu_kind smma_gpu_kind_of(const smma_gemm_shape *s);

/* One kernel. */
typedef struct smma_gpu_kernel_row {
    smma_gpu_kernel id;
    const char *name;           /* "sm90-bs" */
    const char *file;           /* its source: "gpu/sm90/gemm_bs.cu" */
    const char *code;           /* the code it is built as: "sm_80", "sm_90a", "sm_100a" */
    /* The devices that code runs on: compute capability major.minor
     * exactly, or (any_later) major.minor and every later one (sm_80 SASS
     * plus PTX); and the same in words for a refusal ("9.0 (wgmma,
     * sm_90a)"). */
    int major, minor;
    bool any_later;
    const char *needs;
    smma_gpu_kind kind;
    const char *summary;        /* one line: what it is */
    /* Whether it takes the problem x on device *dev (the device is one its
     * code runs on): SMMA_GPU_STATUS_OK, or _EINVAL / _EARCH with a
     * one-line message naming the kernel and the constraint. */
    int (*accepts)(const smma_gpu_gemm_args *x, const smma_gpu_dev *dev, char *msg,
                   size_t len);
    /* The model it reproduces bit for bit for shape s on major.minor (a
     * static string), or _EARCH with the reason. */
    int (*model)(const smma_gemm_shape *s, int major, int minor, const char **model,
                 char *msg, size_t len);
    /* Runs it on device 0 (x->kernel is this kernel, x accepted);
     * without CUDA the launchers say so (gpu/nocuda.c). */
    int (*launch)(const smma_gpu_gemm_args *x, char *msg, size_t len);
} smma_gpu_kernel_row;

/* The rows of each architecture, in the order of their numbers. */
extern const smma_gpu_kernel_row smma_sm80_rows[];
extern const size_t smma_sm80_nrows;
extern const smma_gpu_kernel_row smma_sm90_rows[];
extern const size_t smma_sm90_nrows;
extern const smma_gpu_kernel_row smma_sm100_rows[];
extern const size_t smma_sm100_nrows;

/* The row of kernel k, or NULL for SMMA_GPU_AUTO and a bad value. */
const smma_gpu_kernel_row *smma_gpu_kernel_row_of(smma_gpu_kernel k);

/* Whether the code of row r runs on compute capability major.minor. */
bool smma_gpu_row_runs_on(const smma_gpu_kernel_row *r, int major, int minor);

/* The preference table: the kernels in the order SMMA_GPU_AUTO tries them
 * (auto true: the first of the problem's kind whose code runs on the
 * device and which takes the problem runs), with the reason and the
 * measurement behind each place; the kernels AUTO does not choose, because
 * they follow another model than the one AUTO keeps (auto false), stand
 * where a request for their model (smma_gpu_gemm_args.model) finds them. */
typedef struct smma_gpu_pref {
    smma_gpu_kernel id;
    bool in_auto;
    const char *why;
    /* AUTO takes the kernel here only for the problems `fits` accepts
     * (NULL: every problem it takes); fits_text says which, for the
     * table (a place with fits and not in_auto: measured there, not yet
     * taken). */
    bool (*fits)(const smma_gpu_gemm_args *x);
    const char *fits_text;
} smma_gpu_pref;

extern const smma_gpu_pref smma_gpu_prefs[];
extern const size_t smma_gpu_nprefs;

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_GPU_KERNELS_H */

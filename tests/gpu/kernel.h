/*
 * tests/gpu/kernel.h - what the tests of the GEMM kernels share: a problem
 * held as codes on the host, its run through smma_gpu_gemm on the device
 * (operands stored as the kernel takes them, D poisoned first and checked
 * to be written everywhere), its check against a golden vector suite, and
 * the sampled exact verification of large results.
 */
#ifndef TESTS_GPU_KERNEL_H
#define TESTS_GPU_KERNEL_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <softmma/gemm.h>
#include <softmma/gpu.h>
#include <softmma/scale_layout.h>

/* A problem, as codes (one per uint32_t).  A is m x k row-major (K-major);
 * B is n x k (K-major: element (kk, j) at b[j * k + kk]); SA m x kb and SB
 * n x kb (kb = ceil(k / vec)), NULL for an unscaled operand; C m x n fp32
 * codes or NULL. */
typedef struct kt_problem {
    smma_gemm_shape s;
    uint32_t *a, *b, *sa, *sb, *c;
} kt_problem;

/* How to run it. */
typedef struct kt_how {
    smma_gpu_kernel kernel;
    bool a_mmajor;              /* A stored M-major (k x m) instead of K-major */
    bool b_kmajor;
    smma_scale_layout layout;   /* SMMA_SL_LINEAR or SMMA_SL_128X4 */
    size_t max_m;               /* run only the cases with m <= max_m (0: all) */
    unsigned scale_offset;      /* the scales stored this many bytes past an aligned address */
    unsigned d_offset;          /* D stored this many bytes past an aligned address (a
                                 * multiple of 2, of 4 for fp32 D) */
} kt_how;

/* The device: name, compute capability.  Skips the whole test program (with
 * the reason) without CUDA or a device. */
typedef struct kt_device {
    smma_gpu_device dev;
    int major, minor;
} kt_device;

void kt_device_or_skip(kt_device *d);

/* Runs p on the device as h says; d receives m x n codes of D (in
 * p->s.d_fmt).  Returns false with a message when anything fails, D was not
 * written everywhere included. */
bool kt_run(const kt_problem *p, const kt_how *h, uint32_t *d, char *msg, size_t len);

/* One TAP point: with the environment variable var set to value (a tuning
 * knob's value the kernel does not know), `kernel` refuses to run a
 * problem of shape s (B K-major, scales in `layout`; inputs from seed),
 * with a message that names "var=value".  The variable is unset after. */
void kt_knob_refused(smma_gpu_kernel kernel, const smma_gemm_shape *s, smma_scale_layout layout,
                     uint64_t seed, const char *var, const char *value);

/* The model kernel follows on the device (a TAP failure message and NULL
 * when there is none). */
const smma_model *kt_model(const kt_device *dev, smma_gpu_kernel kernel, const smma_gemm_shape *s);

/* Checks every committed case of the suite file (vectors/NAME.vec) with the
 * kernel: one TAP point per suite ("NAME with KERNEL ..."), the first
 * mismatches as diagnostics.  The suite is a gemm.* suite: the kernel-scale
 * ones (fields has_c, d_fmt, alpha, out dn) and the tile ones (C and D
 * fp32).  A missing file is a failure; a suite with no case for the kernel
 * (h->max_m) is a skip. */
void kt_check_suite(const char *name, const kt_how *h);

/* The CTA geometry of a kernel: tiles of bm x bn, warps_m x warps_n warps of
 * (bm / warps_m) x (bn / warps_n), mma tiles of 16 x 8 with four f32
 * registers. */
typedef struct kt_geometry {
    unsigned bm, bn, warps_m, warps_n;
} kt_geometry;

/* Sampled exact verification of D against model: at least `samples` entries
 * (and at least one per CTA tile), chosen so that every CTA tile, every warp
 * position and every register slot of a warp's tile is hit where the shape
 * has one; every sample recomputed with smma_gemm_element on all cores.
 * Returns the mismatches; *checked the samples. */
uint64_t kt_verify(const kt_problem *p, const smma_model *model, const kt_geometry *g,
                   const uint32_t *d, uint64_t samples, uint64_t seed, uint64_t *checked);

/* Generates a random problem with C when with_c, on all cores: codes drawn
 * as smma_gemm_generate's random class draws them, but each row from its own
 * stream of the seed (faster for large problems; the same problem for the
 * same seed on every machine).  An operand in bf16 or fp16 of a scaled
 * shape has no scales (bf16 x mxfp4).  False with a message on failure;
 * kt_free frees it. */
bool kt_generate(kt_problem *p, const smma_gemm_shape *s, bool with_c, uint64_t seed, char *msg,
                 size_t len);
void kt_free(kt_problem *p);

/* The seed of a run: SMMA_SEED when set (a replay), else the time. */
uint64_t kt_seed(void);

/* Whether the comma-separated list in environment variable var (unset or
 * empty: every name) holds name. */
bool kt_listed(const char *var, const char *name);

/* Puts extreme scales and codes into some rows and columns of a generated
 * problem (seeded): e8m0 0x00, 0x01, 0xfe, 0xff (NaN), ue4m3 0x00, 0x01,
 * 0x7f; e5m2 Inf and NaN, e4m3 NaN and -0.  Every eighth row and column
 * keeps its values. */
void kt_make_special(kt_problem *p, uint64_t seed);

#endif /* TESTS_GPU_KERNEL_H */

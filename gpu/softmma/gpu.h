/*
 * softmma/gpu.h - the GPU GEMM kernels of softmma behind one host API.
 *
 *     D = alpha * (C + sum_k (A[i][k] * SA[i][k/V]) * (B[k][j] * SB[j][k/V]))
 *
 * computed on device 0 by one of the kernels of gpu/sm80/ (mma.sync),
 * gpu/sm90/ (wgmma) or gpu/sm100/ (tcgen05), each of which reproduces a named softmma numerics
 * model bit for bit on the GPU families it runs on (smma_gpu_gemm_model;
 * doc/kernels.md gives the contract of every kernel).  A kernel keeps one
 * fp32 accumulator chain per output element in k order: no split-K, no
 * reordering, no partial accumulators added at the end.
 *
 * Everything in this header is plain C and can be included from C and CUDA
 * C++.  The checking functions (smma_gpu_gemm_check, smma_gpu_gemm_model,
 * the names) need no GPU and no CUDA: they are built into every
 * libsoftmma_gpu, also without CUDA, so that the rules are tested on every
 * machine.  smma_gpu_gemm and smma_gpu_info need a device; a build without
 * CUDA returns SMMA_GPU_ENODEV from them with the reason.
 *
 * Storage of the operands in device memory (ld* counted in elements):
 *   bf16, fp16        2 bytes per element
 *   e4m3, e5m2        1 byte per element
 *   e2m3, e3m2        1 byte per element, the code in bits 5:0 (bits 7:6 are
 *                     ignored)
 *   e2m1              2 elements per byte along the contiguous dimension,
 *                     the even element in bits 3:0 (smma_pack_fp4); ld and
 *                     the offset of every row are even
 *   A (m x k)         element (i, kk) at a[i * lda + kk] when a_kmajor,
 *                     else at a[kk * lda + i]
 *   B (k x n)         element (kk, j) at b[j * ldb + kk] when b_kmajor,
 *                     else at b[kk * ldb + j]
 *   SA, SB            one scale byte (e8m0 or ue4m3) per row of A (column of
 *                     B) and block of vec k, stored in scale_layout
 *                     (softmma/scale_layout.h: SMMA_SL_LINEAR, rows x
 *                     ceil(k/vec) row-major, or SMMA_SL_128X4, padded);
 *                     NULL for an operand without scales (bf16 x mxfp4)
 *   C, D (m x n)      row-major, element (i, j) at c[i * ldc + j]; C is
 *                     fp32 or absent, D is fp32, bf16 or fp16
 */
#ifndef SOFTMMA_GPU_H
#define SOFTMMA_GPU_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <softmma/gemm.h>
#include <softmma/scale_layout.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes: 0 is success, the others continue those of
 * softmma/format.h (and gpu/probes/probes.h). */
enum {
    SMMA_GPU_STATUS_OK = 0,
    SMMA_GPU_STATUS_EINVAL = 1, /* the problem or an argument is refused */
    SMMA_GPU_STATUS_ENOMEM = 5, /* a device allocation failed */
    SMMA_GPU_STATUS_ENODEV = 6, /* no CUDA in this build, no driver or no device */
    SMMA_GPU_STATUS_EARCH = 7,  /* the device is too old, or this build holds no code for it */
    SMMA_GPU_STATUS_ECUDA = 8   /* any other failing CUDA call or launch */
};

/* The kernels.  The numbering is part of the ABI. */
typedef enum smma_gpu_kernel {
    SMMA_GPU_AUTO = 0,          /* the fastest kernel that can compute the problem */
    SMMA_GPU_SM80_V1,           /* "sm80-v1": teaching kernel, bf16/fp16, one warp per tile */
    SMMA_GPU_SM80_V2,           /* "sm80-v2": cp.async pipeline, ldmatrix, bf16/fp16 */
    SMMA_GPU_SM80_BS_V1,        /* "sm80-bs-v1": teaching block-scaled kernel */
    SMMA_GPU_SM80_BS_LARGE,     /* "sm80-bs-large": block-scaled, large M */
    SMMA_GPU_SM80_BS_SMALL,     /* "sm80-bs-small": block-scaled, M <= 16 */
    SMMA_GPU_SM100_V1,          /* "sm100-v1": tcgen05 teaching kernel */
    SMMA_GPU_SM100_V2,          /* "sm100-v2": tcgen05 pipelined, warp-specialized */
    SMMA_GPU_SM90_V1,           /* "sm90-v1": wgmma teaching kernel, bf16/fp16 */
    SMMA_GPU_SM90_V2,           /* "sm90-v2": wgmma, TMA, warp-specialized, persistent */
    SMMA_GPU_SM90_PROMOTE32,    /* "sm90-promote32": MX on fp8 wgmma, fp32 promotion per 32 k */
    SMMA_GPU_SM90_BS,           /* "sm90-bs": block-scaled, upcast to bf16, bf16 wgmma */
    SMMA_GPU_SM90_MIXED,        /* "sm90-mixed": the block-scaled operand converted in
                                   registers as wgmma's A, the other bf16 (small M) */
    SMMA_GPU_SM100_V3,          /* "sm100-v3": tcgen05.mma.cta_group::2, 256 x N tiles
                                   over CTA pairs */
    SMMA_GPU_KERNEL_COUNT
} smma_gpu_kernel;

/* The canonical name of a kernel ("?" for a bad value), and the lookup by
 * name (SMMA_EINVAL with a message naming the known ones). */
const char *smma_gpu_kernel_name(smma_gpu_kernel k);
int smma_gpu_kernel_from_name(const char *name, smma_gpu_kernel *out, smma_error *err);

/* One problem.  shape gives the formats, vec, m, n, k and the epilogue
 * (c_fmt, d_fmt, alpha); the pointers are device pointers. */
typedef struct smma_gpu_gemm_args {
    smma_gemm_shape shape;
    const void *a;
    size_t lda;
    bool a_kmajor;
    const void *b;
    size_t ldb;
    bool b_kmajor;
    const void *sa, *sb;
    smma_scale_layout scale_layout;
    const void *c;
    size_t ldc;
    void *d;
    size_t ldd;
    smma_gpu_kernel kernel;     /* SMMA_GPU_AUTO or one kernel */
    void *stream;               /* a cudaStream_t, or NULL for the default stream */
    const char *model;          /* with SMMA_GPU_AUTO: the numerics model the answer must
                                   follow (a name or an alias of `softmma models`), so that
                                   the fastest kernel that reproduces it on the device runs
                                   (h100-fp8-promote32: sm90-promote32); NULL: the fastest
                                   kernel, whatever its model.  Not read for a named kernel */
} smma_gpu_gemm_args;

/* Decides, without touching a GPU, which kernel computes the problem on a
 * device of compute capability sm_major.sm_minor: the requested kernel, or
 * for SMMA_GPU_AUTO the fastest one that can (doc/kernels.md, "Which
 * kernel runs": on 9.0 sm90-v2 for a 16-bit product it takes, assuming the
 * build holds sm_90a code, which smma_gpu_gemm_choose checks) and, with
 * args->model, the fastest whose arithmetic on that device is that model
 * (SMMA_GPU_STATUS_EINVAL naming the model when none is).  Checks the
 * shape (smma_gemm_shape_check), the formats, majorness, leading
 * dimensions, alignment of the pointers (the fast kernels need 16 bytes),
 * and whether the kernel can run on that device.  Returns
 * SMMA_GPU_STATUS_OK and sets *chosen (for SMMA_GPU_AUTO, msg then says
 * why: "auto: sm90-v2 (...)"), or SMMA_GPU_STATUS_EINVAL /
 * SMMA_GPU_STATUS_EARCH with a one-line message that names the constraint
 * (for example "sm80-v2: k = 12 must be a multiple of 8").  NULL data
 * pointers are allowed here (only their alignment is checked), so that
 * tests can ask about shapes. */
int smma_gpu_gemm_check(const smma_gpu_gemm_args *args, int sm_major, int sm_minor,
                        smma_gpu_kernel *chosen, char *msg, size_t msg_len);

/* The kernel smma_gpu_gemm runs for args on device 0: smma_gpu_gemm_check
 * with the device's compute capability and shared memory, and for
 * SMMA_GPU_AUTO the sm_80 kernels where the sm90 kernels were chosen but
 * this build loaded no sm_90a code for them.  Returns as
 * smma_gpu_gemm_check (msg says why for SMMA_GPU_AUTO), or
 * SMMA_GPU_STATUS_ENODEV without CUDA or a device. */
int smma_gpu_gemm_choose(const smma_gpu_gemm_args *args, smma_gpu_kernel *chosen, char *msg,
                         size_t msg_len);

/* The softmma numerics model that kernel reproduces bit for bit for a
 * problem of shape s on a device of compute capability sm_major.sm_minor,
 * for example "h100-bf16" for sm80-v2 with bf16 operands on sm_90.  Returns
 * SMMA_GPU_STATUS_OK and sets *model (a static string), or
 * SMMA_GPU_STATUS_EARCH with the reason when softmma has no model of that
 * device for that kernel (the kernel may still run, but it is not golden
 * there). */
int smma_gpu_gemm_model(smma_gpu_kernel kernel, const smma_gemm_shape *s, int sm_major,
                        int sm_minor, const char **model, char *msg, size_t msg_len);

/* Runs the problem on device 0: smma_gpu_gemm_check with the device's
 * compute capability, then the kernel.  Asynchronous on args->stream like
 * any CUDA launch, except that errors of the launch itself are reported.
 * Returns SMMA_GPU_STATUS_OK, or a status with a one-line message; on
 * failure D is not written or its contents are unspecified. */
int smma_gpu_gemm(const smma_gpu_gemm_args *args, char *msg, size_t msg_len);

/* Device 0: name, compute capability, multiprocessors, the clock rates the
 * driver reports (kHz), the amount of memory and the shared memory one
 * block may opt in to (what sm80-v2 and sm80-bs-large need).
 * SMMA_GPU_STATUS_ENODEV with the reason without CUDA, a driver or a
 * device. */
typedef struct smma_gpu_device {
    char name[128];
    int sm_major, sm_minor;
    int multiprocessors;
    int clock_khz, mem_clock_khz;
    size_t mem_bytes;
    size_t smem_optin_bytes;
} smma_gpu_device;

int smma_gpu_info(smma_gpu_device *dev, char *msg, size_t msg_len);

/* Times the problem on device 0: `warmup` runs of smma_gpu_gemm, then
 * `reps` (at least 1) runs queued back to back on args->stream, each
 * between two CUDA events; *median_ms receives the median of their times in
 * milliseconds (the mean of the middle two for an even count).  Waits for
 * the runs.  The statuses and messages of smma_gpu_gemm; D holds the
 * result of the last run. */
int smma_gpu_time_gemm(const smma_gpu_gemm_args *args, unsigned warmup, unsigned reps,
                       double *median_ms, char *msg, size_t msg_len);

/* Which version of sm80-bs-large smma_gpu_gemm would run args with on the
 * current device, without running it: *version 2 (converter warps feeding
 * mma warps) or 1 (every warp converts and multiplies).  Version 1 runs
 * where smma_gpu_bs_large_choose's rules say (scales not readable a word a
 * row, ue4m3 scales outside NVFP4, SMMA_SM80_BS_LARGE=inline), where the
 * device cannot give a block version 2's shared memory, and where the code
 * the device loaded for version 2 uses local memory (compiled without
 * setmaxnreg, which only sm_90a and sm_100a code has).  *code_arch is the
 * target version 2's loaded code was compiled for (its PTX version: 80,
 * 90, 100), or 0 where the rules or the shared memory decided first.
 * It does not check the problem as smma_gpu_gemm_check does (call that
 * first); SMMA_GPU_STATUS_EINVAL for a NULL argument, a pair of formats
 * sm80-bs-large is not built for or an unknown SMMA_SM80_BS_LARGE,
 * SMMA_GPU_STATUS_ENODEV without CUDA or a device (smma_gpu_info's
 * message), SMMA_GPU_STATUS_ECUDA where the device's code for version 2
 * cannot be inspected; *version and *code_arch are 0 with any error.  Data
 * pointers are not read. */
int smma_gpu_bs_large_version(const smma_gpu_gemm_args *args, int *version, int *code_arch,
                              char *msg, size_t msg_len);

/* ---- device memory and operand storage ----------------------------------
 *
 * Small helpers so that C programs (the tests, the softmma program, a Python
 * caller) can run the kernels without the CUDA headers.  They act on the
 * current device and return the statuses above with a message. */

int smma_gpu_malloc(void **ptr, size_t bytes, char *msg, size_t msg_len);
void smma_gpu_free(void *ptr);

/* Copies bytes between host and device memory (to_device true: dst is a
 * device pointer), waiting for the copy and for earlier work. */
int smma_gpu_copy(void *dst, const void *src, size_t bytes, bool to_device, char *msg,
                  size_t msg_len);

/* Sets bytes of device memory to the repeated 32-bit pattern (bytes a
 * multiple of 4): poisoning an output before a run. */
int smma_gpu_fill32(void *dst, uint32_t pattern, size_t bytes, char *msg, size_t msg_len);

/* Waits for the device; reports an error of earlier asynchronous work. */
int smma_gpu_sync(char *msg, size_t msg_len);

/* The bytes of a matrix of `rows` rows stored with `ld` elements per row in
 * format f (the storage rules at the top of this header). */
size_t smma_gpu_matrix_bytes(smma_format f, size_t rows, size_t ld);

/* Stores a rows x cols matrix of codes (codes[r * cols + c], one code per
 * uint32_t) in out with `ld` elements per row, in the storage of format f:
 * what the kernels read as a K-major A (rows m, cols k), a K-major B (rows n,
 * cols k) or an N-major B (rows k, cols n).  Elements of a row past cols are
 * zero.  SMMA_GPU_STATUS_EINVAL when f is not an element format, ld < cols,
 * or ld is odd for e2m1. */
int smma_gpu_pack_matrix(smma_format f, const uint32_t *codes, size_t rows, size_t cols,
                         size_t ld, void *out, char *msg, size_t msg_len);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_GPU_H */

/*
 * gpu/gemm_internal.h - what the dispatcher (gpu/gemm.cu, gpu/nocuda.c),
 * the kernel table (gpu/kernels.h, gpu/gemm_check.c), the rules of the
 * kernels (gpu/rules.c, gpu/sm80/check.c, gpu/sm90/check.c) and the
 * launchers share.  Plain C.
 */
#ifndef SOFTMMA_GPU_GEMM_INTERNAL_H
#define SOFTMMA_GPU_GEMM_INTERNAL_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <softmma/gpu.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of one pipeline stage of sm80-v2 (a 128 x 64 tile of A and a
 * 64 x 256 tile of B, 16-bit elements). */
#define SMMA_GPU_V2_STAGE 49152u

/* Writes a one-line message (when msg is not NULL) and returns status. */
int smma_gpu_msg(char *msg, size_t msg_len, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The shared memory a block may opt in to on a compute capability. */
size_t smma_gpu_smem_optin(int major, int minor);

/* Whether f is bf16 or fp16. */
bool smma_gpu_is16(smma_format f);

/* The rules every problem passes whatever the kernel (gpu/rules.c): the
 * shape, m, n, k and the leading dimensions below 2^31 and large enough,
 * C fp32 or absent, a kernel number in range. */
int smma_gpu_check_common(const smma_gpu_gemm_args *x, char *msg, size_t msg_len);

/* The rules every block-scaled kernel makes (gpu/rules.c): scales e8m0 or
 * ue4m3; A quantized or bf16 and B quantized; A and B K-major; the linear
 * or 128x4 scale layout; k and the leading dimension of an e2m1 operand
 * even. */
int smma_gpu_bs_common(const smma_gpu_gemm_args *x, char *msg, size_t msg_len);

/* The rules of the fast block-scaled kernels, named kn in the message: a
 * pair they are built for (smma_gpu_bs_pair_fast), k a multiple of 8, rows
 * of A and B multiples of 16 bytes, A and B 16-byte aligned, lda and ldb
 * below 2^24. */
int smma_gpu_bs_fast(const smma_gpu_gemm_args *x, const char *kn, char *msg, size_t msg_len);

/* The number of stages sm80-v2 runs with in smem bytes (0: it cannot). */
size_t smma_gpu_v2_stages(size_t smem);

/* sm80-v2's stages, SMMA_SM80_V2_STAGES ("3" or "4"; NULL or empty: as
 * many as smem bytes of shared memory per block hold; tests/gpu/gemm-t runs
 * the 3 stages of an A100 on a larger device this way).  tile is the value
 * of SMMA_SM80_V2_TILE, which chose among tile variants that were never
 * faster than the 128 x 256 tile and are removed: any value but NULL or
 * empty is refused.  Stores the stages and returns SMMA_GPU_STATUS_OK, or
 * refuses with the value in the message: EINVAL for a value it does not
 * know, EARCH for what the device's shared memory cannot hold. */
int smma_gpu_v2_choose(const char *tile, const char *stages, size_t smem, size_t *nstages,
                       char *msg, size_t msg_len);

/* Which version of sm80-bs-small runs the problem x (gpu/sm80/bs_small.cu).
 * 1 (a warp's own chain) when knob, the value of SMMA_SM80_BS_SMALL, is
 * "regs", when the scales cannot be read a word at a time (the linear
 * layout with a number of blocks a row not a multiple of 4, or a pointer
 * not 4-byte aligned), and for ue4m3 scales with B other than e2m1
 * (versions 4, 5 and 6 are built with ue4m3 for NVFP4's B only).
 * Otherwise 6 (B's rows on the mma's m16 side, e2m1 B converted by the mma
 * warps through a table) for e2m1 B with e8m0 scales per 32 or ue4m3 per
 * 16 and e2m1 A, m <= 8, or e4m3 A with n >= 16384; for the rest
 * smma_gpu_bs_small_split's 5 or 4 (converter threads and mma warps), the
 * other scale vectors (e8m0 per 16, ue4m3 per 32) included: where each was
 * the faster (bench/sm80-kernels.md).  Knob "transposed-lut" asks for 6
 * (for e2m1 B with the scales it is built for; elsewhere it asks for
 * nothing), "split-transposed" for 4 and "split-transposed-wide" for 5.  A
 * knob NULL or empty asks for nothing; another value ("split" and
 * "transposed", which asked for the removed versions 2 and 3, too) is
 * refused (EINVAL) with a message that names it.  (The launcher also runs
 * smma_gpu_bs_small_split's version on a device without version 6's shared
 * memory, version 4 on one without version 5's, and version 1 on one
 * without version 4's.) */
int smma_gpu_bs_small_choose(const char *knob, const smma_gpu_gemm_args *x, int *version,
                             char *msg, size_t msg_len);

/* Version 5 (converter threads of two blocks: for e2m1 B, and for 6- and
 * 8-bit B with quantized A and n <= 8192) or else 4, for a problem that
 * smma_gpu_bs_small_choose gives neither version 1 nor version 6. */
int smma_gpu_bs_small_split(const smma_gemm_shape *s);

/* smma_gpu_gemm_check with the device's real shared-memory limit. */
int smma_gpu_gemm_check_smem(const smma_gpu_gemm_args *x, int major, int minor, size_t smem,
                             smma_gpu_kernel *chosen, char *msg, size_t msg_len);

/* The same, saying whether the build holds sm_90a code for the sm90
 * kernels (sm90a false: SMMA_GPU_AUTO does not choose them on 9.0, and says
 * so in msg). */
int smma_gpu_gemm_check_ex(const smma_gpu_gemm_args *x, int major, int minor, size_t smem,
                           bool sm90a, smma_gpu_kernel *chosen, char *msg, size_t msg_len);

/* Whether the fast block-scaled kernels (sm80-bs-large, sm80-bs-small,
 * sm90-bs) are built for A x B in formats a and b (gpu/rules.c), and the
 * shared memory sm80-bs-large needs for them (gpu/sm80/check.c; the
 * kernel checks it agrees). */
bool smma_gpu_bs_pair_fast(smma_format a, smma_format b);
size_t smma_gpu_bs_large_smem(smma_format a, smma_format b);

/* The shared memory of sm80-bs-large's version 2 (converter warps) for
 * formats a and b, and which version runs the problem x: 2 where its
 * scales can be read a word per row and k tile (4-byte aligned pointers,
 * and the 128x4 layout or the linear one with a number of blocks a row
 * that is a multiple of 4) and its scales are e8m0 or the pair is NVFP4
 * (e2m1 x e2m1 with ue4m3), unless knob, the value of SMMA_SM80_BS_LARGE,
 * is "inline" (version 1, every warp converts); NULL, empty or "split" ask
 * for nothing, another value is refused (EINVAL) with the value in the
 * message.  The launcher also runs version 1 where the device cannot give
 * a block version 2's shared memory, or where the code it loaded for
 * version 2 uses local memory (built without setmaxnreg: sm_80 code). */
size_t smma_gpu_bs_large_smem2(smma_format a, smma_format b);
int smma_gpu_bs_large_choose(const char *knob, const smma_gpu_gemm_args *x, int *version,
                             char *msg, size_t msg_len);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_GPU_GEMM_INTERNAL_H */

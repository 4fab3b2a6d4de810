/*
 * gpu/probes/probes.h - host launchers of the probe kernels: small kernels
 * that run one PTX instruction over many inputs and hand back exactly what
 * the hardware computed, so that tests can compare it bit for bit with the
 * reference in ref/.
 *
 * The header is plain C and can be included from C and from CUDA C++.  The
 * launchers use device 0, never exit, and report every failure as a status
 * (below) plus a message.  They keep a device buffer between calls, so they
 * are not thread-safe: call them from one thread.  smma_gpu_release frees
 * that buffer.
 */
#ifndef SOFTMMA_GPU_PROBES_H
#define SOFTMMA_GPU_PROBES_H 1

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes of the launchers.  0 is success; the others continue the
 * numbering of the library's codes in softmma/format.h, so that a code means
 * the same thing wherever it appears. */
enum {
    SMMA_GPU_OK = 0,
    SMMA_GPU_EINVAL = 1, /* an argument is outside its domain (= SMMA_EINVAL) */
    SMMA_GPU_ENOMEM = 5, /* a device allocation failed (= SMMA_ENOMEM) */
    SMMA_GPU_ENODEV = 6, /* no driver, no device, or device 0 cannot be used */
    SMMA_GPU_EARCH = 7,  /* the device, or the code built for it, lacks the
                            instruction (for example cvt e4m3x2 before sm_89) */
    SMMA_GPU_ECUDA = 8   /* any other failing CUDA call or kernel */
};

/* The instructions smma_gpu_cvt_f32_to_f8x2 can run. */
enum {
    SMMA_GPU_CVT_E4M3 = 0, /* cvt.rn.satfinite.e4m3x2.f32 */
    SMMA_GPU_CVT_E5M2 = 1  /* cvt.rn.satfinite.e5m2x2.f32 */
};

/* Describes device 0.  On success returns SMMA_GPU_OK, sets *sm_major and
 * *sm_minor to its compute capability (9 and 0 on an H100) and copies its
 * name, truncated and always terminated, into name[0 .. name_len-1].  When
 * the CUDA driver is missing or too old, or there is no device, returns
 * SMMA_GPU_ENODEV; any other failure returns SMMA_GPU_ECUDA.  On failure msg
 * receives a one-line reason that names the failing CUDA call and its error
 * (for example "cudaGetDeviceCount: CUDA driver version is insufficient for
 * CUDA runtime version (cudaErrorInsufficientDriver)").  Any of the output
 * pointers may be NULL, and name or msg with a zero length is not written.
 * This function works, and does not crash, on a machine with no driver. */
int smma_gpu_device_info(int *sm_major, int *sm_minor, char *name, size_t name_len,
                         char *msg, size_t msg_len);

/* Converts, on device 0, the count consecutive fp32 bit patterns first,
 * first + 1, ..., first + count - 1 with one cvt instruction (which is
 * SMMA_GPU_CVT_E4M3 or SMMA_GPU_CVT_E5M2) and stores the 8-bit result for
 * input first + i in out[i].  The inputs are generated on the device from
 * their index; only the results travel.  The caller guarantees
 * first + count <= 2^32 (the range does not wrap); count may be 0.
 *
 * The x2 form of the instruction is used and both of its halves are
 * exercised: inputs are taken in pairs, input first + 2k goes to operand a
 * (result bits 15:8) and first + 2k + 1 to operand b (bits 7:0).  When count
 * is odd the last input goes to a, with +0.0 in b.  NaN inputs are passed
 * to the instruction unchanged, payload and all.
 *
 * Returns SMMA_GPU_OK, or: SMMA_GPU_EINVAL for a bad which, a NULL out with
 * count > 0, or a range that wraps; SMMA_GPU_ENODEV as for
 * smma_gpu_device_info; SMMA_GPU_EARCH when device 0 is older than sm_89 or
 * when this build holds no sm_89-or-later code that can run on it (the
 * kernel then ran code without the instruction); SMMA_GPU_ENOMEM when the
 * device buffer cannot be grown; SMMA_GPU_ECUDA for any other failing call
 * or a failing launch.  On failure msg receives a one-line reason and the
 * contents of out are unspecified. */
int smma_gpu_cvt_f32_to_f8x2(int which, uint32_t first, uint32_t count, uint8_t *out,
                             char *msg, size_t msg_len);

/* The instructions smma_gpu_mma can run; the numbers are those of
 * smma_mma_instr in softmma/fragment.h. */
enum {
    SMMA_GPU_MMA_M16N8K16_BF16 = 0, /* mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 */
    SMMA_GPU_MMA_M16N8K16_F16 = 1,  /* mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 */
    SMMA_GPU_MMA_M16N8K32_E4M3 = 2, /* mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 */
    SMMA_GPU_MMA_M16N8K32_E5M2 = 3, /* mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 */
    SMMA_GPU_MMA_M16N8K16_F16_F16 = 4 /* mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 */
};

/* Executes one mma.sync per case on device 0 and hands back every output
 * register.  The kernel knows nothing of layouts: lane l of the warp running
 * case t loads its registers a_regs[(t * 32 + l) * 4 + r] (r < 4),
 * b_regs[(t * 32 + l) * 2 + r] (r < 2) and c_regs[(t * 32 + l) * 4 + r],
 * executes the instruction, and stores d_regs[(t * 32 + l) * 4 + r].  The
 * caller packs the operands with the simulator (smma_frag_pack) and unpacks
 * D the same way, so a probe tests the layouts and the numerics together.
 * The f32-accumulator forms take 4 A, 2 B, 4 C and 4 D registers per lane;
 * the f16.f16 form has 2 C and 2 D registers, in slots 0 and 1 of the same
 * four per lane (slots 2 and 3 of D are stored as 0).
 *
 * Returns SMMA_GPU_OK; SMMA_GPU_EINVAL for a bad instr or NULL arrays with
 * ncases > 0; SMMA_GPU_ENODEV; SMMA_GPU_EARCH when the device or the code
 * that runs on it lacks the instruction (the fp8 forms need sm_89); or
 * SMMA_GPU_ECUDA.  On failure msg receives a one-line reason. */
int smma_gpu_mma(int instr, const uint32_t *a_regs, const uint32_t *b_regs,
                 const uint32_t *c_regs, uint32_t *d_regs, size_t ncases, char *msg,
                 size_t msg_len);

/* The shared-memory window of one ldmatrix / stmatrix case: 512 bytes, 32
 * rows of 16 bytes. */
#define SMMA_GPU_MATRIX_SMEM 512

/* Executes one ldmatrix (kind 0) or stmatrix (kind 1) .m8n8.xNUM{.trans}
 * .shared.b16 per case on device 0.  Case t has a 512-byte shared-memory
 * window whose initial bytes are smem_in[t * 512 .. +511], and each lane l
 * gives the byte offset addr[t * 32 + l] into that window (a multiple of 16,
 * below 512; the lanes whose address the variant does not use are ignored
 * as on the GPU, but must still be valid offsets).
 *   ldmatrix: lane l's registers are stored to regs_out[(t * 32 + l) * 4 + j]
 *             for j < num, and 0 for num <= j < 4; smem_out is not used and
 *             may be NULL.
 *   stmatrix: lane l stores regs_in[(t * 32 + l) * 4 + j], j < num; the
 *             window after the store is copied to smem_out[t * 512 ..];
 *             regs_out is not used and may be NULL.
 * Returns SMMA_GPU_OK; SMMA_GPU_EINVAL for a bad kind or num (1, 2, 4), an
 * address that is not a multiple of 16 below 512, or a NULL array that the
 * kind needs; SMMA_GPU_ENODEV; SMMA_GPU_EARCH when the device or the code
 * that runs lacks the instruction (ldmatrix needs sm_75, stmatrix sm_90);
 * SMMA_GPU_ECUDA.  On failure msg receives a one-line reason. */
int smma_gpu_matrix(int kind, unsigned num, int trans, const uint8_t *smem_in,
                    const uint32_t *addr, const uint32_t *regs_in, uint32_t *regs_out,
                    uint8_t *smem_out, size_t ncases, char *msg, size_t msg_len);

/* Frees the device buffer that the launchers keep between calls.  Safe to
 * call at any time, more than once, and when nothing was allocated; a later
 * launcher call allocates again.  Errors from the driver are ignored. */
void smma_gpu_release(void);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_GPU_PROBES_H */

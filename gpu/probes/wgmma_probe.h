/*
 * gpu/probes/wgmma_probe.h - host launcher of the wgmma probe: one
 * wgmma.mma_async (sm_90a) per case, A from registers and B from shared
 * memory laid out by the caller, handing back every D register.
 *
 * Plain C, includable from C and CUDA C++; the conventions of probes.h hold:
 * device 0, SMMA_GPU_* status codes and a one-line message, no exit, not
 * thread-safe.
 */
#ifndef SOFTMMA_GPU_WGMMA_PROBE_H
#define SOFTMMA_GPU_WGMMA_PROBE_H 1

#include <stddef.h>
#include <stdint.h>

#include "probes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The instructions smma_gpu_wgmma can run, all with f32 accumulators, A from
 * registers (4 registers per thread) and B through a descriptor:
 *   wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16      (N 8, 4 D registers)
 *   ...m64n8k16.f32.f16.f16
 *   ...m64n8k32.f32.{e4m3,e5m2}.{e4m3,e5m2}                 (4 combinations)
 *   ...m64n64k16.f32.bf16.bf16                               (N 64, 32 D registers)
 *   ...m64n64k32.f32.e4m3.e4m3
 *   ...m64n{16,32,128,256}k16.f32.bf16.bf16                  (sm90-mixed's other N) */
enum {
    SMMA_GPU_WGMMA_M64N8K16_BF16 = 0,
    SMMA_GPU_WGMMA_M64N8K16_F16,
    SMMA_GPU_WGMMA_M64N8K32_E4M3_E4M3,
    SMMA_GPU_WGMMA_M64N8K32_E4M3_E5M2,
    SMMA_GPU_WGMMA_M64N8K32_E5M2_E4M3,
    SMMA_GPU_WGMMA_M64N8K32_E5M2_E5M2,
    SMMA_GPU_WGMMA_M64N64K16_BF16,
    SMMA_GPU_WGMMA_M64N64K32_E4M3_E4M3,
    SMMA_GPU_WGMMA_M64N16K16_BF16,      /* sm90-mixed's other N, A from registers */
    SMMA_GPU_WGMMA_M64N32K16_BF16,
    SMMA_GPU_WGMMA_M64N128K16_BF16,
    SMMA_GPU_WGMMA_M64N256K16_BF16,
    SMMA_GPU_WGMMA_COUNT
};

/* Flags of smma_gpu_wgmma (or-ed). */
enum {
    SMMA_GPU_WGMMA_TRANS_B = 1, /* imm-trans-b = 1: B N-major (bf16/f16 only) */
    SMMA_GPU_WGMMA_NEG_A = 2,   /* imm-scale-a = -1 */
    SMMA_GPU_WGMMA_NEG_B = 4,   /* imm-scale-b = -1 */
    SMMA_GPU_WGMMA_NO_ACC = 8   /* scale-d false: D = A*B (C still loaded into D) */
};

/* The largest B image per case, in bytes. */
#define SMMA_GPU_WGMMA_SMEM_MAX 16384

/* N of an instruction (8 to 256), or 0 when instr is unknown. */
unsigned smma_gpu_wgmma_n(int instr);

/* The simulator's name of an instruction ("wgmma.m64n8k16.bf16",
 * "wgmma.m64n8k32.e4m3.e5m2", ...; softmma/wgmma.h), or "?" when unknown. */
const char *smma_gpu_wgmma_name(int instr);

/*
 * Executes one wgmma per case on device 0, one warpgroup (a block of 128
 * threads) per case.  With R = N/2 D registers per thread, thread h of case t
 *   - loads A registers a_regs[(t * 128 + h) * 4 + r], r < 4;
 *   - loads D registers from c_regs[(t * 128 + h) * R + r], r < R;
 * the block copies the b_bytes bytes b_smem[t * b_bytes ...] to a shared
 * buffer whose shared-memory address is a multiple of 1024, and adds that
 * address >> 4 to the start field of b_desc[t] (so the caller writes
 * descriptors relative to the image: start = offset in the image); then
 * fence.proxy.async.shared::cta, a barrier, and in one asm block
 * wgmma.fence, the wgmma, wgmma.commit_group and wgmma.wait_group 0; then
 * every thread stores d_regs[(t * 128 + h) * R + r].  The kernel knows no
 * layout: the caller packs with softmma/wgmma.h and compares with its
 * executor.
 *
 * b_bytes must be a multiple of 16 in [16, SMMA_GPU_WGMMA_SMEM_MAX]; every
 * descriptor must have its base offset and the bits outside the ISA's fields
 * (14-15, 30-31, 46-48, 52-61) 0 and its start below b_bytes.  flags: see
 * above; TRANS_B only for bf16/f16.
 *
 * Returns SMMA_GPU_OK; SMMA_GPU_EINVAL for a bad instr, flags, b_bytes or
 * descriptor, or NULL arrays with ncases > 0 (the message names case and
 * field); SMMA_GPU_ENODEV; SMMA_GPU_EARCH when device 0 is not sm_90 or the
 * code that ran was not built for sm_90a; SMMA_GPU_ENOMEM; SMMA_GPU_ECUDA.
 * On failure msg receives a one-line reason.
 */
int smma_gpu_wgmma(int instr, unsigned flags, const uint32_t *a_regs, const uint8_t *b_smem,
                   size_t b_bytes, const uint64_t *b_desc, const uint32_t *c_regs,
                   uint32_t *d_regs, size_t ncases, char *msg, size_t msg_len);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_GPU_WGMMA_PROBE_H */

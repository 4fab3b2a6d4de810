/*
 * gpu/probes/tcgen05_probe.h - host launchers of the tcgen05 probe
 * (tcgen05_probe.cu): what tcgen05.ld returns for TMEM contents written with
 * tcgen05.st, and what one tcgen05.mma writes to TMEM.  Plain C, usable
 * from C and CUDA C++; the status codes and conventions are those of
 * probes.h (device 0, a one-line message on failure, no exit).
 *
 * The kernels run only on a compute capability 10.0 device (sm_100a code);
 * elsewhere the launchers return SMMA_GPU_EARCH.  No such device was
 * available when this was written: the probe is compiled and its PTX
 * assembled, never run (doc/tcgen05.md).
 */
#ifndef SOFTMMA_GPU_TCGEN05_PROBE_H
#define SOFTMMA_GPU_TCGEN05_PROBE_H 1

#include <stddef.h>
#include <stdint.h>

#include "probes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The tcgen05.ld variants the ld/st probe reads back with, in this order;
 * each spans the 32 columns the probe writes. */
enum {
    SMMA_GPU_TC05_LD_32X32B_X32 = 0,    /* .32x32b.x32: 32 registers */
    SMMA_GPU_TC05_LD_32X32B_X16_PACK,   /* .32x32b.x16.pack::16b: 16 registers */
    SMMA_GPU_TC05_LD_16X64B_X16,        /* .16x64b.x16: 16 registers */
    SMMA_GPU_TC05_LD_16X128B_X8,        /* .16x128b.x8: 16 registers */
    SMMA_GPU_TC05_LD_16X256B_X4,        /* .16x256b.x4: 16 registers */
    SMMA_GPU_TC05_LD_16X32BX2_X16,      /* .16x32bx2.x16, immHalfSplitoff 16: 16 registers */
    SMMA_GPU_TC05_LD_COUNT
};

#define SMMA_GPU_TC05_COLS 32u          /* TMEM columns the ld/st probe uses */
#define SMMA_GPU_TC05_REGS 32u          /* register slots per thread in out[] */

/* Words of out[] of smma_gpu_tcgen05_ldst: variant x half x warp x thread x slot. */
#define SMMA_GPU_TC05_LDST_OUT (SMMA_GPU_TC05_LD_COUNT * 2u * 4u * 32u * SMMA_GPU_TC05_REGS)

/* One warpgroup allocates 32 TMEM columns; warp w stores tmem_in[(32 w + l)
 * * 32 + c] (c < 32) with tcgen05.st.sync.aligned.32x32b.x32 from thread l
 * at lane 32 w (so lane 32 w + l, column c of the allocation holds it);
 * then, for each variant v and half h, warp w loads with that variant at
 * lane 32 w + 16 h, column 0 (half 1 only for the 16-lane shapes; the
 * 32-lane ones leave it 0) and stores register r of thread l to
 * out[(((v * 2 + h) * 4 + w) * 32 + l) * 32 + r] (unused slots 0).
 * Returns SMMA_GPU_OK; SMMA_GPU_EINVAL for NULL arrays; SMMA_GPU_ENODEV;
 * SMMA_GPU_EARCH when device 0 is not compute capability 10.0 or the code
 * that ran lacks tcgen05; SMMA_GPU_ENOMEM or SMMA_GPU_ECUDA. */
int smma_gpu_tcgen05_ldst(const uint32_t *tmem_in, uint32_t *out, char *msg, size_t msg_len);

/* Bytes of shared memory the mma probe provides. */
#define SMMA_GPU_TC05_SMEM 16384u

/* One tcgen05.mma.cta_group::1.kind::f16 with D at the start of a 32-column
 * TMEM allocation (lane 0), enable-input-d false: the smem_bytes bytes of
 * smem are copied to a 1024-byte-aligned shared buffer, and the start
 * address fields of a_desc and b_desc (bits 0-13) are taken relative to
 * that buffer (the kernel adds its address).  idesc must describe M = 128,
 * N = 8 with an f32 D.  D comes back through tcgen05.ld.32x32b.x8 by each
 * warp of the warpgroup: d[lane * 8 + col], lane < 128.  Returns as
 * smma_gpu_tcgen05_ldst; SMMA_GPU_EINVAL also for smem_bytes above
 * SMMA_GPU_TC05_SMEM. */
int smma_gpu_tcgen05_mma_f16(const uint8_t *smem, size_t smem_bytes, uint64_t a_desc,
                             uint64_t b_desc, uint32_t idesc, uint32_t *d, char *msg,
                             size_t msg_len);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_GPU_TCGEN05_PROBE_H */

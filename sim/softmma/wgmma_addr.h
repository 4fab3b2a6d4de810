/*
 * softmma/wgmma_addr.h - the descriptor and fragment arithmetic of
 * wgmma.mma_async (sm_90a), written once for the C simulator and for the
 * CUDA kernels of gpu/sm90/.
 *
 * Every function here is a static inline function of integers only (under
 * nvcc __host__ __device__, softmma/hd.h): no checking, no messages.  The
 * simulator (sim/wgmma.c) checks its arguments, then encodes descriptors
 * with smma_wgmma_desc_word and places the accumulator with
 * smma_wgmma_d_cell; the kernels call the same functions, so a descriptor
 * or an accumulator register a kernel uses is by construction the one the
 * simulator executes.  Shared-memory addresses inside a canonical layout
 * (and the swizzles) are softmma/tc05_addr.h's: the ISA states the
 * canonical layouts once for wgmma and tcgen05.
 *
 * The contracts (legal values, the bit table and its sources) are stated
 * in softmma/wgmma.h beside the checked functions; callers pass legal
 * values.
 */
#ifndef SOFTMMA_WGMMA_ADDR_H
#define SOFTMMA_WGMMA_ADDR_H 1

#include <stdint.h>

#include "hd.h"

/* The swizzle modes, numbered as bits 62-63 of the descriptor (the values
 * of smma_wgmma_swizzle). */
#define SMMA_WGMMA_SW_NONE 0u
#define SMMA_WGMMA_SW_128B 1u
#define SMMA_WGMMA_SW_64B 2u
#define SMMA_WGMMA_SW_32B 3u

/* The 64-bit shared-memory matrix descriptor: start address, leading- and
 * stride-dimension byte offsets (bytes; each field holds (x & 0x3FFFF) >>
 * 4), base offset (0..7) and swizzle mode (0..3). */
SMMA_HD uint64_t
smma_wgmma_desc_word(uint32_t start, uint32_t lbo, uint32_t sbo, unsigned base_offset,
                     unsigned swizzle)
{
    return (uint64_t) ((start & 0x3FFFFu) >> 4) | (uint64_t) ((lbo & 0x3FFFFu) >> 4) << 16 |
           (uint64_t) ((sbo & 0x3FFFFu) >> 4) << 32 | (uint64_t) (base_offset & 7u) << 49 |
           (uint64_t) (swizzle & 3u) << 62;
}

/* The f32 accumulator D (64 x N) of a warpgroup: register reg (0 .. N/2-1)
 * of thread t (0..127) holds row 16 w + group + 8 ((reg >> 1) & 1) and
 * column 8 (reg >> 2) + 2 tig + (reg & 1), with w = t / 32, group =
 * t % 32 / 4, tig = t % 4 (the arrangement of mma.m16n8k16's C, repeated
 * every 8 columns, one warp per 16 rows). */
SMMA_HD void
smma_wgmma_d_cell(unsigned t, unsigned reg, unsigned *row, unsigned *col)
{
    *row = 16u * (t / 32u) + t % 32u / 4u + 8u * ((reg >> 1) & 1u);
    *col = 8u * (reg >> 2) + 2u * (t % 4u) + (reg & 1u);
}

/* A of 16-bit elements from registers (64 x 16): element e (0, 1) of
 * register reg (0 .. 3) of thread t holds row 16 w + group + 8 (reg & 1)
 * and column 2 tig + e + 8 (reg >> 1) (the arrangement of mma.m16n8k16's
 * A, one warp per 16 rows). */
SMMA_HD void
smma_wgmma_a16_cell(unsigned t, unsigned reg, unsigned e, unsigned *row, unsigned *col)
{
    *row = 16u * (t / 32u) + t % 32u / 4u + 8u * (reg & 1u);
    *col = 2u * (t % 4u) + e + 8u * (reg >> 1);
}

#endif /* SOFTMMA_WGMMA_ADDR_H */

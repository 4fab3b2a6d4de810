/*
 * softmma/tc05_addr.h - the address and descriptor arithmetic of tcgen05
 * (sm_100a), written once for the C simulator and for CUDA kernels.
 *
 * Every function here is a static inline function of integers only: no
 * checking, no messages, no memory.  The simulator (sim/tcgen05.c,
 * sim/tmem.c) checks its arguments and then calls these functions; the
 * kernels of gpu/sm100/ call the same functions on the device, so a
 * descriptor, a swizzled shared-memory address or a Tensor Memory address
 * that a kernel uses is, by construction, the one the simulator executes.
 * Under nvcc every function is __host__ __device__.
 *
 * The contracts (which values are legal, and where each formula comes
 * from) are stated in softmma/tcgen05.h and softmma/tmem.h, next to the
 * checked functions that use these; this header repeats only what the
 * arithmetic needs.  Callers pass legal values: an illegal one gives an
 * unspecified (but defined) result, never undefined behaviour.
 */
#ifndef SOFTMMA_TC05_ADDR_H
#define SOFTMMA_TC05_ADDR_H 1

#include <stdbool.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define SMMA_TC05_FN static __host__ __device__ __forceinline__
#else
#define SMMA_TC05_FN static inline
#endif

/* ---- swizzling ---------------------------------------------------------------- */

/* The swizzle modes, numbered as bits 61-63 of a shared-memory descriptor
 * (the values of smma_tc05_swizzle). */
#define SMMA_TC05_SW_NONE 0u
#define SMMA_TC05_SW_128B_BASE32B 1u
#define SMMA_TC05_SW_128B 2u
#define SMMA_TC05_SW_64B 4u
#define SMMA_TC05_SW_32B 6u

/* The swizzle width in bytes: 16 (none), 32, 64, 128 (both 128-byte
 * modes); 0 for a value that is not a mode. */
SMMA_TC05_FN unsigned
smma_tc05_swz_bytes(unsigned mode)
{
    switch (mode) {
    case SMMA_TC05_SW_NONE: return 16;
    case SMMA_TC05_SW_32B: return 32;
    case SMMA_TC05_SW_64B: return 64;
    case SMMA_TC05_SW_128B:
    case SMMA_TC05_SW_128B_BASE32B: return 128;
    default: return 0;
    }
}

/* The swizzle of a shared-memory byte address: 32B, 64B and 128B XOR the
 * 16-byte chunk bits [4, 4+b) with bits [7, 7+b), b = 1, 2, 3 (CuTe
 * Swizzle<b,4,3>); 128B with 32-byte atomicity XORs bits 5-6 with bits 7-8
 * (Swizzle<2,5,2>); none (or a bad mode) leaves the address alone.  This
 * is also the placement of TMA's CU_TENSOR_MAP_SWIZZLE_32B/64B/128B. */
SMMA_TC05_FN uint32_t
smma_tc05_swz(unsigned mode, uint32_t addr)
{
    switch (mode) {
    case SMMA_TC05_SW_32B: return addr ^ ((addr >> 3) & 0x10u);
    case SMMA_TC05_SW_64B: return addr ^ ((addr >> 3) & 0x30u);
    case SMMA_TC05_SW_128B: return addr ^ ((addr >> 3) & 0x70u);
    case SMMA_TC05_SW_128B_BASE32B: return addr ^ ((addr >> 2) & 0x60u);
    default: return addr;
    }
}

/* ---- the instruction descriptor ------------------------------------------------ */

/* The fields every kind shares: bit 2 sparse, 7-9 A format, 10-12 B
 * format, 13/14 negate A/B, 15/16 transpose (MN-major) A/B, 17-22 N >> 3. */
SMMA_TC05_FN uint32_t
smma_tc05_idesc_ab(bool sparse, unsigned a_fmt, unsigned b_fmt, bool neg_a, bool neg_b,
                   bool a_mn, bool b_mn, unsigned n)
{
    return (uint32_t) sparse << 2 | (uint32_t) (a_fmt & 7u) << 7 | (uint32_t) (b_fmt & 7u) << 10
           | (uint32_t) neg_a << 13 | (uint32_t) neg_b << 14 | (uint32_t) a_mn << 15
           | (uint32_t) b_mn << 16 | (uint32_t) ((n >> 3) & 0x3Fu) << 17;
}

/* The fields of the block-scaled kinds (mxf8f6f4, mxf4, mxf4nvf4): bits 4-5
 * scale-factor id of B, 23 scale format (UE4M3 0, UE8M0 1), 27-28 M >> 7,
 * 29-30 scale-factor id of A, 31 K = 96 (mxf4*). */
SMMA_TC05_FN uint32_t
smma_tc05_idesc_bs(unsigned sfb_id, unsigned scale_fmt, unsigned m, unsigned sfa_id, bool k96)
{
    return (uint32_t) (sfb_id & 3u) << 4 | (uint32_t) (scale_fmt & 1u) << 23
           | (uint32_t) ((m >> 7) & 3u) << 27 | (uint32_t) (sfa_id & 3u) << 29
           | (uint32_t) k96 << 31;
}

/* The fields of the other kinds (tf32, f16, f8f6f4, i8): bits 0-1 sparsity
 * selector, 3 saturate, 4-5 D format, 24-28 M >> 4, 30-31 max shift. */
SMMA_TC05_FN uint32_t
smma_tc05_idesc_dense(unsigned sparse_id, bool saturate, unsigned d_fmt, unsigned m,
                      unsigned max_shift)
{
    return (uint32_t) (sparse_id & 3u) | (uint32_t) saturate << 3 | (uint32_t) (d_fmt & 3u) << 4
           | (uint32_t) ((m >> 4) & 0x1Fu) << 24 | (uint32_t) (max_shift & 3u) << 30;
}

/* ---- the shared-memory matrix descriptor --------------------------------------- */

/* The 64-bit descriptor: start, LBO and SBO as (x & 0x3FFFF) >> 4 at bits
 * 0, 16 and 32, the fixed 0b001 at bits 46-48, the base offset at 49-51,
 * the LBO mode at 52 and the swizzle mode at 61-63. */
SMMA_TC05_FN uint64_t
smma_tc05_sdesc_word(uint32_t start, uint32_t lbo, uint32_t sbo, unsigned base_offset,
                     bool lbo_abs, unsigned swizzle)
{
    return (uint64_t) ((start & 0x3FFFFu) >> 4) | (uint64_t) ((lbo & 0x3FFFFu) >> 4) << 16
           | (uint64_t) ((sbo & 0x3FFFFu) >> 4) << 32 | (uint64_t) 1 << 46
           | (uint64_t) (base_offset & 7u) << 49 | (uint64_t) lbo_abs << 52
           | (uint64_t) (swizzle & 7u) << 61;
}

/*
 * The bit offset of element (row, k) from the start address in the
 * canonical layouts (softmma/tcgen05.h gives them in CuTe notation), before
 * swizzling; w is the swizzle width in bytes (16 for none, see
 * smma_tc05_swz_bytes), eb = elem_bits:
 *
 *   K-major,  none:  (row%8)*128 + (row/8)*SBO + (k%T)*eb + (k/T)*LBO   T = 128/eb
 *   K-major,  w:     (row%8)*w + (row/8)*SBO + k*eb                   (k*eb < 8w)
 *   MN-major, none:  (row%T)*eb + (row/T)*SBO + (k%8)*128 + (k/8)*LBO
 *   MN-major, w:     (row%(cT))*eb + (row/(cT))*LBO + (k%8)*w + (k/8)*SBO   c = w/16
 *
 * with the byte terms (SBO, LBO, 128 = 16 bytes, w) counted in bits.  The
 * address of the element is smma_tc05_swz(mode, start + result / 8).
 */
SMMA_TC05_FN uint64_t
smma_tc05_canon_bits(bool mn_major, unsigned w, unsigned elem_bits, uint32_t lbo, uint32_t sbo,
                     unsigned row, unsigned k)
{
    uint64_t eb = elem_bits, t = 128u / elem_bits, c = w / 16u;

    if (!mn_major) {
        if (w == 16)
            return (uint64_t) (row % 8) * 128 + (uint64_t) (row / 8) * sbo * 8 + (k % t) * eb
                   + (k / t) * (uint64_t) lbo * 8;
        return (uint64_t) (row % 8) * w * 8 + (uint64_t) (row / 8) * sbo * 8 + k * eb;
    }
    if (w == 16)
        return (row % t) * eb + (row / t) * (uint64_t) sbo * 8 + (uint64_t) (k % 8) * 128
               + (uint64_t) (k / 8) * lbo * 8;
    return (row % (c * t)) * eb + (row / (c * t)) * (uint64_t) lbo * 8
           + (uint64_t) (k % 8) * w * 8 + (uint64_t) (k / 8) * sbo * 8;
}

/* ---- Tensor Memory --------------------------------------------------------------- */

/* A TMEM address: lane in bits 31-16, column in bits 15-0. */
SMMA_TC05_FN uint32_t
smma_tc05_taddr(unsigned lane, unsigned col)
{
    return (uint32_t) (lane & 0xFFFFu) << 16 | (col & 0xFFFFu);
}

/*
 * The cell of D element (m, n) of an M x N tcgen05.mma result whose address
 * operand has lane field lane0 and column col0 (softmma/tmem.h, "D and A of
 * tcgen05.mma in TMEM"):
 *   M = 64, cta_group::1 (Layout F)   lane0 + 32 (m/16) + m%16, col0 + n
 *   M = 128, cta_group::1 (Layout D)  m, col0 + n
 *   M = 128, cta_group::2 (Layout B)  CTA m/64, lane m%64 + 64 (n/(N/2)),
 *                                     col0 + n%(N/2)
 *   M = 256, cta_group::2 (Layout A)  CTA m/128, lane m%128, col0 + n
 */
SMMA_TC05_FN void
smma_tc05_d_cell(unsigned m_total, unsigned n_total, unsigned cta_group, unsigned lane0,
                 unsigned col0, unsigned m, unsigned n, unsigned *cta, unsigned *lane,
                 unsigned *col)
{
    if (m_total == 128 && cta_group == 2) {
        unsigned half = n_total / 2;

        *cta = m / 64;
        *lane = m % 64 + 64 * (n / half);
        *col = col0 + n % half;
        return;
    }
    *col = col0 + n;
    if (m_total == 64) {
        *cta = 0;
        *lane = lane0 + 32 * (m / 16) + m % 16;
    } else if (cta_group == 1) {
        *cta = 0;
        *lane = m;
    } else {
        *cta = m / 128;
        *lane = m % 128;
    }
}

/* Scale byte (row, kb) of scale_A or scale_B, copy 0..3, for a scale
 * address with column col0 and scale-factor id sf_id: lane 32 copy +
 * row%32, column col0 + row/32, byte sf_id + kb of the cell. */
SMMA_TC05_FN void
smma_tc05_sf_cell(unsigned col0, unsigned sf_id, unsigned row, unsigned kb, unsigned copy,
                  unsigned *lane, unsigned *col, unsigned *byte)
{
    *lane = 32 * copy + row % 32;
    *col = col0 + row / 32;
    *byte = sf_id + kb;
}

/*
 * The scale address operand of the block-scaled kinds ([sfa_taddr],
 * [sfb_taddr]) with the scale-factor id in bits 31-30 as well: CUTLASS
 * (CuTe's tmem_sf_frg) puts the SF_ID there, in the top bits of the lane
 * field, besides the instruction descriptor's sfa_id / sfb_id; the PTX ISA
 * names only the descriptor's field.  An operand carrying both is read
 * the same whichever field the hardware takes (doc/tcgen05.md, "Two
 * readings").  taddr is a plain TMEM address whose lane is 0.
 */
SMMA_TC05_FN uint32_t
smma_tc05_sf_taddr(uint32_t taddr, unsigned sf_id)
{
    return (taddr & 0x3FFFFFFFu) | (uint32_t) (sf_id & 3u) << 30;
}

/* The inverse: the SF_ID bits 31-30 of a scale address operand, and the
 * plain TMEM address below them. */
SMMA_TC05_FN unsigned
smma_tc05_sf_taddr_id(uint32_t sf_taddr)
{
    return sf_taddr >> 30;
}

SMMA_TC05_FN uint32_t
smma_tc05_sf_taddr_base(uint32_t sf_taddr)
{
    return sf_taddr & 0x3FFFFFFFu;
}

/* The leading-dimension byte offset of the source descriptor of a
 * tcgen05.cp one core matrix (16 bytes a row, no swizzle) wide: no byte of
 * the copy is at k >= 16 bytes, so the LBO is never used (softmma reads 0
 * and 16 alike); the kernels write 16, CUTLASS's value, so that a reading
 * that does use it still finds the next core matrix 16 bytes on. */
#define SMMA_TC05_CP_LBO 16u

/* The tcgen05.cp shapes, numbered as smma_tmem_cp_shape. */
#define SMMA_TC05_CP_128X256B 0u
#define SMMA_TC05_CP_4X256B 1u
#define SMMA_TC05_CP_128X128B 2u
#define SMMA_TC05_CP_64X128B_02_13 3u
#define SMMA_TC05_CP_64X128B_01_23 4u
#define SMMA_TC05_CP_32X128B_WARPX4 5u

/* Where byte `byte` of source row `row`, copy `copy`, of tcgen05.cp lands:
 * lane offset, column offset (byte / 4) and byte of the cell (byte % 4);
 * the lanes per shape as in softmma/tmem.h. */
SMMA_TC05_FN void
smma_tc05_cp_cell(unsigned shape, unsigned row, unsigned byte, unsigned copy, unsigned *dlane,
                  unsigned *dcol, unsigned *dbyte)
{
    switch (shape) {
    case SMMA_TC05_CP_4X256B: *dlane = 32 * row; break;
    case SMMA_TC05_CP_64X128B_02_13: *dlane = row + 64 * copy; break;
    case SMMA_TC05_CP_64X128B_01_23: *dlane = 64 * (row / 32) + 32 * copy + row % 32; break;
    case SMMA_TC05_CP_32X128B_WARPX4: *dlane = 32 * copy + row; break;
    default: *dlane = row; break;
    }
    *dcol = byte / 4;
    *dbyte = byte % 4;
}

/* The tcgen05.ld / tcgen05.st shapes, numbered as smma_tmem_shape. */
#define SMMA_TC05_LD_32X32B 0u
#define SMMA_TC05_LD_16X64B 1u
#define SMMA_TC05_LD_16X128B 2u
#define SMMA_TC05_LD_16X256B 3u
#define SMMA_TC05_LD_16X32BX2 4u

/* The cell that thread t (0..31) of a warp reaches with element elem of
 * register r in tcgen05.ld / tcgen05.st: lane and column offsets from
 * taddr (the table of softmma/tmem.h; pack is .pack::16b / .unpack::16b,
 * half_off the immHalfSplitoff of .16x32bx2). */
SMMA_TC05_FN void
smma_tc05_ldst_cell(unsigned shape, bool pack, unsigned half_off, unsigned t, unsigned r,
                    unsigned elem, unsigned *dlane, unsigned *dcol)
{
    unsigned dl, vc;

    switch (shape) {
    case SMMA_TC05_LD_32X32B:
        dl = t;
        vc = r;
        break;
    case SMMA_TC05_LD_16X64B:
        dl = t / 4 + 8 * (t % 2);
        vc = (t / 2) % 2 + 2 * r;
        break;
    case SMMA_TC05_LD_16X128B:
        dl = t / 4 + 8 * (r % 2);
        vc = t % 4 + 4 * (r / 2);
        break;
    case SMMA_TC05_LD_16X256B:
        dl = t / 4 + 8 * ((r / 2) % 2);
        vc = 2 * (t % 4) + r % 2 + 8 * (r / 4);
        break;
    default:
        dl = t % 16;
        vc = r;
        break;
    }
    *dlane = dl;
    *dcol = (pack ? 2 * vc + elem : vc)
            + (shape == SMMA_TC05_LD_16X32BX2 && t >= 16 ? half_off : 0);
}

/* ---- the 128x4 scale-factor layout --------------------------------------------- */

/* The byte offset of scale (m, kb) in the "128x4" layout with kb_pad
 * (a multiple of 4) scale columns (softmma/scale_layout.h):
 * ((m/128)*(kb_pad/4) + kb/4)*512 + (m%32)*16 + ((m/32)%4)*4 + kb%4. */
SMMA_TC05_FN uint64_t
smma_tc05_sf128x4_off(uint64_t m, uint64_t kb, uint64_t kb_pad)
{
    return ((m / 128) * (kb_pad / 4) + kb / 4) * 512 + (m % 32) * 16 + ((m / 32) % 4) * 4
           + kb % 4;
}

/* The inverse: the (m, kb) whose scale lies at byte off. */
SMMA_TC05_FN void
smma_tc05_sf128x4_pos(uint64_t off, uint64_t kb_pad, uint64_t *m, uint64_t *kb)
{
    uint64_t blk = off / 512, w = off % 512;

    *m = (blk / (kb_pad / 4)) * 128 + ((w % 16) / 4) * 32 + w / 16;
    *kb = (blk % (kb_pad / 4)) * 4 + w % 4;
}

#endif /* SOFTMMA_TC05_ADDR_H */

/*
 * gpu/sm100/plan.h - the plan of the sm_100 block-scaled GEMM kernels
 * (gemm_v1.cu, gemm_v2.cu, gemm_v3.cu): for every CTA and k-step, which global bytes go
 * to which shared-memory addresses, which descriptors and instruction
 * descriptor each tcgen05.mma gets, which tcgen05.cp moves which scales,
 * and which Tensor Memory cells tcgen05.ld reads D from.
 *
 * The plan is a struct of integers filled on the host (smma_sm100_plan_init
 * in check.c) and passed to the kernels by value; the functions below are
 * static inline functions of it, compiled by the C compiler for the dry run
 * (tests/sim/sm100-dry-t.c executes the plan on the simulator) and by nvcc
 * for the kernels, which compute no address in any other way.  They build on
 * softmma/tc05_addr.h, the arithmetic the simulator itself uses.
 *
 * The layout the plan describes (doc/sm100.md draws it):
 *
 *   - A tile is 128 rows of A (M of tcgen05.mma) by bn columns of B (N, 64,
 *     128 or 256), computed in k-steps of 128 bytes of every row of A and B
 *     (128 elements of one byte, or 256 e2m1 packed two per byte): one
 *     128-byte swizzle atom per row.
 *   - A and B of a k-step sit in shared memory K-major with the 128-byte
 *     swizzle (tcgen05 "K-major, 128B" canonical layout; SBO 1024 = 8 rows of
 *     128 bytes, LBO unused): byte (row, b) at swizzle(row * 128 + b) from a
 *     1024-byte-aligned base, which is where TMA with
 *     CU_TENSOR_MAP_SWIZZLE_128B puts a box of 128-byte rows.
 *   - The k-step's scales are 512-byte blocks of the "128x4" layout (128
 *     rows by 4 scale columns, row r at (r%32)*16 + ((r/32)%4)*4): sf_blks
 *     blocks for A's 128 rows, then sf_blks blocks for each of B's nrb
 *     128-row blocks.  Each block goes to four TMEM columns with
 *     tcgen05.cp.32x128b.warpx4, which puts scale (r, kb) at lane 32c + r%32,
 *     column r/32, byte kb of every copy c: exactly the placement the
 *     block-scaled kinds read (softmma/tmem.h, "Block-scale factors").
 *   - tcgen05.mma j of a k-step (j < 4) reads A and B through descriptors
 *     whose start is 32 bytes further on per j (K = 32 one-byte elements,
 *     or K = 64 packed e2m1), and the scale column j * scale_vec of the
 *     k-step: 128x4 block (j * scale_vec) / 4, scale-factor id
 *     (j * scale_vec) % 4, set both in the instruction descriptor and in
 *     bits 31-30 of the scale addresses (smma_tc05_sf_taddr; doc/tcgen05.md
 *     says why both).
 *   - D (f32) is 128 lanes x bn columns of TMEM at the accumulator's
 *     columns (Layout D: row m in lane m); the epilogue's warp w reads lanes
 *     32 (w%4) .. +31 with tcgen05.ld.32x32b.x32, 32 columns at a time.
 *
 * sm100-v3 (cta_group::2) changes only this: CTAs come in pairs (clusters
 * of 2, ranks 0 and 1), the pair computes a 256 x bn tile with one
 * tcgen05.mma.cta_group::2 of M = 256 per 32 bytes of K, issued by rank 0
 * (the leader).  Rank r's stage holds its own 128 rows of A (the tile's
 * rows 128 r ..), its own bn / 2 rows of B (the tile's columns r bn / 2
 * .., b_rows), the scales of its A rows, and the scales of all bn rows of
 * B (each CTA's tensor core needs every column's scale: scale_B is
 * duplicated over the pair); every offset and descriptor above is the same
 * in both CTAs.  B's scale blocks are loaded once and multicast: rank r
 * loads blocks rb = r, r + 2, ... into both CTAs (smma_sm100_v3_sfb_box).
 * tcgen05.cp.cta_group::2 copies each CTA's scale blocks into its own TMEM
 * at the same columns; D row m of the pair lies in CTA m / 128, lane m %
 * 128 (Layout A), so each CTA's epilogue reads its own 128 rows as in v2.
 *
 * K that is not a multiple of the k-step: bytes past the end of a row are
 * loaded as 0 (TMA's out-of-bounds fill, and the same in the loops of v1);
 * then, in the last k-step only, the "fix-up" writes -0 codes into A's
 * padding (B's stays +0: the padded products are -0, which cannot turn a -0
 * sum into +0) and the scale byte of 1.0 into every scale column past
 * ceil(K/V) (a NaN there would poison the -0 products).
 */
#ifndef SOFTMMA_GPU_SM100_PLAN_H
#define SOFTMMA_GPU_SM100_PLAN_H 1

#include <stdbool.h>
#include <stdint.h>

#include "../../sim/softmma/tc05_addr.h"
#include "../pipe.h"

#define SMMA_SM100_BM 128u          /* rows of A per tile: M of tcgen05.mma */
#define SMMA_SM100_ROWB 128u        /* bytes of every row per k-step: one swizzle atom */
#define SMMA_SM100_SBO 1024u        /* 8 rows of 128 bytes */
#define SMMA_SM100_SFBLK 512u       /* one 128x4 block of scales */
#define SMMA_SM100_MMAS 4u          /* tcgen05.mma per k-step (32 bytes of K each) */
#define SMMA_SM100_SMEM_LIMIT (227u * 1024u) /* dynamic shared memory of an sm_100 CTA */
#define SMMA_SM100_BAR_BYTES 256u   /* mbarriers and the TMEM address slot (smma_sm100_bar) */
#define SMMA_SM100_TMEM_COLS 512u   /* columns of Tensor Memory */
#define SMMA_SM100_PAIR_MASK 3u     /* v3: the ctaMask of both CTAs of the pair (a cluster of 2) */

/* The buffers a k-step loads from (the kernels read A and B from the
 * argument or from a scratch copy, see a_expand; scales from the argument
 * in the 128x4 layout, or from a scratch copy of a linear one). */
enum { SMMA_SM100_BUF_A = 0, SMMA_SM100_BUF_B, SMMA_SM100_BUF_SFA, SMMA_SM100_BUF_SFB };

/* D and C storage as the epilogue sees it. */
enum {
    SMMA_SM100_F32 = SMMA_PIPE_F32, SMMA_SM100_BF16 = SMMA_PIPE_BF16,
    SMMA_SM100_F16 = SMMA_PIPE_F16, SMMA_SM100_NONE = SMMA_PIPE_NONE
};

typedef struct smma_sm100_plan {
    uint32_t version;           /* 1, 2 or 3: the kernel */
    /* The problem as the main kernel reads it. */
    uint32_t m, n, k;
    uint64_t a_ld, b_ld;        /* bytes between rows of the A and B it reads (K-major) */
    uint32_t kbytes;            /* bytes of one row of K: k * elem_bits / 8 */
    uint32_t kind;              /* smma_tc05_kind: 4 mxf8f6f4, 5 mxf4, 6 mxf4nvf4 */
    uint32_t a_code, b_code;    /* instruction-descriptor format codes */
    uint32_t elem_bits;         /* 8 (one element per byte) or 4 (two e2m1 per byte) */
    uint32_t a_neg_zero;        /* the byte of A's K padding: -0 in its storage */
    uint32_t scale_fmt;         /* descriptor scale code: 1 UE8M0, 0 UE4M3 */
    uint32_t sf_one;            /* the scale byte of 1.0 (0x7f e8m0, 0x38 ue4m3) */
    uint32_t vec, scale_vec;    /* elements per scale (32, 16); .scale_vec::NX (1, 2, 4) */
    uint32_t kb, kb_pad;        /* scale columns ceil(k / vec), rounded up to 4 */
    uint32_t a_rows_pad, b_rows_pad; /* m and n rounded up to 128 (rows of the 128x4 arrays) */
    /* Preparation on the device before the main kernel (both versions). */
    uint32_t a_expand, b_expand; /* e2m1 of .kind::mxf8f6f4: packed -> one code per byte,
                                    in bits 5-2, into a scratch copy with ld a_ld / b_ld */
    uint64_t a_src_ld, b_src_ld; /* bytes between rows of the caller's A and B */
    uint32_t sf_linear;         /* scales given linear: rearranged into a 128x4 scratch */
    /* The tiling. */
    uint32_t bn;                /* N of tcgen05.mma: 64, 128 or 256 */
    uint32_t b_rows;            /* rows of B in one CTA's stage: bn, or bn / 2 (v3) */
    uint32_t mma_m;             /* M of tcgen05.mma: 128 (cta_group::1), 256 (v3, ::2) */
    uint32_t k_instr;           /* K of tcgen05.mma: 32 or 64 */
    uint32_t k_step;            /* elements of K per k-step: 128 or 256 */
    uint32_t sf_blks;           /* 128x4 blocks per 128 rows per k-step: 1, 2 or 4 */
    uint32_t nrb;               /* 128-row scale blocks of B per tile: ceil(bn / 128) */
    uint32_t tiles;             /* pipe.tiles_m * pipe.tiles_n */
    /* The pipeline (gpu/pipe.h): the stage ring (stage slot s at s *
     * pipe.stage_bytes from a 1024-aligned base, its barriers at
     * pipe.off_bar, then the accumulators' barriers and the TMEM slot),
     * the k-steps per tile (ceil(k / k_step)), the tiles and the CTAs (one
     * per tile for v1, persistent for v2 and v3; clusters of 1, of 2 for
     * v3; tiles in M-fastest order, pipe.group = all unit rows). */
    smma_pipe pipe;
    /* Shared memory of one stage, from its base. */
    uint32_t off_a, off_b, off_sfa, off_sfb;
    uint32_t smem_bytes;        /* dynamic shared memory to request (1024 slack included) */
    /* Tensor Memory, in columns from the allocation's base. */
    uint32_t acc_stages;        /* accumulators of bn columns at 0, bn, ... */
    uint32_t col_sf;            /* scale columns of stage s at col_sf + s * sf_cols */
    uint32_t sf_cols;           /* 4 * sf_blks * (1 + nrb) */
    uint32_t tmem_cols;         /* the allocation: a power of two in [32, 512] */
    /* The epilogue. */
    uint32_t c_kind, d_kind;    /* SMMA_SM100_F32, _BF16, _F16 (C also _NONE) */
    uint64_t c_ld, d_ld;        /* elements between rows of C and D */
    uint32_t has_alpha, alpha;  /* D = rn_fp32(alpha * acc) when has_alpha (fp32 bits) */
} smma_sm100_plan;

/* ---- tiles -------------------------------------------------------------------------- */

/* Tile t (0 .. tiles-1, a unit of the pipeline's scheduler: clusters of
 * one CTA) starts at row m0 of A and column n0 of B.  CTA c computes the
 * tiles smma_pipe_cta_unit(&p->pipe, c, i) for i below
 * smma_pipe_cta_nunits(&p->pipe, c): v1 tile c alone, v2 (persistent)
 * tiles c, c + grid, ... */
SMMA_TC05_FN void
smma_sm100_tile(const smma_sm100_plan *p, uint32_t t, uint32_t *m0, uint32_t *n0)
{
    uint32_t tm, tn;

    smma_pipe_unit_pos(&p->pipe, t, &tm, &tn);
    *m0 = tm * SMMA_SM100_BM;
    *n0 = tn * p->bn;
}

/* ---- shared memory of one stage --------------------------------------------------------- */

/* The offset, from the stage's base, of byte b (0..127) of row `row` of
 * the k-step's A (rows 0..127) or B (rows 0..bn-1): the K-major 128B
 * canonical layout, swizzled (the stage base is 1024-aligned and off_a,
 * off_b are multiples of 1024, so swizzling the offset swizzles the
 * address). */
SMMA_TC05_FN uint32_t
smma_sm100_smem_ab(const smma_sm100_plan *p, unsigned which, uint32_t row, uint32_t b)
{
    uint32_t lin = (uint32_t) (smma_tc05_canon_bits(false, SMMA_SM100_ROWB, 8, 16,
                                                    SMMA_SM100_SBO, row, b) / 8);

    return smma_tc05_swz(SMMA_TC05_SW_128B,
                         (which == SMMA_SM100_BUF_A ? p->off_a : p->off_b) + lin);
}

/* The offset of byte w (0..511) of scale block (rb, blk) of the k-step:
 * rb the 128-row block (0 for A; 0 .. nrb-1 for B), blk the block along
 * K (0 .. sf_blks-1).  Blocks are stored rb-major, as the 4-D TMA box
 * {16, 32, sf_blks, rows/128} lands. */
SMMA_TC05_FN uint32_t
smma_sm100_smem_sf(const smma_sm100_plan *p, unsigned which, uint32_t rb, uint32_t blk,
                   uint32_t w)
{
    return (which == SMMA_SM100_BUF_SFA ? p->off_sfa : p->off_sfb)
           + (rb * p->sf_blks + blk) * SMMA_SM100_SFBLK + w;
}

/* ---- what a k-step loads: 16-byte chunks ---------------------------------------------- */

/* The number of 16-byte chunks of one stage: 8 per row of A (128 rows)
 * and B (b_rows rows), 32 per scale block. */
SMMA_TC05_FN uint32_t
smma_sm100_nchunks(const smma_sm100_plan *p)
{
    return (SMMA_SM100_BM + p->b_rows) * (SMMA_SM100_ROWB / 16)
           + (1 + p->nrb) * p->sf_blks * (SMMA_SM100_SFBLK / 16);
}

/*
 * Chunk j of k-step kit in the stage of CTA `rank` of a pair (0 for v1
 * and v2) for the tile whose A rows start at m0 and whose B columns start
 * at n0 (v3: the pair's first column; the CTA's B rows start at n0 + rank
 * b_rows, its B scale blocks at n0 like its peer's): its buffer
 * (SMMA_SM100_BUF_*), its offset in the stage (16 contiguous bytes: the
 * swizzle moves whole chunks), the offset in the buffer of its first byte,
 * and how many of its 16 bytes lie inside the matrix (*valid: 16, 0, or
 * fewer in the chunk that holds a row's end).  The bytes past *valid are 0,
 * as TMA fills out-of-bounds elements; the scales outside the 128x4 array
 * (blocks past kb_pad / 4 or rows past the padded rows) are 0 too.
 */
SMMA_TC05_FN void
smma_sm100_chunk_cta(const smma_sm100_plan *p, uint32_t rank, uint32_t m0, uint32_t n0,
                     uint32_t kit, uint32_t j, unsigned *buf, uint32_t *smem, uint64_t *goff,
                     uint32_t *valid)
{
    uint32_t na = SMMA_SM100_BM * 8, nb = p->b_rows * 8, nsa = p->sf_blks * 32;

    if (j < na + nb) {
        unsigned which = j < na ? SMMA_SM100_BUF_A : SMMA_SM100_BUF_B;
        uint32_t q = j < na ? j : j - na, row = q / 8, b = (q % 8) * 16;
        uint32_t grow = (which == SMMA_SM100_BUF_A ? m0 : n0 + rank * p->b_rows) + row;
        uint32_t rows = which == SMMA_SM100_BUF_A ? p->m : p->n;
        uint32_t gk = kit * SMMA_SM100_ROWB + b;

        *buf = which;
        *smem = smma_sm100_smem_ab(p, which, row, b);
        *goff = (uint64_t) grow * (which == SMMA_SM100_BUF_A ? p->a_ld : p->b_ld) + gk;
        *valid = grow >= rows || gk >= p->kbytes ? 0
                 : p->kbytes - gk >= 16 ? 16 : p->kbytes - gk;
        return;
    }
    {
        unsigned which = j < na + nb + nsa ? SMMA_SM100_BUF_SFA : SMMA_SM100_BUF_SFB;
        uint32_t q = j - na - nb - (which == SMMA_SM100_BUF_SFA ? 0 : nsa);
        uint32_t w = (q % 32) * 16, blk = (q / 32) % p->sf_blks, rb = q / 32 / p->sf_blks;
        uint32_t rbg = (which == SMMA_SM100_BUF_SFA ? m0 : n0) / SMMA_SM100_BM + rb;
        uint32_t g = kit * p->sf_blks + blk;
        uint32_t rows_pad = which == SMMA_SM100_BUF_SFA ? p->a_rows_pad : p->b_rows_pad;

        *buf = which;
        *smem = smma_sm100_smem_sf(p, which, rb, blk, w);
        *goff = ((uint64_t) rbg * (p->kb_pad / 4) + g) * SMMA_SM100_SFBLK + w;
        *valid = rbg * SMMA_SM100_BM < rows_pad && g < p->kb_pad / 4 ? 16 : 0;
    }
}

/* Chunk j of a lone CTA (v1, v2): smma_sm100_chunk_cta of rank 0. */
SMMA_TC05_FN void
smma_sm100_chunk(const smma_sm100_plan *p, uint32_t m0, uint32_t n0, uint32_t kit, uint32_t j,
                 unsigned *buf, uint32_t *smem, uint64_t *goff, uint32_t *valid)
{
    smma_sm100_chunk_cta(p, 0, m0, n0, kit, j, buf, smem, goff, valid);
}

/* ---- mbarriers (v2 and the TMA probe) ------------------------------------------------ */

/* The mbarriers: the ring's full[s] (TMA -> MMA) and empty[s] (MMA -> TMA)
 * at pipe.off_bar (smma_pipe_full, smma_pipe_empty), then acc_full[a] (MMA
 * -> epilogue) and acc_empty[a] (epilogue -> MMA), 8 bytes each, then the
 * 4-byte slot tcgen05.alloc writes, then (v3) pfull[s]: the leader's
 * barrier on which the peer's warp 1 says that the peer's full[s] has
 * completed (and its fix-up is written).
 *
 * v3's counts, per CTA of the pair: full[s] 1 (its own producer's
 * arrive.expect_tx of stage_tx: its own A, B and scale-of-A boxes and
 * every scale-of-B box, its own and the peer's multicast); empty[s] 1 (the
 * leader's tcgen05.commit multicast to both CTAs); acc_full[a] 1 (the
 * same); in the leader, pfull[s] 1 (the peer's relay) and acc_empty[a] 8
 * (the four epilogue warps of each CTA). */
enum {
    SMMA_SM100_BAR_FULL = 0, SMMA_SM100_BAR_EMPTY, SMMA_SM100_BAR_ACC_FULL,
    SMMA_SM100_BAR_ACC_EMPTY, SMMA_SM100_TMEM_SLOT, SMMA_SM100_BAR_PFULL
};

SMMA_TC05_FN uint32_t
smma_sm100_bar(const smma_sm100_plan *p, unsigned what, uint32_t i)
{
    if (what == SMMA_SM100_BAR_FULL)
        return smma_pipe_full(&p->pipe, i);
    if (what == SMMA_SM100_BAR_EMPTY)
        return smma_pipe_empty(&p->pipe, i);
    return smma_pipe_bar_end(&p->pipe) + 8 * (2 * (what - SMMA_SM100_BAR_ACC_FULL) + i);
}

/* v3: the arrivals acc_empty[a] of the leader waits for (four epilogue
 * warps per CTA), and the arrivals each barrier kind completes on. */
SMMA_TC05_FN uint32_t
smma_sm100_bar_count(const smma_sm100_plan *p, unsigned what)
{
    if (what == SMMA_SM100_BAR_ACC_EMPTY)
        return 4 * p->pipe.cluster;
    return 1;
}

/* ---- TMA (v2): the tensor maps and their boxes ------------------------------------- */

/*
 * The tensor map of buffer `which` (SMMA_SM100_BUF_*), all of bytes
 * (CU_TENSOR_MAP_DATA_TYPE_UINT8):
 *   A, B    rank 2: dims {kbytes, rows}, row stride a_ld / b_ld, box
 *           {128, 128} (A) or {128, bn} (B), CU_TENSOR_MAP_SWIZZLE_128B: a
 *           box of 128-byte rows lands as swizzle(row * 128 + b), the
 *           stage layout of smma_sm100_smem_ab;
 *   scales  rank 4 over the 128x4 array: dims {16, 32, kb_pad / 4,
 *           rows_pad / 128}, strides {16, 512, (kb_pad / 4) * 512}, box {16,
 *           32, sf_blks, 1 (A) or nrb (B)}, no swizzle: the blocks land
 *           rb-major, as smma_sm100_smem_sf has them.
 * Out-of-bounds elements are filled with 0 (CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
 * and count towards the transaction bytes, so every stage receives
 * stage_tx bytes.  strides[] has rank - 1 entries.
 */
SMMA_TC05_FN void
smma_sm100_tma_geom(const smma_sm100_plan *p, unsigned which, uint32_t *rank, uint64_t dims[4],
                    uint64_t strides[3], uint32_t box[4])
{
    if (which == SMMA_SM100_BUF_A || which == SMMA_SM100_BUF_B) {
        *rank = 2;
        dims[0] = p->kbytes;
        dims[1] = which == SMMA_SM100_BUF_A ? p->m : p->n;
        strides[0] = which == SMMA_SM100_BUF_A ? p->a_ld : p->b_ld;
        box[0] = SMMA_SM100_ROWB;
        box[1] = which == SMMA_SM100_BUF_A ? SMMA_SM100_BM : p->b_rows;
        return;
    }
    *rank = 4;
    dims[0] = 16;
    dims[1] = 32;
    dims[2] = p->kb_pad / 4;
    dims[3] = (which == SMMA_SM100_BUF_SFA ? p->a_rows_pad : p->b_rows_pad) / SMMA_SM100_BM;
    strides[0] = 16;
    strides[1] = SMMA_SM100_SFBLK;
    strides[2] = (uint64_t) (p->kb_pad / 4) * SMMA_SM100_SFBLK;
    box[0] = 16;
    box[1] = 32;
    box[2] = p->sf_blks;
    box[3] = which == SMMA_SM100_BUF_SFA || p->version == 3 ? 1 : p->nrb;
}

/* The box coordinates (innermost first) and the stage offset of buffer
 * `which` for k-step kit of the tile at (m0, n0): for v3, B's box of CTA
 * rank r starts at n0 + r b_rows (smma_sm100_tma_coord_cta) and B's scale
 * boxes come from smma_sm100_v3_sfb_box. */
SMMA_TC05_FN uint32_t
smma_sm100_tma_coord(const smma_sm100_plan *p, unsigned which, uint32_t m0, uint32_t n0,
                     uint32_t kit, int32_t c[4])
{
    uint32_t r0 = which == SMMA_SM100_BUF_A || which == SMMA_SM100_BUF_SFA ? m0 : n0;

    if (which == SMMA_SM100_BUF_A || which == SMMA_SM100_BUF_B) {
        c[0] = (int32_t) (kit * SMMA_SM100_ROWB);
        c[1] = (int32_t) r0;
        c[2] = c[3] = 0;
        return which == SMMA_SM100_BUF_A ? p->off_a : p->off_b;
    }
    c[0] = c[1] = 0;
    c[2] = (int32_t) (kit * p->sf_blks);
    c[3] = (int32_t) (r0 / SMMA_SM100_BM);
    return which == SMMA_SM100_BUF_SFA ? p->off_sfa : p->off_sfb;
}

SMMA_TC05_FN uint32_t
smma_sm100_tma_coord_cta(const smma_sm100_plan *p, uint32_t rank, unsigned which, uint32_t m0,
                         uint32_t n0, uint32_t kit, int32_t c[4])
{
    return smma_sm100_tma_coord(p, which, m0,
                                which == SMMA_SM100_BUF_B ? n0 + rank * p->b_rows : n0, kit, c);
}

/* v3: the scale blocks of B that CTA `rank` of the pair loads, each with
 * .multicast::cluster into both CTAs: blocks rb = rank, rank + 2, ...
 * below nrb (one box each, {16, 32, sf_blks, 1}); rank 0 alone when nrb is
 * 1.  Box i: its coordinates and its stage offset (the same in both
 * CTAs). */
SMMA_TC05_FN uint32_t
smma_sm100_v3_nsfb(const smma_sm100_plan *p, uint32_t rank)
{
    return (p->nrb + 1 - rank) / 2;
}

SMMA_TC05_FN uint32_t
smma_sm100_v3_sfb_box(const smma_sm100_plan *p, uint32_t rank, uint32_t i, uint32_t n0,
                      uint32_t kit, int32_t c[4])
{
    uint32_t rb = rank + 2 * i;

    c[0] = c[1] = 0;
    c[2] = (int32_t) (kit * p->sf_blks);
    c[3] = (int32_t) (n0 / SMMA_SM100_BM + rb);
    return smma_sm100_smem_sf(p, SMMA_SM100_BUF_SFB, rb, 0, 0);
}

/* ---- the fix-up of a ragged last k-step ------------------------------------------------ */

/* Bytes of A's K padding per row in k-step kit (0 unless it is the last
 * and k * elem_bits / 8 is not a multiple of 128). */
SMMA_TC05_FN uint32_t
smma_sm100_fix_apad(const smma_sm100_plan *p, uint32_t kit)
{
    uint32_t end = (kit + 1) * SMMA_SM100_ROWB;

    return end > p->kbytes ? end - (p->kbytes > kit * SMMA_SM100_ROWB
                                    ? p->kbytes : kit * SMMA_SM100_ROWB) : 0;
}

/* Scale columns of k-step kit past the last one (ceil(k / vec)). */
SMMA_TC05_FN uint32_t
smma_sm100_fix_sfpad(const smma_sm100_plan *p, uint32_t kit)
{
    uint32_t c0 = kit * p->sf_blks * 4, c1 = c0 + p->sf_blks * 4;
    uint32_t first = p->kb > c0 ? p->kb : c0;

    return c1 > first ? c1 - first : 0;
}

/* The number of bytes the fix-up writes in k-step kit. */
SMMA_TC05_FN uint32_t
smma_sm100_fix_count(const smma_sm100_plan *p, uint32_t kit)
{
    return SMMA_SM100_BM * smma_sm100_fix_apad(p, kit)
           + SMMA_SM100_BM * (1 + p->nrb) * smma_sm100_fix_sfpad(p, kit);
}

/* Write i of the fix-up of k-step kit: the stage offset and the byte. */
SMMA_TC05_FN void
smma_sm100_fix_item(const smma_sm100_plan *p, uint32_t kit, uint32_t i, uint32_t *smem,
                    uint32_t *val)
{
    uint32_t apad = smma_sm100_fix_apad(p, kit), na = SMMA_SM100_BM * apad;
    uint32_t sfpad, q, r, c, per;

    if (i < na) {
        *smem = smma_sm100_smem_ab(p, SMMA_SM100_BUF_A, i / apad,
                                   SMMA_SM100_ROWB - apad + i % apad);
        *val = p->a_neg_zero;
        return;
    }
    sfpad = smma_sm100_fix_sfpad(p, kit);
    per = SMMA_SM100_BM * sfpad;
    i -= na;
    q = i / per;                        /* 0: A's block row, 1 .. nrb: B's */
    r = (i % per) / sfpad;              /* row in the 128-row block */
    c = p->sf_blks * 4 - sfpad + (i % per) % sfpad; /* scale column in the k-step */
    *smem = smma_sm100_smem_sf(p, q == 0 ? SMMA_SM100_BUF_SFA : SMMA_SM100_BUF_SFB,
                               q == 0 ? 0 : q - 1, c / 4,
                               (uint32_t) smma_tc05_sf128x4_off(r, c % 4, 4));
    *val = p->sf_one;
}

/* ---- tcgen05.cp of the scales ---------------------------------------------------------- */

/* tcgen05.cp.cta_group::1.32x128b.warpx4 per k-step (v3: cta_group::2,
 * each CTA its own blocks): one per scale block. */
SMMA_TC05_FN uint32_t
smma_sm100_ncp(const smma_sm100_plan *p)
{
    return p->sf_blks * (1 + p->nrb);
}

/* The TMEM column (from the allocation's base) of scale block (rb, blk)
 * of A (which SMMA_SM100_BUF_SFA, rb 0) or B in stage slot `slot`. */
SMMA_TC05_FN uint32_t
smma_sm100_sf_col(const smma_sm100_plan *p, unsigned which, uint32_t slot, uint32_t rb,
                  uint32_t blk)
{
    uint32_t c = p->col_sf + slot * p->sf_cols;

    return which == SMMA_SM100_BUF_SFA ? c + 4 * blk
                                       : c + 4 * p->sf_blks + 4 * (blk * p->nrb + rb);
}

/* Copy i of a k-step in stage slot `slot`: the source descriptor (K-major,
 * no swizzle, 32 rows of 16 bytes: SBO 128, LBO unused and written 16,
 * SMMA_TC05_CP_LBO) for a stage whose
 * shared address is sbase, and the destination TMEM address from tbase. */
SMMA_TC05_FN void
smma_sm100_cp(const smma_sm100_plan *p, uint32_t slot, uint32_t i, uint32_t sbase,
              uint32_t tbase, uint64_t *sdesc, uint32_t *taddr)
{
    unsigned which = i < p->sf_blks ? SMMA_SM100_BUF_SFA : SMMA_SM100_BUF_SFB;
    uint32_t q = i < p->sf_blks ? i : i - p->sf_blks;
    uint32_t blk = which == SMMA_SM100_BUF_SFA ? q : q / p->nrb;
    uint32_t rb = which == SMMA_SM100_BUF_SFA ? 0 : q % p->nrb;

    *sdesc = smma_tc05_sdesc_word(sbase + smma_sm100_smem_sf(p, which, rb, blk, 0),
                                  SMMA_TC05_CP_LBO, 128, 0, false, SMMA_TC05_SW_NONE);
    *taddr = tbase + smma_sm100_sf_col(p, which, slot, rb, blk);
}

/* ---- tcgen05.mma --------------------------------------------------------------------------- */

/* The operands of tcgen05.mma j (0..3) of a k-step in stage slot `slot`
 * (shared address sbase), accumulating into accumulator `acc`; tbase is
 * the TMEM allocation's address (v3: the same operands in both CTAs of
 * the pair, M = 256).  B's scale rows start at a 128-row block boundary in
 * every tile (bn is 128 or 256, or 64 when n <= 64, so n0 is a multiple of
 * 128). */
typedef struct smma_sm100_mma_ops {
    uint64_t adesc, bdesc;
    uint32_t idesc;
    uint32_t d, sfa, sfb;       /* TMEM addresses; sfa, sfb with SF_ID in bits 31-30 */
} smma_sm100_mma_ops;

SMMA_TC05_FN void
smma_sm100_mma(const smma_sm100_plan *p, uint32_t slot, uint32_t j, uint32_t sbase,
               uint32_t tbase, uint32_t acc, smma_sm100_mma_ops *o)
{
    uint32_t kstart = j * p->k_instr * p->elem_bits / 8;    /* 32 bytes per instruction */
    uint32_t sc = j * p->scale_vec, blk = sc / 4, sf_id = sc % 4;

    o->adesc = smma_tc05_sdesc_word(sbase + p->off_a + kstart, 16, SMMA_SM100_SBO, 0, false,
                                    SMMA_TC05_SW_128B);
    o->bdesc = smma_tc05_sdesc_word(sbase + p->off_b + kstart, 16, SMMA_SM100_SBO, 0, false,
                                    SMMA_TC05_SW_128B);
    o->idesc = smma_tc05_idesc_ab(false, p->a_code, p->b_code, false, false, false, false, p->bn)
               | smma_tc05_idesc_bs(sf_id, p->scale_fmt, p->mma_m, sf_id, false);
    o->d = tbase + acc * p->bn;
    o->sfa = smma_tc05_sf_taddr(tbase + smma_sm100_sf_col(p, SMMA_SM100_BUF_SFA, slot, 0, blk),
                                sf_id);
    o->sfb = smma_tc05_sf_taddr(tbase + smma_sm100_sf_col(p, SMMA_SM100_BUF_SFB, slot, 0, blk),
                                sf_id);
}

/* ---- the epilogue ------------------------------------------------------------------------ */

/* tcgen05.ld.32x32b.x32 (and the tcgen05.st of C) by the warp of lane
 * partition `part` (0..3), 32-column chunk `chunk`: the TMEM address
 * relative to the accumulator, and the row and column of D that thread t's
 * register r holds. */
SMMA_TC05_FN uint32_t
smma_sm100_epi_taddr(uint32_t part, uint32_t chunk)
{
    return smma_tc05_taddr(32 * part, 32 * chunk);
}

SMMA_TC05_FN void
smma_sm100_epi_cell(uint32_t part, uint32_t chunk, uint32_t t, uint32_t r, uint32_t *row,
                    uint32_t *col)
{
    unsigned dl, dc;

    smma_tc05_ldst_cell(SMMA_TC05_LD_32X32B, false, 0, t, r, 0, &dl, &dc);
    *row = 32 * part + dl;
    *col = 32 * chunk + dc;
}

/* ---- preparation: scratch copies ------------------------------------------------------------ */

/* The one-byte container of e2m1 element kk of a packed row (bits 5-2,
 * FACTS.md section 1), from the byte that holds it (even elements in the
 * low nibble). */
SMMA_TC05_FN uint32_t
smma_sm100_fp4_container(uint32_t packed, uint32_t kk)
{
    return ((packed >> (4 * (kk & 1u))) & 0xFu) << 2;
}

/* The 128x4 scratch of a linear scale matrix (rows x kb): byte off of the
 * scratch holds linear byte *src when the function returns true; the
 * padding (false) holds sf_one. */
SMMA_TC05_FN bool
smma_sm100_sf_linear_src(const smma_sm100_plan *p, uint32_t rows, uint64_t off, uint64_t *src)
{
    uint64_t m, kb;

    smma_tc05_sf128x4_pos(off, p->kb_pad, &m, &kb);
    *src = m * p->kb + kb;
    return m < rows && kb < p->kb;
}

#endif /* SOFTMMA_GPU_SM100_PLAN_H */

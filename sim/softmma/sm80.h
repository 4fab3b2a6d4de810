/*
 * softmma/sm80.h - the address arithmetic of the mma.sync GEMM kernels of
 * gpu/sm80/, written once for the kernels and the simulator.
 *
 * Every function here is SMMA_HD (softmma/hd.h): the CUDA kernels call them
 * to decide which lane loads which element and where a byte lies in shared
 * memory, sim/fragment.c builds its layouts of mma.sync from the fragment
 * formulas below, and tests/sim/sm80-plan-t.c replays the kernels' plans
 * (global -> shared memory -> ldmatrix -> registers) on the simulator with
 * these same functions.  A kernel that computes an address its own way is a
 * defect.
 *
 * 1. Fragments of mma.sync (PTX ISA, "Matrix fragments for mma.m16n8k16",
 *    "... mma.m16n8k32"): lane l of a warp has group = l / 4 and
 *    tig = l % 4 (thread in group).  With `elems` elements per 32-bit
 *    register (2 for 16-bit, 4 for 8-bit elements) and K the instruction's
 *    K (16 or 32):
 *      A (16 x K):  row = group + 8 * (reg & 1)
 *                   col = tig * elems + elem + (reg >> 1) * K/2
 *      B (K x 8):   row = tig * elems + elem + reg * K/2     (row is k)
 *                   col = group                               (col is n)
 *      C, D (16 x 8, f32):  row = group + 8 * (reg >> 1), col = tig * 2 + (reg & 1)
 *      C, D (16 x 8, f16):  row = group + 8 * reg,        col = tig * 2 + elem
 *
 * 2. Shared-memory tiles.  A tile is stored as rows of row_bytes bytes (a
 *    power of two, at least 16), each row a run of 16-byte chunks.  Chunk c
 *    of row r is stored at chunk c ^ s(r) of that row, where
 *      s(r) = r & 7                         when a row has 8 or more chunks,
 *      s(r) = (r / (8 / cpr)) & (cpr - 1)   when it has cpr = 1, 2 or 4.
 *    Then the eight 16-byte rows an ldmatrix (or eight lanes' 16-byte loads)
 *    reads at one logical chunk of eight consecutive rows fall in eight
 *    different groups of four banks: no bank conflict.  The XOR keeps a
 *    chunk inside its 128-byte segment, so a row's bytes stay in the row.
 *
 * 3. ldmatrix.x4 plans of sm80-v2 (the 16-bit kernel): which row and chunk
 *    of a shared-memory tile lane l points at (lanes 8i..8i+7 give the rows
 *    of matrix i), so that the four registers are exactly the mma fragment
 *    registers of (1).
 *
 * 4. The order of CTA tiles (rasterization): consecutive CTAs walk down a
 *    group of `group` tile rows before moving to the next tile column, so
 *    that the CTAs running at one time share their A and B panels in L2.
 */
#ifndef SOFTMMA_SM80_H
#define SOFTMMA_SM80_H 1

#include <stdint.h>

#include <softmma/hd.h>

/* ---- 1. fragments ------------------------------------------------------- */

SMMA_HD unsigned
smma_frag_a_row(unsigned lane, unsigned reg)
{
    return lane / 4 + 8 * (reg & 1);
}

SMMA_HD unsigned
smma_frag_a_col(unsigned lane, unsigned reg, unsigned elem, unsigned elems, unsigned k)
{
    return (lane % 4) * elems + elem + (reg >> 1) * (k / 2);
}

SMMA_HD unsigned
smma_frag_b_row(unsigned lane, unsigned reg, unsigned elem, unsigned elems, unsigned k)
{
    return (lane % 4) * elems + elem + reg * (k / 2);
}

SMMA_HD unsigned
smma_frag_b_col(unsigned lane)
{
    return lane / 4;
}

SMMA_HD unsigned
smma_frag_cd_row(unsigned lane, unsigned reg)
{
    return lane / 4 + 8 * (reg >> 1);
}

SMMA_HD unsigned
smma_frag_cd_col(unsigned lane, unsigned reg)
{
    return (lane % 4) * 2 + (reg & 1);
}

SMMA_HD unsigned
smma_frag_cd16_row(unsigned lane, unsigned reg)
{
    return lane / 4 + 8 * reg;
}

SMMA_HD unsigned
smma_frag_cd16_col(unsigned lane, unsigned elem)
{
    return (lane % 4) * 2 + elem;
}

/* ---- 2. swizzled shared-memory tiles ------------------------------------ */

/* The stored chunk of logical chunk `chunk` of row `row` in rows of
 * row_bytes bytes. */
SMMA_HD unsigned
smma_sm80_swizzle_chunk(unsigned row, unsigned chunk, unsigned row_bytes)
{
    unsigned cpr = row_bytes / 16;

    if (cpr >= 8)
        return chunk ^ (row & 7u);
    return chunk ^ ((row / (8 / cpr)) & (cpr - 1));
}

/* The byte offset in the tile of byte `byte` (0..15) of logical chunk
 * `chunk` of row `row`. */
SMMA_HD uint32_t
smma_sm80_smem_offset(unsigned row, unsigned chunk, unsigned byte, unsigned row_bytes)
{
    return (uint32_t) row * row_bytes + 16u * smma_sm80_swizzle_chunk(row, chunk, row_bytes) +
           byte;
}

/* ---- 3. ldmatrix.x4 plans of the 16-bit kernel -------------------------- */

/* A, K-major tile (rows m, chunks of 8 k): the A fragment (a0..a3) of the
 * m16 tile whose first row is m0, for the k16 step kk of the tile. */
SMMA_HD void
smma_sm80_ldsm_a(unsigned lane, unsigned m0, unsigned kk, unsigned *row, unsigned *chunk)
{
    *row = m0 + (lane & 7u) + ((lane >> 3) & 1u) * 8u;
    *chunk = 2u * kk + (lane >> 4);
}

/* B, K-major tile (rows n, chunks of 8 k): the B fragments (b0, b1) of two
 * n8 tiles, rows n0..n0+7 (registers 0, 1) and n0+8..n0+15 (registers 2, 3),
 * for the k16 step kk. */
SMMA_HD void
smma_sm80_ldsm_b_kmajor(unsigned lane, unsigned n0, unsigned kk, unsigned *row,
                        unsigned *chunk)
{
    *row = n0 + (lane & 7u) + (lane >> 4) * 8u;
    *chunk = 2u * kk + ((lane >> 3) & 1u);
}

/* B, N-major tile (rows k, chunks of 8 n), read with ldmatrix .trans: the
 * same four registers as smma_sm80_ldsm_b_kmajor (n0 a multiple of 8). */
SMMA_HD void
smma_sm80_ldsm_b_nmajor(unsigned lane, unsigned n0, unsigned kk, unsigned *row,
                        unsigned *chunk)
{
    *row = 16u * kk + (lane & 7u) + ((lane >> 3) & 1u) * 8u;
    *chunk = n0 / 8u + (lane >> 4);
}

/* The same ldmatrix addresses as a base per lane plus a step, the form the
 * kernel computes them in (tests/sim/sm80-plan-t.c checks that they equal
 * the functions above).  In rows of 128 or more bytes the swizzle is an XOR
 * of the chunk's low three bits with row & 7, so moving by d < 8 chunks in a
 * row is an XOR of the offset with 16 d, and moving down 8 rows adds
 * 8 row_bytes.  For the A tile and a K-major B tile (rows of 128 bytes):
 *   offset(mi or nj, kk) = (base ^ (32 kk)) + 2048 (mi or nj),
 * base = the offset of the lane's row and chunk at mi = nj = kk = 0.  For an
 * N-major B tile (rows of row_bytes bytes, 16 k rows per k16 step):
 *   offset(nj, kk) = base(nj) + 16 row_bytes kk. */
SMMA_HD uint32_t
smma_sm80_ldsm_a_base(unsigned lane, unsigned wm, unsigned row_bytes)
{
    unsigned row, chunk;

    smma_sm80_ldsm_a(lane, wm, 0, &row, &chunk);
    return smma_sm80_smem_offset(row, chunk, 0, row_bytes);
}

SMMA_HD uint32_t
smma_sm80_ldsm_bk_base(unsigned lane, unsigned wn, unsigned row_bytes)
{
    unsigned row, chunk;

    smma_sm80_ldsm_b_kmajor(lane, wn, 0, &row, &chunk);
    return smma_sm80_smem_offset(row, chunk, 0, row_bytes);
}

SMMA_HD uint32_t
smma_sm80_ldsm_bn_base(unsigned lane, unsigned n0, unsigned row_bytes)
{
    unsigned row, chunk;

    smma_sm80_ldsm_b_nmajor(lane, n0, 0, &row, &chunk);
    return smma_sm80_smem_offset(row, chunk, 0, row_bytes);
}

/* Step from a base: m16 (or n16) tile t and k16 step kk in rows of 128
 * bytes. */
SMMA_HD uint32_t
smma_sm80_ldsm_step128(uint32_t base, unsigned t, unsigned kk)
{
    return (base ^ (32u * kk)) + 2048u * t;
}

/* The loads of a tile by `threads` threads in chunks of 16 bytes: chunk id
 * = thread + threads * it of a tile whose rows have row_bytes bytes lies at
 * row id / (row_bytes / 16), chunk id % (row_bytes / 16).  When threads is a
 * multiple of 8 row_bytes / 16, every it moves down whole groups of 8 rows,
 * so the offset of chunk `it` is that of it = 0 plus it times the stride
 * below. */
SMMA_HD uint32_t
smma_sm80_load_base(unsigned thread, unsigned row_bytes)
{
    unsigned cpr = row_bytes / 16;

    return smma_sm80_smem_offset(thread / cpr, thread % cpr, 0, row_bytes);
}

SMMA_HD uint32_t
smma_sm80_load_stride(unsigned threads, unsigned row_bytes)
{
    return threads / (row_bytes / 16) * row_bytes;
}

/* ---- scale factors -------------------------------------------------------- */

/* The byte offset of scale (row, kb) in the 128x4 layout (cuBLAS, CUTLASS,
 * Triton's 5-D view; softmma/scale_layout.h) with kb_pad scale columns
 * (ceil(k / vec) rounded up to 4): 512-byte blocks of 128 rows x 4 columns,
 * K-first.  tests/sim/sm80-plan-t.c checks it against smma_scale_offset. */
SMMA_HD uint32_t
smma_sm80_scale_128x4(uint32_t row, uint32_t kb, uint32_t kb_pad)
{
    return ((row / 128) * (kb_pad / 4) + kb / 4) * 512 + (row % 32) * 16 + ((row / 32) % 4) * 4 +
           kb % 4;
}

/* The byte offset of scale (row, kb) of an operand with kb_n scale blocks
 * a row: the 128x4 layout (layout128 non-zero; kb_pad is kb_n rounded up to
 * 4) or the linear one, row after row. */
SMMA_HD size_t
smma_sm80_scale_off(int layout128, uint32_t row, uint32_t kb, uint32_t kb_n, uint32_t kb_pad)
{
    return layout128 ? (size_t) smma_sm80_scale_128x4(row, kb, kb_pad) : (size_t) row * kb_n + kb;
}

/* ---- 4. the order of CTA tiles ------------------------------------------ */

/* The tile (tm, tn) computed by CTA number pid of tiles_m x tiles_n tiles,
 * walking groups of `group` tile rows column by column.  A bijection of
 * [0, tiles_m * tiles_n) onto the tiles. */
SMMA_HD void
smma_sm80_tile_of(uint32_t pid, uint32_t tiles_m, uint32_t tiles_n, uint32_t group,
                  uint32_t *tm, uint32_t *tn)
{
    uint32_t per_group = group * tiles_n;
    uint32_t first = (pid / per_group) * group;
    uint32_t rows = tiles_m - first < group ? tiles_m - first : group;
    uint32_t in = pid % per_group;

    *tm = first + in % rows;
    *tn = in / rows;
}

/* ---- 5. A's pieces in sm80-bs-small versions 4 and 5 ------------------- */

/* The converter threads of sm80-bs-small versions 4 and 5 load A (at most
 * 16 rows) a 16-byte piece at a time: piece p is bytes `byte` .. + 15 of
 * row `row`, rows one after the other (row_pieces pieces a row), so that
 * the few rows of a small M are a few warps' work. */
SMMA_HD void
smma_sm80_small_apiece(unsigned p, unsigned row_pieces, unsigned *row, unsigned *byte)
{
    *row = p / row_pieces;
    *byte = (p % row_pieces) * 16;
}

/* ---- 6. sm80-bs-small version 6's ring and A (named for version 3) --------
 *
 * sm80-bs-small version 6 multiplies D^T = B^T A^T: a warp owns 16 rows n
 * of B (K-major, the quantized weights), which fill the m16 side of
 * mma.m16n8k16, and A's at most 16 rows are the n8 side (one or two n8
 * tiles).  Each warp copies its rows by cp.async into a ring of raw chunks
 * of 256 bytes a row.  These layouts began as version 3's (removed
 * 2026-11-28; it read the ring with ldmatrix), hence their names. */

/* The raw bytes of a row of one chunk (512 k of e2m1), and of a warp's
 * chunk (16 rows). */
#define SMMA_SM80_S3_ROW 256u
#define SMMA_SM80_S3_CHUNK (16u * SMMA_SM80_S3_ROW)

/* The byte offset of 16-byte piece p (0 .. 15) of row r (0 .. 15) in a
 * warp's raw chunk: rows of 256 bytes, the pieces XORed with r % 8, so that
 * the word loads of eight rows at the same k (one row a group of four
 * lanes) lie in different banks (tests/sim/sm80-plan-t.c). */
SMMA_HD uint32_t
smma_sm80_s3_raw_off(unsigned r, unsigned p)
{
    return r * SMMA_SM80_S3_ROW + ((p ^ (r & 7u)) << 4);
}

/* The first of the four consecutive k (inside a 16-k block) that lane tig =
 * lane % 4 holds for every row: its registers a0 / a2 (and b0 / b1 of A's
 * side) take k0, k0 + 1 and k0 + 2, k0 + 3, which the block-FMA sums as
 * one block with the other lanes' twelve: k0 = 4 tig. */
SMMA_HD unsigned
smma_sm80_s3_k0(unsigned tig)
{
    return 4u * tig;
}

/* The byte offset of element (m, k) of a converted chunk of A (bf16, kc k a
 * row): rows of 2 kc + 32 bytes, so that the 8-byte loads of the mma lanes
 * (rows g, k0 .. k0 + 3) meet no bank conflict. */
SMMA_HD uint32_t
smma_sm80_s3_act_off(unsigned m, unsigned k, unsigned kc)
{
    return m * (2u * kc + 32u) + 2u * k;
}

/* ---- 7. sm80-bs-small versions 4 and 5: converter threads, version 3's sides
 *
 * Versions 4 and 5 have converter threads convert A and B into shared
 * memory for mma warps that do nothing else, in version 3's orientation,
 * D^T = B^T A^T: an mma warp owns 16 rows of B, the m16 side, and A's rows
 * are the n8 side.  The converters store B's bf16 registers in the m16
 * side's fragment order and A's in the n8 side's, so that an mma warp
 * reads 512 bytes of B and 256 of A (one n8 tile) per mma, 3 bytes per
 * element of B (6 in the removed version 2, with B on the n8 side).  The k
 * order inside a 16-k block is version 1's: lane (g, t) holds k 4 t .. 4 t
 * + 3 (registers a0, a2 of row g, a1, a3 of row g + 8; b0, b1). */

/* B piece `it` (0 .. 2 h - 1) of converter thread ct (0 .. 256 / h - 1),
 * where a thread converts h blocks of two rows (h = 1: 256 threads, 2:
 * 128): row `row` of the CTA's 32 rows and 16-k block `block` of a chunk of
 * 16 blocks (16 bytes of an 8-bit format, 8 of e2m1).  Pieces 2 i and 2 i
 * + 1 are the same block of rows r and r + 8 of a 16-row tile, so that a
 * thread holds whole lanes of the m16 side (both rows' registers) and
 * stores 16 bytes a lane; its blocks are b, b + 16 / h, ...  For each
 * piece, 16 / h consecutive threads copy as many consecutive blocks of a
 * row (256 / h or 128 / h consecutive bytes). */
SMMA_HD void
smma_sm80_s4_piece(unsigned it, unsigned ct, unsigned h, unsigned *row, unsigned *block)
{
    unsigned tpr = 16u / h, rr = ct / tpr;

    *block = ct % tpr + tpr * (it / 2u);
    *row = (rr / 8u) * 16u + rr % 8u + 8u * (it % 2u);
}

/* The byte offset of the four B registers of lane `lane` (a0 .. a3: rows g
 * = lane / 4 and g + 8, k 4 t, 4 t + 1 in a0, a1 and 4 t + 2, 4 t + 3 in
 * a2, a3, t = lane % 4) of 16-row tile w in block j of a chunk of `blocks`
 * blocks: one aligned 16-byte slot in the order the mma reads them, at
 * lane ^ (j % 8) in its block's 512 bytes.  So the 16-byte stores of eight
 * converter threads (one pair of rows, eight consecutive blocks) and the
 * mma lanes' 16-byte loads meet no bank conflict (tests/sim/sm80-plan-t.c),
 * and block j's offset is block (j % 8)'s plus 512 (j - j % 8). */
SMMA_HD uint32_t
smma_sm80_s4_bfrag_off(unsigned w, unsigned j, unsigned blocks, unsigned lane)
{
    return ((w * blocks + j) * 32u + (lane ^ (j & 7u))) * 16u;
}

/* The XOR on the 16-byte unit (two lanes) of A's block j. */
SMMA_HD unsigned
smma_sm80_s4_axor(unsigned j)
{
    return ((j >> 2) & 1u) | (((j ^ (j >> 3)) & 1u) << 1) | (((j >> 1) & 1u) << 2);
}

/* The byte offset of the two A registers (b0, b1: k 4 t .. 4 t + 3 of row 8
 * nt + lane / 4) of lane `lane` in n8 tile nt and block j: 256 bytes a
 * block, lanes 2 u and 2 u + 1 one 16-byte unit, at u ^
 * smma_sm80_s4_axor(j).  The converters' 16-byte stores (pieces of one row
 * of A a quarter-warp: eight consecutive blocks of 8-bit A, every other
 * block of e2m1, four blocks of bf16 in halves) and the mma lanes' 8-byte
 * loads meet no bank conflict (tests/sim/sm80-plan-t.c).  Block j's offset
 * is that of a block with the same XOR plus 256 times the difference. */
SMMA_HD uint32_t
smma_sm80_s4_afrag_off(unsigned nt, unsigned j, unsigned blocks, unsigned lane)
{
    return ((nt * blocks + j) * 16u + ((lane >> 1) ^ smma_sm80_s4_axor(j))) * 16u +
           (lane & 1u) * 8u;
}

/* ---- 8. sm80-bs-small version 6: e2m1 B through a table in shared memory
 *
 * Version 6 (its ring of raw chunks, smma_sm80_s3_raw_off, and its A,
 * section 6) takes e2m1 B, converted without the ALU's shifts and byte permutes
 * of every nibble: a table of the bf16 pair of each of the 256 bytes (two
 * codes), with one copy for each lane, so that 32 lanes looking up any 32
 * bytes meet no bank conflict.  A lane reads the 4-byte word of its row
 * that holds its two bytes of a 16-k block (4 k each of rows g and g + 8)
 * and forms each table address with one byte permute, prmt(word, 4 lane,
 * sel): the lane's 4 lane in the low byte, the code byte above it.  So
 * entry (byte x, lane l) lies at 256 x + 4 l: 64 KB, of which the table
 * fills the lower 128 bytes of every 256. */

/* The table entry of byte x for lane l. */
SMMA_HD uint32_t
smma_sm80_s6_lut_off(unsigned x, unsigned lane)
{
    return x * 256u + lane * 4u;
}

/* Lane t = lane % 4 holds k 4 t .. 4 t + 3 of every 16-k block of its rows
 * (smma_sm80_s3_k0(t)): bytes 2 t and 2 t + 1 of the block's 8, in the
 * block's word t / 2.  The byte of that word with codes 4 t + 2 i and 4 t +
 * 2 i + 1 (register a0 for i = 0, a2 for i = 1; a1, a3 of row g + 8). */
SMMA_HD unsigned
smma_sm80_s6_byte(unsigned tig, unsigned i)
{
    return 2u * (tig & 1u) + i;
}

#endif /* SOFTMMA_SM80_H */

/*
 * softmma/tmem.h - the Tensor Memory (TMEM) of tcgen05 (sm_100a/100f/103a)
 * and the instructions that use it, simulated: the memory itself, the
 * register layouts of tcgen05.ld / tcgen05.st, the placement of D (and of A)
 * of tcgen05.mma, the placement of block-scale factors, the shapes of
 * tcgen05.cp, an executor for tcgen05.cp and tcgen05.mma, and the PTX text of
 * every tcgen05 instruction modelled.  The instruction and shared-memory
 * descriptors are in softmma/tcgen05.h.
 *
 * None of this has run on a Blackwell GPU: the layouts are read from the PTX
 * ISA and cross-checked with CUTLASS, the PTX text is checked with ptxas, and
 * gpu/probes/tcgen05_probe.cu is ready for a first run.  doc/tcgen05.md
 * lists what is established how, and where the ISA is unclear.
 *
 * Sources (PTX ISA 8.7 to 9.1 number the tcgen05 sections 9.7.16, ISA 9.2
 * and later 9.7.17; the text did not change):
 *   - "Tensor Memory" (9.7.16.1): 128 lanes x 512 columns of 32-bit cells per
 *     CTA; "Tensor Memory Addressing": bits 31-16 the lane, 15-0 the column;
 *     "Access restrictions" (9.7.16.8.1): warp w of a warpgroup reaches lanes
 *     32 (w % 4) .. 32 (w % 4) + 31 through tcgen05.ld / tcgen05.st;
 *   - "Data Movement Shape" (9.7.16.2.3) and "Matrix fragments for shape
 *     .32x32b/.16x64b/.16x128b/.16x256b/.16x32bx2" (Figures 183-187), "Packing
 *     and Unpacking" (9.7.16.8.2, Figure 193), and the tables "Various
 *     combinations of .num and .shape" of tcgen05.ld and tcgen05.st;
 *   - "Packing format for matrix D in Tensor Memory" (9.7.16.10.4.1): a 16-bit
 *     D element sits alone in the low 16 bits of its 32-bit cell; "Packing
 *     formats ... matrix A" (9.7.16.10.4.3/.5): 4- and 6-bit elements of A in
 *     TMEM in 8-bit containers (mxf8f6f4), two e2m1 per byte (mxf4*);
 *   - "Data Path Layout Organization" (9.7.16.10.5, Layouts A-G, Figures
 *     205-218, with the table of M, cta_group and lane alignment);
 *   - "Block Scaling" (9.7.16.10.7): "Scale factors for A and B matrices need
 *     to be duplicated to all 32 lane partitions of tensor memory"; "Scale
 *     Factor A ID" / "B ID": the SF_ID is a byte offset (1X), a half-word
 *     offset (2X) or must be 0 (4X) within the 32-bit cell; Tables "Valid
 *     combinations of scale_vectorsize ...";
 *   - "tcgen05.cp" (9.7.16.9.2) and "Optional Decompression" (9.7.16.9.1);
 *   - "Matrix Shape" (9.7.16.2.1, Table "Various combinations of .kind and
 *     shapes": K = 16 for f16, 8 tf32, 32 f8f6f4/i8/mxf8f6f4, 64 mxf4*);
 *   - CUTLASS include/cute/atom/copy_traits_sm100.hpp (Copy_Traits of
 *     SM100_TMEM_LOAD_* and SM100_UTCCP_*) and include/cute/atom/
 *     mma_traits_sm100.hpp (tmem_frg, tmem_sf_frg), read to cross-check what
 *     the ISA gives only as figures.
 *
 * All coordinate functions come in pairs, (thread, register, element) or
 * (row, col) -> TMEM and back, each written from the formulas below, not one
 * from the other; tests/sim/tmem-t.c checks that each pair is a bijection.
 */
#ifndef SOFTMMA_TMEM_H
#define SOFTMMA_TMEM_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <softmma/format.h>
#include <softmma/gemm.h>
#include <softmma/grid.h>
#include <softmma/tcgen05.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the memory ------------------------------------------------------------ */

#define SMMA_TMEM_LANES 128u
#define SMMA_TMEM_COLS 512u
#define SMMA_TMEM_ALLOC_UNIT 32u /* columns */

/* The Tensor Memory of one CTA: cell[lane][col], 32 bits each, and the
 * columns tcgen05.alloc handed out (in units of 32 columns: alloc_len[u] is
 * the length, in units, of the allocation that starts at unit u, 0 if none).
 * 256 KiB: allocate it, do not put it on the stack. */
typedef struct smma_tmem {
    uint32_t cell[SMMA_TMEM_LANES][SMMA_TMEM_COLS];
    unsigned char alloc_len[SMMA_TMEM_COLS / SMMA_TMEM_ALLOC_UNIT];
} smma_tmem;

/* Sets every cell to 0 and frees every allocation. */
void smma_tmem_init(smma_tmem *t);

/* A TMEM address: lane << 16 | column. */
uint32_t smma_tmem_addr(unsigned lane, unsigned col);
unsigned smma_tmem_addr_lane(uint32_t addr);
unsigned smma_tmem_addr_col(uint32_t addr);

/* SMMA_OK when addr names a cell (lane < 128, column < 512), else
 * SMMA_EINVAL naming the field. */
int smma_tmem_addr_check(uint32_t addr, smma_error *err);

/* The first lane that warp `warp` of a CTA may access with tcgen05.ld/st:
 * 32 * (warp % 4) (ISA "Access restrictions": warp w of a warpgroup reaches
 * lanes 32w .. 32w + 31; every column). */
unsigned smma_tmem_warp_first_lane(unsigned warp);

/* tcgen05.alloc: ncols must be a power of two in [32, 512] (ISA).  The ISA
 * does not say which columns an allocation gets; softmma gives the lowest
 * free run aligned to ncols and writes its address (lane 0) to *addr.
 * SMMA_EINVAL for a bad ncols; SMMA_ENOMEM when no run is free (the real
 * instruction would block). */
int smma_tmem_alloc(smma_tmem *t, unsigned ncols, uint32_t *addr, smma_error *err);

/* tcgen05.dealloc: addr and ncols must be exactly those of one earlier
 * allocation (the ISA: "taddr must point to a previous Tensor Memory
 * allocation"); SMMA_EINVAL otherwise.  Cells keep their values. */
int smma_tmem_dealloc(smma_tmem *t, uint32_t addr, unsigned ncols, smma_error *err);

/* ---- tcgen05.ld / tcgen05.st ---------------------------------------------- */

typedef enum smma_tmem_shape {
    SMMA_TMEM_32X32B = 0,
    SMMA_TMEM_16X64B,
    SMMA_TMEM_16X128B,
    SMMA_TMEM_16X256B,
    SMMA_TMEM_16X32BX2,
    SMMA_TMEM_SHAPE_COUNT
} smma_tmem_shape;

/* "32x32b", "16x64b", "16x128b", "16x256b", "16x32bx2"; "?" out of range. */
const char *smma_tmem_shape_name(smma_tmem_shape s);

/* One tcgen05.ld or tcgen05.st variant.  num is the .num repeat (1, 2, 4,
 * ..., 128; at most 64 for .16x128b and 32 for .16x256b: ISA table);
 * pack is .pack::16b on ld and .unpack::16b on st; half_off is the
 * immHalfSplitoff operand of .16x32bx2, a column offset (0 for the other
 * shapes). */
typedef struct smma_tmem_ldst {
    smma_tmem_shape shape;
    unsigned num;
    bool pack;
    unsigned half_off;
} smma_tmem_ldst;

/* Checks a variant: shape, .num legal for the shape, and for .16x32bx2 a
 * half_off >= w with half_off + w <= 512, where w is the column width of
 * one half (the two accesses must not overlap: the ISA does not forbid
 * overlapping halves, softmma refuses them so that the layout stays a
 * bijection; ptxas accepts any immediate, even 0, and an immediate with
 * lane bits, which would move the second access to other lanes: not
 * modelled), half_off 0 otherwise.  SMMA_EINVAL with a message naming the
 * field and its legal values. */
int smma_tmem_ldst_check(const smma_tmem_ldst *op, smma_error *err);

/* 32-bit registers per thread (ISA table: num for .32x32b, .16x64b and
 * .16x32bx2, 2 num for .16x128b, 4 num for .16x256b; .pack does not change
 * it); 0 for an invalid variant. */
unsigned smma_tmem_ldst_regs(const smma_tmem_ldst *op);

/* Elements per register: 2 with .pack::16b / .unpack::16b, else 1. */
unsigned smma_tmem_ldst_elems(const smma_tmem_ldst *op);

/* TMEM lanes one warp accesses from taddr: 32 for .32x32b, else 16. */
unsigned smma_tmem_ldst_lanes(const smma_tmem_ldst *op);

/* Columns spanned from taddr's column: num * (1, 2, 4, 8) for .32x32b,
 * .16x64b, .16x128b, .16x256b, and half_off + num for .16x32bx2, with num
 * doubled by .pack (each 16-bit element has a column of its own, in its low
 * 16 bits).  0 for an invalid variant. */
unsigned smma_tmem_ldst_cols(const smma_tmem_ldst *op);

/*
 * The cell thread `lane` (0..31) of the warp reaches with element `elem` of
 * register `reg`: lane offset *dlane and column offset *dcol from taddr.
 * Without .pack (elem 0), with t = lane, r = reg (CUTLASS Copy_Traits of
 * SM100_TMEM_LOAD_{32dp32b,16dp64b,16dp128b,16dp256b,16dp32b}Nx agree with
 * the ISA figures as far as they can be read):
 *
 *   .32x32b    dlane = t                       dcol = r
 *   .16x64b    dlane = t/4 + 8 (t%2)           dcol = (t/2)%2 + 2r
 *   .16x128b   dlane = t/4 + 8 (r%2)           dcol = t%4 + 4 (r/2)
 *   .16x256b   dlane = t/4 + 8 ((r/2)%2)       dcol = 2 (t%4) + r%2 + 8 (r/4)
 *   .16x32bx2  dlane = t%16                    dcol = r (+ half_off for t >= 16)
 *
 * With .pack::16b (ld) / .unpack::16b (st) the 32-bit register holds two
 * 16-bit elements, element 0 in bits 15-0: element e of the register that
 * would otherwise hold column c is the low 16 bits of column 2c + e (for
 * .16x32bx2, c counts from the half's start).  Returns SMMA_OK, or
 * SMMA_EINVAL for an invalid variant or lane, reg or elem out of range.
 */
int smma_tmem_ldst_coord(const smma_tmem_ldst *op, unsigned lane, unsigned reg,
                         unsigned elem, unsigned *dlane, unsigned *dcol);

/* The inverse: which thread, register and element reach (dlane, dcol).
 * SMMA_EINVAL for a cell the variant does not access. */
int smma_tmem_ldst_slot(const smma_tmem_ldst *op, unsigned dlane, unsigned dcol,
                        unsigned *lane, unsigned *reg, unsigned *elem);

/* tcgen05.ld executed by warp `warp` (its index in the CTA) at taddr:
 * regs[lane * nregs + reg] for every thread (nregs = smma_tmem_ldst_regs).
 * The accessed lanes must lie in the warp's 32-lane partition (access
 * restriction) and the columns below 512.  With .pack, bits 31-16 of each
 * source cell are ignored.  SMMA_EINVAL naming the violated rule; regs is
 * then untouched. */
int smma_tmem_ld(const smma_tmem_ldst *op, const smma_tmem *t, unsigned warp, uint32_t taddr,
                 uint32_t *regs, smma_error *err);

/* tcgen05.st, the same layout the other way.  With .unpack the ISA does not
 * say what bits 31-16 of each written cell become; softmma writes 0 there
 * (a load with .pack ignores them). */
int smma_tmem_st(const smma_tmem_ldst *op, smma_tmem *t, unsigned warp, uint32_t taddr,
                 const uint32_t *regs, smma_error *err);

/* ---- D (and A) of tcgen05.mma in TMEM -------------------------------------- */

/*
 * Where element (row m, column n) of the M x N matrix D lives, for the
 * non-.ws layouts of "Data Path Layout Organization"; addr is the D address
 * operand (lane field lane0, column col0).  Each element has a cell of its
 * own: 32-bit D (f32) fills it, 16-bit D (f16) sits in its low 16 bits
 * ("Packing format for matrix D").
 *
 *   M = 64,  cta_group::1  Layout F, "4x1, 1/2 datapath utilized", lane
 *            alignment 0 or 16: lane = lane0 + 32 (m/16) + m%16,
 *            col = col0 + n, lane0 in {0, 16};
 *   M = 128, cta_group::1  Layout D, 4x1: lane = m, col = col0 + n (lane0 0);
 *   M = 128, cta_group::2  Layout B, 2x2: CTA m/64 of the pair, mm = m%64,
 *            lane = mm + 64 (n / (N/2)), col = col0 + n % (N/2) (lane0 0);
 *   M = 256, cta_group::2  Layout A, 4x1: CTA m/128, lane = m%128,
 *            col = col0 + n (lane0 0).
 *
 * The ISA gives the row order inside each layout as figures (205-216);
 * the formulas are CUTLASS's tmem_frg atoms ((16,4),N):((1,32),128) for
 * M = 64, (128,N):(1,128) for 128, (64,(N/2,2)):(1,(128,64)) for the 2x2
 * layout, which agree with the table's organization and alignment column.
 * M = 32 and the .ws layouts (E, G) and the sparse Layout C are not
 * modelled.
 */
typedef struct smma_tmem_dlayout {
    unsigned m, n;          /* the instruction's M and N */
    unsigned cta_group;     /* 1 or 2 */
    uint32_t addr;          /* the D address operand */
} smma_tmem_dlayout;

/* Checks: (M, cta_group) one of the four above, N a multiple of 8 in
 * [8, 256] (of 16 with cta_group::2), the lane field as above, the columns
 * inside the 512.  SMMA_EINVAL naming the field. */
int smma_tmem_d_check(const smma_tmem_dlayout *l, smma_error *err);

/* (m, n) -> (CTA of the pair, lane, column).  SMMA_EINVAL for an invalid
 * layout or (m, n) outside M x N. */
int smma_tmem_d_coord(const smma_tmem_dlayout *l, unsigned m, unsigned n, unsigned *cta,
                      unsigned *lane, unsigned *col);

/* The inverse; SMMA_EINVAL for a cell that holds no element of D. */
int smma_tmem_d_elem(const smma_tmem_dlayout *l, unsigned cta, unsigned lane, unsigned col,
                     unsigned *m, unsigned *n);

/*
 * A (M x K) read from TMEM ([a-tmem]): row m in the lane D's layout gives
 * row m (the ISA requires the same lane alignment for A and D in the
 * half-datapath layouts), K along the columns from the address's column,
 * elem_bits-wide elements packed into each 32-bit cell from bit 0 upward,
 * the lower k in the lower bits: element k in column col0 + k / (32 /
 * elem_bits), bits (k % (32 / elem_bits)) * elem_bits.  elem_bits is the
 * storage width: 16 for f16/bf16, 8 for every f8f6f4/mxf8f6f4 element (4-
 * and 6-bit ones in an 8-bit container, ISA 9.7.16.10.4.3), 4 for
 * mxf4/mxf4nvf4 (two e2m1 per byte, 9.7.16.10.4.5).  The order of elements
 * within a cell is softmma's reading (CUTLASS's tmem_frg addresses A in
 * element units, the lower index lower); the ISA shows it only in figures.
 * M = 128 with cta_group::2 keeps A duplicated across lane halves (CUTLASS
 * TmemAllocMode::Duplicated) and is not modelled.
 */
typedef struct smma_tmem_alayout {
    unsigned m, k;          /* the instruction's M and K */
    unsigned cta_group;     /* 1 or 2 */
    unsigned elem_bits;     /* 16, 8 or 4 */
    uint32_t addr;          /* the A address operand */
} smma_tmem_alayout;

int smma_tmem_a_check(const smma_tmem_alayout *l, smma_error *err);
int smma_tmem_a_coord(const smma_tmem_alayout *l, unsigned m, unsigned k, unsigned *cta,
                      unsigned *lane, unsigned *col, unsigned *bit);
int smma_tmem_a_elem(const smma_tmem_alayout *l, unsigned cta, unsigned lane, unsigned col,
                     unsigned bit, unsigned *m, unsigned *k);

/* ---- block-scale factors in TMEM -------------------------------------------- */

/*
 * Scale byte (row r, block kb) of scale_A (r = m, M rows) or scale_B (r = n,
 * N rows), for .scale_vec::vec X with vec in {1, 2, 4}, at the scale address
 * operand (lane field 0, column col0), copy p = 0..3:
 *
 *   lane = 32 p + r % 32      column = col0 + r / 32      byte = sf_id + kb
 *
 * The four copies are the ISA's duplication "to all 32 lane partitions";
 * the byte is the SF_ID's "byte offset" (1X: sf_id 0..3, kb 0), "half word
 * offset" (2X: sf_id 0 or 2, kb 0..1) or the whole word (4X: sf_id 0, kb
 * 0..3).  Which row sits in which lane and column is in the ISA's figures
 * (231-242); the formula is CUTLASS's tmem_sf_frg ScaleFactorDuplicated4by1
 * atom (((32, R/32), 4), (V, NSF)) : (((1, 512), 32), (0, 128)) in byte
 * addressing, and is what tcgen05.cp .32x128b.warpx4 produces from the
 * "128x4" scale layout of FACTS.md section 4.  rows is at most 256 (N); the
 * K = 96 variants (.block32/.block16 with K = 96) are not modelled.
 */
typedef struct smma_tmem_sflayout {
    unsigned rows;          /* M for scale_A, N for scale_B */
    unsigned vec;           /* 1, 2 or 4: .scale_vec::1X, 2X, 4X */
    unsigned sf_id;         /* the instruction descriptor's sfa_id / sfb_id */
    uint32_t addr;          /* the scale address operand, SF_ID in bits 31-30 or 0 there */
} smma_tmem_sflayout;

/* Checks vec, sf_id for vec, rows in [1, 256], lane field 0 (bits 29-16),
 * bits 31-30 either 0 or equal to sf_id (CUTLASS sets them to the SF_ID,
 * smma_tc05_sf_taddr; bits that disagree are refused, since either field
 * may be the one the hardware reads), columns inside the 512.
 * SMMA_EINVAL naming the field and its legal values. */
int smma_tmem_sf_check(const smma_tmem_sflayout *l, smma_error *err);

/* Columns the scale matrix occupies: ceil(rows / 32). */
unsigned smma_tmem_sf_cols(const smma_tmem_sflayout *l);

int smma_tmem_sf_coord(const smma_tmem_sflayout *l, unsigned row, unsigned kb, unsigned copy,
                       unsigned *lane, unsigned *col, unsigned *byte);
/* The inverse; SMMA_EINVAL for a byte that holds no scale of the matrix. */
int smma_tmem_sf_elem(const smma_tmem_sflayout *l, unsigned lane, unsigned col, unsigned byte,
                      unsigned *row, unsigned *kb, unsigned *copy);

/* ---- tcgen05.cp ------------------------------------------------------------- */

/* The shared memory and TMEM of one CTA of a CTA pair (cta_group::2: the
 * pair's even cluster rank first) or of a lone CTA (cta_group::1), as the
 * executors of tcgen05.cp and tcgen05.mma see them: shared address 0 is
 * smem[0]. */
typedef struct smma_tc05_cta {
    const uint8_t *smem;
    size_t smem_size;
    smma_tmem *tmem;
} smma_tc05_cta;

/* The shapes with their required multicast (ISA: ".64x128b requires
 * .warpx2::02_13 or .warpx2::01_23", ".32x128b requires .warpx4"). */
typedef enum smma_tmem_cp_shape {
    SMMA_TMEM_CP_128X256B = 0,
    SMMA_TMEM_CP_4X256B,
    SMMA_TMEM_CP_128X128B,
    SMMA_TMEM_CP_64X128B_02_13,     /* .64x128b.warpx2::02_13 */
    SMMA_TMEM_CP_64X128B_01_23,     /* .64x128b.warpx2::01_23 */
    SMMA_TMEM_CP_32X128B_WARPX4,    /* .32x128b.warpx4 */
    SMMA_TMEM_CP_SHAPE_COUNT
} smma_tmem_cp_shape;

/* The optional decompression .dst_fmt.src_fmt. */
typedef enum smma_tmem_cp_fmt {
    SMMA_TMEM_CP_PLAIN = 0,
    SMMA_TMEM_CP_B6X16_P32,         /* .b8x16.b6x16_p32 */
    SMMA_TMEM_CP_B4X16_P64,         /* .b8x16.b4x16_p64 */
    SMMA_TMEM_CP_FMT_COUNT
} smma_tmem_cp_fmt;

typedef struct smma_tmem_cp {
    smma_tmem_cp_shape shape;
    unsigned cta_group;             /* 1 or 2 */
    smma_tmem_cp_fmt fmt;
} smma_tmem_cp;

/* The qualifier text: "128x256b", "4x256b", "128x128b",
 * "64x128b.warpx2::02_13", "64x128b.warpx2::01_23", "32x128b.warpx4"; "?". */
const char *smma_tmem_cp_shape_name(smma_tmem_cp_shape s);

/* Checks shape, cta_group and fmt (the PTX grammar). */
int smma_tmem_cp_check(const smma_tmem_cp *op, smma_error *err);

/* Source rows (128, 4, 128, 64, 64, 32), bytes per row (32 for the 256b
 * shapes, else 16) and copies of each row in TMEM (1, 1, 1, 2, 2, 4); 0
 * out of range. */
unsigned smma_tmem_cp_rows(smma_tmem_cp_shape s);
unsigned smma_tmem_cp_row_bytes(smma_tmem_cp_shape s);
unsigned smma_tmem_cp_copies(smma_tmem_cp_shape s);

/*
 * Byte `byte` of source row `row`, copy `copy`, lands in TMEM at lane
 * offset *dlane, column offset *dcol, byte *dbyte of the cell (from taddr;
 * a row's bytes fill its cells from column 0, byte 0 upward):
 *
 *   128x256b, 128x128b     dlane = row
 *   4x256b                 dlane = 32 row
 *   64x128b.warpx2::02_13  dlane = row + 64 copy
 *   64x128b.warpx2::01_23  dlane = 64 (row/32) + 32 copy + row%32
 *   32x128b.warpx4         dlane = 32 copy + row
 *   dcol = byte / 4, dbyte = byte % 4
 *
 * The ISA says of the multicasts: warps 0 and 2 (1 and 3) form a pair for
 * 02_13, 0 and 1 (2 and 3) for 01_23, "each warp pair receive half of the
 * data", and .warpx4 copies to all four warps; which half goes where and
 * the 4x256b lanes come from CUTLASS's SM100_UTCCP_* ValID layouts, which
 * TVM's tcgen05.cp documentation states the same way.
 */
int smma_tmem_cp_coord(smma_tmem_cp_shape s, unsigned row, unsigned byte, unsigned copy,
                       unsigned *dlane, unsigned *dcol, unsigned *dbyte);
/* The inverse; SMMA_EINVAL for a byte the shape does not write. */
int smma_tmem_cp_src(smma_tmem_cp_shape s, unsigned dlane, unsigned dcol, unsigned dbyte,
                     unsigned *row, unsigned *byte, unsigned *copy);

/*
 * Executes tcgen05.cp on ctas[0 .. cta_group-1].  The source matrix is the
 * descriptor's K-major canonical layout of 8-bit elements: source row r,
 * byte b is at smma_tc05_smem_addr(K-major, elem_bits 8, swizzle, lbo, sbo,
 * start, r, b) (CUTLASS builds the tcgen05.cp descriptor as a K-major
 * UMMA descriptor of the rows x bytes matrix).
 *
 * cta_group::1 copies ctas[0]'s shared memory into its TMEM at taddr.
 * cta_group::2, issued by one CTA of the pair, copies in each CTA c of the
 * pair its own shared memory at the descriptor's address into its own
 * TMEM at taddr: the same shape, the same copies ("scale duplication":
 * .32x128b.warpx4 fills all four lane partitions of both CTAs).  The ISA
 * says that cta_group::2 reaches the Tensor Memory of both CTAs; that each
 * CTA's own shared memory is the source is CUTLASS's usage (its 2SM
 * block-scaled GEMM copies scale_A, whose rows differ between the two
 * CTAs, with one SM100_UTCCP_4x32dp128bit_2cta issued by the leader CTA),
 * and it is the only reading under which that GEMM is right.
 *
 * Refused (SMMA_EINVAL, with a message; no cell written): decompression
 * (the bit order of the packed 4- and 6-bit source is only in ISA Figures
 * 194-198: not modelled), a descriptor with a base offset or an absolute
 * LBO, a taddr lane other than 0, columns beyond 512, a CTA without shared
 * memory or TMEM, or a source byte outside a CTA's shared memory.
 */
int smma_tc05_cp_exec(const smma_tmem_cp *op, const smma_tc05_cta *ctas, uint64_t sdesc,
                      uint32_t taddr, smma_error *err);

/* smma_tc05_cp_exec of cta_group::1 on one CTA (smem, smem_size bytes,
 * TMEM t); cta_group::2 is refused with a message naming
 * smma_tc05_cp_exec, which takes the pair. */
int smma_tmem_cp_exec(const smma_tmem_cp *op, const uint8_t *smem, size_t smem_size,
                      uint64_t sdesc, smma_tmem *t, uint32_t taddr, smma_error *err);

/* ---- tcgen05.mma ------------------------------------------------------------ */

/* One tcgen05.mma: the qualifiers (all the PTX text needs) and the operand
 * values (what the executor needs). */
typedef struct smma_tc05_mma {
    smma_tc05_kind kind;
    unsigned cta_group;     /* 1 or 2 */
    bool ws;                /* .ws (weight stationary): PTX text only */
    bool a_tmem;            /* A from [a-tmem] rather than a-desc */
    unsigned scale_vec;     /* block-scaled kinds: 1, 2 or 4 (.scale_vec::NX); else 0 */
    uint32_t idesc;         /* the instruction descriptor (softmma/tcgen05.h) */
    uint64_t a_desc, b_desc;
    uint32_t a_taddr, d_taddr, sfa_taddr, sfb_taddr;
    bool enable_input_d;    /* D = A*B + D; false: D = A*B */
} smma_tc05_mma;

/* K of one instruction (dense): 8 tf32, 16 f16, 32 f8f6f4 / i8 / mxf8f6f4,
 * 64 mxf4 / mxf4nvf4 (96 with k96); 0 for a bad kind. */
unsigned smma_tc05_mma_k(smma_tc05_kind kind, bool k96);

/* Checks the qualifiers as the PTX grammar and the ISA's tables have them:
 * kind, cta_group 1 or 2; .ws only with cta_group::1 and the kinds tf32,
 * f16, f8f6f4, i8; scale_vec 0 for the other kinds and legal for the
 * block-scaled ones (mxf8f6f4 1X, mxf4 2X, mxf4nvf4 2X or 4X).  SMMA_EINVAL
 * naming the qualifier and its legal values. */
int smma_tc05_mma_check(const smma_tc05_mma *op, smma_error *err);

/*
 * Executes one tcgen05.mma on ctas[0 .. cta_group-1] under a numerics model:
 * every element of D is smma_dot of its row of A, its column of B, the scale
 * factors of the block-scaled kinds, and (enable_input_d) the old D as C.
 *
 * Operands, with M, N from the descriptor, K = smma_tc05_mma_k:
 *   A  rows m of CTA c (c = m / (M / cta_group)) from CTA c: through a_desc
 *      (smma_tc05_smem_addr with the descriptor's swizzle, LBO, SBO and the
 *      transpose bit; row m - c M/cta_group) or from TMEM (smma_tmem_a_*);
 *   B  column n from CTA n / (N / cta_group), row n % (N / cta_group) of
 *      that CTA's N/cta_group x K tile through b_desc (the split of B and A
 *      between the pair is CUTLASS's 2SM convention; the ISA text says only
 *      that B is "in Shared Memory of the current CTA and optionally in peer
 *      CTA");
 *   D  through smma_tmem_d_* at d_taddr, in each CTA's TMEM;
 *   scales (block-scaled) through smma_tmem_sf_* at sfa_taddr / sfb_taddr,
 *      in the TMEM of the CTA that holds D's row m: scale_A of M/cta_group
 *      rows (row m - c M/cta_group), scale_B of all N rows (with
 *      cta_group::2 each CTA of the pair holds every row of scale_B: it is
 *      duplicated over the pair as over the lane partitions); for D row m
 *      the copy of the lane partition of m's lane in that CTA is read (the
 *      copies must be equal, so this is unobservable in valid programs).
 *      The pair's split is CUTLASS's (tmem_sf_frg with
 *      ScaleFactorDuplicated4by1: scale_A of the CTA's M/2 rows, scale_B of
 *      the whole N, in each CTA);
 * Element storage: f16/bf16 16 bits; f8f6f4 and mxf8f6f4 one byte per
 * element, e4m3/e5m2 the byte, e2m3/e3m2 bits 5-0, e2m1 bits 5-2 (FACTS.md
 * section 1; the other bits are ignored); mxf4/mxf4nvf4 two e2m1 per byte.
 * Negate A/B flip the sign bit of every element.  D is f32, or f16 in the
 * low half of its cell (bits 31-16 written 0).
 *
 * Refused with SMMA_EINVAL and a message: .ws; kinds tf32 and i8 (the
 * numerics layer has no tf32 or integer format); sparse; K = 96; D f16 with
 * bf16 inputs (ISA shape table); M/cta_group pairs outside the ISA table
 * (cta_group::1: M 64 or 128, block-scaled 128; cta_group::2: 128 or 256,
 * block-scaled 256); block-scaled M = 128 with cta_group::2 (the 2x2 data
 * path, whose scale_B duplication, CUTLASS's ScaleFactorDuplicated2by2, is
 * not established); A from TMEM with M = 128 and cta_group::2, or with the
 * transpose-A bit set (A in TMEM is row-major, ISA Table "Major-ness for
 * different matrices"); 8-bit B in
 * N-major with N not a multiple of 16 (32 for cta_group::2); a scale format
 * the vector size does not allow (UE4M3 needs 4X); descriptors with a base
 * offset or an absolute LBO; anything outside the simulated memories.  The
 * model check (smma_model_check) is applied as well.  On error no cell is
 * written.
 */
int smma_tc05_mma_exec(const smma_tc05_mma *op, const smma_model *model,
                       const smma_tc05_cta *ctas, smma_error *err);

/* ---- tcgen05.commit ----------------------------------------------------------- */

/* One tcgen05.commit.mbarrier::arrive::one: it makes the mbarrier track the
 * completion of the asynchronous tcgen05 operations (mma, cp) the executing
 * thread issued before it, and arrives on it once (count 1) when they have
 * completed.  Without .multicast::cluster the barrier is the one at the
 * .shared::cluster address operand: in the issuing CTA or, through a
 * cluster address, in another CTA of the cluster.  With it, the arrival
 * goes to the barrier at the same shared offset in every CTA whose
 * %cluster_ctarank bit is set in the 16-bit ctaMask (PTX ISA,
 * tcgen05.commit).  A cta_group::2 MMA computes D in both CTAs of a pair,
 * so the CTA that issues it releases what both CTAs fed it (their stage
 * slots, their scale columns) with one multicast commit of mask
 * 0b11 << pair base (CUTLASS's 2SM pipelines: umma_arrive_multicast_2x1SM). */
typedef struct smma_tc05_commit {
    unsigned cta_group;     /* 1 or 2 */
    bool multicast;         /* .multicast::cluster */
    uint32_t cta_mask;      /* the ctaMask operand: 16 bits, multicast only (else 0) */
} smma_tc05_commit;

/* The CTAs that receive the arrival, as a mask of cluster ranks in
 * *targets, for a commit issued by CTA `rank` of a cluster of
 * cluster_size CTAs (1 to 16), whose address operand names the barrier of
 * CTA bar_rank (read only without .multicast).  Checks: cta_group 1 or 2,
 * and 2 only in a cluster of an even size (the pairs are ranks 2q, 2q + 1)
 * issued by either CTA of its pair; rank and bar_rank inside the cluster;
 * with .multicast a ctaMask that is not 0 and names no rank past the
 * cluster; without it a ctaMask of 0.  SMMA_EINVAL naming the operand. */
int smma_tc05_commit_targets(const smma_tc05_commit *op, unsigned cluster_size, unsigned rank,
                             unsigned bar_rank, uint32_t *targets, smma_error *err);

/* ---- PTX text ------------------------------------------------------------------ */

/* Every text below assembles for this target (and sm_100f, sm_103a), none
 * for sm_90a; the PTX ISA version each needs is smma_ptx_tc05_version. */
#define SMMA_PTX_TC05_TARGET "sm_100a"

/* Declarations of every register the texts name:
 *   %t0 .. %t127  .b32 data registers of tcgen05.ld / tcgen05.st
 *   %taddr        .b32 TMEM address (taddr, d-tmem)
 *   %tatmem, %tsfa, %tsfb  .b32 TMEM addresses of A and the scale factors
 *   %tidesc       .b32 instruction descriptor
 *   %tdst         .b32 shared-memory address (tcgen05.alloc destination)
 *   %tadesc, %tbdesc, %tsdesc  .b64 shared-memory descriptors
 *   %tmbar        .b64 mbarrier address (tcgen05.commit)
 *   %tmask        .b16 ctaMask of tcgen05.commit .multicast::cluster
 *   %tp           .pred enable-input-d */
#define SMMA_PTX_TC05_DECLS                                                               \
    "    .reg .b32 %t<128>;\n    .reg .b32 %taddr, %tatmem, %tsfa, %tsfb, %tidesc, %tdst;\n" \
    "    .reg .b64 %tadesc, %tbdesc, %tsdesc, %tmbar;\n    .reg .b16 %tmask;\n"              \
    "    .reg .pred %tp;\n"

/* tcgen05.ld / tcgen05.st, e.g.
 *   "tcgen05.ld.sync.aligned.16x64b.x2.pack::16b.b32 {%t0, %t1}, [%taddr];"
 *   "tcgen05.st.sync.aligned.16x32bx2.x1.b32 [%taddr], 1, {%t0};"
 * SMMA_OK; SMMA_EINVAL with smma_tmem_ldst_check's message; SMMA_ERANGE when
 * size is too small. */
int smma_ptx_tc05_ld(const smma_tmem_ldst *op, char *buf, size_t size, smma_error *err);
int smma_ptx_tc05_st(const smma_tmem_ldst *op, char *buf, size_t size, smma_error *err);

/* tcgen05.cp, e.g. "tcgen05.cp.cta_group::1.32x128b.warpx4 [%taddr], %tsdesc;". */
int smma_ptx_tc05_cp(const smma_tmem_cp *op, char *buf, size_t size, smma_error *err);

/* tcgen05.mma from the qualifiers of *op (smma_tc05_mma_check), e.g.
 *   "tcgen05.mma.cta_group::1.kind::f16 [%taddr], %tadesc, %tbdesc, %tidesc, %tp;"
 *   "tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.scale_vec::4X [%taddr],
 *    [%tatmem], %tbdesc, %tidesc, [%tsfa], [%tsfb], %tp;"
 * (.ws: "tcgen05.mma.ws.cta_group::1.kind::..."). */
int smma_ptx_tc05_mma(const smma_tc05_mma *op, char *buf, size_t size, smma_error *err);

/* The other tcgen05 instructions. */
typedef enum smma_tc05_misc {
    SMMA_TC05_ALLOC = 0,        /* tcgen05.alloc...shared::cta.b32 [%tdst], ncols; */
    SMMA_TC05_DEALLOC,          /* tcgen05.dealloc...b32 %taddr, ncols; */
    SMMA_TC05_RELINQUISH,       /* tcgen05.relinquish_alloc_permit */
    SMMA_TC05_COMMIT,           /* tcgen05.commit...mbarrier::arrive::one.shared::cluster.b64 */
    SMMA_TC05_COMMIT_MC,        /* the same with .multicast::cluster [%tmbar], %tmask */
    SMMA_TC05_WAIT_LD,          /* tcgen05.wait::ld.sync.aligned; */
    SMMA_TC05_WAIT_ST,          /* tcgen05.wait::st.sync.aligned; */
    SMMA_TC05_FENCE_BEFORE,     /* tcgen05.fence::before_thread_sync; */
    SMMA_TC05_FENCE_AFTER,      /* tcgen05.fence::after_thread_sync; */
    SMMA_TC05_MISC_COUNT
} smma_tc05_misc;

/* cta_group (1 or 2) is used by alloc, dealloc, relinquish and the commits;
 * ncols (a power of two in [32, 512]) by alloc and dealloc. */
int smma_ptx_tc05_misc(smma_tc05_misc which, unsigned cta_group, unsigned ncols, char *buf,
                       size_t size, smma_error *err);

/* The oldest PTX ISA version that has the instruction: "8.7" for
 * .kind::mxf4nvf4 and .scale_vec::4X (ptxas: "requires PTX ISA .version
 * 8.7"), "8.6" for everything else here (tcgen05 arrived in 8.6). */
const char *smma_ptx_tc05_mma_version(const smma_tc05_mma *op);
#define SMMA_PTX_TC05_VERSION "8.6"

/* ---- drawable form (softmma/grid.h) --------------------------------------------- */

/*
 * The family "tcgen05": instruction names and operands
 *   tcgen05.ld.32x32b, .16x64b, .16x128b, .16x256b, .16x32bx2   operand d
 *       rows = TMEM lanes from taddr, cols = columns; cell label
 *       "T<thread>:r<reg>", owner the thread; opts->num (default 1); the
 *       .16x32bx2 picture puts the second half right after the first
 *       (immHalfSplitoff = num);
 *   tcgen05.mma.m64, tcgen05.mma.m128, tcgen05.mma.m256         operand d
 *       rows = TMEM lanes (m256: 256 rows, CTA 1's lanes after CTA 0's),
 *       cols = columns, N = 16, D at lane 0 column 0; label "m<row>,n<col>",
 *       owner the warp of the warpgroup that reaches the lane (m256: 4 + that
 *       for CTA 1); "." for unused lanes;
 *   tcgen05.mma.mxf8f6f4.1x, .mxf4.2x, .mxf4nvf4.2x, .mxf4nvf4.4x
 *                                                               operands sfa, sfb
 *       rows = 128 lanes, cols = bytes (column * 4 + byte) of the scale
 *       matrix of M = 128 (sfa) or N = 128 (sfb) at column 0; label
 *       "m<row>,k<block>" / "n<row>,k<block>", owner the copy 0..3;
 *       opts->sf_id (default 0);
 *   the same names + ".cg2"                                     operands sfa, sfb
 *       the block-scaled tcgen05.mma.cta_group::2 of M = 256, N = 256: rows
 *       = 256 lanes (CTA 1's after CTA 0's); scale_A each CTA its own 128
 *       rows of M, scale_B every row of N in both CTAs; owner 4 CTA + copy;
 *   tcgen05.cp.128x256b, .4x256b, .128x128b, .64x128b.warpx2::02_13,
 *   .64x128b.warpx2::01_23, .32x128b.warpx4                     operand d
 *       rows = 128 lanes, cols = columns; label "r<row>.w<word>" (source row,
 *       32-bit word of the row), owner the copy;
 *   the same names + ".cg2"                                     operand d
 *       tcgen05.cp.cta_group::2: 256 lanes, each CTA's source rows in its own
 *       TMEM; owner copies * CTA + copy.
 * Returns SMMA_GRID_NOT_MINE for names outside the family.
 */
int smma_tmem_grid(const char *instr, const char *operand, const smma_grid_opts *o,
                   smma_grid *g, smma_error *err);
void smma_tmem_grid_list(smma_grid_emit_fn emit, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_TMEM_H */

/*
 * gpu/sm90/plan.h - the plan of the sm_90a GEMM kernels (gemm_v1.cu,
 * gemm_v2.cu, gemm_p32.cu, gemm_bs.cu): for every CTA and k-step, which
 * global elements TMA puts at which shared-memory addresses, which
 * descriptors each wgmma.mma_async gets, which accumulator registers
 * hold which element of D, and where the epilogue puts D on its way out.
 *
 * The plan is a struct of integers filled on the host
 * (smma_sm90_plan_init, check.c) and passed to the kernels by value; the
 * functions below are static inline functions of it, compiled by the C
 * compiler for the dry run (tests/sim/sm90-dry-t executes the plan on the
 * simulator's wgmma executor) and by nvcc for the kernels, which compute
 * no address in any other way.  They build on gpu/pipe.h (the stage ring,
 * the scheduler, the tile order: shared with the sm_100 kernels),
 * softmma/wgmma_addr.h (descriptors, accumulator registers) and
 * softmma/tc05_addr.h (the canonical layouts and swizzles, one text in the
 * ISA for wgmma and tcgen05), the arithmetic the simulator itself uses.
 *
 * The layout the plan describes (doc/kernels.md draws it):
 *
 *   - A CTA tile is bm = 64 * wgs rows of A (wgs consumer warpgroups, each
 *     its own 64 rows: the M of wgmma.m64nNk16) by bn columns of B (the N
 *     of the instruction: 128 or 256), computed in k-steps of 64 elements
 *     (128 bytes of every row of A), four wgmma of K = 16 per warpgroup per
 *     k-step, one accumulator chain per output in k order.
 *   - A sits in a stage K-major with the 128-byte swizzle (the "K-major,
 *     128B" canonical layout: rows of 128 bytes, SBO 1024 = 8 rows, LBO
 *     unused), element (row, k) at swizzle(off_a + row * 128 + 2 k) from a
 *     1024-aligned stage: where TMA with CU_TENSOR_MAP_SWIZZLE_128B puts a
 *     box of 64 elements by bm rows.  Warpgroup w's descriptor starts at row
 *     64 w; wgmma j of a k-step starts 32 bytes (16 k) further on.
 *   - B K-major (stored n x k) sits the same way, bn rows.  B N-major
 *     (stored k x n) sits in the "MN-major, 128B" layout: atoms of 64
 *     columns by 8 k (1024 bytes), element (n, k) at swizzle(off_b +
 *     (n / 64) * 8192 + k * 128 + 2 (n % 64)): LBO 8192 (the next 64
 *     columns), SBO 1024 (the next 8 k); TMA lands one box of 64 columns by
 *     64 k per 64 columns; wgmma j starts 2048 bytes (16 k) further on and
 *     reads B transposed (imm-trans-b 1).
 *   - In a cluster of two CTAs along M (v2), the two tiles share their
 *     columns of B: each CTA loads half of the stage's B and multicasts it
 *     to both (pipe.h, "The scheduler").
 *   - D: register reg of thread t of warpgroup w holds row 64 w +
 *     16 (t / 32) + (t % 32) / 4 + 8 ((reg >> 1) & 1), column 8 (reg >> 2) +
 *     2 (t % 4) + (reg & 1) of the tile (softmma/wgmma_addr.h).  v2 writes
 *     it through shared memory: per warpgroup two buffers of 64 rows x 128
 *     bytes (32 fp32 or 64 16-bit columns, the 128-byte swizzle), each sent
 *     to global memory by one TMA store of that box.
 *
 * sm90-promote32 (version 3) is the same with one-byte elements: k-steps of
 * 128 (still 128 bytes of a row), wgmma.m64n128k32 from zero, one per 32-k
 * block, A and B K-major; and the k-step's scales as fp32 in the stage,
 * after B ("The scales of sm90-promote32" below).
 *
 * sm90-bs (version 4) is v2's consumer side on a second ring: A and B land
 * by TMA as stored (fp8, fp6, fp4 or bf16 bytes, unswizzled) in the ring
 * `pipe`, and converter threads write each k-step as bf16 times its scales
 * into a slot of the ring `conv`, laid out as v2's stage ("The conversion
 * of sm90-bs" below).
 *
 * sm90-mixed (version 5) computes D^T = W X^T where W, the block-scaled
 * operand with the larger number of rows (the weights of a model), is
 * streamed once as stored and X, the few rows of activations, is bf16 (a
 * block-scaled X is converted once, by sm90-bs's pass, into a bf16 copy of
 * its rows: x_fmt):
 *   - W lands by TMA as stored (e2m1 two a byte, the others a byte each),
 *     unswizzled, ra = bk * bits / 8 bytes of each of the tile's bm = 64
 *     rows per k-step, at off_ra; each consumer thread reads the bytes of
 *     its A fragment (smma_sm90_mx_a_cell: rows 16 w + group and + 8, k
 *     2 tig .. + 1 and 2 tig + 8 .. + 9 of each 16-k block), multiplies
 *     them by their scales into bf16 (bf16-upcast: one rounding each) and
 *     hands them to wgmma.m64nNk16 as A from registers;
 *   - X (rows of the tile: bn, the N of that wgmma, 8 to 256) lands in kq
 *     atoms of 64 k, each K-major 128B-swizzled as v2's B, at off_b +
 *     q * bn * 128; in a cluster of two each CTA loads half of the rows and
 *     multicasts them;
 *   - the accumulator holds the plan's D, W's rows by X's: the caller's D
 *     transposed when W is the caller's B (w_is_b), as it is otherwise
 *     (smma_sm90_mx_dpos).
 *
 * K that is not a multiple of 64: TMA fills elements past the end of a row
 * with 0; in the last k-step only the wgmma that hold a k below K are
 * issued, and the "fix-up" (v1, v2) writes -0 into A's columns from K to
 * the end of the last 16-k block, so that every padded product is -0.
 * Under h100-bf16, whose blocks of zeros give +0 (zero_plus), no padded
 * product changes a result either way; sm90-bs writes +0.  M and N that are
 * not multiples of the tile: rows past M and columns past N are loaded as
 * 0 and not stored.
 */
#ifndef SOFTMMA_GPU_SM90_PLAN_H
#define SOFTMMA_GPU_SM90_PLAN_H 1

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include <softmma/format.h>

#include "../../sim/softmma/tc05_addr.h"
#include "../../sim/softmma/wgmma_addr.h"
#include "../pipe.h"

#define SMMA_SM90_ROWB 128u         /* bytes of a row per k-step: one swizzle atom */
#define SMMA_SM90_SBO 1024u         /* 8 rows (K-major) or 8 k (N-major) of 128 bytes */
#define SMMA_SM90_NATOM 8192u       /* N-major B: 64 columns by 64 k (the LBO) */
#define SMMA_SM90_K16 4u            /* wgmma (32 bytes of K each) per warpgroup per k-step */
#define SMMA_SM90_SMEM_LIMIT (227u * 1024u) /* dynamic shared memory of an sm_90 CTA */
#define SMMA_SM90_BAR_BYTES 256u    /* the mbarriers: full, empty (and sfree), 8 bytes each */
#define SMMA_SM90_EPI_BUF 8192u     /* one epilogue buffer: 64 rows of 128 bytes */
#define SMMA_SM90_NEG_ZERO 0x8000u  /* -0 in bf16 and in fp16 */

/* The tensor maps (v1 and v2 load A and B; v2 stores D). */
enum { SMMA_SM90_MAP_A = 0, SMMA_SM90_MAP_B, SMMA_SM90_MAP_D };

/* The choices a launcher may make (0 everywhere: the defaults; see
 * smma_sm90_plan_init). */
typedef struct smma_sm90_tune {
    uint32_t bn;                /* N of the tile: 128 or 256 */
    uint32_t stages;            /* stage slots: 2 .. 8 */
    uint32_t cluster;           /* v2: CTAs per cluster along M, 1 or 2 */
    uint32_t group;             /* tile rows per group of the tile order */
    uint32_t pre;               /* sm90-bs, sm90-promote32: 1 never convert in a pass before
                                   the GEMM, 2 always (where a pass applies), 0 by the rule of
                                   smma_sm90_pre_wanted */
    uint32_t sprod;             /* sm90-promote32: 1 the scales' products in fp32 only, 2 on
                                   the tensor core where in range (smma_sm90_sfs_off), 0 the
                                   default (2) */
    uint32_t kq;                /* sm90-mixed: 64-k atoms of a k-step (1, 2, 4); 0 the
                                   default (1) */
} smma_sm90_tune;

typedef struct smma_sm90_plan {
    uint32_t version;           /* 1 sm90-v1, 2 sm90-v2, 3 sm90-promote32, 4 sm90-bs,
                                   5 sm90-mixed */
    /* The pipeline (gpu/pipe.h): the ring (stage s at s * pipe.stage_bytes
     * from a 1024-aligned base, its barriers at pipe.off_bar), the k-steps
     * per tile, the tiles, the clusters, the tile order and the CTAs. */
    smma_pipe pipe;
    /* The problem. */
    uint32_t m, n, k;
    uint32_t fp16;              /* A and B fp16 (else bf16; or fp8 with ebytes 1) */
    uint32_t b_nmajor;          /* B stored k x n (else n x k) */
    uint64_t a_ld, b_ld;        /* elements between rows of A and of B as stored */
    uint32_t ebytes;            /* bytes of an element of A and B: 2 (bf16, fp16), 1 (fp8) */
    uint32_t bk;                /* elements of K per k-step: 128 bytes of a row, 128 / ebytes */
    uint32_t a_e5m2, b_e5m2;    /* fp8 operands: e5m2 (else e4m3) */
    uint32_t a_conv, b_conv;    /* sm90-promote32: the operand is e2m1, e2m3 or e3m2, landed
                                   as stored (ra, rb bytes a row at off_ra, off_rb) and
                                   written into its fp8 area as e4m3 by the converters */
    /* sm90-promote32: each 32 k of K summed by one wgmma (k32) from zero, then
     * promoted into the fp32 accumulator with the block's e8m0 scales. */
    uint32_t promote;
    uint32_t sf_128x4;          /* scales in the 128x4 layout (else linear) */
    uint32_t sf_words;          /* the 4 scales of a row and k-step lie in an aligned word */
    uint32_t kb_cols;           /* scale columns: ceil(k / 32) */
    uint32_t kb_pad;            /* the same rounded up to 4 (the 128x4 layout) */
    /* sm90-bs (version 4): A and B as stored (smma_format numbers: e4m3, e5m2,
     * e2m3, e3m2, e2m1, and bf16 for A) land by TMA in a ring of their own
     * (pipe: off_ra, off_rb in a slot), the converters write them as bf16
     * times their scales into a second ring (conv, from off_conv: a slot
     * holds A at off_a and B at off_b as v2's stage does), which the
     * consumers read. */
    uint32_t a_fmt, b_fmt;      /* the formats of A and B */
    uint32_t sf_fmt;            /* the scales' format: SMMA_E8M0 or SMMA_UE4M3 */
    uint32_t vshift;            /* log2 of the elements per scale (16 or 32) */
    uint32_t ra, rb;            /* bytes of a row of A, of B per k-step as stored */
    uint32_t off_ra, off_rb;    /* A and B as stored in a slot of the ring `pipe` */
    uint32_t off_conv;          /* the bf16 ring */
    smma_pipe conv;             /* its slots (stages, stage_bytes) and barriers (off_bar);
                                   CTA-local (cluster 1) */
    /* sm90-mixed (version 5): the plan's A is W, the block-scaled operand
     * converted in the consumers' registers (a_fmt, a_ld, ra bytes a row
     * per k-step at off_ra, its scales as sm90-bs's), its B is X, bf16,
     * K-major, kq atoms of 64 k (128 bytes) a k-step from off_b, each of
     * bn rows (the N of the wgmma); w_is_b: the caller's B is W, and the
     * plan's D (W rows by X rows) is the caller's D transposed. */
    uint32_t w_is_b;
    uint32_t kq;
    /* The caller's X as stored: SMMA_BF16, or a block-scaled format that a
     * pass (gemm_bs.cu's s90_bs_pre, as sm90-bs's) turns into a bf16 copy
     * first, each element times its scale rounded once; b_ld is then the
     * copy's, smma_sm90_pre_ld(k). */
    uint32_t x_fmt;
    /* The tiling. */
    uint32_t wgs;               /* consumer warpgroups: 1 (v1, v5) or 2 (v2, v3, v4) */
    uint32_t bm, bn;            /* the tile: 64 * wgs rows by bn columns */
    uint32_t b_rows;            /* rows of B (K-major) or 64-column boxes (N-major) that
                                   one CTA loads per k-step: all, or half in a cluster */
    /* Shared memory, from a 1024-aligned base. */
    uint32_t off_a, off_b;      /* A and B in a stage */
    uint32_t off_sfa, off_sfb;  /* sm90-promote32: the k-step's scales as fp32 */
    uint32_t sprod;             /* sm90-promote32: sa * sb by a bf16 wgmma where in range
                                   (smma_sm90_sfs_off) */
    uint32_t off_sfs, off_sflag; /* sprod: B's then A's scales as bf16 wgmma operands, the
                                   k-step's range flags (three words), in a stage */
    uint32_t off_zero;          /* sprod: 2048 bytes of zeros (from the base, after all) */
    uint32_t off_epi;           /* v2: the epilogue buffers, after the barriers */
    uint32_t smem_bytes;        /* dynamic shared memory to request (1024 slack included) */
    /* The epilogue. */
    uint32_t c_kind, d_kind;    /* SMMA_PIPE_F32, _BF16, _F16 (C also _NONE) */
    uint64_t c_ld, d_ld;        /* elements between rows of C and D */
    uint32_t has_alpha, alpha;  /* D = rn_fp32(alpha * acc) when has_alpha (fp32 bits) */
    uint32_t epi_tma;           /* v2: D through shared memory and TMA stores (rows of D
                                   16-byte aligned); else stored from the registers */
} smma_sm90_plan;

/* ---- tiles ------------------------------------------------------------------------------ */

/* The first row and column of tile (tm, tn) (smma_pipe_cta_tile). */
SMMA_HD void
smma_sm90_origin(const smma_sm90_plan *p, uint32_t tm, uint32_t tn, uint32_t *m0, uint32_t *n0)
{
    *m0 = tm * p->bm;
    *n0 = tn * p->bn;
}

/* ---- shared memory of one stage -------------------------------------------------------- */

/* The offset from the stage's base of element (row, kk) of the k-step's A
 * (row 0 .. bm-1, kk 0 .. bk-1): the K-major 128B canonical layout, swizzled
 * (the stage base is 1024-aligned and off_a a multiple of 1024, so
 * swizzling the offset swizzles the address). */
SMMA_HD uint32_t
smma_sm90_smem_a(const smma_sm90_plan *p, uint32_t row, uint32_t kk)
{
    uint64_t bits = smma_tc05_canon_bits(false, SMMA_SM90_ROWB, 8 * p->ebytes, 16,
                                         SMMA_SM90_SBO, row, kk);

    return smma_tc05_swz(SMMA_TC05_SW_128B, p->off_a + (uint32_t) (bits / 8));
}

/* The same for element (n, kk) of the k-step's B (n 0 .. bn-1): K-major as
 * A, or N-major with LBO SMMA_SM90_NATOM and SBO 1024. */
SMMA_HD uint32_t
smma_sm90_smem_b(const smma_sm90_plan *p, uint32_t n, uint32_t kk)
{
    uint64_t bits = p->b_nmajor
                    ? smma_tc05_canon_bits(true, SMMA_SM90_ROWB, 16, SMMA_SM90_NATOM,
                                           SMMA_SM90_SBO, n, kk)
                    : smma_tc05_canon_bits(false, SMMA_SM90_ROWB, 8 * p->ebytes, 16,
                                           SMMA_SM90_SBO, n, kk);

    return smma_tc05_swz(SMMA_TC05_SW_128B, p->off_b + (uint32_t) (bits / 8));
}

/* Bits of an element of format f as stored (softmma/gpu.h): 16 for bf16,
 * 4 for e2m1 (two a byte), else 8 (e2m3 and e3m2 one a byte). */
SMMA_HD uint32_t
smma_sm90_fmt_bits(uint32_t f)
{
    return f == SMMA_BF16 ? 16u : f == SMMA_E2M1 ? 4u : 8u;
}

/* ---- TMA: the tensor maps and their boxes ----------------------------------------------- */

/*
 * The tensor map of operand `which` (SMMA_SM90_MAP_*), elements of ebytes
 * (D's for D), dims innermost first:
 *   A          {k, m}, row stride a_ld * ebytes, box {bk, bm} (128 bytes of
 *              each row), 128-byte swizzle;
 *   B K-major  {k, n}, row stride b_ld * ebytes, box {bk, b_rows};
 *   B N-major  {n, k} (16-bit), row stride b_ld * 2, box {64, 64} (one per
 *              64 columns);
 *   D (v2)     {n, m}, row stride d_ld * its bytes, box {128 bytes of
 *              columns, 64}: one epilogue buffer.
 * A box of 128 bytes by R rows lands as element (x, y) at swizzle(y * 128 +
 * ebytes x): the layouts of smma_sm90_smem_a / _b.  Elements outside the
 * tensor are loaded as 0 and count towards the transaction bytes (every
 * stage receives stage_tx bytes), and are not stored.  strides[] holds
 * rank - 1 = 1 entry.
 */
SMMA_HD void
smma_sm90_tma_geom(const smma_sm90_plan *p, unsigned which, uint64_t dims[2],
                   uint64_t strides[1], uint32_t box[2])
{
    if (which != SMMA_SM90_MAP_D
        && (p->version == 4 || (p->version == 5 && which == SMMA_SM90_MAP_A)
            || (which == SMMA_SM90_MAP_A ? p->a_conv : p->b_conv))) {
        /* sm90-bs, sm90-mixed's W, and sm90-promote32's converted
         * operands: the bytes as stored, ra (rb) of each row per k-step,
         * unswizzled (the converters read them row by row). */
        bool a = which == SMMA_SM90_MAP_A;
        uint32_t bits = smma_sm90_fmt_bits(a ? p->a_fmt : p->b_fmt);

        dims[0] = ((uint64_t) p->k * bits + 7) / 8;
        dims[1] = a ? p->m : p->n;
        strides[0] = (a ? p->a_ld : p->b_ld) * bits / 8;
        box[0] = a ? p->ra : p->rb;
        box[1] = a ? p->bm : p->b_rows;
        return;
    }
    if (which == SMMA_SM90_MAP_A) {
        dims[0] = p->k;
        dims[1] = p->m;
        strides[0] = p->a_ld * p->ebytes;
        box[0] = p->bk;
        box[1] = p->bm;
    } else if (which == SMMA_SM90_MAP_B) {
        dims[0] = p->b_nmajor ? p->n : p->k;
        dims[1] = p->b_nmajor ? p->k : p->n;
        strides[0] = p->b_ld * p->ebytes;
        box[0] = p->b_nmajor || p->version == 5 ? 64 : p->bk; /* v5: an atom of 64 k */
        box[1] = p->b_nmajor ? p->bk : p->b_rows;
    } else {
        uint32_t esz = p->d_kind == SMMA_PIPE_F32 ? 4 : 2;

        dims[0] = p->n;
        dims[1] = p->m;
        strides[0] = p->d_ld * esz;
        box[0] = SMMA_SM90_ROWB / esz;
        box[1] = 64;
    }
}

/* The boxes one CTA issues per k-step: A, then B's (one for K-major, or
 * b_rows boxes of 64 columns for N-major; sm90-mixed: one per atom of X). */
SMMA_HD uint32_t
smma_sm90_nboxes(const smma_sm90_plan *p)
{
    if (p->version == 5)
        return 1 + p->kq; /* W's rows, then X's atoms */
    return 1 + (p->b_nmajor ? p->b_rows : 1);
}


/*
 * Box i of k-step kit of the tile at (m0, n0), loaded by CTA `rank` of
 * its cluster: the map (SMMA_SM90_MAP_*), its coordinates (innermost
 * first) and its offset in the stage.  Returns whether it is multicast to
 * every CTA of the cluster (B's boxes in a cluster of 2: CTA r loads the
 * r-th half of the stage's B).
 */
SMMA_HD bool
smma_sm90_box(const smma_sm90_plan *p, uint32_t i, uint32_t m0, uint32_t n0, uint32_t kit,
              uint32_t rank, unsigned *map, int32_t c[2], uint32_t *off)
{
    uint32_t q;

    if (p->version == 5) {
        /* sm90-mixed: W's rows as stored; this CTA's half of X's rows of
         * atom i - 1. */
        if (i == 0) {
            *map = SMMA_SM90_MAP_A;
            c[0] = (int32_t) (kit * p->ra);
            c[1] = (int32_t) m0;
            *off = p->off_ra;
            return false;
        }
        *map = SMMA_SM90_MAP_B;
        q = rank * p->b_rows;
        c[0] = (int32_t) (kit * p->bk + 64 * (i - 1));
        c[1] = (int32_t) (n0 + q);
        *off = p->off_b + (i - 1) * p->bn * SMMA_SM90_ROWB + q * SMMA_SM90_ROWB;
        return p->pipe.cluster > 1;
    }
    if (p->version == 4 || (i == 0 ? p->a_conv : p->b_conv)) {
        /* sm90-bs (and a converted operand of sm90-promote32): A's stored
         * rows, then this CTA's half of B's. */
        *map = i == 0 ? SMMA_SM90_MAP_A : SMMA_SM90_MAP_B;
        q = i == 0 ? 0 : rank * p->b_rows;
        c[0] = (int32_t) (kit * (i == 0 ? p->ra : p->rb));
        c[1] = (int32_t) (i == 0 ? m0 : n0 + q);
        *off = i == 0 ? p->off_ra : p->off_rb + q * p->rb;
        return i != 0 && p->pipe.cluster > 1;
    }
    if (i == 0) {
        *map = SMMA_SM90_MAP_A;
        c[0] = (int32_t) (kit * p->bk);
        c[1] = (int32_t) m0;
        *off = p->off_a;
        return false;
    }
    *map = SMMA_SM90_MAP_B;
    if (!p->b_nmajor) {
        q = rank * p->b_rows;                   /* the first row of B this CTA loads */
        c[0] = (int32_t) (kit * p->bk);
        c[1] = (int32_t) (n0 + q);
        *off = p->off_b + q * SMMA_SM90_ROWB;
    } else {
        q = rank * p->b_rows + (i - 1);         /* the box of 64 columns */
        c[0] = (int32_t) (n0 + 64 * q);
        c[1] = (int32_t) (kit * p->bk);
        *off = p->off_b + q * SMMA_SM90_NATOM;
    }
    return p->pipe.cluster > 1;
}

/* ---- the ragged last k-step ----------------------------------------------------------- */

/* K of one wgmma: 16 (16-bit operands) or 32 (fp8): 32 bytes of each row. */
SMMA_HD uint32_t
smma_sm90_kinstr(const smma_sm90_plan *p)
{
    return 32 / p->ebytes;
}

/* The k-steps whose bk elements all lie inside K (the kernels' fast path;
 * a ragged last one follows when K is not a multiple of bk). */
SMMA_HD uint32_t
smma_sm90_full_ksteps(const smma_sm90_plan *p)
{
    return p->k / p->bk;
}

/* Elements of K inside k-step kit, and the wgmma each warpgroup issues for
 * it (4, fewer in a ragged last k-step). */
SMMA_HD uint32_t
smma_sm90_kvalid(const smma_sm90_plan *p, uint32_t kit)
{
    uint32_t k0 = kit * p->bk;

    return p->k - k0 < p->bk ? p->k - k0 : p->bk;
}

SMMA_HD uint32_t
smma_sm90_nmma(const smma_sm90_plan *p, uint32_t kit)
{
    uint32_t ki = smma_sm90_kinstr(p);

    return (smma_sm90_kvalid(p, kit) + ki - 1) / ki;
}

/* The columns of A the fix-up sets to -0 in each row in k-step kit: from
 * the last valid k to the end of its wgmma's k (0 when K ends one).  None
 * for sm90-promote32: each of its wgmma starts from +0, so the padded +0
 * products leave a block's sum as the model's shorter block has it. */
SMMA_HD uint32_t
smma_sm90_fix_cols(const smma_sm90_plan *p, uint32_t kit)
{
    if (p->promote)
        return 0;
    return smma_sm90_kinstr(p) * smma_sm90_nmma(p, kit) - smma_sm90_kvalid(p, kit);
}

/* Write i (0 .. 64 * fix_cols - 1) of warpgroup wg's fix-up of k-step
 * kit: the stage offset of the 16-bit element to set to -0 (in the
 * warpgroup's 64 rows of A). */
SMMA_HD uint32_t
smma_sm90_fix_off(const smma_sm90_plan *p, uint32_t kit, uint32_t wg, uint32_t i)
{
    uint32_t nc = smma_sm90_fix_cols(p, kit);

    return smma_sm90_smem_a(p, 64 * wg + i / nc, smma_sm90_kvalid(p, kit) + i % nc);
}

/* ---- the scales of sm90-promote32 ---------------------------------------------------------- */

/*
 * Converter threads (gemm_p32.cu) read the e8m0 scales of a k-step's four
 * 32-k blocks from global memory, for the tile's 128 rows of A and 128
 * columns of B, and write them into the stage as fp32 (smma_sm90_e8m0),
 * where the consumers load them:
 *   - A: block j, row r at float j * 128 + 16 (r / 16) + 2 (r % 8) +
 *     (r / 8) % 2: a thread's two rows (r and r + 8) side by side, one
 *     8-byte load;
 *   - B: block j, column c at float j * 144 + 36 q + 2 (c / 8) + c % 2,
 *     q = (c / 2) % 4: the 32 columns of the threads of quarter q (t % 4)
 *     in a row, eight 16-byte loads, the quarters 36 floats apart (banks
 *     4 q ..) so that the four addresses of a load do not share a bank.
 */
#define SMMA_SM90_SFA_BYTES 2048u   /* 4 blocks x 128 rows x fp32 */
#define SMMA_SM90_SFB_QSTRIDE 36u   /* floats between B's quarters */
#define SMMA_SM90_SFB_BYTES (4u * 4u * SMMA_SM90_SFB_QSTRIDE * 4u)

SMMA_HD uint32_t
smma_sm90_sfa_off(const smma_sm90_plan *p, uint32_t j, uint32_t row)
{
    return p->off_sfa + 4 * (j * 128 + 16 * (row / 16) + 2 * (row % 8) + (row / 8) % 2);
}

SMMA_HD uint32_t
smma_sm90_sfb_off(const smma_sm90_plan *p, uint32_t j, uint32_t col)
{
    return p->off_sfb + 4 * (j * 4 * SMMA_SM90_SFB_QSTRIDE
                             + SMMA_SM90_SFB_QSTRIDE * ((col / 2) % 4) + 2 * (col / 8) + col % 2);
}

/*
 * The scales' products on the tensor core (sprod): for each 32-k block j,
 * one wgmma.m64n128k16.bf16 from zero whose A holds row r's scale sa_r at
 * k 0 and zeros elsewhere, and whose B holds column c's scale sb_c at k 0
 * and zeros elsewhere, gives every consumer thread sa_r * sb_c in the
 * accumulator's own registers; the promotion is then one fma per
 * accumulator, fma(tmp, s, acc), and no scale is loaded.  An e8m0 value is
 * a bf16 (the upper half of its fp32 bits), and the product of two powers
 * of two whose exponents lie in -63 .. 63 is an fp32 normal, which the
 * tensor core's sum of one product and fifteen zeros gives exactly:
 * rn_fp32(sa * sb), the model's.  The converters flag a k-step whose tile
 * has any scale outside that range, and the consumers promote its blocks
 * in fp32 as without sprod.
 * Both tiles are K-major without swizzle, the core matrices of k 0 .. 7
 * side by side along M or N (SBO 128): row (or column) x's k 0 at byte
 * 128 (x / 8) + 16 (x % 8) of its block's 2048 bytes, B's four blocks then
 * A's four from off_sfs; warpgroup w's A starts at row 64 w.  The core
 * matrices of k 8 .. 15 are the 2048 zero bytes at off_zero (LBO: their
 * distance).  The kernel zeroes the tiles once; the converters write only
 * each k 0.
 */
#define SMMA_SM90_SFS_BLOCK 2048u   /* 16 core matrices of 8 columns x 16 bytes */
#define SMMA_SM90_SFS_LO 64u        /* e8m0 codes whose products are fp32 normals */
#define SMMA_SM90_SFS_HI 190u

SMMA_HD uint32_t
smma_sm90_sfs_off(const smma_sm90_plan *p, uint32_t j, uint32_t col)
{
    return p->off_sfs + j * SMMA_SM90_SFS_BLOCK + 128 * (col / 8) + 16 * (col % 8);
}

/* A's scales the same way, four blocks after B's. */
SMMA_HD uint32_t
smma_sm90_sfsa_off(const smma_sm90_plan *p, uint32_t j, uint32_t row)
{
    return p->off_sfs + (4 + j) * SMMA_SM90_SFS_BLOCK + 128 * (row / 8) + 16 * (row % 8);
}

/* The descriptors of B's tile of block j (desc_sb), and of warpgroup wg's
 * rows of A's (desc_sa), in the slot at shared address st; the zeros at
 * shared address zero. */
SMMA_HD uint64_t
smma_sm90_desc_scales(uint32_t s, uint32_t zero)
{
    return smma_wgmma_desc_word(s, zero - s, 128, 0, SMMA_WGMMA_SW_NONE);
}

SMMA_HD uint64_t
smma_sm90_desc_sb(const smma_sm90_plan *p, uint32_t st, uint32_t zero, uint32_t j)
{
    return smma_sm90_desc_scales(st + smma_sm90_sfs_off(p, j, 0), zero);
}

SMMA_HD uint64_t
smma_sm90_desc_sa(const smma_sm90_plan *p, uint32_t st, uint32_t zero, uint32_t wg, uint32_t j)
{
    return smma_sm90_desc_scales(st + smma_sm90_sfsa_off(p, j, 64 * wg), zero);
}

/* sm90-promote32's third barrier of slot s, after the ring's full and
 * empty ones: "scales read", on which every consumer thread of the CTA
 * arrives once it has read the slot's scales, and for which the converters
 * wait before they write the slot's next ones (the slot's empty barrier
 * counts one release per warpgroup of the cluster, for TMA's data). */
SMMA_HD uint32_t
smma_sm90_sfree(const smma_sm90_plan *p, uint32_t slot)
{
    return smma_pipe_bar_end(&p->pipe) + 8u * slot;
}

/* sm90-promote32's fourth barrier of slot s: the operands it converts
 * (a_conv, b_conv) have landed as stored (the producer's arrival and their
 * bytes, smma_sm90_raw_tx). */
SMMA_HD uint32_t
smma_sm90_rawfull(const smma_sm90_plan *p, uint32_t slot)
{
    return smma_pipe_bar_end(&p->pipe) + 8u * (p->pipe.stages + slot);
}

SMMA_HD uint32_t
smma_sm90_raw_tx(const smma_sm90_plan *p)
{
    return (p->a_conv ? p->bm * p->ra : 0) + (p->b_conv ? p->bn * p->rb : 0);
}

/* Whether box i (smma_sm90_box) of sm90-promote32 lands on the raw barrier
 * (its operand is converted) rather than the full one. */
SMMA_HD bool
smma_sm90_box_raw(const smma_sm90_plan *p, uint32_t i)
{
    return p->version == 3 && (i == 0 ? p->a_conv : p->b_conv);
}

/*
 * sm90-promote32's conversion of an e2m1, e2m3 or e3m2 operand: chunk q
 * (16 bytes as stored) of the k-step's converted rows -- A's bm rows of ra
 * bytes, then B's bn rows of rb bytes, whichever are converted -- holds 32
 * codes (e2m1) or 16 (one a byte); it is written as 32 or 16 bytes of e4m3
 * (exact: every e2m1, e2m3 and e3m2 value is an e4m3 number) where TMA
 * would have put e4m3 codes: smma_sm90_smem_a / _b of its row and k.
 */
SMMA_HD uint32_t
smma_sm90_cvt_chunks(const smma_sm90_plan *p)
{
    return (p->a_conv ? p->bm * p->ra / 16 : 0) + (p->b_conv ? p->bn * p->rb / 16 : 0);
}

/* Chunk q's operand (0 A, 1 B), row, first k and stage offset as stored. */
SMMA_HD void
smma_sm90_cvt_chunk(const smma_sm90_plan *p, uint32_t q, uint32_t *op, uint32_t *row,
                    uint32_t *k0, uint32_t *raw)
{
    uint32_t na = p->a_conv ? p->bm * p->ra / 16 : 0, r, c, per;

    *op = q >= na;
    if (*op)
        q -= na;
    per = (*op ? p->rb : p->ra) / 16;
    r = q / per;
    c = q % per;
    *row = r;
    *k0 = c * 16 * 8 / smma_sm90_fmt_bits(*op ? p->b_fmt : p->a_fmt);
    *raw = (*op ? p->off_rb + r * p->rb : p->off_ra + r * p->ra) + 16 * c;
}

/* The byte offset in the scales of A (which SMMA_SM90_MAP_A, rows m) or B
 * (rows n) of scale (row, kb) as stored: linear, kb_cols a row, or the
 * 128x4 layout with kb_pad columns. */
SMMA_HD uint64_t
smma_sm90_sf_goff(const smma_sm90_plan *p, uint32_t row, uint32_t kb)
{
    if (p->sf_128x4)
        return smma_tc05_sf128x4_off(row, kb, p->kb_pad);
    return (uint64_t) row * p->kb_cols + kb;
}

/* Where sm90-mixed reads the scale of row g's block kb (kb < kb_cols):
 * byte kb % 4 of the word of blocks kb - kb % 4 .. + 3 (one 4-byte load of
 * the four, smma_sm90_sf_goff of the first) where the plan's sf_words says
 * they lie in an aligned word, else the byte itself. */
SMMA_HD uint64_t
smma_sm90_mx_sf_off(const smma_sm90_plan *p, uint32_t g, uint32_t kb)
{
    if (p->sf_words)
        return smma_sm90_sf_goff(p, g, kb & ~3u) + (kb & 3u);
    return smma_sm90_sf_goff(p, g, kb);
}

/* The bytes from the scales of a row's k-step kit to those of k-step kit + 1
 * (the four 32-k blocks of a k-step lie in a row: smma_sm90_sf_goff(p, g,
 * 4 kit + j) = smma_sm90_sf_goff(p, g, 0) + kit * smma_sm90_sf_kstep(p) + j):
 * the next 512-byte block of the 128x4 layout, or the next 4 bytes. */
SMMA_HD uint32_t
smma_sm90_sf_kstep(const smma_sm90_plan *p)
{
    return p->sf_128x4 ? 512u : 4u;
}

/* The value of an e8m0 code as an fp32 bit pattern: 2^(e - 127), which for
 * e = 0 (2^-127) is the subnormal 0x00400000; 0xff is NaN. */
SMMA_HD uint32_t
smma_sm90_e8m0(uint32_t e)
{
    return e == 0xffu ? 0x7fffffffu : e == 0 ? 0x00400000u : e << 23;
}

/* One promotion of sm90-promote32, as the kernel computes it and
 * h100-fp8-promote32 defines it: the block's two scales (fp32 values of
 * e8m0 codes, smma_sm90_e8m0) multiplied and rounded to nearest fp32
 * (subnormal or 0 below 2^-126, Inf above 2^127), then acc + tmp * s with
 * one rounding to nearest (fmaf).  A NaN comes out as the GPU's 0x7fffffff,
 * on the host too. */
SMMA_HD float
smma_sm90_promote(float tmp, float sa, float sb, float acc)
{
#if defined(__CUDA_ARCH__)
    return __fmaf_rn(tmp, __fmul_rn(sa, sb), acc);
#else
    float s = sa * sb, r = fmaf(tmp, s, acc);
    union { uint32_t u; float f; } nan = { 0x7fffffffu };

    return r != r ? nan.f : r;
#endif
}

/* The 32-k blocks of k-step kit (4, fewer in a ragged last k-step). */
SMMA_HD uint32_t
smma_sm90_kblocks(const smma_sm90_plan *p, uint32_t kit)
{
    return (smma_sm90_kvalid(p, kit) + 31) / 32;
}

/* ---- the conversion of sm90-bs ------------------------------------------------------- */

/*
 * The converter threads of sm90-bs (gemm_bs.cu) cut a k-step into units
 * of 16 k of one row: unit q of the k-step is row q / 4 of the bm + bn
 * rows (A's, then B's), its k from 16 (q % 4) on.  A unit reads its bytes
 * from the slot of the stored ring (rows of ra or rb bytes, unswizzled:
 * a warp's 32 units read 8 whole rows, contiguous), multiplies its 16
 * elements by the one scale they share (a block of 16 or 32 k holds whole
 * units) and writes them as two 16-byte chunks of bf16 into the slot of the
 * bf16 ring, where smma_sm90_smem_a / _b put them (the 128-byte swizzle: a
 * warp's stores fall into distinct banks four times over).
 */
#define SMMA_SM90_BS_CONVERTERS 128u /* converter threads: warpgroup 0 */

SMMA_HD uint32_t
smma_sm90_units(const smma_sm90_plan *p)
{
    return 4 * (p->bm + p->bn);
}

/* Who converts which units of a k-step (sm90-bs): `who` 0 is the
 * converter warpgroup, whose thread t takes the units of B, 4 bm + t + 128 j
 * for j below 4 bn / 128; `who` 1 + c is consumer warpgroup c, whose thread
 * t takes those of its own 64 rows of A, 256 c + t + 128 j for j = 0, 1
 * (only its own wgmma read them).  Each thread's units share their k
 * (t % 4) and their row mod 8, so that their offsets differ by constants. */
SMMA_HD uint32_t
smma_sm90_unit_first(const smma_sm90_plan *p, uint32_t who)
{
    return who == 0 ? 4 * p->bm : 256 * (who - 1);
}

SMMA_HD uint32_t
smma_sm90_unit_count(const smma_sm90_plan *p, uint32_t who)
{
    return (who == 0 ? 4 * p->bn : 256) / SMMA_SM90_BS_CONVERTERS;
}

/* The offset of unit q's bytes in a slot of the stored ring. */
SMMA_HD uint32_t
smma_sm90_unit_raw(const smma_sm90_plan *p, uint32_t q)
{
    uint32_t row = q / 4, u = q % 4;

    return row < p->bm ? p->off_ra + row * p->ra + u * (p->ra / 4)
                       : p->off_rb + (row - p->bm) * p->rb + u * (p->rb / 4);
}

/* The offset of chunk h (0, 1: k 8 h .. 8 h + 7 of the unit) of unit q in
 * a slot of the bf16 ring: row q / 4 of the slot's bm + bn rows of 128
 * bytes (A's, then B's at off_b = bm * 128, both K-major), 16-byte chunk
 * 2 (q % 4) + h swizzled by the row (the 128-byte swizzle XORs the chunk
 * with the row mod 8).  That is smma_sm90_smem_a (smma_sm90_smem_b for B's
 * rows) of the unit's row and k, written out so that the converters spend
 * a few integer operations on it (tests/sim/sm90-bs-dry-t checks that the
 * two agree for every unit). */
SMMA_HD uint32_t
smma_sm90_unit_conv(const smma_sm90_plan *p, uint32_t q, uint32_t h)
{
    uint32_t row = q / 4;

    (void) p;
    return row * SMMA_SM90_ROWB + (((2 * (q % 4) + h) ^ (row % 8)) << 4);
}

/* The scale column of unit q in k-step kit (the block of its first k). */
SMMA_HD uint32_t
smma_sm90_unit_kb(const smma_sm90_plan *p, uint32_t kit, uint32_t q)
{
    return (kit * p->bk + 16 * (q % 4)) >> p->vshift;
}

/* ---- wgmma ----------------------------------------------------------------------------- */

/* The descriptors of wgmma j (0 .. 3) of warpgroup wg in the stage slot at
 * shared address st: A's 64 rows from row 64 wg, K-major 128B (LBO 16,
 * unused), 32 bytes further per j; B's bn rows K-major likewise, or
 * N-major 128B (LBO 8192, SBO 1024) 2048 bytes further per j. */
SMMA_HD uint64_t
smma_sm90_desc_a(const smma_sm90_plan *p, uint32_t st, uint32_t wg, uint32_t j)
{
    return smma_wgmma_desc_word(st + p->off_a + wg * 64 * SMMA_SM90_ROWB + 32 * j, 16,
                                SMMA_SM90_SBO, 0, SMMA_WGMMA_SW_128B);
}

SMMA_HD uint64_t
smma_sm90_desc_b(const smma_sm90_plan *p, uint32_t st, uint32_t j)
{
    if (p->b_nmajor)
        return smma_wgmma_desc_word(st + p->off_b + 16 * SMMA_SM90_ROWB * j, SMMA_SM90_NATOM,
                                    SMMA_SM90_SBO, 0, SMMA_WGMMA_SW_128B);
    return smma_wgmma_desc_word(st + p->off_b + 32 * j, 16, SMMA_SM90_SBO, 0,
                                SMMA_WGMMA_SW_128B);
}

/*
 * sm90-promote32's descriptors without their arithmetic in the k-step: a
 * consumer computes those of block 0 in slot 0 once (smma_sm90_p32_descs0)
 * and moves them to slot s and block j (smma_sm90_p32_descs_at) with one
 * addition each: its A and B (32 bytes further per block), the scale tiles
 * of A and B (SMMA_SM90_SFS_BLOCK further, and the LBO that much shorter,
 * so that it still reaches the same zeros).  The same words as
 * smma_sm90_desc_a, _b, _sa and _sb give (tests/sim/sm90-p32-dry-t.c).
 */
typedef struct smma_sm90_p32_descs {
    uint64_t a, b, sa, sb;
} smma_sm90_p32_descs;

/* desc moved bytes further on (a multiple of 16): its start address, and
 * with fixed_lbo its LBO shortened as much.  Exact while both stay inside
 * their 14-bit fields, as addresses and distances inside shared memory do. */
SMMA_HD uint64_t
smma_sm90_desc_move(uint64_t desc, uint32_t bytes, bool fixed_lbo)
{
    uint64_t d = desc + (bytes >> 4);

    return fixed_lbo ? d - ((uint64_t) (bytes >> 4) << 16) : d;
}

/* Block 0 of slot 0 (the ring's base at shared address sbase) for
 * warpgroup wg. */
SMMA_HD smma_sm90_p32_descs
smma_sm90_p32_descs0(const smma_sm90_plan *p, uint32_t sbase, uint32_t wg)
{
    smma_sm90_p32_descs d;
    uint32_t zero = sbase + p->off_zero;

    d.a = smma_sm90_desc_a(p, sbase, wg, 0);
    d.b = smma_sm90_desc_b(p, sbase, 0);
    d.sa = smma_sm90_desc_sa(p, sbase, zero, wg, 0);
    d.sb = smma_sm90_desc_sb(p, sbase, zero, 0);
    return d;
}

/* Block j of slot s from d0 (K-major B, as sm90-promote32's always is). */
SMMA_HD smma_sm90_p32_descs
smma_sm90_p32_descs_at(const smma_sm90_plan *p, const smma_sm90_p32_descs *d0, uint32_t s,
                       uint32_t j)
{
    smma_sm90_p32_descs d;
    uint32_t slot = s * p->pipe.stage_bytes;

    d.a = smma_sm90_desc_move(d0->a, slot + 32 * j, false);
    d.b = smma_sm90_desc_move(d0->b, slot + 32 * j, false);
    d.sa = smma_sm90_desc_move(d0->sa, slot + SMMA_SM90_SFS_BLOCK * j, true);
    d.sb = smma_sm90_desc_move(d0->sb, slot + SMMA_SM90_SFS_BLOCK * j, true);
    return d;
}

/* Whether wgmma j of k-step kit adds to the accumulator (scale-d): always
 * with C (loaded into the registers first), else all but the tile's first;
 * never in sm90-promote32 (each wgmma sums its 32-k block from zero). */
SMMA_HD bool
smma_sm90_scale_d(const smma_sm90_plan *p, uint32_t kit, uint32_t j)
{
    return !p->promote && (p->c_kind != SMMA_PIPE_NONE || kit > 0 || j > 0);
}

/* ---- the accumulator and the epilogue -------------------------------------------------- */

/* The tile row and column register reg of thread t (0..127) of warpgroup
 * wg holds. */
SMMA_HD void
smma_sm90_d_cell(uint32_t wg, uint32_t t, uint32_t reg, uint32_t *row, uint32_t *col)
{
    unsigned r, c;

    smma_wgmma_d_cell(t, reg, &r, &c);
    *row = 64 * wg + r;
    *col = c;
}

/* Columns of D per epilogue buffer (128 bytes: 32 fp32 or 64 16-bit), and
 * buffers per warpgroup and tile. */
SMMA_HD uint32_t
smma_sm90_epi_cols(const smma_sm90_plan *p)
{
    return p->d_kind == SMMA_PIPE_F32 ? 32 : 64;
}

SMMA_HD uint32_t
smma_sm90_epi_chunks(const smma_sm90_plan *p)
{
    return p->bn / smma_sm90_epi_cols(p);
}

/* The shared offset of element (row, col) (row 0..63 of the warpgroup's
 * rows, col 0 .. epi_cols-1) in epilogue buffer buf (0, 1) of warpgroup
 * wg: rows of 128 bytes with the 128-byte swizzle, where a TMA store box
 * of smma_sm90_tma_geom (SMMA_SM90_MAP_D) reads element (x, y). */
SMMA_HD uint32_t
smma_sm90_epi_off(const smma_sm90_plan *p, uint32_t wg, uint32_t buf, uint32_t row,
                  uint32_t col)
{
    uint32_t esz = p->d_kind == SMMA_PIPE_F32 ? 4 : 2;

    return smma_tc05_swz(SMMA_TC05_SW_128B, p->off_epi + (2 * wg + buf) * SMMA_SM90_EPI_BUF
                                                + row * SMMA_SM90_ROWB + col * esz);
}

/* The global coordinates (column, row: innermost first) of epilogue chunk
 * q of warpgroup wg of the tile at (m0, n0). */
SMMA_HD void
smma_sm90_epi_coord(const smma_sm90_plan *p, uint32_t m0, uint32_t n0, uint32_t wg, uint32_t q,
                    int32_t c[2])
{
    c[0] = (int32_t) (n0 + q * smma_sm90_epi_cols(p));
    c[1] = (int32_t) (m0 + 64 * wg);
}

/* ---- sm90-mixed (version 5) --------------------------------------------------------------- */

/* sm90-mixed's CTAs an SM for bn rows of X: two, each with half the
 * shared memory, so that an SM keeps more loads of W in flight; one for
 * 256 rows, whose accumulators need more registers than two CTAs leave. */
#define SMMA_SM90_MX_CTAS(bn) ((bn) >= 256 ? 1u : 2u)

/* The stage offset of the byte that holds element kk (0 .. bk-1) of the
 * k-step of W's tile row `row` (0 .. bm-1), as stored. */
SMMA_HD uint32_t
smma_sm90_mx_w_off(const smma_sm90_plan *p, uint32_t row, uint32_t kk)
{
    return p->off_ra + row * p->ra + kk * smma_sm90_fmt_bits(p->a_fmt) / 8;
}

/* Element e (0, 1) of register reg (0 .. 3) of the A fragment of thread t
 * (0 .. 127) of warpgroup wg for the k-step's 16-k block j: W's tile row
 * and the k in the k-step. */
SMMA_HD void
smma_sm90_mx_a_cell(uint32_t wg, uint32_t t, uint32_t j, uint32_t reg, uint32_t e,
                    uint32_t *row, uint32_t *kk)
{
    unsigned r, c;

    smma_wgmma_a16_cell(t, reg, e, &r, &c);
    *row = 64 * wg + r;
    *kk = 16 * j + c;
}

/* The stage offset of X's element (x, kk) (x 0 .. bn-1, kk 0 .. bk-1):
 * atom kk / 64, K-major 128B. */
SMMA_HD uint32_t
smma_sm90_mx_x_off(const smma_sm90_plan *p, uint32_t x, uint32_t kk)
{
    uint64_t bits = smma_tc05_canon_bits(false, SMMA_SM90_ROWB, 16, 16, SMMA_SM90_SBO, x,
                                         kk % 64);

    return smma_tc05_swz(SMMA_TC05_SW_128B, p->off_b + (kk / 64) * p->bn * SMMA_SM90_ROWB
                                                + (uint32_t) (bits / 8));
}

/* The descriptor of X for the k-step's 16-k block j in the stage slot at
 * shared address st: atom j / 4, 32 bytes further per block. */
SMMA_HD uint64_t
smma_sm90_mx_desc_x(const smma_sm90_plan *p, uint32_t st, uint32_t j)
{
    return smma_wgmma_desc_word(st + p->off_b + (j / 4) * p->bn * SMMA_SM90_ROWB + 32 * (j % 4),
                                16, SMMA_SM90_SBO, 0, SMMA_WGMMA_SW_128B);
}

/* The element of the caller's D (or C, with ld its leading dimension) that
 * the plan's D holds at W's row w and X's row x. */
SMMA_HD uint64_t
smma_sm90_mx_dpos(const smma_sm90_plan *p, uint64_t ld, uint32_t w, uint32_t x)
{
    return p->w_is_b ? (uint64_t) x * ld + w : (uint64_t) w * ld + x;
}

/* The bytes of the bf16 copy of X that sm90-mixed's pass writes before
 * the GEMM (b_ld elements a row): 0 where X is bf16 as stored. */
SMMA_HD uint64_t
smma_sm90_mx_x_bytes(const smma_sm90_plan *p)
{
    return p->x_fmt != SMMA_BF16 ? (uint64_t) p->n * p->b_ld * 2 : 0;
}

/* ---- the conversion pass ---------------------------------------------------------------- */

/* sm90-bs and sm90-promote32 convert their operands in a pass of their own
 * before the GEMM (gemm_bs.cu s90_bs_pre, gemm_p32.cu s90_p32_pre,
 * launch.cu): every unit of 16 elements of a row once, into a copy in
 * global memory -- bf16 times its scale for sm90-bs (then sm90-v2 computes
 * the bf16 GEMM), the e4m3 code of each e2m1, e2m3 or e3m2 code for
 * sm90-promote32 (then its fp8 path) -- where the kernel's own converters
 * convert each unit once per tile of the other operand, at a fraction of
 * the tensor core's rate.  On an H200 the pass was the faster at every
 * shape measured, M from 32 to 8192 (bench/sm90-kernels.md). */

/* Elements between rows of a converted copy: K rounded up to a unit, so
 * that its rows begin 32 (bf16) or 16 (e4m3) bytes apart. */
SMMA_HD uint64_t
smma_sm90_pre_ld(uint32_t k)
{
    return ((uint64_t) k + 15u) / 16u * 16u;
}

/* The byte of element k0 of row `row` of an operand whose rows are ld
 * bytes apart and whose elements are `bits` wide (the pass reads units as
 * stored there and writes its copy there). */
SMMA_HD uint64_t
smma_sm90_pre_off(uint64_t ld, uint32_t row, uint32_t k0, uint32_t bits)
{
    return (uint64_t) row * ld + (uint64_t) k0 * bits / 8u;
}

/* The unit u (16 elements) of a copy of rows of k elements, row major:
 * its row and first k. */
SMMA_HD void
smma_sm90_pre_unit(uint64_t u, uint32_t k, uint32_t *row, uint32_t *k0)
{
    uint32_t upr = (k + 15u) / 16u;

    *row = (uint32_t) (u / upr);
    *k0 = (uint32_t) (u % upr) * 16u;
}

#endif /* SOFTMMA_GPU_SM90_PLAN_H */

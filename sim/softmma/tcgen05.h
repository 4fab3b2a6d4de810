/*
 * softmma/tcgen05.h - the descriptors of tcgen05.mma (sm_100a/100f/103a), as
 * checked encoders and decoders, and the shared-memory operand layouts they
 * describe, as an address function.
 *
 * Sources (PTX ISA 8.7 to 9.x; the section numbers moved from 9.7.16 to
 * 9.7.17 between versions, the table contents did not):
 *   - "Instruction descriptor" (9.7.16.4.2 / 9.7.17.4.2): Table "Instruction
 *     descriptor format for .kind::tf32, .kind::f16, .kind::f8f6f4 and
 *     .kind::i8", Table "... for .kind::mxf8f6f4", Table "... for .kind::mxf4
 *     and .kind::mxf4nvf4";
 *   - "Matrix Shape" (9.7.16.2.1): Table "Various combinations of .kind and
 *     shapes" (which M and N are legal);
 *   - "Shared memory descriptor" (9.7.16.4.1): Table "Shared memory
 *     descriptor layout" and Table "Starting address of repeating pattern
 *     for various swizzling modes";
 *   - "Shared Memory Matrix Layout", "Leading / Stride dimension byte
 *     offset" and "Canonical Layouts" (tcgen05 9.7.16.3, the same text as
 *     wgmma 9.7.15.5.1.2), with its worked examples (tf32 K-major none and
 *     32B, bf16 MN-major none, 32B and 64B);
 *   - CUTLASS include/cute/arch/mma_sm100_desc.hpp (UMMA::InstrDescriptor,
 *     InstrDescriptorBlockScaled, SmemDescriptor, LayoutType) and
 *     include/cute/atom/mma_traits_sm100.hpp (Layout_MN_SW128_32B_Atom:
 *     Swizzle<2,5,2>), read to cross-check the bit positions.
 *
 * Instruction descriptor, 32 bits, by kind ("bs" = the block-scaled kinds
 * mxf8f6f4, mxf4, mxf4nvf4):
 *
 *   bits   tf32/f16/f8f6f4/i8              bs
 *   0-1    sparsity selector               reserved 0
 *   2      sparse                          sparse
 *   3      saturate (i8 only)              reserved 0
 *   4-5    D format F16=0 F32=1 S32=2      scale-factor id of B
 *   6      reserved 0                      reserved 0
 *   7-9    A format                        A format
 *   10-12  B format                        B format (mxf4*: bits 10-11, 12 reserved)
 *   13,14  negate A, negate B (not i8)     negate A, negate B
 *   15,16  transpose A, B (1 = MN-major)   transpose A, B (mxf4*: must be 0)
 *   17-22  N >> 3                          N >> 3
 *   23     reserved 0                      scale format UE4M3=0 UE8M0=1
 *   24-28  M >> 4                          24-26 reserved, 27-28 M >> 7
 *   29     reserved 0                      29-30 scale-factor id of A
 *   30-31  max shift (.ws B reuse)         31: mxf8f6f4 reserved;
 *                                              mxf4*: K=96 (dense) = 1
 *
 * Format codes: f16 kind F16=0 BF16=1; tf32 kind TF32=2; f8f6f4 and
 * mxf8f6f4 E4M3=0 E5M2=1 E2M3=3 E3M2=4 E2M1=5; mxf4* E2M1=1; i8 U8=0 S8=1.
 *
 * Not checked here, because they involve more than the instruction
 * descriptor: the .ws-only values (M = 32, N in {64, 128, 256}, max shift),
 * the cta_group (M = 256 needs cta_group::2; these functions only require
 * N % 16 == 0 for it), and the ISA's rule that .kind::tf32 may transpose A
 * or B only with the 128B/32B-atomicity swizzle while the other kinds may
 * not use that swizzle with a transpose.
 */
#ifndef SOFTMMA_TCGEN05_H
#define SOFTMMA_TCGEN05_H 1

#include <stdbool.h>
#include <stdint.h>

#include <softmma/format.h>
#include <softmma/grid.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The .kind qualifiers of tcgen05.mma.  The numbering never changes. */
typedef enum smma_tc05_kind {
    SMMA_TC05_KIND_TF32 = 0,
    SMMA_TC05_KIND_F16,
    SMMA_TC05_KIND_F8F6F4,
    SMMA_TC05_KIND_I8,
    SMMA_TC05_KIND_MXF8F6F4,
    SMMA_TC05_KIND_MXF4,
    SMMA_TC05_KIND_MXF4NVF4,
    SMMA_TC05_KIND_COUNT
} smma_tc05_kind;

/* Operand format codes, as the ISA tables number them (per kind). */
enum {
    SMMA_TC05_F16 = 0, SMMA_TC05_BF16 = 1, SMMA_TC05_TF32 = 2,   /* f16, tf32 kinds */
    SMMA_TC05_E4M3 = 0, SMMA_TC05_E5M2 = 1, SMMA_TC05_E2M3 = 3,  /* f8f6f4, mxf8f6f4 */
    SMMA_TC05_E3M2 = 4, SMMA_TC05_E2M1 = 5,
    SMMA_TC05_MXF4_E2M1 = 1,                                     /* mxf4, mxf4nvf4 */
    SMMA_TC05_U8 = 0, SMMA_TC05_S8 = 1                           /* i8 */
};

/* D format codes (bits 4-5 of the non-block-scaled kinds). */
enum { SMMA_TC05_D_F16 = 0, SMMA_TC05_D_F32 = 1, SMMA_TC05_D_S32 = 2 };

/* Scale format codes (bit 23 of the block-scaled kinds). */
enum { SMMA_TC05_SCALE_UE4M3 = 0, SMMA_TC05_SCALE_UE8M0 = 1 };

/* Every field of an instruction descriptor, decoded.  m and n are the real
 * dimensions (not shifted).  A field that a kind does not have must be 0:
 * sparse_id, saturate, d_fmt and max_shift exist only for tf32, f16, f8f6f4
 * and i8; sfa_id, sfb_id, scale_fmt and k96 only for the block-scaled kinds
 * (k96 only for mxf4 and mxf4nvf4). */
typedef struct smma_tc05_idesc {
    unsigned sparse_id;   /* bits 0-1: sparsity selector, 0..3 (only when sparse) */
    bool sparse;          /* bit 2 */
    bool saturate;        /* bit 3: i8 only */
    unsigned d_fmt;       /* bits 4-5: SMMA_TC05_D_* */
    unsigned a_fmt;       /* bits 7-9 */
    unsigned b_fmt;       /* bits 10-12 (10-11 for mxf4, mxf4nvf4) */
    bool negate_a;        /* bit 13 (not i8) */
    bool negate_b;        /* bit 14 (not i8) */
    bool a_mn_major;      /* bit 15: "Transpose A"; 0 = K-major, 1 = M-major */
    bool b_mn_major;      /* bit 16: "Transpose B"; 0 = K-major, 1 = N-major */
    unsigned n;           /* bits 17-22 hold n >> 3 */
    unsigned m;           /* bits 24-28 hold m >> 4 (block-scaled: 27-28 hold m >> 7) */
    unsigned max_shift;   /* bits 30-31: 0 none, 1 = 8, 2 = 16, 3 = 32 (.ws B reuse) */
    unsigned sfb_id;      /* bits 4-5, block-scaled: mxf8f6f4 0..3, mxf4* 0 or 2 */
    unsigned sfa_id;      /* bits 29-30, block-scaled: as sfb_id */
    unsigned scale_fmt;   /* bit 23, block-scaled: SMMA_TC05_SCALE_* */
    bool k96;             /* bit 31, mxf4 and mxf4nvf4: dense K = 96 instead of 64 */
} smma_tc05_idesc;

/* The name of a kind ("tf32", "f16", "f8f6f4", "i8", "mxf8f6f4", "mxf4",
 * "mxf4nvf4"), or "?" out of range. */
const char *smma_tc05_kind_name(smma_tc05_kind kind);

/* True for mxf8f6f4, mxf4 and mxf4nvf4. */
bool smma_tc05_kind_block_scaled(smma_tc05_kind kind);

/* Checks every field of *d against the ISA tables for kind.  The rules:
 * formats and D format legal for the kind (f8f6f4 D F16 or F32; tf32 F32;
 * i8 S32); MN-major only for 16- and 32-bit formats, E4M3/E5M2 and 8-bit
 * integers (never for mxf4, mxf4nvf4); saturate only for i8; negation not
 * for i8; sparse_id nonzero only when sparse; M in {64, 128, 256} (also 32,
 * which only tcgen05.mma.ws accepts) for the other kinds and in {128, 256}
 * for the block-scaled ones; N a multiple of 8 in [8, 256], and of 16 when
 * M = 256 (cta_group::2); scale format UE8M0 except UE4M3 also for mxf4nvf4;
 * scale-factor ids 0..3 (mxf8f6f4) or 0 and 2 (mxf4*); k96 only dense.
 * Returns SMMA_OK, or SMMA_EINVAL with a message naming the field. */
int smma_tc05_idesc_check(smma_tc05_kind kind, const smma_tc05_idesc *d, smma_error *err);

/* Encodes *d (checked as above) into *out.  Returns SMMA_OK, or SMMA_EINVAL
 * with a message naming the field, *out then untouched. */
int smma_tc05_idesc_encode(smma_tc05_kind kind, const smma_tc05_idesc *d, uint32_t *out,
                           smma_error *err);

/* Decodes a descriptor of kind into *d.  Fails with SMMA_EINVAL, naming the
 * bits, when a reserved bit is set or a field is illegal for the kind; *d
 * is then unspecified. */
int smma_tc05_idesc_decode(smma_tc05_kind kind, uint32_t v, smma_tc05_idesc *d,
                           smma_error *err);

/* ---- the shared-memory matrix descriptor ---------------------------------- */

/* Swizzling modes, numbered as the descriptor's bits 61-63 (3, 5 and 7 are
 * invalid). */
typedef enum smma_tc05_swizzle {
    SMMA_TC05_SWIZZLE_NONE = 0,
    SMMA_TC05_SWIZZLE_128B_BASE32B = 1, /* 128-byte with 32-byte atomicity */
    SMMA_TC05_SWIZZLE_128B = 2,
    SMMA_TC05_SWIZZLE_64B = 4,
    SMMA_TC05_SWIZZLE_32B = 6
} smma_tc05_swizzle;

/* The fields of a shared-memory descriptor, in bytes where the descriptor
 * holds "matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4":
 *
 *   bits 0-13   start >> 4           bits 14-15 reserved 0
 *   bits 16-29  lbo >> 4             bits 30-31 reserved 0
 *   bits 32-45  sbo >> 4             bits 46-48 fixed 0b001
 *   bits 49-51  base offset          bit 52 leading-dimension mode
 *   bits 53-60  fixed 0              bits 61-63 swizzle mode
 *
 * The ISA text prints the bits 53-60 constant as "0xb00000000"; its later
 * revision and CUTLASS (SmemDescriptor: the field is unused) have 0. */
typedef struct smma_tc05_sdesc {
    uint32_t start;         /* matrix start address, bytes, 16-aligned, < 2^18 */
    uint32_t lbo;           /* leading-dimension byte offset (or absolute address) */
    uint32_t sbo;           /* stride-dimension byte offset */
    unsigned base_offset;   /* 0..7: (pattern start address >> 7) & 7 */
    bool lbo_absolute;      /* bit 52: LBO is an absolute address (sm_103a) */
    smma_tc05_swizzle swizzle;
} smma_tc05_sdesc;

/* Encodes *d.  start, lbo and sbo must be multiples of 16 below 2^18 (the
 * ISA masks with 0x3FFFF; softmma refuses what the mask would drop), the
 * base offset 0..7, the swizzle one of the five modes.  Returns SMMA_OK or
 * SMMA_EINVAL naming the field. */
int smma_tc05_sdesc_encode(const smma_tc05_sdesc *d, uint64_t *out, smma_error *err);

/* Decodes v.  Fails with SMMA_EINVAL, naming the bits, when bits 46-48 are
 * not 0b001, a reserved bit (14-15, 30-31, 53-60) is set, or the swizzle
 * mode is 3, 5 or 7. */
int smma_tc05_sdesc_decode(uint64_t v, smma_tc05_sdesc *d, smma_error *err);

/* The swizzle width in bytes (16 for none, 32, 64, 128, 128 for 128B with
 * 32-byte atomicity), or 0 for an invalid mode. */
unsigned smma_tc05_swizzle_bytes(smma_tc05_swizzle s);

/* Applies the swizzle of mode s to a shared-memory byte address.  With b =
 * log2(width / 16), CuTe's Swizzle<b,4,3>: address bits [4, 4+b) are XORed
 * with bits [7, 7+b) (128B: bits 4-6 with 7-9; 64B: 4-5 with 7-8; 32B: 4
 * with 7).  128B with 32-byte atomicity is CuTe's Swizzle<2,5,2>: bits 5-6
 * XORed with bits 7-8.  The bits are those of the absolute address, so the
 * pattern repeats from 1024-, 512- and 256-byte boundaries (ISA "Starting
 * address of repeating pattern").  An invalid mode returns addr unchanged. */
uint32_t smma_tc05_swizzle_apply(smma_tc05_swizzle s, uint32_t addr);

/* ---- canonical operand layouts ---------------------------------------------- */

/* One operand tile in shared memory: A (M x K) or B (N x K); "row" is the
 * M or N index, "k" the K index. */
typedef struct smma_tc05_layout {
    bool mn_major;          /* false: K-major ("no transpose"), true: MN-major */
    smma_tc05_swizzle swizzle;
    unsigned elem_bits;     /* 4, 8, 16 or 32; T = 128 / elem_bits elements per 16 bytes */
    uint32_t lbo, sbo;      /* the descriptor's byte offsets */
} smma_tc05_layout;

/*
 * The address of element (row, k) under the ISA's canonical layouts (CuTe
 * notation, in elements, T = 128 / elem_bits, W = swizzle bytes, c = W / 16):
 *
 *   K-major,  none:     ((8,m),(T,2k)) : ((1T,SBO),(1,LBO))
 *   K-major,  W-byte:   ((8,m),(T,2k)) : ((cT,SBO),(1,T))      then Swizzle
 *   MN-major, none:     ((T,1,m),(8,k)) : ((1,T,SBO),(1T,LBO))
 *   MN-major, W-byte:   ((T,c,m),(8,k)) : ((1,T,LBO),(cT,SBO)) then Swizzle
 *
 * that is, in bytes (eb = elem_bits / 8):
 *
 *   K none:  (row%8)*16 + (row/8)*SBO + (k%T)*eb + (k/T)*LBO
 *   K W:     (row%8)*W  + (row/8)*SBO + k*eb                   (k*eb < W)
 *   MN none: (row%T)*eb + (row/T)*SBO + (k%8)*16 + (k/8)*LBO
 *   MN W:    (row%(cT))*eb + (row/(cT))*LBO + (k%8)*W + (k/8)*SBO
 *
 * The building block is the core matrix: 8 rows of 16 bytes (K-major: 8
 * MN-rows by T k; MN-major: T MN-elements by 8 k), 128 contiguous bytes
 * without swizzling; a swizzle atom is 8 rows of W bytes.  The address is
 * swizzle(start + linear), see smma_tc05_swizzle_apply; with start aligned
 * to 8*W bytes this is start + swizzle(linear).  A 4-bit element is packed
 * two to a byte, the lower index (along the contiguous dimension) in the
 * low nibble (CUTLASS's sub-byte array order; the ISA's canonical tables
 * only fix T = 32 such elements per 16 bytes): *bit is 0 or 4 then, 0
 * otherwise.  The padded shared-memory formats of .kind::f8f6f4 for 4- and
 * 6-bit operands (16 elements then padding to 16 bytes) are not modelled:
 * describe them as their 8-bit container, or not at all.  The
 * descriptor's base offset is not modelled.
 *
 * Fails with SMMA_EINVAL for elem_bits not 4/8/16/32, an invalid swizzle,
 * k*eb >= W for swizzled K-major (the canonical layout holds one atom
 * along K), or SMMA_TC05_SWIZZLE_128B_BASE32B: the ISA's canonical table
 * has no row for it (CUTLASS has an MN-major atom of 128 bytes by 4 k,
 * Swizzle<2,5,2>), so softmma does not guess its LBO/SBO roles.
 */
int smma_tc05_smem_addr(const smma_tc05_layout *l, uint32_t start, unsigned row, unsigned k,
                        uint32_t *byte, unsigned *bit, smma_error *err);

/* The name of a swizzle mode: "none", "128B-base32B", "128B", "64B", "32B"
 * ("?" for a value that is not a mode), and the mode of a name
 * (case-insensitive; SMMA_EINVAL naming the known ones). */
const char *smma_tc05_swizzle_name(smma_tc05_swizzle s);
int smma_tc05_swizzle_from_name(const char *name, smma_tc05_swizzle *out, smma_error *err);

/* The drawable form (softmma/grid.h) of an operand tile of rows (M or N) x
 * k elements in shared memory under layout l at address 0: row = the M or
 * N index, column = the K index, each cell the byte address of the element
 * (smma_tc05_smem_addr), "B.4" for the high nibble of byte B (4-bit
 * elements), owned (and coloured) by its 16-byte chunk, byte / 16.  The
 * layout answers no holder
 * queries (no thread holds shared memory).  SMMA_EINVAL for rows or k 0 or
 * above 256, or for what smma_tc05_smem_addr refuses at any element of the
 * tile (the message names the element). */
int smma_tc05_smem_grid(const smma_tc05_layout *l, unsigned rows, unsigned k, smma_grid *g,
                        smma_error *err);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_TCGEN05_H */

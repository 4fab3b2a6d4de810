/*
 * softmma/wgmma.h - the warpgroup MMA of sm_90a, wgmma.mma_async, as
 * functions: its register fragments, its shared-memory matrix descriptor,
 * an executor of one instruction, its PTX text and its drawable form.
 *
 * Modeled instructions (f32 accumulators only):
 *
 *   wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16
 *   wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16
 *   wgmma.mma_async.sync.aligned.m64nNk32.f32.atype.btype
 *       atype, btype in {e4m3, e5m2}, chosen independently
 *
 * with N = 8, 16, ..., 256.  A warpgroup of 128 threads (four consecutive
 * warps, thread t = 32 w + lane) computes D (64 x N) = A (64 x K) * B (K x N)
 * + D, or A * B when the predicate scale-d is false.  A comes from registers
 * or from shared memory through a matrix descriptor, B always from shared
 * memory through a descriptor.
 *
 * Sources (PTX ISA 8.0 to 9.x, section 9.7.15 "Asynchronous Warpgroup Level
 * Matrix Multiply-Accumulate Instructions"):
 *   - 9.7.15.5 "wgmma.mma_async": syntax, the operands d, a / a-desc,
 *     b-desc, scale-d, imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b,
 *     and which forms have the trans immediates ("only supported for the
 *     .f16/.bf16 types on matrices accessed from shared memory using matrix
 *     descriptors");
 *   - 9.7.15.5.1.1 "Register Fragments": "Matrix Fragments for
 *     wgmma.mma_async.m64nNk16" (Figure "WGMMA .m64nNk16 register fragment
 *     layout for matrix A" and "... for accumulator matrix D") and "Matrix
 *     Fragments for wgmma.mma_async.m64nNk32" (the same figures for 8-bit
 *     A and for D);
 *   - 9.7.15.5.1.2 "Shared Memory Matrix Layout" and 9.7.15.5.1.2.2 "Matrix
 *     Descriptor Format" (the bit table below, and "Starting address of the
 *     repeating pattern");
 *   - 9.7.15.7 "wgmma.fence", "wgmma.commit_group", "wgmma.wait_group";
 *   - CUTLASS include/cute/atom/mma_traits_sm90_gmma.hpp (ALayout_64x16,
 *     ALayout_64x32, CLayout_64xN) and include/cute/arch/mma_sm90_desc.hpp
 *     (GmmaDescriptor, LayoutType), read to cross-check the figures and the
 *     bit positions.
 *
 * Register fragments.  With w = t / 32, lane = t % 32, group = lane / 4 and
 * tig = lane % 4 (the ISA's groupID and threadID_in_group), warp w holds rows
 * 16w .. 16w+15 of A and D, in the arrangement of mma.m16n8k16 (16-bit A)
 * and mma.m16n8k32 (8-bit A); element i of a thread is the i-th element
 * counted from the low bits of its first register ("Elements (low to
 * high)"):
 *
 *   A, 16-bit (a0..a7 in 4 registers of 2):
 *     row = 16w + group + 8 * ((i >> 1) & 1)
 *     col = 2 tig + (i & 1) + 8 * (i >> 2)
 *   A, 8-bit (a0..a15 in 4 registers of 4):
 *     row = 16w + group + 8 * ((i >> 2) & 1)
 *     col = 4 tig + (i & 3) + 16 * (i >> 3)
 *   D, f32 (d0..d(N/2-1), one per register; column block j = i / 4):
 *     row = 16w + group + 8 * ((i >> 1) & 1)
 *     col = 8 (i >> 2) + 2 tig + (i & 1)
 *
 * The ISA draws these layouts as figures; the formulas are transcribed
 * from CuTe's ALayout_64x16, ALayout_64x32 and CLayout_64xN and agree with
 * the ISA's description of the figures (each warp the mma.m16n8k16 /
 * mma.m16n8k32 arrangement, 16 rows per warp).
 *
 * For example thread 37 (warp 1, lane 5: group 1, tig 1) holds in A of
 * m64nNk16 a5 = register 2, element 1 = (row 17, col 11), and in D d6 =
 * register 6 = (row 25, col 10).  B has no register fragment.
 *
 * The shared-memory matrix descriptor (64 bits; PTX ISA "Matrix Descriptor
 * Format"; it differs from tcgen05's, softmma/tcgen05.h):
 *
 *   bits 0-13   start address >> 4      bits 14-15  not in the table: 0
 *   bits 16-29  LBO >> 4                bits 30-31  not in the table: 0
 *   bits 32-45  SBO >> 4                bits 46-48  not in the table: 0
 *   bits 49-51  base offset             bits 52-61  not in the table: 0
 *   bits 62-63  swizzle mode: 0 none ("interleave"), 1 128-byte, 2 64-byte,
 *               3 32-byte
 *
 * where each address field holds "matrix-descriptor-encode(x) = (x &
 * 0x3FFFF) >> 4".  The base offset is "valid for all swizzling modes except
 * the no-swizzle mode" and is 0 when the swizzle pattern starts at a 1024-
 * (128B), 512- (64B) or 256-byte (32B) boundary.  softmma requires 0 in the
 * bits the table does not name, and a base offset of 0 without swizzling.
 *
 * The layouts a descriptor describes are the ISA's canonical layouts, the
 * same text for wgmma (9.7.15.5.1.2) and tcgen05 (9.7.16.3), so the address
 * of an element is computed by smma_tc05_smem_addr of softmma/tcgen05.h
 * after converting the swizzle code (wgmma 1, 2, 3 = tcgen05 2, 4, 6);
 * CUTLASS's make_gmma_desc (canonical forms ((8,n),2):((1,SBO),LBO) for
 * K-major and ((1,n),(8,k)):((X,SBO),(1,LBO)) / ((W,n),(8,k)):((1,LBO),
 * (W,SBO)) for MN-major, in 16-byte units) states the same roles of LBO
 * and SBO.  A is 64 x K (row = m), B is N x K (row = n) there.
 * imm-trans-a / imm-trans-b = 1 select the MN-major layout ("M-major" for
 * A, "N-major" for B); 8-bit operands must be K-major.  A non-zero base
 * offset is not modelled: the executor refuses it.
 *
 * Numerics: the executor unpacks A and B, negates every element of A (B)
 * when imm-scale-a (imm-scale-b) is -1 (a sign flip of each code, the ISA's
 * "each element ... can be negated"), and computes each element of D with
 * smma_dot under a numerics model (softmma/gemm.h): row i of A, column j of
 * B and, when scale-d is true, D[i][j] as C (else no C, a +0 term).
 */
#ifndef SOFTMMA_WGMMA_H
#define SOFTMMA_WGMMA_H 1

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

/* The threads of a warpgroup. */
#define SMMA_WGMMA_THREADS 128

/* The largest N and the largest number of D registers per thread. */
#define SMMA_WGMMA_N_MAX 256
#define SMMA_WGMMA_D_REGS_MAX (SMMA_WGMMA_N_MAX / 2)

/* One wgmma.mma_async instruction with its immediates and its scale-d
 * value.  Formats: a_fmt == b_fmt in {SMMA_BF16, SMMA_FP16} (K = 16), or
 * a_fmt, b_fmt each in {SMMA_E4M3, SMMA_E5M2} (K = 32). */
typedef struct smma_wgmma_variant {
    smma_format a_fmt, b_fmt;
    unsigned n;             /* N: 8, 16, ..., 256 */
    bool a_smem;            /* A from shared memory (a-desc); false: registers (a) */
    int scale_a, scale_b;   /* imm-scale-a, imm-scale-b: 1, or -1 to negate */
    bool trans_a;           /* imm-trans-a = 1: A M-major (16-bit, a_smem only) */
    bool trans_b;           /* imm-trans-b = 1: B N-major (16-bit only) */
    bool scale_d;           /* the predicate scale-d: true D = A*B + D, false D = A*B */
} smma_wgmma_variant;

/* The variant with formats a and b and N n, A from registers, no negation,
 * no transpose, scale-d true (not checked: see smma_wgmma_check). */
smma_wgmma_variant smma_wgmma_variant_make(smma_format a, smma_format b, unsigned n);

/* Checks every selector of *v.  Returns SMMA_OK, or SMMA_EINVAL with a
 * message naming the bad one and its legal values: a_fmt, b_fmt (16-bit
 * formats must match; fp8 formats are independent), n ("not a multiple of
 * 8 in [8, 256]"), scale_a / scale_b (1 or -1), trans_a / trans_b (only
 * for bf16/f16; trans_a only with A in shared memory, as the register
 * form has no imm-trans-a). */
int smma_wgmma_check(const smma_wgmma_variant *v, smma_error *err);

/* K of the variant's formats: 16 (bf16, f16), 32 (e4m3, e5m2), or 0 when
 * a_fmt is not a wgmma format. */
unsigned smma_wgmma_k(const smma_wgmma_variant *v);

/*
 * Names.  softmma names an instruction "wgmma.m64n<N>k16.<type>" for the
 * 16-bit types (type bf16 or f16, the type of A and B) and
 * "wgmma.m64n<N>k32.<atype>.<btype>" for fp8, e.g. "wgmma.m64n16k16.bf16",
 * "wgmma.m64n64k32.e4m3.e5m2"; the A source, immediates and scale-d are not
 * part of the name.  smma_wgmma_name writes that name of a checked variant
 * (SMMA_ERANGE for a short buffer).  smma_wgmma_from_name reads it, or the
 * PTX spelling "wgmma.mma_async.sync.aligned.m64n<N>k<K>.f32.<a>.<b>"
 * (case-insensitive), into smma_wgmma_variant_make's defaults; SMMA_EINVAL
 * with a message naming the text and the accepted forms otherwise.
 */
int smma_wgmma_name(const smma_wgmma_variant *v, char *buf, size_t size, smma_error *err);
int smma_wgmma_from_name(const char *name, smma_wgmma_variant *v, smma_error *err);

/* The shape smma_wgmma_exec computes: m 64, n, k, the variant's formats,
 * no scales, C fp32 when scale_d (SMMA_NONE otherwise), D fp32.  Fails as
 * smma_wgmma_check. */
int smma_wgmma_shape(const smma_wgmma_variant *v, smma_gemm_shape *s, smma_error *err);

/* ---- register fragments ------------------------------------------------ */

/* The operands.  B lives only in shared memory. */
typedef enum smma_wgmma_operand {
    SMMA_WGMMA_OP_A = 0,
    SMMA_WGMMA_OP_B,
    SMMA_WGMMA_OP_D
} smma_wgmma_operand;

/* A register fragment: 128 * regs * elems == rows * cols. */
typedef struct smma_wgmma_frag {
    smma_format fmt;        /* element format (fp32 for D) */
    unsigned rows, cols;    /* A: 64 x K (row m, col k); D: 64 x N (row m, col n) */
    unsigned regs;          /* 32-bit registers per thread: A 4, D N/2 */
    unsigned elems;         /* elements per register: A 2 (16-bit) or 4 (8-bit), D 1 */
    unsigned elem_bits;     /* 16, 8 or 32 */
} smma_wgmma_frag;

/* Fills *f with the fragment of operand op (A or D) of the checked variant
 * v.  The A fragment exists whatever v->a_smem says.  SMMA_EINVAL for B (it
 * has no register fragment) or an invalid variant. */
int smma_wgmma_frag_get(const smma_wgmma_variant *v, smma_wgmma_operand op,
                        smma_wgmma_frag *f, smma_error *err);

/* The tile coordinate of element elem of register reg of thread thread
 * (formulas above).  For thread >= 128, reg >= f->regs or elem >= f->elems,
 * *row = f->rows and *col = f->cols (outside the tile). */
void smma_wgmma_coord(const smma_wgmma_frag *f, unsigned thread, unsigned reg, unsigned elem,
                      unsigned *row, unsigned *col);

/* The inverse of smma_wgmma_coord: SMMA_OK and the slot holding (row, col),
 * or SMMA_EINVAL, outputs unchanged, for a coordinate outside the tile. */
int smma_wgmma_slot(const smma_wgmma_frag *f, unsigned row, unsigned col, unsigned *thread,
                    unsigned *reg, unsigned *elem);

/* Packs a tile of codes (row-major, rows x cols) into regs[thread * f->regs
 * + reg] for the 128 threads, every register fully written (only the low
 * elem_bits bits of each code are kept); and back. */
void smma_wgmma_pack(const smma_wgmma_frag *f, const uint32_t *tile, uint32_t *regs);
void smma_wgmma_unpack(const smma_wgmma_frag *f, const uint32_t *regs, uint32_t *tile);

/* ---- the shared-memory matrix descriptor ----------------------------------- */

/* Swizzle modes, numbered as bits 62-63 of the descriptor. */
typedef enum smma_wgmma_swizzle {
    SMMA_WGMMA_SWIZZLE_NONE = 0,
    SMMA_WGMMA_SWIZZLE_128B = 1,
    SMMA_WGMMA_SWIZZLE_64B = 2,
    SMMA_WGMMA_SWIZZLE_32B = 3
} smma_wgmma_swizzle;

/* A descriptor's fields; start, lbo and sbo in bytes. */
typedef struct smma_wgmma_desc {
    uint32_t start;         /* matrix start address: a multiple of 16 below 2^18 */
    uint32_t lbo;           /* leading-dimension byte offset: the same rule */
    uint32_t sbo;           /* stride-dimension byte offset: the same rule */
    unsigned base_offset;   /* 0..7; 0 without swizzling */
    smma_wgmma_swizzle swizzle;
} smma_wgmma_desc;

/* Encodes *d.  Returns SMMA_OK, or SMMA_EINVAL naming the field (an address
 * not a multiple of 16 or not below 2^18, a base offset above 7 or non-zero
 * without swizzling, a swizzle mode above 3); *out is then untouched. */
int smma_wgmma_desc_encode(const smma_wgmma_desc *d, uint64_t *out, smma_error *err);

/* Decodes v.  Fails with SMMA_EINVAL, naming the bits, when a bit outside
 * the table's fields (14-15, 30-31, 46-48, 52-61) is set or the base offset
 * is non-zero without swizzling. */
int smma_wgmma_desc_decode(uint64_t v, smma_wgmma_desc *d, smma_error *err);

/* The tcgen05 code of the same swizzle (none 0, 128B 2, 64B 4, 32B 6), for
 * smma_tc05_swizzle_apply and smma_tc05_smem_addr; SMMA_TC05_SWIZZLE_NONE
 * for an invalid mode.  The swizzle width in bytes: 16, 128, 64, 32 (0 for
 * an invalid mode). */
smma_tc05_swizzle smma_wgmma_swizzle_tc05(smma_wgmma_swizzle s);
unsigned smma_wgmma_swizzle_bytes(smma_wgmma_swizzle s);

/* The shared-memory byte address of element (row, k) of an operand tile
 * described by *d: row is the M (A) or N (B) index, k the K index;
 * mn_major is imm-trans; elem_bits 8 or 16.  smma_tc05_smem_addr of the
 * converted layout at d->start (see above).  SMMA_EINVAL for a base offset
 * other than 0 (not modelled), a bad element size, or what
 * smma_tc05_smem_addr refuses. */
int smma_wgmma_smem_addr(const smma_wgmma_desc *d, bool mn_major, unsigned elem_bits,
                         unsigned row, unsigned k, uint32_t *byte, smma_error *err);

/*
 * A descriptor for a dense tile of operand op (A or B) of the checked
 * variant v, at start, in the swizzle mode s, in v's majorness (trans_a or
 * trans_b).  With R the tile's M (A: 64) or N (B) extent, eb the element
 * bytes, W the swizzle width (16 for none), T = 16 / eb:
 *
 *   K-major, none:  core matrices of 8 rows x 16 bytes; k_inner puts the two
 *                   along K next to each other (LBO 128, SBO 256), else the
 *                   R/8 along M/N (SBO 128, LBO 16 R);
 *   K-major, W:     rows of W bytes (the 32 bytes of K first), SBO 8W, LBO
 *                   16 (unused, "assumed 1");
 *   MN-major, none: core matrices of T M/N-elements x 8 k; k_inner: LBO 128,
 *                   SBO 256; else SBO 128, LBO 128 R / T;
 *   MN-major, W:    atoms of W / eb M/N-elements x 8 k (8W bytes); k_inner:
 *                   SBO 8W, LBO 16W; else LBO 8W, SBO 8W * ceil(R eb / W).
 *
 * *bytes receives the extent from start (A 64 x 32 bytes, B N x 32, or
 * more where atoms are partly used).  start must be a multiple of 16, and
 * with swizzling of the pattern's repeat (8W bytes) so the base offset is
 * 0.  SMMA_EINVAL otherwise, for op D, or an invalid variant or mode.
 */
int smma_wgmma_desc_dense(const smma_wgmma_variant *v, smma_wgmma_operand op,
                          smma_wgmma_swizzle s, bool k_inner, uint32_t start,
                          smma_wgmma_desc *d, uint32_t *bytes, smma_error *err);

/* Stores a tile of operand op (A: 64 x K, row-major (m, k); B: K x N,
 * row-major (k, n)) of the checked variant v into smem (smem_size bytes,
 * address 0 = smem[0]) as the descriptor desc says, in v's majorness, each
 * element little-endian at its address.  Returns SMMA_OK; SMMA_EINVAL
 * naming the problem (a descriptor that does not decode, a non-zero base
 * offset, an element outside smem, op D); smem is then unchanged. */
int smma_wgmma_smem_store(const smma_wgmma_variant *v, smma_wgmma_operand op, uint64_t desc,
                          const uint32_t *tile, uint8_t *smem, size_t smem_size,
                          smma_error *err);

/* The inverse: reads the tile of op from smem. */
int smma_wgmma_smem_load(const smma_wgmma_variant *v, smma_wgmma_operand op, uint64_t desc,
                         const uint8_t *smem, size_t smem_size, uint32_t *tile,
                         smma_error *err);

/* ---- the executor ----------------------------------------------------------- */

/*
 * Executes one wgmma.mma_async of variant v: A from a_regs (128 * 4 words,
 * regs[thread * 4 + reg]) when !v->a_smem, else from smem through a_desc; B
 * from smem through b_desc; D in from d_in (128 * N/2 words, regs[thread *
 * N/2 + reg]; not read, and may be NULL, when !v->scale_d); D out to d_out,
 * which may alias d_in.  smem is the simulated shared memory (smem_size
 * bytes, address 0 = smem[0]).  Numerics: smma_dot under model per element
 * (see above).  Returns SMMA_OK; SMMA_EINVAL for an invalid variant, a NULL
 * argument, or a descriptor or address that smma_wgmma_smem_load refuses;
 * the error of smma_model_check; SMMA_ENOMEM.  d_out is untouched on error.
 */
int smma_wgmma_exec(const smma_wgmma_variant *v, const smma_model *model,
                    const uint32_t *a_regs, uint64_t a_desc, uint64_t b_desc,
                    const uint8_t *smem, size_t smem_size, const uint32_t *d_in,
                    uint32_t *d_out, smma_error *err);

/* The bits smma_wgmma_exec_part gives the cells of D it does not compute:
 * a NaN that no model returns (they return 0x7fffffff). */
#define SMMA_WGMMA_UNCOMPUTED UINT32_C(0x7fa5a5a5)

/*
 * smma_wgmma_exec computing part of D: the cells (row, col) with row < rows
 * and col < cols (rows <= 64, cols <= N; the rest of the tile computed as
 * zeros of a ragged matrix, say, whose results nobody reads) are computed
 * as smma_wgmma_exec computes them, and every other cell of d_out is set to
 * SMMA_WGMMA_UNCOMPUTED.  For dry runs of large problems: the edge tiles of
 * a matrix cost only their part inside it.  SMMA_EINVAL also for rows > 64
 * or cols > N.
 */
int smma_wgmma_exec_part(const smma_wgmma_variant *v, const smma_model *model,
                         const uint32_t *a_regs, uint64_t a_desc, uint64_t b_desc,
                         const uint8_t *smem, size_t smem_size, const uint32_t *d_in,
                         uint32_t *d_out, unsigned rows, unsigned cols, smma_error *err);

/* ---- PTX text ------------------------------------------------------------------ */

/*
 * The exact PTX text of the instruction, with fixed register names that
 * SMMA_WGMMA_PTX_DECLS declares: D {%d0, ..., %d<N/2-1>} (.f32), A {%a0,
 * %a1, %a2, %a3} (.b32) or %desc_a (.b64), %desc_b (.b64), scale-d %p
 * (.pred; the caller sets it to scale-d), then the immediates, e.g.
 *
 *   wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%d0, %d1, %d2, %d3},
 *       %desc_a, %desc_b, %p, 1, 1, 0, 0;
 *   wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%d0, %d1, %d2, %d3},
 *       {%a0, %a1, %a2, %a3}, %desc_b, %p, 1, -1, 1;
 *   wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e5m2 {%d0, %d1, %d2, %d3},
 *       %desc_a, %desc_b, %p, 1, 1;
 *
 * (one line each): imm-scale-a, imm-scale-b, then for bf16/f16 imm-trans-a
 * (descriptor form only) and imm-trans-b; the fp8 forms have no trans
 * immediates.  The minimum target is sm_90a, and PTX ISA 8.0
 * (SMMA_WGMMA_PTX_VERSION); ptxas refuses sm_90 ("not supported on .target
 * 'sm_90'") and sm_100a.  Returns SMMA_OK; SMMA_EINVAL with
 * smma_wgmma_check's message; SMMA_ERANGE for a short buffer (which then
 * holds a truncated string when size > 0).
 */
#define SMMA_WGMMA_PTX_VERSION "8.0"
#define SMMA_WGMMA_PTX_DECLS                                                              \
    "    .reg .f32 %d<128>;\n    .reg .b32 %a<4>;\n    .reg .b64 %desc_a;\n"            \
    "    .reg .b64 %desc_b;\n    .reg .pred %p;\n"

int smma_wgmma_ptx(const smma_wgmma_variant *v, char *buf, size_t size, smma_error *err);

/* The oldest target of a valid variant: "sm_90a"; NULL for an invalid one. */
const char *smma_wgmma_ptx_target(const smma_wgmma_variant *v);

/* The warpgroup synchronization instructions. */
typedef enum smma_wgmma_sync {
    SMMA_WGMMA_FENCE = 0,   /* wgmma.fence.sync.aligned; */
    SMMA_WGMMA_COMMIT,      /* wgmma.commit_group.sync.aligned; */
    SMMA_WGMMA_WAIT         /* wgmma.wait_group.sync.aligned N; */
} smma_wgmma_sync;

/* Writes the text of op; n is wait_group's N (any non-negative integer
 * constant) and must be 0 for the others.  Returns as smma_wgmma_ptx;
 * SMMA_EINVAL for an unknown op or n != 0 with fence or commit.  Minimum
 * target sm_90a. */
int smma_wgmma_ptx_sync(smma_wgmma_sync op, unsigned n, char *buf, size_t size,
                        smma_error *err);

/* ---- drawable form (softmma/grid.h) -------------------------------------------- */

/* The lookup of the wgmma family: instr is a name smma_wgmma_from_name
 * reads; operand "a" (A from registers: 64 x K, rows m, cols k) or "d" (64 x
 * N, rows m, cols n).  Owners are threads 0..127; labels "T<thread>:r<reg>.
 * <elem>" for A and "T<thread>:r<reg>" for D (one element per register).
 * SMMA_GRID_NOT_MINE for a name not starting with "wgmma."; SMMA_EINVAL for
 * a malformed wgmma name, an illegal N, or another operand (b: in shared
 * memory, see the descriptor).  o is not used (may be NULL). */
int smma_wgmma_grid(const char *instr, const char *operand, const smma_grid_opts *o,
                    smma_grid *g, smma_error *err);

/* Lists, for every format combination, the A and D layouts at N = 8 and
 * N = 256 (any N = 8..256 step 8 can be drawn). */
void smma_wgmma_grid_list(smma_grid_emit_fn emit, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_WGMMA_H */

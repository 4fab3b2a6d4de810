/*
 * softmma/quant.h - block quantization: MX (32 elements per e8m0 scale) and
 * NVFP4 (16 e2m1 elements per ue4m3 scale, optionally under a per-tensor fp32
 * scale), and the dequantization back to exact values.
 *
 * Every choice on which libraries differ (how the scale is rounded, what a
 * zero, Inf or NaN block gives, divide or multiply by a reciprocal, fp32
 * steps, element rounding and saturation) is a field of the profile
 * (softmma/profile.h); doc/profiles.md gives each profile's value and its
 * source.  Inputs are fp32 numbers given by their bits.  Where a library
 * computes in fp32, softmma rounds to fp32 at the same steps (each product or
 * quotient of fp32 numbers is formed exactly, or to double precision, which
 * is innocuous for one fp32 rounding, and rounded once); everything else is
 * exact.
 *
 * Layout: a row of K values gives ceil(K / V) scale bytes (V = 32 or 16) and
 * K element codes, one code per byte in the low bits (smma_pack_fp4 packs
 * e2m1 codes two per byte).  When K is not a multiple of V the last block
 * is padded with +0 for the scale computation; the padding produces no codes.
 */
#ifndef SOFTMMA_QUANT_H
#define SOFTMMA_QUANT_H 1

#include <softmma/format.h>
#include <softmma/profile.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The block formats.  The numbering is part of the ABI. */
typedef enum smma_block_format {
    SMMA_MXFP4 = 0,     /* e2m1 elements, e8m0 scale per 32 */
    SMMA_MXFP6_E2M3,    /* e2m3 elements, e8m0 scale per 32 */
    SMMA_MXFP6_E3M2,    /* e3m2 elements, e8m0 scale per 32 */
    SMMA_MXFP8_E4M3,    /* e4m3 elements, e8m0 scale per 32 */
    SMMA_MXFP8_E5M2,    /* e5m2 elements, e8m0 scale per 32 */
    SMMA_NVFP4,         /* e2m1 elements, ue4m3 scale per 16 */
    SMMA_BLOCK_FORMAT_COUNT
} smma_block_format;

/* The description of one block format. */
typedef struct smma_block_format_desc {
    smma_block_format id;
    const char *name;       /* "mxfp4", "mxfp6e2m3", ..., "nvfp4" */
    smma_format elem;       /* element format */
    smma_format scale;      /* SMMA_E8M0 or SMMA_UE4M3 */
    unsigned block;         /* elements per scale: 32 or 16 */
    int emax_elem;          /* exponent of the element format's largest power of two */
    unsigned elem_man_bits; /* mantissa bits of the element format */
    double max_elem;        /* largest finite element value */
} smma_block_format_desc;

/* Returns the descriptor of block format f, or NULL when f is not one. */
const smma_block_format_desc *smma_block_format_info(smma_block_format f);

/* Looks up a block format by name, case-insensitively: "mxfp4", "mxfp6e2m3",
 * "mxfp6e3m2", "mxfp8e4m3", "mxfp8e5m2", "nvfp4".  Returns SMMA_OK and sets
 * *out, or SMMA_EINVAL with a message naming the unknown name and listing
 * the known ones. */
int smma_block_format_from_name(const char *name, smma_block_format *out, smma_error *err);

/* Returns the canonical name of a block format ("?" when f is not one). */
const char *smma_block_format_name(smma_block_format f);

/* Returns the number of blocks (scale bytes) of a row of k values:
 * ceil(k / V), and 0 when f is not a block format. */
size_t smma_block_count(smma_block_format f, size_t k);

/* What the per-tensor value of two-level NVFP4 is. */
typedef enum smma_global_kind {
    SMMA_GLOBAL_NONE = 0, /* single-level: no per-tensor scale */
    SMMA_GLOBAL_AMAX,     /* the tensor's amax; each NVFP4 rule derives its per-tensor
                             scales from it as its library does */
    SMMA_GLOBAL_SCALE     /* the per-tensor decode scale G itself (torchao's
                             per_tensor_scale, TransformerEngine's S_dec) */
} smma_global_kind;

/* Options of one quantization.
 *   profile:   the profile; NULL selects "cuda".
 *   global:    NVFP4 only: the kind of global_bits (MX formats take none).
 *   global_bits: fp32 bits of the tensor amax or of the decode scale; it must
 *              be finite and not negative (an amax of 0 is allowed: TE and
 *              the exact rule then use a per-tensor scale of 1), and a decode
 *              scale must be positive.
 *   override_round, round: element rounding instead of the profile's; with
 *              SMMA_RS the random bits of element i are rbits[i] (all 0 when
 *              rbits is NULL), used as smma_encode defines.
 *   input_bf16: the inputs are bf16 numbers (each x[i] a bf16 value widened to
 *              fp32, its low 16 bits 0); a profile with arith_in_input then
 *              runs its MX scale steps in bf16, as its library does on a bf16
 *              tensor.  Other profiles give the same result either way.
 */
typedef struct smma_quant_opts {
    const smma_profile *profile;
    smma_global_kind global;
    uint32_t global_bits;
    bool override_round;
    smma_round round;
    const uint32_t *rbits;
    bool input_bf16;
} smma_quant_opts;

/* Returns the options that quantize with profile p (NULL: cuda), single
 * level, the profile's element rounding, no random bits. */
smma_quant_opts smma_quant_opts_default(const smma_profile *p);

/* The amax of one block of n fp32 values of block format f (n <= V; more
 * are ignored) as the profile computes it: the fp32 bits of the largest
 * magnitude, with NaN handled as the profile's amax_nan says (a NaN amax is
 * the positive quiet NaN 0x7fc00000).  A block shorter than V counts its
 * missing elements as +0. */
uint32_t smma_block_amax(smma_block_format f, const uint32_t *x, size_t n,
                         const smma_profile *p);

/* The scale byte of a block whose amax (as smma_block_amax computes it) has
 * fp32 bits amax_bits: an e8m0 byte for MX formats, a ue4m3 byte for NVFP4
 * (which reads o->global).  Any 32-bit pattern is accepted; a negative
 * amax_bits is treated as its magnitude.  Returns 0 when f is not a block
 * format or the options are invalid. */
uint8_t smma_block_scale_from_amax(smma_block_format f, uint32_t amax_bits,
                                   const smma_quant_opts *o);

/* The scale byte of one block of n <= V values. */
uint8_t smma_block_scale(smma_block_format f, const uint32_t *x, size_t n,
                         const smma_quant_opts *o);

/* The fp32 bits of the per-tensor decode scale G that dequantization of
 * NVFP4 under these options multiplies by: 1.0 (0x3f800000) for MX formats
 * and single-level NVFP4; for two-level NVFP4 the scale the profile's NVFP4
 * rule derives (TE: fp32(1 / S_enc); torchao and the exact and cast rules:
 * fp32(amax / 2688), or the given decode scale). */
uint32_t smma_quant_global_decode(smma_block_format f, const smma_quant_opts *o);

/* Quantizes a row of k fp32 values (bits in x) in block format f: writes
 * smma_block_count(f, k) scale bytes to scales and k element codes to
 * codes.  Returns SMMA_OK, or SMMA_EINVAL with a message when f is not a
 * block format, k is 0, a global value is given for an MX format, the
 * global value is invalid, or input_bf16 is set and a value is not a bf16
 * number; nothing is written then. */
int smma_quantize(smma_block_format f, const uint32_t *x, size_t k, const smma_quant_opts *o,
                  uint8_t *scales, uint8_t *codes, smma_error *err);

/* How a given quantization of a row compares with a profile's. */
typedef struct smma_quant_cmp {
    size_t blocks;          /* blocks compared: smma_block_count(f, k) */
    size_t differ;          /* blocks whose scale or some code differs */
    size_t first_block;     /* the first of them (0 when differ is 0) */
    long first_elem;        /* its first differing element within the block, or -1
                               when its scale differs */
    uint8_t given;          /* the given byte there (scale or code) */
    uint8_t expected;       /* the profile's */
} smma_quant_cmp;

/* Quantizes the row of k values x under the options o (smma_quantize) and
 * compares the result with the given scales (smma_block_count(f, k) bytes)
 * and codes (k, one per byte), filling *out.  Returns SMMA_OK, or
 * SMMA_EINVAL with a message, writing nothing, where smma_quantize refuses
 * or a given code does not fit the element format (naming the block and
 * element), or SMMA_ENOMEM. */
int smma_quant_compare(smma_block_format f, const uint32_t *x, size_t k,
                       const smma_quant_opts *o, const uint8_t *scales, const uint8_t *codes,
                       smma_quant_cmp *out, smma_error *err);

/* Dequantizes k element codes with their smma_block_count(f, k) scale bytes
 * to exact values: out[i] = element value * scale value * G, where G is the
 * fp32 number with bits global_decode_bits (0x3f800000 for none).  The
 * product is exact in a double (at most 2 + 4 + 24 significant bits, within
 * double's exponent range), so out[i] is the mathematical value; rounding it
 * to fp32 once gives what a library that multiplies in fp32 gets whenever
 * the exact product is an fp32 number, which holds for every MX value and
 * for single-level NVFP4 (elements times a ue4m3 scale need at most 6
 * significant bits) as long as it lies in fp32's range.
 * A NaN scale (e8m0 0xff, ue4m3 0x7f) makes the block's values NaN; a NaN or
 * infinite element code gives NaN or +-Inf times the scale.  With a profile
 * whose dq_zero_scale_zero is set (triton), e8m0 0x00 counts as 0.
 * Returns SMMA_EINVAL with a message naming the block and element when a
 * code does not fit the element format, or a ue4m3 scale has its most
 * significant bit set and the profile is strict (a lenient profile clears
 * it); nothing is written then. */
int smma_dequantize(smma_block_format f, const uint8_t *scales, const uint8_t *codes, size_t k,
                    uint32_t global_decode_bits, const smma_profile *p, double *out,
                    smma_error *err);

/* Packs n e2m1 codes (low 4 bits of each byte) two per byte, the even
 * element in the low nibble: packed[i / 2] holds codes[i] in bits 3:0 when
 * i is even and in bits 7:4 when i is odd.  Writes (n + 1) / 2 bytes; an odd
 * n leaves the last byte's high nibble 0. */
void smma_pack_fp4(const uint8_t *codes, size_t n, uint8_t *packed);

/* The inverse of smma_pack_fp4: n codes from (n + 1) / 2 packed bytes. */
void smma_unpack_fp4(const uint8_t *packed, size_t n, uint8_t *codes);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_QUANT_H */

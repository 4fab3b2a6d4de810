/*
 * softmma/gemm.h - block-scaled dot products and GEMM, exactly and under
 * named numerics models of real tensor cores.
 *
 *     D[i][j] = alpha * (C[i][j] + sum_k (A[i][k] * SA[i][k/V]) * (B[k][j] * SB[k/V][j]))
 *
 * (alpha is 1 unless the shape has one).  A result is defined by the element and scale values *and* a numerics
 * model.  The models are data (smma_model_at, `softmma models`):
 *
 *   exact-rn, exact-rz  the exact sum of C and every product, rounded once
 *                       to the output format (to nearest even, or toward 0).
 *   fp32-fma-seq        a*sa and b*sb each rounded to fp32 (to nearest), then
 *                       acc = fma(a', b', acc) in k order from acc = C, every
 *                       fma rounded to nearest fp32 (CUTLASS's host reference).
 *   bf16-upcast-h100    Triton's emulation: a*sa and b*sb each rounded to bf16
 *                       (scale byte 0xff forces NaN), then the H100 bf16
 *                       block-FMA model; bf16-upcast-a100, -ada and -b200
 *                       the same before the a100-bf16, ada-bf16 and
 *                       b200-bf16 models.
 *   <gpu>-<kind>        block-FMA models of tensor cores (below).
 *   <gpu>-<kind>-promoteP  blocked promotion (below).
 *   cublaslt-...        what cuBLASLt computes on a GPU (doc/models.md): a
 *                       model of its own (cublaslt-fp8-promoted, blocked
 *                       promotion every 128 k without block scales), or an
 *                       alias of the model it equals (smma_model_alias_at).
 *
 * Block-FMA model (Fasi, Higham, Mikaitis, Pranesh 2021; Khattak and
 * Mikaitis 2025), with parameters fma (block size), neab (extra alignment
 * bits), floor (least emax), normalize and the final rounding:
 *   1. Each factor x is split as significand times 2^e, the significand in
 *      [1,2) for normal numbers; a subnormal keeps e = emin of its format and
 *      a significand below 1.  A product's significand is the product of its
 *      factors' significands (in [0,4) for two factors, not renormalized
 *      unless `normalize` is set) and its exponent the sum of theirs.  Scales
 *      are factors too: a block-scaled product has four.  Zero products are
 *      dropped.  c (fp32) is split the same way (a subnormal c has exponent
 *      -126).
 *   2. emax is the largest exponent among the block's products and c, but at
 *      least `floor`.
 *   3. Each significand, as an integer with 23 fraction bits (exact: the
 *      modeled inputs have at most 23 fraction bits in all), is shifted left
 *      by neab (right by -neab when neab < 0, dropping bits), then right by
 *      emax - e, truncating; the signed integers are summed exactly.
 *   4. The sum times 2^(emax - 23 - neab) is rounded to fp32 (toward zero in
 *      the published models) with 24 significant bits, or 24 + neab when
 *      neab < 0; subnormals round at 2^-149.  Overflow follows IEEE 754 for
 *      the rounding direction (toward zero: FLT_MAX), not yet observed on a
 *      GPU.  With neab = SMMA_NEAB_EXACT the block is instead summed exactly
 *      and rounded once (to nearest in the provisional B200 fp8 model).
 *      A sum of zero is +0, or -0 when c and every product are -0.
 *   Outputs in bf16 or fp16 take the fp32 result rounded to nearest, as a
 *   kernel's epilogue would; C in bf16 or fp16 is widened to fp32 exactly.
 *   Variants (fields at the end of smma_model): psum_apart rounds an exact
 *   block's product sum to fp32 before c is added (b200-fp8-trunc); korder
 *   takes the k of each chunk in another order, so that blocks group other
 *   k (h100-fp8-mma-sync: the two f16 HMMAs of sm_90); upcast_f16 splits the
 *   elements as fp16 numbers; f16_acc rounds each block directly to an fp16
 *   accumulator when D is fp16 (mma.sync with f16 accumulators).
 *   5. K is cut into blocks of fma products in k order; each block's result is
 *      the next block's c.  Any NaN gives NaN; +Inf with -Inf gives NaN;
 *      otherwise an Inf propagates.
 *
 * Blocked promotion (DeepGEMM style): every P consecutive k (P divides the
 * scale block V, so one scale pair applies) are accumulated by the inner
 * block-FMA model from c = 0, without scales, to an fp32 partial; then
 * acc = fma(partial, fp32(sa * sb), acc) rounded to nearest fp32, from acc = C.
 * A model marked `unscaled` takes operands without block scales only: its
 * factor is 1, so acc = rn_fp32(acc + partial) (cuBLASLt's fp8 GEMM with
 * promoted accumulation, P = 128); the last P may be short (K not a
 * multiple of P), and is promoted the same way.
 *
 * The epilogue, for every model (doc/models.md): the models that accumulate
 * in fp32 (block-FMA, fp32-fma-seq, promotion) end with an fp32 acc that
 * started from C; with an alpha it becomes rn_fp32(alpha * acc), one IEEE
 * fp32 multiplication rounded to nearest even (NaN gives 0x7fffffff, Inf
 * times 0 NaN, overflow Inf); then a bf16 or fp16 D is that fp32 rounded to
 * nearest.  The exact models round the exact value alpha * (C + sum) once,
 * directly to D, in their direction; alpha NaN gives NaN, an infinite alpha
 * times a zero sum or a zero alpha times an infinite sum NaN, and zeros and
 * infinities take the sign of the product.  Without an alpha (has_alpha
 * false, as a zero-initialized shape has it) nothing of this happens:
 * alpha = 1 exactly gives the same bits as no alpha in every model.
 *
 * Unscaled operands: with a scale format, an operand whose scales are NULL
 * in smma_gemm_operands (sa or sb) has none: every one of its scales is
 * exactly 1 (bf16 activations times mxfp4 weights: A bf16 with sa NULL, B
 * e2m1 with e8m0 scales in sb).  Every model computes such products as if
 * the missing scales were the factor 1.
 *
 * Special values, for every model: a NaN scale (e8m0 0xff, ue4m3 0x7f) makes
 * its block's products NaN; NaN operands propagate; Inf times 0 is NaN;
 * +Inf plus -Inf is NaN.  A NaN result is the canonical fp32 NaN 0x7fffffff
 * (0x7fff in bf16 and fp16).  The exact models give an exact-zero sum the
 * sign IEEE 754 gives it: -0 when every term is a zero of negative sign, or
 * when terms cancel under rounding toward -infinity; +0 otherwise.  An
 * absent C (SMMA_NONE) is a +0 term in every model.
 */
#ifndef SOFTMMA_GEMM_H
#define SOFTMMA_GEMM_H 1

#include <softmma/format.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "No scale" and "no C": use SMMA_FORMAT_COUNT as the format. */
#define SMMA_NONE SMMA_FORMAT_COUNT

typedef enum smma_model_kind {
    SMMA_MODEL_EXACT = 0,   /* exact sum, one rounding */
    SMMA_MODEL_FMA_SEQ,     /* fp32 products, sequential fp32 fma */
    SMMA_MODEL_BLOCK_FMA,   /* tensor-core block-FMA model */
    SMMA_MODEL_PROMOTE      /* blocked promotion around a block-FMA model */
} smma_model_kind;

/* neab value of a block-FMA model that aligns exactly (no bits dropped): the
 * block is summed exactly and rounded once (the provisional B200 fp8 model). */
#define SMMA_NEAB_EXACT 1000

/* How a block-FMA model with an fp16 D treats its fp16 accumulator
 * (mma.sync with f16 accumulators).  With an fp32 or bf16 D this is not
 * read. */
typedef enum smma_f16_acc {
    SMMA_F16ACC_VIA_FP32 = 0, /* blocks produce fp32 (the model's final rounding) and the
                                 last one is rounded to nearest fp16, as an epilogue */
    SMMA_F16ACC_RN,           /* each block's aligned integer sum (step 3) is rounded
                                 directly to fp16, to nearest even; that fp16 is the next
                                 block's c (split as an fp16) */
    SMMA_F16ACC_RN_STICKY,    /* the same, with the bits that alignment dropped as a
                                 sticky bit: when any was non-zero the magnitude counts
                                 as half a unit of the sum's last bit larger */
    SMMA_F16ACC_RZ            /* each block's aligned sum truncated to fp16 */
} smma_f16_acc;

/* The most k a promotion model sums per promotion (smma_model_check refuses
 * more, and 0). */
#define SMMA_PROMOTE_MAX 128

/* A numerics model.  Fields that a kind does not use are zero. */
typedef struct smma_model {
    const char *name;
    const char *summary;
    smma_model_kind kind;
    smma_round round;       /* the final rounding: SMMA_RN or SMMA_RZ */
    unsigned fma;           /* block-FMA: products per block */
    int neab;               /* block-FMA: extra alignment bits */
    int floor;              /* block-FMA: least emax */
    bool normalize;         /* block-FMA: renormalize product significands */
    bool upcast_bf16;       /* round a*sa and b*sb to bf16 first (Triton) */
    unsigned promote;       /* promotion: k per promotion, 1 to SMMA_PROMOTE_MAX */
    const char *inner;      /* promotion: name of the block-FMA model */
    const char *inputs;     /* the element formats it models, in words */
    const char *status;     /* "definition", "provisional", or "validated on ..." */
    /* Variants of the block-FMA kind; zero leaves a model as described above. */
    bool psum_apart;        /* neab SMMA_NEAB_EXACT: a block's products are summed
                               exactly and rounded to fp32 in direction psum_round; that
                               fp32 and c are then added with one rounding (`round`) */
    smma_round psum_round;
    const unsigned char *korder; /* the k of each chunk of korder_len consecutive k are
                               taken in this order (a permutation of 0..korder_len-1),
                               and blocks of fma are cut from that order; NULL: k order.
                               K must be a multiple of korder_len */
    unsigned korder_len;
    bool upcast_f16;        /* each element is first converted to fp16 (exactly: the
                               formats must fit in fp16) and split as an fp16, so an
                               e4m3 subnormal becomes a normal number */
    smma_f16_acc f16_acc;   /* with an fp16 D: the fp16 accumulator's rounding */
    bool c_last;            /* block-FMA: the blocks run from +0 and C is added to their
                               fp32 result at the end, one fp32 addition to nearest (as
                               ptxas lowers sm_90 fp8 mma.sync: two HMMA, then FADD) */
    bool zero_plus;         /* block-FMA: a block whose C and products are all zeros
                               gives +0, even when every one is -0 (the H100/H200 tensor
                               cores: C = -0 with every product -0 gives +0 through wgmma
                               and mma.sync, bf16, fp16 and e4m3, fp32 and fp16
                               accumulators) */
    bool unscaled;          /* promotion: operands without block scales only (a shape
                               with a scale format is refused); the factor is 1 */
    /* The inputs the model defines (smma_model_takes): sets of formats, the
     * bit 1u << f for format f (SMMA_FMT_BIT); 0 is every format.  A shape
     * outside them is refused, even where the arithmetic could run. */
    unsigned ab_formats;    /* the element formats of A and B */
    unsigned scale_formats; /* the scale formats; SMMA_FMT_BIT(SMMA_NONE): no scales */
    unsigned d_formats;     /* the formats of D */
} smma_model;

/* The bit of format f (or SMMA_NONE) in the format sets of smma_model. */
#define SMMA_FMT_BIT(f) (1u << (unsigned) (f))

size_t smma_model_count(void);
const smma_model *smma_model_at(size_t i);

/* Another name for a model that computes exactly what an existing one does
 * (cuBLASLt's fp8 GEMM with fast accumulation is h100-fp8): a name, the
 * model it stands for, what it names, and the status of that claim. */
typedef struct smma_model_alias {
    const char *name;
    const char *model;
    const char *summary;
    const char *status;
} smma_model_alias;

size_t smma_model_alias_count(void);
const smma_model_alias *smma_model_alias_at(size_t i);

/* Looks a model up by name, or by an alias's name (giving the model it
 * stands for); SMMA_EINVAL with a message naming it and the known models
 * otherwise. */
int smma_model_from_name(const char *name, const smma_model **out, smma_error *err);

/* Every model's name, space-separated, then "; aliases:" and each alias as
 * "NAME (MODEL)", written to buf as snprintf would (at most size bytes,
 * NUL-terminated); returns the length of the whole list.  An unknown name's
 * message lists them where they fit its 256 bytes. */
size_t smma_model_names(char *buf, size_t size);

/* The shape and formats of a block-scaled product. */
typedef struct smma_gemm_shape {
    smma_format a_fmt, b_fmt;   /* element formats (any of e2m1..fp32 except scales) */
    smma_format scale_fmt;      /* SMMA_E8M0, SMMA_UE4M3 or SMMA_NONE */
    unsigned vec;               /* 16 or 32 elements per scale (ignored without scales) */
    smma_format c_fmt;          /* SMMA_FP32, SMMA_BF16, SMMA_FP16 or SMMA_NONE */
    smma_format d_fmt;          /* SMMA_FP32, SMMA_BF16 or SMMA_FP16 */
    size_t m, n, k;
    bool has_alpha;             /* an epilogue multiplier alpha (false: none, as 1) */
    uint32_t alpha;             /* alpha's fp32 bits (NVFP4's per-tensor scales), any code,
                                   NaN and infinities included; read only with has_alpha */
} smma_gemm_shape;

/* Checks a shape: formats in their roles, vec 16 or 32, m, n, k at least 1,
 * and sizes that fit in memory arithmetic.  The message names the field. */
int smma_gemm_shape_check(const smma_gemm_shape *s, smma_error *err);

/* Checks that the model defines the inputs of this shape: its element,
 * scale and D formats (the sets of smma_model).  SMMA_EINVAL with a message
 * "model NAME takes ..., not ..." otherwise. */
int smma_model_takes(const smma_model *model, const smma_gemm_shape *s, smma_error *err);

/* Writes what a model takes, in words ("A and B e4m3 or e5m2; no scales or
 * e8m0 scales; any D"), to buf (at most size bytes, NUL-terminated). */
void smma_model_inputs(const smma_model *model, char *buf, size_t size);

/* Checks that model takes the shape (smma_model_takes) and can compute its
 * products (block-FMA models take element formats of at most 16 bits;
 * promotion needs vec % P == 0).  Every entry point that computes under a
 * model (smma_gemm, smma_gemm_verify, the simulators) applies it. */
int smma_model_check(const smma_model *model, const smma_gemm_shape *s, smma_error *err);

/* The models of the table that take a problem of shape s and can compute it
 * (smma_model_check), in table order: the first `max` of them are written to
 * out (which may be NULL when max is 0); returns how many there are.  What
 * `softmma match` and softmma.gemm_match try. */
size_t smma_models_taking(const smma_gemm_shape *s, const smma_model **out, size_t max);

/* A copy of a model that takes every input its arithmetic can compute (its
 * format sets cleared).  For the exact class only, whose D every model gives
 * (smma_gemm_generate): the suites check that under every model. */
smma_model smma_model_any_inputs(const smma_model *model);

/* The number of scale columns: ceil(k / vec), or 0 without scales. */
size_t smma_gemm_kblocks(const smma_gemm_shape *s);

/* One dot product: K element codes of a and b, the ceil(K/vec) scale codes
 * of each (NULL for an unscaled operand), and c's code (ignored for
 * SMMA_NONE).  Returns the code of the result in s->d_fmt, alpha applied
 * when s has one. */
uint32_t smma_dot(const smma_model *model, const smma_gemm_shape *s, const uint32_t *a,
                  const uint32_t *b, const uint32_t *sa, const uint32_t *sb, uint32_t c);

/* Storage of the operands of a GEMM: codes, one uint32_t per element.
 *   A (m x k): element (i, kk) at a[i * lda + kk] if a_kmajor, else a[kk * lda + i].
 *   B (k x n): element (kk, j) at b[j * ldb + kk] if b_kmajor, else b[kk * ldb + j].
 *   SA (m x kb) at sa[i * kb + t]; SB (kb x n) K-major, as B with b_kmajor:
 *   element (t, j) at sb[j * kb + t], one run of kb scales per column of B
 *   (kb = smma_gemm_kblocks, t the k block).  A scale array has the
 *   orientation of its operand, K counted in blocks, everywhere: the gemm
 *   vector suites, softmma export and the Python module hold SB as kb x n
 *   too (doc/python.md); only its storage here is fixed K-major.
 *   C and D (m x n) row-major at c[i * n + j].
 * sa and sb are ignored without a scale format; with one, a NULL sa (sb)
 * makes A (B) an unscaled operand, every scale exactly 1.  c is required
 * when the shape has a C format.
 */
typedef struct smma_gemm_operands {
    const uint32_t *a;
    size_t lda;
    bool a_kmajor;
    const uint32_t *b;
    size_t ldb;
    bool b_kmajor;
    const uint32_t *sa, *sb;
    const uint32_t *c;
} smma_gemm_operands;

/* Computes one element of D. */
uint32_t smma_gemm_element(const smma_model *model, const smma_gemm_shape *s,
                           const smma_gemm_operands *op, size_t i, size_t j);

/* Computes all of D (m x n codes, row-major).  Returns SMMA_OK, or an error
 * from the shape or model check, or SMMA_ENOMEM. */
int smma_gemm(const smma_model *model, const smma_gemm_shape *s, const smma_gemm_operands *op,
              uint32_t *d, smma_error *err);

/* Sampled verification of a subject's D: recomputes `samples` entries chosen
 * by a seeded generator (all of them when samples >= m * n) and compares
 * bitwise.  *mismatches receives the count; the first up to `keep` mismatches
 * are written to first[] as (i, j, want, got). */
typedef struct smma_mismatch {
    size_t i, j;
    uint32_t want, got;
} smma_mismatch;

int smma_gemm_verify(const smma_model *model, const smma_gemm_shape *s,
                     const smma_gemm_operands *op, const uint32_t *d, size_t samples,
                     uint64_t seed, size_t *checked, size_t *mismatches, smma_mismatch *first,
                     size_t keep, smma_error *err);

/* Seeded inputs.  SMMA_CLASS_RANDOM draws every element code uniformly among
 * the finite codes of its format whose value is 0 or has an exponent in
 * [-20, 20] (every code of the 4-, 6- and 8-bit formats), e8m0 scales
 * uniformly in 2^-20 .. 2^20, ue4m3 scales among the finite codes, and C
 * like the elements.
 * SMMA_CLASS_EXACT draws inputs for which every partial sum, in any order
 * and any grouping, is an integer multiple of one power of two 2^q and less
 * than 2^(q + 13) in magnitude, with 2^-140 <= 2^q and 2^(q + 13) < 2^100:
 * exactly representable in fp32 with at most 13 significant bits and inside
 * every model's alignment window, so every model returns the same bits. */
typedef enum smma_input_class {
    SMMA_CLASS_RANDOM = 0,
    SMMA_CLASS_EXACT
} smma_input_class;

/* Owned operand storage filled by smma_gemm_generate (K-major A and B). */
typedef struct smma_gemm_data {
    uint32_t *a, *b, *sa, *sb, *c;
} smma_gemm_data;

/* Fills *data with seeded inputs of shape s (A, B, the scales of both when
 * s has a scale format, C when it has a C format; the other pointers NULL).
 * SMMA_OK, or an error from the shape check, SMMA_ENOMEM, or SMMA_EINVAL
 * for the exact class with a D other than fp32.  alpha plays no part. */
int smma_gemm_generate(const smma_gemm_shape *s, smma_input_class cls, uint64_t seed,
                       smma_gemm_data *data, smma_error *err);

/* Which operands of a shape with a scale format are generated without
 * scales (their sa or sb stays NULL: an unscaled operand, every scale 1),
 * as in bf16 x mxfp4.  The zero-initialized options are those of
 * smma_gemm_generate. */
typedef struct smma_gemm_gen_opts {
    bool unscaled_a;
    bool unscaled_b;
} smma_gemm_gen_opts;

/* smma_gemm_generate with options (NULL: none).  The exact class stays
 * exact with an unscaled operand: its scale 1 takes the place of the
 * scale exponent it would have had. */
int smma_gemm_generate_opts(const smma_gemm_shape *s, smma_input_class cls, uint64_t seed,
                            const smma_gemm_gen_opts *opts, smma_gemm_data *data,
                            smma_error *err);
/* Frees the arrays of data and leaves it empty (every pointer NULL), so that
 * freeing it again does nothing. */
void smma_gemm_data_free(smma_gemm_data *data);

/* The operands view of generated data. */
smma_gemm_operands smma_gemm_data_operands(const smma_gemm_shape *s, const smma_gemm_data *d);

/* A deterministic 64-bit generator, the same on every machine. */
typedef struct smma_rng {
    uint64_t s[4];
} smma_rng;
void smma_rng_seed(smma_rng *r, uint64_t seed);
uint64_t smma_rng_next(smma_rng *r);
/* Uniform in [0, n) (n >= 1), without modulo bias. */
uint64_t smma_rng_below(smma_rng *r, uint64_t n);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_GEMM_H */

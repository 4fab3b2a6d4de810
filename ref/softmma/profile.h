/*
 * softmma/profile.h - semantic profiles: every choice that libraries make
 * differently when they convert to the narrow formats, as data.
 *
 * A profile is one complete, named set of choices (see doc/profiles.md for
 * the table and the source of each choice).  The codec (softmma/format.h)
 * reads only these fields; no special case lives anywhere else.
 */
#ifndef SOFTMMA_PROFILE_H
#define SOFTMMA_PROFILE_H 1

#include <softmma/format.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a NaN input becomes in a format that has no NaN (e2m1, e2m3, e3m2). */
typedef enum smma_nan_to_finite {
    SMMA_NANF_POS_MAX = 0,    /* +max whatever the sign (CUDA, PTX cvt) */
    SMMA_NANF_SIGNED_MAX,     /* max with the NaN's sign */
    SMMA_NANF_FLIPPED_ZERO,   /* +NaN -> -0, -NaN -> +0 */
    SMMA_NANF_POS_ZERO,       /* +0 whatever the sign */
    SMMA_NANF_ONE_AND_HALF,   /* 1.5 with the NaN's sign (torchao's bit converter) */
    SMMA_NANF_POS_TWO,        /* +2.0 whatever the sign (PyTorch's to_mxfp: the GPU's
                                 canonical NaN, through bf16 0x7fff, into torchao's
                                 bit converter, whose 8-bit result wraps to 0x4) */
    SMMA_NANF_XLA             /* whatever the sign: e2m1 -0 (0x8), e2m3 and e3m2 +0 (XLA's
                                 conversion on an H100, measured) */
} smma_nan_to_finite;

/* What a NaN input becomes in a format that has NaN. */
typedef enum smma_nan_out {
    SMMA_NANO_CANONICAL = 0,  /* positive, exponent and mantissa all ones: 0x7f in
                                 e4m3 and e5m2, 0x7fff, 0x7fffffff (PTX cvt) */
    SMMA_NANO_SIGNED          /* the input's sign; quiet bit only in IEEE-style
                                 formats (e5m2 0x7e/0xfe), the one NaN in e4m3 */
} smma_nan_out;

/* What a negative value becomes in an unsigned format (e8m0, ue4m3). */
typedef enum smma_neg_unsigned {
    SMMA_NEGU_ABS = 0,        /* its magnitude is converted */
    SMMA_NEGU_NAN,            /* NaN */
    SMMA_NEGU_MIN             /* the smallest code (0 in ue4m3, 2^-127 in e8m0) */
} smma_neg_unsigned;

/* What zero becomes in e8m0, which has no zero. */
typedef enum smma_e8m0_zero {
    SMMA_E8Z_MIN = 0,         /* 0x00 = 2^-127 */
    SMMA_E8Z_NAN              /* 0xFF */
} smma_e8m0_zero;

/* What rounding to nearest (rn) means in e8m0, a format without mantissa
 * bits, where "even" needs a definition. */
typedef enum smma_e8m0_rn {
    SMMA_E8RN_EVEN_CODE = 0,  /* a tie goes to the even code (the even exponent field);
                                 0x00 is 2^-127 with nothing below it, so every value
                                 below 2^-127 gives 0x00 */
    SMMA_E8RN_ML_DTYPES       /* ml_dtypes 0.6: a tie goes to the even significand,
                                 hidden bit included.  Every normal significand is 1,
                                 odd, so ties go up from 2^-126 on (1.5 -> 0x80, 3 ->
                                 0x81); below 2^-126 the format is read as having a
                                 subnormal step of 2^-126 with 0x00 as its zero:
                                 (0, 2^-127] -> 0x00 (2^-127 is the tie, 0 the even
                                 side) and (2^-127, 2^-126) -> 0x01.  A double in
                                 [1.5 * 2^128, 2^129) gives 0x00 (ml_dtypes' 8-bit
                                 sum of exponent and rounded significand wraps);
                                 fp32 inputs never reach it */
} smma_e8m0_rn;

/* What +-Inf becomes in formats without infinity but with NaN (e4m3, ue4m3;
 * e8m0 has its own field).  Formats with neither always give +-max. */
typedef enum smma_inf_nonf {
    SMMA_INFN_SAT = 0,        /* satfinite: +-max; otherwise NaN */
    SMMA_INFN_NAN             /* NaN, saturating or not */
} smma_inf_nonf;

/*
 * Block quantization choices (softmma/quant.h reads them; doc/profiles.md
 * gives each profile's value and its source).  "amax" is the largest
 * magnitude in a block, an fp32 number; emax_elem is the exponent of the
 * element format's largest power of two (e2m1 2, e2m3 2, e3m2 4, e4m3 8,
 * e5m2 15) and max_elem its largest finite value.
 */

/* How an MX block's e8m0 scale exponent is chosen. */
typedef enum smma_scale_rule {
    SMMA_SCALE_FLOOR = 0,     /* floor(log2(amax)) - emax_elem, read off amax's fp32
                                 exponent field (OCP MX v1.0 section 6.3) */
    SMMA_SCALE_RCEIL,         /* the ratio amax / max_elem (see smma_scale_ratio) rounded
                                 up to a power of two (see smma_scale_cvt; LOG2_FLOOR
                                 rounds it down instead) */
    SMMA_SCALE_CEIL,          /* ceil(log2(amax)) - emax_elem: the fp32 exponent field,
                                 plus one when the mantissa field is not zero */
    SMMA_SCALE_EVEN,          /* FLOOR of amax first rounded to the element's mantissa
                                 width, half up, on its fp32 bits (torchao "EVEN") */
    SMMA_SCALE_RN             /* the ratio amax / max_elem cast to e8m0 with rounding
                                 to nearest (see smma_scale_cvt) */
} smma_scale_rule;

/* How RCEIL and RN form the fp32 ratio amax / max_elem. */
typedef enum smma_scale_ratio {
    SMMA_RATIO_MUL_RCP = 0,   /* fp32(amax * fp32(1 / max_elem)) */
    SMMA_RATIO_DIV,           /* fp32(amax / max_elem) */
    SMMA_RATIO_MUL_RCP_INPUT  /* amax * (1 / max_elem) with the reciprocal and the product
                                 in the input's precision (XLA's rewrite of a division by a
                                 constant under jit: bf16(amax * bf16(1 / max_elem))) */
} smma_scale_ratio;

/* How RCEIL and RN turn the fp32 ratio into an e8m0 byte. */
typedef enum smma_scale_cvt {
    SMMA_SCVT_RP_SATFINITE = 0, /* cvt.rp.satfinite.ue8m0x2.f32: round up; Inf and
                                   overflow give 0xfe, NaN 0xff, 0 gives 0x00 */
    SMMA_SCVT_RP,             /* round up without saturation: Inf, NaN and overflow
                                 give 0xff */
    SMMA_SCVT_BITS_CEIL,      /* (bits + 0x7fffff) & 0x7f800000 on the fp32 ratio: any
                                 subnormal gives 0x01, 0 gives 0x00, Inf 0xff, NaN 0x00 */
    SMMA_SCVT_PROFILE,        /* the profile's e8m0 conversion (e8m0_round, sat,
                                 e8m0_zero, e8m0_inf) */
    SMMA_SCVT_ML_DTYPES,      /* ml_dtypes 0.6's float8_e8m0fnu cast: ties up from
                                 2^-126 on, (0, 2^-127] gives 0x00 and (2^-127, 2^-126]
                                 0x01; zero, Inf, NaN and overflow give 0xff */
    SMMA_SCVT_LOG2_CEIL,      /* PyTorch's to_mxfp: ceil(log2(ratio)), the logarithm
                                 rounded to fp32, clamped to [-127, 127], plus 127; NaN
                                 gives 0xff, 0 gives 0x00 and Inf 0xfe.  A ratio a few
                                 ulps above a power of two 2^k, |k| >= 4, has a log2
                                 that rounds to k: the scale is 2^k, not 2^(k+1) */
    SMMA_SCVT_LOG2_FLOOR,     /* triton.tools.mxfp's MXScaleTensor: floor(log2(ratio)),
                                 the logarithm rounded to fp32 (to bf16 for bf16 inputs
                                 of a profile with arith_in_input, where the sum with
                                 the bias 127 is rounded to bf16 as well), plus 127,
                                 clamped to [0, 254]; 0, negatives, Inf and NaN give
                                 0xff */
    SMMA_SCVT_BITS_RU         /* JAX's cast_to_e8m0_with_rounding_up on the ratio's
                                 fp32 bits: the exponent field, plus one when the
                                 mantissa field is not 0, except at exponent 0xfe and
                                 for subnormals up to 2^-127; the sum is kept to 8
                                 bits, so a NaN ratio gives 0x00 and Inf 0xff */
} smma_scale_cvt;

/* What a NaN element does to the block's amax. */
typedef enum smma_amax_nan {
    SMMA_AMAX_NAN_PROPAGATE = 0, /* amax is NaN */
    SMMA_AMAX_NAN_IGNORE,     /* NaNs are skipped (fmaxf); a block of NaNs has amax NaN */
    SMMA_AMAX_NAN_IGNORE_ZERO /* NaNs are skipped and the maximum starts at 0: a block
                                 of NaNs has amax 0 */
} smma_amax_nan;

/* The scale of a block whose amax is zero. */
typedef enum smma_zero_block {
    SMMA_ZB_MIN = 0,          /* 0x00 (2^-127) */
    SMMA_ZB_NAN,              /* 0xff */
    SMMA_ZB_UNIT,             /* 127 - emax_elem: the FLOOR scale of amax = 1 */
    SMMA_ZB_ONE               /* 0x01 (scales clamped to at least 2^-126) */
} smma_zero_block;

/* The scale when the exponent leaves e8m0's range above (FLOOR, CEIL, EVEN). */
typedef enum smma_scale_overflow {
    SMMA_SOVF_NAN = 0,        /* 0xff */
    SMMA_SOVF_SAT             /* 0xfe */
} smma_scale_overflow;

/* How elements are brought to the element range once the MX scale byte s is
 * known.  All give x * 2^(127 - s) (with fp32 rounding, which never changes an
 * element code) for 1 <= s <= 253; they differ at the ends. */
typedef enum smma_elem_apply {
    SMMA_APPLY_DIV = 0,       /* x / 2^(s - 127); s = 0xff gives NaN */
    SMMA_APPLY_MUL_RCP,       /* x * 2^(127 - s), the exact reciprocal; s = 0xff: NaN */
    SMMA_APPLY_TE,            /* TransformerEngine's exp2f_rcp: s = 0 multiplies by 1,
                                 s = 0xfe by 0, s = 0xff by -Inf */
    SMMA_APPLY_TRITON,        /* Triton's quant_scale: s = 0 and s = 0xff multiply by 0 */
    SMMA_APPLY_TORCH,         /* PyTorch's to_mxfp: s = 0 multiplies by 1, others by
                                 fp32 2^(127 - s) (s = 0xff by 2^-128), in fp32; s = 0xfe
                                 by 0x003fffff, one ulp below 2^-127 (torch.exp2 on the
                                 GPU, measured) */
    SMMA_APPLY_JAX            /* JAX's quantize: x / 2^(s - 127) in fp32, s = 0 being
                                 2^-127 and s = 0xff +Inf (finite x give +-0) */
} smma_elem_apply;

/* How NVFP4 computes its ue4m3 block scales and element multipliers. */
typedef enum smma_nvfp4_rule {
    SMMA_NVFP4_EXACT = 0,     /* scale = ue4m3(amax / (6 G)), element = x / (scale G),
                                 both exact with one rounding; a zero scale gives zero
                                 elements */
    SMMA_NVFP4_TE,            /* TransformerEngine (FACTS.md section 3), fp32 steps */
    SMMA_NVFP4_TORCHAO,       /* torchao nvfp4_quantize, fp32 steps and clamps */
    SMMA_NVFP4_CAST,          /* plain fp32 divisions and the profile's casts (IEEE:
                                 0/0 is NaN) */
    SMMA_NVFP4_JAX            /* JAX's quantize: x' = x / G in fp32 (two-level), scale
                                 = e4m3(clip(amax(x') / 6, 0, 448)), element =
                                 clip(x' / scale, -6, 6) in fp32; a zero scale gives
                                 +-6 for non-zero x' and NaN (the profile's NaN code)
                                 for zeros */
} smma_nvfp4_rule;

/* A converter's deviation from the codec for one element format. */
typedef enum smma_elem_quirk {
    SMMA_QUIRK_NONE = 0,
    SMMA_QUIRK_TRITON_E2M1,   /* Triton's e2m1 bit converter drops the two lowest fp32
                                 mantissa bits below 0.5, so 0.25 * (1 + k 2^-23),
                                 k = 1..3, give 0 instead of 0.5 */
    SMMA_QUIRK_BF16_E2M1,     /* e2m1 elements are rounded to bf16 (to nearest even)
                                 before their conversion, so a value within half a bf16
                                 step above an e2m1 midpoint rounds as the midpoint
                                 (PyTorch's to_mxfp) */
    SMMA_QUIRK_NEAREST_E2M1   /* triton.tools.mxfp's MXFP4Tensor: the e2m1 candidate
                                 of least fp32 |x - c|, where the candidates of even
                                 mantissa have fp32(1e-6) subtracted from their error
                                 and the first of equal errors wins: within about 5e-7
                                 of a midpoint the even side wins, nearer or not; NaN
                                 and Inf give +-6 by the sign bit */
} smma_elem_quirk;

/* One profile: the codec's choices, then block quantization's. */
typedef struct smma_profile {
    const char *name;
    const char *summary;
    smma_round round;           /* default element rounding */
    bool sat;                   /* default: satfinite */
    smma_nan_to_finite nan_to_finite;
    smma_nan_out nan_out;
    smma_inf_nonf inf_nonf;
    smma_neg_unsigned neg_unsigned;
    smma_e8m0_zero e8m0_zero;
    smma_inf_nonf e8m0_inf;     /* +-Inf into e8m0 */
    smma_round e8m0_round;      /* default rounding for e8m0 scales */
    smma_e8m0_rn e8m0_rn;       /* what rn means in e8m0 */
    bool ue4m3_strict;          /* reject ue4m3 bytes with the MSB set */
    /* Block quantization.  Elements are converted with the profile's rounding
     * and saturation (round, sat above) unless the caller overrides them. */
    smma_scale_rule scale_rule;
    smma_scale_ratio scale_ratio;   /* RCEIL and RN */
    smma_scale_cvt scale_cvt;       /* RCEIL and RN */
    smma_amax_nan amax_nan;
    smma_zero_block zero_block;
    bool nonfinite_nan;             /* FLOOR, CEIL, EVEN: Inf or NaN amax gives 0xff */
    smma_scale_overflow scale_overflow; /* FLOOR, CEIL, EVEN */
    smma_elem_apply elem_apply;     /* MX elements */
    bool nan_positive;              /* the scaling arithmetic makes every NaN positive */
    smma_nvfp4_rule nvfp4;
    smma_elem_quirk elem_quirk;
    bool dq_zero_scale_zero;        /* dequantization reads e8m0 0x00 as 0, not 2^-127 */
    bool arith_in_input;            /* MX scale steps run in the input's precision: for
                                       bf16 inputs (smma_quant_opts.input_bf16) the ratio
                                       amax / max_elem is rounded to bf16, and so are the
                                       LOG2_FLOOR steps */
    const char *quant_summary;      /* one line on the quantization recipe */
} smma_profile;

/* The number of built-in profiles and the i-th one (NULL past the end). */
size_t smma_profile_count(void);
const smma_profile *smma_profile_at(size_t i);

/* Looks up a profile by name; SMMA_EINVAL with a message naming the
 * unknown profile and listing the known ones. */
int smma_profile_from_name(const char *name, const smma_profile **out, smma_error *err);

/* The "cuda" profile. */
const smma_profile *smma_profile_cuda(void);

/* The conversion the profile does by default for elements (its rounding and
 * saturation); NULL means the "cuda" profile. */
smma_cvt smma_profile_cvt(const smma_profile *p);

/* The same for format f: e8m0 scales take the profile's e8m0 rounding. */
smma_cvt smma_profile_cvt_for(const smma_profile *p, smma_format f);

#ifdef __cplusplus
}
#endif

#endif /* SOFTMMA_PROFILE_H */

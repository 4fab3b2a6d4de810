/*
 * profile.c - the table of semantic profiles.  Each entry is data; the
 * sources of each choice are given in doc/profiles.md.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <softmma/profile.h>

/*
 * Codec fields first (unchanged from the codec issue for the first four
 * profiles), then the block quantization fields.  Fields a rule does not read
 * (the ratio of a FLOOR profile, say) are still written, so that every entry
 * says everything.
 */
static const smma_profile profiles[] = {
    {
        .name = "cuda",
        .summary = "PTX cvt and the CUDA 13 headers' fp32 conversions: RN, satfinite, NaN -> 0x7f",
        .round = SMMA_RN, .sat = true,
        .nan_to_finite = SMMA_NANF_POS_MAX, .nan_out = SMMA_NANO_CANONICAL,
        .inf_nonf = SMMA_INFN_SAT, .neg_unsigned = SMMA_NEGU_ABS,
        .e8m0_zero = SMMA_E8Z_MIN, .e8m0_inf = SMMA_INFN_SAT, .e8m0_round = SMMA_RP,
        .ue4m3_strict = true,
        .scale_rule = SMMA_SCALE_RCEIL, .scale_ratio = SMMA_RATIO_MUL_RCP,
        .scale_cvt = SMMA_SCVT_RP_SATFINITE, .amax_nan = SMMA_AMAX_NAN_PROPAGATE,
        .zero_block = SMMA_ZB_MIN, .nonfinite_nan = false, .scale_overflow = SMMA_SOVF_SAT,
        .elem_apply = SMMA_APPLY_MUL_RCP, .nan_positive = true, .nvfp4 = SMMA_NVFP4_TE,
        .elem_quirk = SMMA_QUIRK_NONE, .dq_zero_scale_zero = false,
        .quant_summary = "RCEIL: cvt.rp.satfinite.ue8m0x2(amax * (1/max)); x * 2^-e; NVFP4 as te",
    },
    {
        .name = "ocp",
        .summary =
            "OCP 8-bit FP and MX v1.0: RN, saturating; softmma's choices where they are silent",
        .round = SMMA_RN, .sat = true,
        .nan_to_finite = SMMA_NANF_POS_MAX, .nan_out = SMMA_NANO_SIGNED,
        .inf_nonf = SMMA_INFN_SAT, .neg_unsigned = SMMA_NEGU_NAN,
        .e8m0_zero = SMMA_E8Z_MIN, .e8m0_inf = SMMA_INFN_NAN, .e8m0_round = SMMA_RZ,
        .ue4m3_strict = true,
        .scale_rule = SMMA_SCALE_FLOOR, .scale_ratio = SMMA_RATIO_DIV,
        .scale_cvt = SMMA_SCVT_RP_SATFINITE, .amax_nan = SMMA_AMAX_NAN_PROPAGATE,
        .zero_block = SMMA_ZB_MIN, .nonfinite_nan = true, .scale_overflow = SMMA_SOVF_NAN,
        .elem_apply = SMMA_APPLY_DIV, .nan_positive = false, .nvfp4 = SMMA_NVFP4_EXACT,
        .elem_quirk = SMMA_QUIRK_NONE, .dq_zero_scale_zero = false,
        .quant_summary = "FLOOR (MX v1.0 6.3), exact division; zero block 0x00, Inf/NaN 0xff",
    },
    {
        .name = "ml_dtypes",
        .summary = "ml_dtypes 0.6 scalar casts: RN, non-saturating, NaN -> -0/+0 in FP4/FP6",
        .round = SMMA_RN, .sat = false,
        .nan_to_finite = SMMA_NANF_FLIPPED_ZERO, .nan_out = SMMA_NANO_SIGNED,
        .inf_nonf = SMMA_INFN_NAN, .neg_unsigned = SMMA_NEGU_NAN,
        .e8m0_zero = SMMA_E8Z_NAN, .e8m0_inf = SMMA_INFN_NAN, .e8m0_round = SMMA_RN,
        .e8m0_rn = SMMA_E8RN_ML_DTYPES, .ue4m3_strict = true,
        .scale_rule = SMMA_SCALE_RN, .scale_ratio = SMMA_RATIO_DIV,
        .scale_cvt = SMMA_SCVT_ML_DTYPES, .amax_nan = SMMA_AMAX_NAN_PROPAGATE,
        .zero_block = SMMA_ZB_NAN, .nonfinite_nan = true, .scale_overflow = SMMA_SOVF_NAN,
        .elem_apply = SMMA_APPLY_DIV, .nan_positive = false, .nvfp4 = SMMA_NVFP4_CAST,
        .elem_quirk = SMMA_QUIRK_NONE, .dq_zero_scale_zero = false,
        .quant_summary = "plain casts: e8m0(amax/max) ties up, x/s cast non-saturating",
    },
    {
        .name = "cutlass-host",
        .summary = "CUTLASS host conversions: RN, always saturating, NaN -> +-max in FP4/FP6",
        .round = SMMA_RN, .sat = true,
        .nan_to_finite = SMMA_NANF_SIGNED_MAX, .nan_out = SMMA_NANO_CANONICAL,
        .inf_nonf = SMMA_INFN_SAT, .neg_unsigned = SMMA_NEGU_ABS,
        .e8m0_zero = SMMA_E8Z_MIN, .e8m0_inf = SMMA_INFN_NAN, .e8m0_round = SMMA_RP,
        .ue4m3_strict = false,
        .scale_rule = SMMA_SCALE_RCEIL, .scale_ratio = SMMA_RATIO_MUL_RCP,
        .scale_cvt = SMMA_SCVT_PROFILE, .amax_nan = SMMA_AMAX_NAN_PROPAGATE,
        .zero_block = SMMA_ZB_MIN, .nonfinite_nan = true, .scale_overflow = SMMA_SOVF_SAT,
        .elem_apply = SMMA_APPLY_MUL_RCP, .nan_positive = false, .nvfp4 = SMMA_NVFP4_EXACT,
        .elem_quirk = SMMA_QUIRK_NONE, .dq_zero_scale_zero = false,
        .quant_summary = "softmma's RCEIL composed of CUTLASS host casts (not a CUTLASS recipe)",
    },
    {
        .name = "te",
        .summary = "TransformerEngine MXFP8/NVFP4 kernels: CUDA conversions, TE's scale steps",
        .round = SMMA_RN, .sat = true,
        .nan_to_finite = SMMA_NANF_POS_MAX, .nan_out = SMMA_NANO_CANONICAL,
        .inf_nonf = SMMA_INFN_SAT, .neg_unsigned = SMMA_NEGU_ABS,
        .e8m0_zero = SMMA_E8Z_MIN, .e8m0_inf = SMMA_INFN_SAT, .e8m0_round = SMMA_RP,
        .ue4m3_strict = true,
        .scale_rule = SMMA_SCALE_RCEIL, .scale_ratio = SMMA_RATIO_MUL_RCP,
        .scale_cvt = SMMA_SCVT_RP_SATFINITE, .amax_nan = SMMA_AMAX_NAN_IGNORE_ZERO,
        .zero_block = SMMA_ZB_MIN, .nonfinite_nan = false, .scale_overflow = SMMA_SOVF_SAT,
        .elem_apply = SMMA_APPLY_TE, .nan_positive = true, .nvfp4 = SMMA_NVFP4_TE,
        .elem_quirk = SMMA_QUIRK_NONE, .dq_zero_scale_zero = false,
        .quant_summary = "RCEIL as cuda, NaN skipped in amax, exp2f_rcp ends; NVFP4 TE steps",
    },
    {
        .name = "torchao-floor",
        .summary = "torchao MX (to_mx, FLOOR) and NVFP4 (nvfp4_quantize) with torch casts",
        .round = SMMA_RN, .sat = true,
        .nan_to_finite = SMMA_NANF_ONE_AND_HALF, .nan_out = SMMA_NANO_SIGNED,
        .inf_nonf = SMMA_INFN_NAN, .neg_unsigned = SMMA_NEGU_NAN,
        .e8m0_zero = SMMA_E8Z_MIN, .e8m0_inf = SMMA_INFN_NAN, .e8m0_round = SMMA_RZ,
        .ue4m3_strict = true,
        .scale_rule = SMMA_SCALE_FLOOR, .scale_ratio = SMMA_RATIO_MUL_RCP,
        .scale_cvt = SMMA_SCVT_RP, .amax_nan = SMMA_AMAX_NAN_PROPAGATE,
        .zero_block = SMMA_ZB_MIN, .nonfinite_nan = true, .scale_overflow = SMMA_SOVF_NAN,
        .elem_apply = SMMA_APPLY_MUL_RCP, .nan_positive = true, .nvfp4 = SMMA_NVFP4_TORCHAO,
        .elem_quirk = SMMA_QUIRK_NONE, .dq_zero_scale_zero = false,
        .quant_summary = "FLOOR on amax's exponent field, x * 2^-e; Inf/NaN block 0xff",
    },
    {
        .name = "torchao-rceil",
        .summary = "torchao MX with ScaleCalculationMode.RCEIL (eager path) and torch casts",
        .round = SMMA_RN, .sat = true,
        .nan_to_finite = SMMA_NANF_ONE_AND_HALF, .nan_out = SMMA_NANO_SIGNED,
        .inf_nonf = SMMA_INFN_NAN, .neg_unsigned = SMMA_NEGU_NAN,
        .e8m0_zero = SMMA_E8Z_MIN, .e8m0_inf = SMMA_INFN_NAN, .e8m0_round = SMMA_RP,
        .ue4m3_strict = true,
        .scale_rule = SMMA_SCALE_RCEIL, .scale_ratio = SMMA_RATIO_MUL_RCP,
        .scale_cvt = SMMA_SCVT_RP, .amax_nan = SMMA_AMAX_NAN_PROPAGATE,
        .zero_block = SMMA_ZB_MIN, .nonfinite_nan = true, .scale_overflow = SMMA_SOVF_NAN,
        .elem_apply = SMMA_APPLY_MUL_RCP, .nan_positive = true, .nvfp4 = SMMA_NVFP4_TORCHAO,
        .elem_quirk = SMMA_QUIRK_NONE, .dq_zero_scale_zero = false,
        .quant_summary = "RCEIL: round up amax * (1/max) without satfinite; Inf/NaN 0xff",
    },
    {
        .name = "torchao-ceil",
        .summary = "torchao MX with ScaleCalculationMode.CEIL and torch casts",
        .round = SMMA_RN, .sat = true,
        .nan_to_finite = SMMA_NANF_ONE_AND_HALF, .nan_out = SMMA_NANO_SIGNED,
        .inf_nonf = SMMA_INFN_NAN, .neg_unsigned = SMMA_NEGU_NAN,
        .e8m0_zero = SMMA_E8Z_MIN, .e8m0_inf = SMMA_INFN_NAN, .e8m0_round = SMMA_RP,
        .ue4m3_strict = true,
        .scale_rule = SMMA_SCALE_CEIL, .scale_ratio = SMMA_RATIO_MUL_RCP,
        .scale_cvt = SMMA_SCVT_RP, .amax_nan = SMMA_AMAX_NAN_PROPAGATE,
        .zero_block = SMMA_ZB_MIN, .nonfinite_nan = true, .scale_overflow = SMMA_SOVF_NAN,
        .elem_apply = SMMA_APPLY_MUL_RCP, .nan_positive = true, .nvfp4 = SMMA_NVFP4_TORCHAO,
        .elem_quirk = SMMA_QUIRK_NONE, .dq_zero_scale_zero = false,
        .quant_summary = "CEIL: exponent field + (mantissa != 0) - emax; Inf/NaN 0xff",
    },
    {
        .name = "torchao-even",
        .summary = "torchao MX with ScaleCalculationMode.EVEN and torch casts",
        .round = SMMA_RN, .sat = true,
        .nan_to_finite = SMMA_NANF_ONE_AND_HALF, .nan_out = SMMA_NANO_SIGNED,
        .inf_nonf = SMMA_INFN_NAN, .neg_unsigned = SMMA_NEGU_NAN,
        .e8m0_zero = SMMA_E8Z_MIN, .e8m0_inf = SMMA_INFN_NAN, .e8m0_round = SMMA_RZ,
        .ue4m3_strict = true,
        .scale_rule = SMMA_SCALE_EVEN, .scale_ratio = SMMA_RATIO_MUL_RCP,
        .scale_cvt = SMMA_SCVT_RP, .amax_nan = SMMA_AMAX_NAN_PROPAGATE,
        .zero_block = SMMA_ZB_MIN, .nonfinite_nan = true, .scale_overflow = SMMA_SOVF_NAN,
        .elem_apply = SMMA_APPLY_MUL_RCP, .nan_positive = true, .nvfp4 = SMMA_NVFP4_TORCHAO,
        .elem_quirk = SMMA_QUIRK_NONE, .dq_zero_scale_zero = false,
        .quant_summary = "EVEN: amax rounded half up to mbits, then FLOOR; Inf/NaN 0xff",
    },
    {
        .name = "triton",
        .summary = "Triton triton_kernels downcast_to_mxfp (ROUND_UP) and upcast_from_mxfp",
        .round = SMMA_RN, .sat = true,
        .nan_to_finite = SMMA_NANF_SIGNED_MAX, .nan_out = SMMA_NANO_CANONICAL,
        .inf_nonf = SMMA_INFN_SAT, .neg_unsigned = SMMA_NEGU_NAN,
        .e8m0_zero = SMMA_E8Z_NAN, .e8m0_inf = SMMA_INFN_NAN, .e8m0_round = SMMA_RZ,
        .ue4m3_strict = true,
        .scale_rule = SMMA_SCALE_RCEIL, .scale_ratio = SMMA_RATIO_DIV,
        .scale_cvt = SMMA_SCVT_BITS_CEIL, .amax_nan = SMMA_AMAX_NAN_IGNORE,
        .zero_block = SMMA_ZB_MIN, .nonfinite_nan = false, .scale_overflow = SMMA_SOVF_NAN,
        .elem_apply = SMMA_APPLY_TRITON, .nan_positive = true, .nvfp4 = SMMA_NVFP4_EXACT,
        .elem_quirk = SMMA_QUIRK_TRITON_E2M1, .dq_zero_scale_zero = true,
        .quant_summary = "RCEIL on the bits of amax/max; s=0 and 0xff zero the elements",
    },
    {
        .name = "microxcaling",
        .summary = "microsoft/microxcaling _quantize_mx (C++/CUDA path): FLOOR, RA elements",
        .round = SMMA_RA, .sat = true,
        .nan_to_finite = SMMA_NANF_POS_MAX, .nan_out = SMMA_NANO_SIGNED,
        .inf_nonf = SMMA_INFN_SAT, .neg_unsigned = SMMA_NEGU_NAN,
        .e8m0_zero = SMMA_E8Z_MIN, .e8m0_inf = SMMA_INFN_NAN, .e8m0_round = SMMA_RZ,
        .ue4m3_strict = true,
        .scale_rule = SMMA_SCALE_FLOOR, .scale_ratio = SMMA_RATIO_DIV,
        .scale_cvt = SMMA_SCVT_RP_SATFINITE, .amax_nan = SMMA_AMAX_NAN_PROPAGATE,
        .zero_block = SMMA_ZB_MIN, .nonfinite_nan = true, .scale_overflow = SMMA_SOVF_NAN,
        .elem_apply = SMMA_APPLY_DIV, .nan_positive = false, .nvfp4 = SMMA_NVFP4_EXACT,
        .elem_quirk = SMMA_QUIRK_NONE, .dq_zero_scale_zero = false,
        .quant_summary = "FLOOR, x / 2^e, round \"nearest\" = ties away; Inf/NaN 0xff",
    },
    {
        .name = "pytorch",
        .summary = "PyTorch 2.11 to_mxfp (common_quantized, its MX GEMM tests' reference)",
        .round = SMMA_RN, .sat = true,
        .nan_to_finite = SMMA_NANF_POS_TWO, .nan_out = SMMA_NANO_SIGNED,
        .inf_nonf = SMMA_INFN_SAT, .neg_unsigned = SMMA_NEGU_ABS,
        .e8m0_zero = SMMA_E8Z_MIN, .e8m0_inf = SMMA_INFN_SAT, .e8m0_round = SMMA_RP,
        .ue4m3_strict = true,
        .scale_rule = SMMA_SCALE_RCEIL, .scale_ratio = SMMA_RATIO_MUL_RCP,
        .scale_cvt = SMMA_SCVT_LOG2_CEIL, .amax_nan = SMMA_AMAX_NAN_PROPAGATE,
        .zero_block = SMMA_ZB_MIN, .nonfinite_nan = false, .scale_overflow = SMMA_SOVF_SAT,
        .elem_apply = SMMA_APPLY_TORCH, .nan_positive = true, .nvfp4 = SMMA_NVFP4_EXACT,
        .elem_quirk = SMMA_QUIRK_BF16_E2M1, .dq_zero_scale_zero = false,
        .arith_in_input = false,
        .quant_summary = "ceil(log2(amax/max)) in fp32; s=0 keeps x; NaN 0xff; FP4 via bf16",
    },
    {
        .name = "jax",
        .summary = "JAX 0.11 scaled_matmul_stablehlo.quantize op by op (as JAX's tests call it)",
        .round = SMMA_RN, .sat = true,
        .nan_to_finite = SMMA_NANF_XLA, .nan_out = SMMA_NANO_CANONICAL,
        .inf_nonf = SMMA_INFN_SAT, .neg_unsigned = SMMA_NEGU_NAN,
        .e8m0_zero = SMMA_E8Z_MIN, .e8m0_inf = SMMA_INFN_NAN, .e8m0_round = SMMA_RP,
        .ue4m3_strict = true,
        .scale_rule = SMMA_SCALE_RCEIL, .scale_ratio = SMMA_RATIO_DIV,
        .scale_cvt = SMMA_SCVT_BITS_RU, .amax_nan = SMMA_AMAX_NAN_PROPAGATE,
        .zero_block = SMMA_ZB_MIN, .nonfinite_nan = false, .scale_overflow = SMMA_SOVF_SAT,
        .elem_apply = SMMA_APPLY_JAX, .nan_positive = true, .nvfp4 = SMMA_NVFP4_JAX,
        .elem_quirk = SMMA_QUIRK_NONE, .dq_zero_scale_zero = false,
        .arith_in_input = true,
        .quant_summary = "round-up bits of amax/max (NaN -> 0x00), x / s clipped; NVFP4 x/G",
    },
    {
        .name = "jax-jit",
        .summary = "JAX 0.11 scaled_matmul_stablehlo.quantize under jax.jit",
        .round = SMMA_RN, .sat = true,
        .nan_to_finite = SMMA_NANF_XLA, .nan_out = SMMA_NANO_CANONICAL,
        .inf_nonf = SMMA_INFN_SAT, .neg_unsigned = SMMA_NEGU_NAN,
        .e8m0_zero = SMMA_E8Z_MIN, .e8m0_inf = SMMA_INFN_NAN, .e8m0_round = SMMA_RP,
        .ue4m3_strict = true,
        .scale_rule = SMMA_SCALE_RCEIL, .scale_ratio = SMMA_RATIO_MUL_RCP_INPUT,
        .scale_cvt = SMMA_SCVT_BITS_RU, .amax_nan = SMMA_AMAX_NAN_PROPAGATE,
        .zero_block = SMMA_ZB_MIN, .nonfinite_nan = false, .scale_overflow = SMMA_SOVF_SAT,
        .elem_apply = SMMA_APPLY_JAX, .nan_positive = true, .nvfp4 = SMMA_NVFP4_JAX,
        .elem_quirk = SMMA_QUIRK_NONE, .dq_zero_scale_zero = false,
        .arith_in_input = true,
        .quant_summary = "round-up bits of amax*(1/max) (NaN -> 0x00), x / s clipped; NVFP4 x/G",
    },
    {
        .name = "triton-mxfp",
        .summary = "triton.tools.mxfp (Triton 3.6): MXScaleTensor(amax / 6), MXFP4Tensor",
        .round = SMMA_RN, .sat = true,
        .nan_to_finite = SMMA_NANF_SIGNED_MAX, .nan_out = SMMA_NANO_CANONICAL,
        .inf_nonf = SMMA_INFN_SAT, .neg_unsigned = SMMA_NEGU_NAN,
        .e8m0_zero = SMMA_E8Z_NAN, .e8m0_inf = SMMA_INFN_NAN, .e8m0_round = SMMA_RZ,
        .ue4m3_strict = true,
        .scale_rule = SMMA_SCALE_RCEIL, .scale_ratio = SMMA_RATIO_MUL_RCP,
        .scale_cvt = SMMA_SCVT_LOG2_FLOOR, .amax_nan = SMMA_AMAX_NAN_PROPAGATE,
        .zero_block = SMMA_ZB_NAN, .nonfinite_nan = true, .scale_overflow = SMMA_SOVF_NAN,
        .elem_apply = SMMA_APPLY_DIV, .nan_positive = true, .nvfp4 = SMMA_NVFP4_EXACT,
        .elem_quirk = SMMA_QUIRK_NEAREST_E2M1, .dq_zero_scale_zero = false,
        .arith_in_input = true,
        .quant_summary = "floor(log2(amax/max)), x / s, nearest e2m1 candidate; zero block NaN",
    },
};

#define PROFILE_COUNT (sizeof(profiles) / sizeof(profiles[0]))

size_t
smma_profile_count(void)
{
    return PROFILE_COUNT;
}

const smma_profile *
smma_profile_at(size_t i)
{
    return i < PROFILE_COUNT ? &profiles[i] : NULL;
}

const smma_profile *
smma_profile_cuda(void)
{
    return &profiles[0];
}

int
smma_profile_from_name(const char *name, const smma_profile **out, smma_error *err)
{
    char known[512];
    size_t i, len = 0;

    if (name == NULL)
        return smma_error_set(err, SMMA_EINVAL, "no profile given");
    for (i = 0; i < PROFILE_COUNT; i++)
        if (strcasecmp(name, profiles[i].name) == 0) {
            *out = &profiles[i];
            return SMMA_OK;
        }
    known[0] = '\0';
    for (i = 0; i < PROFILE_COUNT && len < sizeof(known); i++)
        len += (size_t) snprintf(known + len, sizeof(known) - len, "%s%s",
                                 i ? " " : "", profiles[i].name);
    return smma_error_set(err, SMMA_EINVAL, "unknown profile '%s' (known: %s)", name, known);
}

smma_cvt
smma_profile_cvt(const smma_profile *p)
{
    smma_cvt c;

    if (p == NULL)
        p = smma_profile_cuda();
    c.round = p->round;
    c.sat = p->sat;
    c.rbits = 0;
    c.profile = p;
    return c;
}

smma_cvt
smma_profile_cvt_for(const smma_profile *p, smma_format f)
{
    smma_cvt c = smma_profile_cvt(p);

    if (f == SMMA_E8M0)
        c.round = c.profile->e8m0_round;
    return c;
}

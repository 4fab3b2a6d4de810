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
    SMMA_NANF_POS_ZERO        /* +0 whatever the sign */
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

/* What +-Inf becomes in formats without infinity but with NaN (e4m3, ue4m3;
 * e8m0 has its own field).  Formats with neither always give +-max. */
typedef enum smma_inf_nonf {
    SMMA_INFN_SAT = 0,        /* satfinite: +-max; otherwise NaN */
    SMMA_INFN_NAN             /* NaN, saturating or not */
} smma_inf_nonf;

/* One profile.  Later layers (block quantization) extend this structure. */
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
    bool ue4m3_strict;          /* reject ue4m3 bytes with the MSB set */
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

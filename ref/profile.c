/*
 * profile.c - the table of semantic profiles.  Each entry is data; the
 * sources of each choice are given in doc/profiles.md.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <softmma/profile.h>

static const smma_profile profiles[] = {
    {
        "cuda",
        "PTX cvt and the CUDA 13 headers' fp32 conversions: RN, satfinite, NaN -> 0x7f",
        SMMA_RN, true,
        SMMA_NANF_POS_MAX, SMMA_NANO_CANONICAL, SMMA_INFN_SAT,
        SMMA_NEGU_ABS, SMMA_E8Z_MIN, SMMA_INFN_SAT, SMMA_RP, true,
    },
    {
        "ocp",
        "OCP 8-bit FP and MX v1.0: RN, saturating; softmma's choices where they are silent",
        SMMA_RN, true,
        SMMA_NANF_POS_MAX, SMMA_NANO_SIGNED, SMMA_INFN_SAT,
        SMMA_NEGU_NAN, SMMA_E8Z_MIN, SMMA_INFN_NAN, SMMA_RZ, true,
    },
    {
        "ml_dtypes",
        "ml_dtypes 0.6 scalar casts: RN, non-saturating, NaN -> -0/+0 in FP4/FP6",
        SMMA_RN, false,
        SMMA_NANF_FLIPPED_ZERO, SMMA_NANO_SIGNED, SMMA_INFN_NAN,
        SMMA_NEGU_NAN, SMMA_E8Z_NAN, SMMA_INFN_NAN, SMMA_RA, true,
    },
    {
        "cutlass-host",
        "CUTLASS host conversions: RN, always saturating, NaN -> +-max in FP4/FP6",
        SMMA_RN, true,
        SMMA_NANF_SIGNED_MAX, SMMA_NANO_CANONICAL, SMMA_INFN_SAT,
        SMMA_NEGU_ABS, SMMA_E8Z_MIN, SMMA_INFN_NAN, SMMA_RP, false,
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
    char known[256];
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

/*
 * tests/ref/profile-t.c - the conversion profiles, case by case.  Every
 * expected code here was derived by hand from the behaviour documented in
 * doc/profiles.md (and the sources it cites), not computed by the codec.
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include <softmma/format.h>
#include <softmma/profile.h>

#include "tap/basic.h"

#define DEF (-1) /* use the profile's default saturation */

struct pcase {
    const char *profile;
    smma_format f;
    double x;
    smma_round round;
    int sat;
    uint32_t want;
    const char *why;
};

static const struct pcase cases[] = {
    /* cuda: PTX cvt / CUDA 13 headers (fp32 entry points). */
    { "cuda", SMMA_E2M1, NAN, SMMA_RN, 1, 0x7, "NaN -> +max" },
    { "cuda", SMMA_E2M1, -NAN, SMMA_RN, 1, 0x7, "-NaN -> +max" },
    { "cuda", SMMA_E2M3, -NAN, SMMA_RN, 1, 0x1f, "-NaN -> +max" },
    { "cuda", SMMA_E3M2, NAN, SMMA_RZ, 1, 0x1f, "NaN -> +max (rz)" },
    { "cuda", SMMA_E2M1, -INFINITY, SMMA_RN, 1, 0xf, "-Inf -> -max" },
    { "cuda", SMMA_E2M1, 100.0, SMMA_RN, 0, 0x7, "no specials: always saturates" },
    { "cuda", SMMA_E4M3, NAN, SMMA_RN, 1, 0x7f, "NaN -> 0x7f" },
    { "cuda", SMMA_E4M3, -NAN, SMMA_RN, 1, 0x7f, "-NaN -> 0x7f (sign dropped)" },
    { "cuda", SMMA_E5M2, -NAN, SMMA_RN, 1, 0x7f, "-NaN -> 0x7f in e5m2 too" },
    { "cuda", SMMA_E4M3, INFINITY, SMMA_RN, 1, 0x7e, "+Inf satfinite -> 448" },
    { "cuda", SMMA_E4M3, -INFINITY, SMMA_RN, 1, 0xfe, "-Inf satfinite -> -448" },
    { "cuda", SMMA_E4M3, INFINITY, SMMA_RN, 0, 0x7f, "+Inf nosat -> NaN" },
    { "cuda", SMMA_E4M3, -1000.0, SMMA_RN, 0, 0xff, "overflow nosat -> NaN with sign" },
    { "cuda", SMMA_E5M2, INFINITY, SMMA_RN, 1, 0x7b, "+Inf satfinite -> max" },
    { "cuda", SMMA_E5M2, -INFINITY, SMMA_RN, 0, 0xfc, "-Inf nosat -> -Inf" },
    { "cuda", SMMA_E5M2, 61440.0, SMMA_RN, 1, 0x7b, "61440 satfinite -> max" },
    { "cuda", SMMA_E5M2, 61440.0, SMMA_RN, 0, 0x7c, "61440 nosat -> Inf (tie to even)" },
    { "cuda", SMMA_E4M3, 464.0, SMMA_RN, 0, 0x7e, "464 nosat -> 448 (tie to even)" },
    { "cuda", SMMA_E4M3, 0x1.d00002p8, SMMA_RN, 0, 0x7f, "just above 464 nosat -> NaN" },
    { "cuda", SMMA_E4M3, -0x1p-30, SMMA_RN, 1, 0x80, "-tiny -> -0" },
    { "cuda", SMMA_E8M0, 1.5, SMMA_RP, 1, 0x80, "e8m0 rp 1.5 -> 2" },
    { "cuda", SMMA_E8M0, 3.0, SMMA_RP, 1, 0x81, "e8m0 rp 3 -> 4" },
    { "cuda", SMMA_E8M0, 1.5, SMMA_RZ, 1, 0x7f, "e8m0 rz 1.5 -> 1" },
    { "cuda", SMMA_E8M0, -1.0, SMMA_RP, 1, 0x7f, "e8m0 negative -> magnitude" },
    { "cuda", SMMA_E8M0, 0.0, SMMA_RP, 1, 0x00, "e8m0 zero -> 0x00" },
    { "cuda", SMMA_E8M0, -0.0, SMMA_RZ, 1, 0x00, "e8m0 -0 -> 0x00" },
    { "cuda", SMMA_E8M0, NAN, SMMA_RP, 1, 0xff, "e8m0 NaN -> 0xff" },
    { "cuda", SMMA_E8M0, INFINITY, SMMA_RP, 1, 0xfe, "e8m0 Inf satfinite -> 0xfe" },
    { "cuda", SMMA_E8M0, INFINITY, SMMA_RP, 0, 0xff, "e8m0 Inf nosat -> 0xff" },
    { "cuda", SMMA_E8M0, 0x1.8p127, SMMA_RP, 1, 0xfe, "e8m0 rp overflow satfinite" },
    { "cuda", SMMA_E8M0, 0x1.8p127, SMMA_RP, 0, 0xff, "e8m0 rp overflow nosat -> NaN" },
    { "cuda", SMMA_E8M0, 0x1.fffffep127, SMMA_RZ, 0, 0xfe, "e8m0 rz FLT_MAX -> 2^127" },
    { "cuda", SMMA_E8M0, 0x1.8p-127, SMMA_RP, 1, 0x01, "e8m0 rp 1.5*2^-127 -> 2^-126" },
    { "cuda", SMMA_E8M0, 0x1p-128, SMMA_RP, 1, 0x00, "e8m0 rp 2^-128 -> 2^-127" },
    { "cuda", SMMA_E8M0, 0x1p-140, SMMA_RZ, 1, 0x00, "e8m0 rz below 2^-127 -> 2^-127" },
    /* ocp */
    { "ocp", SMMA_E4M3, -NAN, SMMA_RN, 1, 0xff, "NaN keeps its sign" },
    { "ocp", SMMA_E5M2, NAN, SMMA_RN, 1, 0x7e, "e5m2 quiet NaN" },
    { "ocp", SMMA_E5M2, -NAN, SMMA_RN, 1, 0xfe, "e5m2 -NaN" },
    { "ocp", SMMA_E2M1, -NAN, SMMA_RN, 1, 0x7, "FP4 NaN left open by the spec: +max as PTX" },
    { "ocp", SMMA_E8M0, -2.0, SMMA_RZ, 1, 0xff, "negative scale -> NaN" },
    { "ocp", SMMA_E8M0, INFINITY, SMMA_RZ, 1, 0xff, "Inf scale -> NaN" },
    { "ocp", SMMA_E4M3, 500.0, SMMA_RN, DEF, 0x7e, "saturating by default" },
    /* ml_dtypes */
    { "ml_dtypes", SMMA_E2M1, NAN, SMMA_RN, DEF, 0x8, "+NaN -> -0" },
    { "ml_dtypes", SMMA_E2M1, -NAN, SMMA_RN, DEF, 0x0, "-NaN -> +0" },
    { "ml_dtypes", SMMA_E2M3, NAN, SMMA_RN, DEF, 0x20, "+NaN -> -0 (e2m3)" },
    { "ml_dtypes", SMMA_E3M2, -NAN, SMMA_RN, DEF, 0x00, "-NaN -> +0 (e3m2)" },
    { "ml_dtypes", SMMA_E2M1, INFINITY, SMMA_RN, DEF, 0x7, "Inf -> max" },
    { "ml_dtypes", SMMA_E2M1, 7.0, SMMA_RN, DEF, 0x7, "overflow saturates (no Inf)" },
    { "ml_dtypes", SMMA_E4M3, INFINITY, SMMA_RN, DEF, 0x7f, "Inf -> NaN" },
    { "ml_dtypes", SMMA_E4M3, -INFINITY, SMMA_RN, DEF, 0xff, "-Inf -> -NaN" },
    { "ml_dtypes", SMMA_E4M3, INFINITY, SMMA_RN, 1, 0x7f, "Inf -> NaN even saturating" },
    { "ml_dtypes", SMMA_E4M3, -NAN, SMMA_RN, DEF, 0xff, "-NaN keeps its sign" },
    { "ml_dtypes", SMMA_E4M3, 465.0, SMMA_RN, DEF, 0x7f, "non-saturating: 465 -> NaN" },
    { "ml_dtypes", SMMA_E5M2, 61440.0, SMMA_RN, DEF, 0x7c, "61440 -> Inf" },
    { "ml_dtypes", SMMA_E5M2, 61439.0, SMMA_RN, DEF, 0x7b, "61439 -> max" },
    { "ml_dtypes", SMMA_E5M2, -NAN, SMMA_RN, DEF, 0xfe, "e5m2 -NaN -> 0xfe" },
    { "ml_dtypes", SMMA_E8M0, 0.0, SMMA_RA, DEF, 0xff, "e8m0 zero -> NaN" },
    { "ml_dtypes", SMMA_E8M0, -4.0, SMMA_RA, DEF, 0xff, "e8m0 negative -> NaN" },
    { "ml_dtypes", SMMA_E8M0, INFINITY, SMMA_RA, DEF, 0xff, "e8m0 Inf -> NaN" },
    { "ml_dtypes", SMMA_E8M0, 1.5, SMMA_RA, DEF, 0x80, "e8m0 1.5 -> 2 (ties up)" },
    { "ml_dtypes", SMMA_E8M0, 3.0, SMMA_RA, DEF, 0x81, "e8m0 3 -> 4 (ties up)" },
    { "ml_dtypes", SMMA_E8M0, 6.0, SMMA_RA, DEF, 0x82, "e8m0 6 -> 8" },
    { "ml_dtypes", SMMA_E8M0, 0x1p-128, SMMA_RA, DEF, 0x00, "e8m0 2^-128 -> 2^-127" },
    { "ml_dtypes", SMMA_E8M0, 0x1.8p-127, SMMA_RA, DEF, 0x01, "e8m0 1.5*2^-127 -> 2^-126" },
    { "ml_dtypes", SMMA_E8M0, 0x1.8p127, SMMA_RA, DEF, 0xff, "e8m0 overflow -> NaN" },
    { "ml_dtypes", SMMA_E4M3, -0x1p-30, SMMA_RN, DEF, 0x80, "-tiny -> -0" },
    /* ml_dtypes e8m0 rn (its own cast): ties to the even significand, hidden
     * bit included, so up from 2^-126 on; below, a grid of step 2^-126 with
     * 0x00 as its zero.  fp32 bits in the comments. */
    { "ml_dtypes", SMMA_E8M0, 0x1.8p0, SMMA_RN, DEF, 0x80, "e8m0 rn 1.5 -> 2 (tie up)" },
    { "ml_dtypes", SMMA_E8M0, 0x1.8p1, SMMA_RN, DEF, 0x81, "e8m0 rn 3 -> 4 (tie up)" },
    { "ml_dtypes", SMMA_E8M0, 0x1.7fffffp1, SMMA_RN, DEF, 0x80, "e8m0 rn just below 3 -> 2" },
    { "ml_dtypes", SMMA_E8M0, 0x1p-126, SMMA_RN, DEF, 0x01, "e8m0 rn 2^-126 (00800000)" },
    { "ml_dtypes", SMMA_E8M0, 0x1.fffffcp-127, SMMA_RN, DEF, 0x01, "e8m0 rn 007fffff -> 0x01" },
    { "ml_dtypes", SMMA_E8M0, 0x1.8p-127, SMMA_RN, DEF, 0x01, "e8m0 rn 00600000 -> 0x01" },
    { "ml_dtypes", SMMA_E8M0, 0x1.7ffffcp-127, SMMA_RN, DEF, 0x01, "e8m0 rn 005fffff -> 0x01" },
    { "ml_dtypes", SMMA_E8M0, 0x1.00010p-127, SMMA_RN, DEF, 0x01, "e8m0 rn 00400040 -> 0x01" },
    { "ml_dtypes", SMMA_E8M0, 0x1.000004p-127, SMMA_RN, DEF, 0x01, "e8m0 rn 00400001 -> 0x01" },
    { "ml_dtypes", SMMA_E8M0, 0x1.0000000000001p-127, SMMA_RN, DEF, 0x01,
      "e8m0 rn 2^-127 + double ulp -> 0x01" },
    { "ml_dtypes", SMMA_E8M0, 0x1p-127, SMMA_RN, DEF, 0x00, "e8m0 rn 2^-127 (tie) -> 0x00" },
    { "ml_dtypes", SMMA_E8M0, 0x1.fffff8p-128, SMMA_RN, DEF, 0x00, "e8m0 rn 003fffff -> 0x00" },
    { "ml_dtypes", SMMA_E8M0, 0x1p-149, SMMA_RN, DEF, 0x00, "e8m0 rn 2^-149 -> 0x00" },
    { "ml_dtypes", SMMA_E8M0, -0x1.00010p-127, SMMA_RN, DEF, 0xff, "e8m0 rn 80400040 -> NaN" },
    { "ml_dtypes", SMMA_E8M0, -0x1p-127, SMMA_RN, DEF, 0xff, "e8m0 rn -2^-127 -> NaN" },
    { "ml_dtypes", SMMA_E8M0, -0.0, SMMA_RN, DEF, 0xff, "e8m0 rn -0 -> NaN" },
    { "ml_dtypes", SMMA_E8M0, 0x1.7fffffp127, SMMA_RN, DEF, 0xfe, "e8m0 rn below 1.5*2^127" },
    { "ml_dtypes", SMMA_E8M0, 0x1.8p127, SMMA_RN, DEF, 0xff, "e8m0 rn 1.5*2^127 -> NaN" },
    { "ml_dtypes", SMMA_E8M0, 0x1.8p127, SMMA_RN, 1, 0xfe, "e8m0 rn 1.5*2^127 sat -> max" },
    { "ml_dtypes", SMMA_E8M0, 0x1p128, SMMA_RN, DEF, 0xff, "e8m0 rn 2^128 -> NaN" },
    { "ml_dtypes", SMMA_E8M0, 0x1.8p128, SMMA_RN, DEF, 0x00, "e8m0 rn 1.5*2^128 wraps to 0" },
    { "ml_dtypes", SMMA_E8M0, 0x1.fffffp128, SMMA_RN, DEF, 0x00, "e8m0 rn 2^129-: wraps" },
    { "ml_dtypes", SMMA_E8M0, 0x1p129, SMMA_RN, DEF, 0xff, "e8m0 rn 2^129 -> NaN" },
    /* The other profiles' rn: a tie goes to the even code; nothing below 0x00. */
    { "cuda", SMMA_E8M0, 0x1.00010p-127, SMMA_RN, 1, 0x00, "e8m0 rn 00400040 -> 0x00" },
    { "cuda", SMMA_E8M0, 0x1.8p-127, SMMA_RN, 1, 0x00, "e8m0 rn 1.5*2^-127 -> even 0x00" },
    { "cuda", SMMA_E8M0, 0x1.8p1, SMMA_RN, 1, 0x80, "e8m0 rn 3 -> even 0x80" },
    /* cutlass-host */
    { "cutlass-host", SMMA_E2M1, NAN, SMMA_RN, 1, 0x7, "+NaN -> +max" },
    { "cutlass-host", SMMA_E2M1, -NAN, SMMA_RN, 1, 0xf, "-NaN -> -max" },
    { "cutlass-host", SMMA_E2M3, -NAN, SMMA_RN, 1, 0x3f, "-NaN -> -max (e2m3)" },
    { "cutlass-host", SMMA_E3M2, NAN, SMMA_RN, 1, 0x1f, "+NaN -> +max (e3m2)" },
    { "cutlass-host", SMMA_E4M3, -NAN, SMMA_RN, 1, 0x7f, "NaN -> 0x7f, sign dropped" },
    { "cutlass-host", SMMA_E5M2, -NAN, SMMA_RN, 1, 0x7f, "e5m2 NaN -> 0x7f" },
    { "cutlass-host", SMMA_E4M3, -INFINITY, SMMA_RN, 1, 0xfe, "-Inf -> -max" },
    { "cutlass-host", SMMA_E5M2, INFINITY, SMMA_RN, 1, 0x7b, "e5m2 Inf -> max" },
    { "cutlass-host", SMMA_E8M0, INFINITY, SMMA_RP, 1, 0xff, "e8m0 Inf -> 0xff" },
    { "cutlass-host", SMMA_E8M0, -1.0, SMMA_RP, 1, 0x7f, "e8m0 negative -> magnitude" },
    { "cutlass-host", SMMA_E8M0, 6.0, SMMA_RP, 1, 0x82, "e8m0 rp 6 -> 8" },
    { "cutlass-host", SMMA_E8M0, 0x1.fffffep127, SMMA_RP, 1, 0xfe, "e8m0 FLT_MAX -> 0xfe" },
    { "cutlass-host", SMMA_UE4M3, -1.0, SMMA_RN, 1, 0x38, "ue4m3 negative -> magnitude" },
    { "cutlass-host", SMMA_UE4M3, INFINITY, SMMA_RN, 1, 0x7e, "ue4m3 Inf -> 448" },
    { "cutlass-host", SMMA_UE4M3, NAN, SMMA_RN, 1, 0x7f, "ue4m3 NaN -> 0x7f" },
};

int
main(void)
{
    size_t i;
    smma_error err;
    const smma_profile *p;

    plan_lazy();
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct pcase *c = &cases[i];
        smma_cvt cvt;

        if (smma_profile_from_name(c->profile, &p, &err) != SMMA_OK)
            bail("%s", err.msg);
        cvt = smma_profile_cvt(p);
        cvt.round = c->round;
        if (c->sat != DEF)
            cvt.sat = c->sat != 0;
        is_hex(c->want, smma_encode(c->f, c->x, &cvt), "%s %s %a %s%s: %s", c->profile,
               smma_format_name(c->f), c->x, smma_round_name(c->round),
               c->sat == DEF ? "" : c->sat ? " sat" : " nosat", c->why);
    }

    /* ml_dtypes rounds e8m0 scales with its own rn. */
    if (smma_profile_from_name("ml_dtypes", &p, &err) != SMMA_OK)
        bail("%s", err.msg);
    {
        smma_cvt cvt = smma_profile_cvt_for(p, SMMA_E8M0);

        ok(cvt.round == SMMA_RN && p->e8m0_rn == SMMA_E8RN_ML_DTYPES,
           "ml_dtypes: e8m0 rounding rn, with ml_dtypes' meaning of rn");
        is_hex(0x01, smma_encode_f32bits(SMMA_E8M0, 0x00400040u, &cvt),
               "ml_dtypes: the profile's e8m0 conversion of fp32 0x00400040 is 0x01");
    }

    /* Profile lookup and defaults. */
    ok(smma_profile_count() >= 4, "at least four profiles");
    ok(smma_profile_from_name("CUDA", &p, NULL) == SMMA_OK && p == smma_profile_cuda(),
       "profile names are case-insensitive");
    err.msg[0] = '\0';
    ok(smma_profile_from_name("cublas-ish", &p, &err) == SMMA_EINVAL &&
           strstr(err.msg, "'cublas-ish'") != NULL && strstr(err.msg, "ml_dtypes") != NULL,
       "unknown profile: error names it and lists the known ones (%s)", err.msg);
    ok(smma_profile_at(smma_profile_count()) == NULL, "no profile past the end");
    {
        smma_cvt d = smma_cvt_default();

        ok(d.round == SMMA_RN && d.sat && d.profile == smma_profile_cuda(),
           "default conversion: cuda, rn, satfinite");
        ok(smma_encode(SMMA_E4M3, 1000.0, NULL) == 0x7e, "NULL conversion means the default");
    }
    for (i = 0; i < smma_profile_count(); i++) {
        const smma_profile *q = smma_profile_at(i);

        ok(q->name != NULL && q->summary != NULL && strlen(q->summary) < 100,
           "profile %zu (%s) has a name and a one-line summary", i, q->name);
    }
    return exit_status();
}
